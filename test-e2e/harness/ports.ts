import net from 'node:net';

// Ports for the children are chosen here and bound later by another process. A port from the
// kernel's ephemeral range (listen(0); 32768–60999 on Linux) can be taken in between by any
// outgoing connection (a Kafka or PostgreSQL client of an earlier child), so they come from
// below that range instead, checked free by listening on them.
const FIRST_PORT = 20_000;
const PORTS = 12_000; // 20000–31999
const ATTEMPTS = 200;

function tryListen(port: number): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** Several distinct TCP ports free right now on 127.0.0.1, outside the ephemeral range. */
export async function freePorts(count: number): Promise<number[]> {
  const held: net.Server[] = [];
  try {
    for (let attempt = 0; held.length < count && attempt < ATTEMPTS; attempt++) {
      const server = await tryListen(FIRST_PORT + Math.floor(Math.random() * PORTS));
      if (server) held.push(server);
    }
    if (held.length < count) throw new Error(`no ${count} free ports below the ephemeral range`);
    return held.map((server) => (server.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(held.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

/** A TCP port free right now on 127.0.0.1, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}
