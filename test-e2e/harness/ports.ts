import net from 'node:net';

// Ports for the children are chosen here and bound later by another process. A port from the
// kernel's ephemeral range (listen(0); 32768–60999 on Linux) can be taken in between by any
// outgoing connection (a Kafka or PostgreSQL client of an earlier child), so they come from
// below that range instead, checked free by listening on them.
const FIRST_PORT = 20_000;
const PORTS = 12_000; // 20000–31999
const ATTEMPTS = 200;

function tryListen(port: number, host: string): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => resolve(server));
  });
}

const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** The port held on every one of `hosts`, or undefined (and nothing held) when one refuses it. */
async function tryListenAll(port: number, hosts: readonly string[]): Promise<net.Server[] | undefined> {
  const servers: net.Server[] = [];
  for (const host of hosts) {
    const server = await tryListen(port, host);
    if (!server) {
      await Promise.all(servers.map(close));
      return undefined;
    }
    servers.push(server);
  }
  return servers;
}

/**
 * Several distinct TCP ports free right now on each of `hosts` (loopback addresses; replicas of a
 * component share a port on addresses of their own, docs/testing.md "Replicas"), outside the
 * ephemeral range.
 */
export async function freePorts(count: number, hosts: readonly string[] = ['127.0.0.1']): Promise<number[]> {
  const held: net.Server[][] = [];
  try {
    for (let attempt = 0; held.length < count && attempt < ATTEMPTS; attempt++) {
      // A port already held fails to listen again, so the ports are distinct.
      const servers = await tryListenAll(FIRST_PORT + Math.floor(Math.random() * PORTS), hosts);
      if (servers) held.push(servers);
    }
    if (held.length < count) throw new Error(`no ${count} free ports below the ephemeral range`);
    return held.map((servers) => port(servers[0]!));
  } finally {
    await Promise.all(held.flat().map(close));
  }
}

function port(server: net.Server): number {
  return (server.address() as net.AddressInfo).port;
}

/** A TCP port free right now on each of `hosts` (default 127.0.0.1), outside the ephemeral range. */
export async function freePort(hosts?: readonly string[]): Promise<number> {
  const [port] = await freePorts(1, hosts);
  return port!;
}
