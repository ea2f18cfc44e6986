import net from 'node:net';

/** A port free on `host` right now (the OS picks it); another process may take it before use. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [port] = await freePorts(1, host);
  return port as number;
}

/** `count` ports free on `host` right now, distinct: each is held until all are picked. */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const held: Array<{ port: number; release(): Promise<void> }> = [];
  try {
    for (let i = 0; i < count; i++) held.push(await reservePort(host));
    return held.map((reserved) => reserved.port);
  } finally {
    await Promise.all(held.map((reserved) => reserved.release()));
  }
}

/**
 * A free port held by a listening socket until `release()`: while held, neither another process
 * nor an outbound connection's ephemeral port can take it. For a port picked long before it is
 * bound (the gateway's, picked before the databases start, seconds earlier).
 */
export function reservePort(host = '127.0.0.1'): Promise<{ port: number; release(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      if (!port) return reject(new Error('could not pick a free port'));
      resolve({ port, release: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
