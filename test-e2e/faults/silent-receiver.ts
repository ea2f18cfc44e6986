// A webhook receiver that accepts the TCP connection, reads the request and never answers
// (docs/testing.md "Link faults and the fault proxy"): the sender's only way out is its own
// deadline. A plain net.Server, not node:http, which would answer on its own (408 at
// requestTimeout, 400 on a parse error) and close idle keep-alive connections.
import net from 'node:net';
import { freePort } from '../harness/ports';

export interface SilentReceiver {
  /** `http://127.0.0.1:<port>`: a webhook URL or callback_url base that never answers. */
  readonly url: string;
  readonly port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Request heads seen so far (`POST /path HTTP/1.1` lines), in order. */
  readonly requestLines: string[];
  /** Connections open right now (held, unanswered). */
  readonly open: number;
  /** Resolves once `count` request heads have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Destroys every held connection (the sender sees its socket end) and closes the listener. */
  stop(): Promise<void>;
}

const REQUEST_LINE = /^([A-Z]+ \S+ HTTP\/1\.[01])\r\n/;

/** Starts a silent receiver on a free loopback port (test-e2e/harness/ports.ts). */
export async function startSilentReceiver(): Promise<SilentReceiver> {
  const sockets = new Set<net.Socket>();
  const requestLines: string[] = [];
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    // Nothing is ever written back. One request head per connection: a sender does not pipeline
    // a second request behind one that got no answer (undici, node:http and the webhook worker's
    // fetch do not pipeline at all).
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const match = REQUEST_LINE.exec(head);
      if (match) requestLines.push(match[1]!);
      if (match || head.length > 8_192) socket.off('data', onData).resume();
    };
    socket.on('data', onData);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });

  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const listened = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listened) break;
    if (attempt >= 5) throw new Error('silent receiver: no free port');
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return connections;
    },
    requestLines,
    get open() {
      return sockets.size;
    },
    async waitForRequests(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requestLines.length < count) {
        if (Date.now() > deadline)
          throw new Error(`silent receiver: ${requestLines.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      const closed = [...sockets].map(
        (socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()).destroy()),
      );
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), ...closed]);
    },
  };
}
