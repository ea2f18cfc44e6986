// The link faults of test-e2e/faults/link-faults.ts and the silent receiver of
// test-e2e/faults/silent-receiver.ts, against the real PostgreSQL and Redis of the test run
// (docs/testing.md "Link faults and the fault proxy"). Each fault is shown on one proxied link
// while the run's other clients keep their direct one: latency delays the answer, a cut refuses
// new connections and ends held ones, a half-open link hangs a query until the client's own
// timeout, a reset ends a connection at its next use, a re-pointed proxy reaches the new upstream
// behind the same address, and a receiver that never answers is left at the sender's deadline.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { testInfra } from '@qr-payout/test-kit/infra';
import Redis from 'ioredis';
import pg from 'pg';
import { type LinkFaults, type LinkProxy, startLinkFaults, viaProxy } from './faults/link-faults';
import { type SilentReceiver, startSilentReceiver } from './faults/silent-receiver';
import { freePort } from './harness/ports';

jest.setTimeout(30_000);

let links: LinkFaults;
let pgLink: LinkProxy;
let redisLink: LinkProxy;
const clients: pg.Client[] = [];
const redises: Redis[] = [];

/** A connected pg client through `link` (or directly); its errors are expected here. */
async function pgClient(link: LinkProxy | undefined, config: pg.ClientConfig = {}): Promise<pg.Client> {
  const url = link ? viaProxy(testInfra.databaseUrl, link) : testInfra.databaseUrl;
  const client = new pg.Client({ connectionString: url, ...config });
  client.on('error', () => undefined);
  clients.push(client);
  await client.connect();
  return client;
}

/** How long `work` took, and what it rejected with (undefined when it resolved). */
async function timed(
  work: () => Promise<unknown>,
): Promise<{ ms: number; error?: Error & { code?: string } }> {
  const started = performance.now();
  try {
    await work();
    return { ms: performance.now() - started };
  } catch (error) {
    return { ms: performance.now() - started, error: error as Error & { code?: string } };
  }
}

/** Connects a raw TCP socket: 'connected', or the error code (ECONNREFUSED). */
function tcpConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

/**
 * SIGSTOP, then waits until the kernel reports the process stopped (state T in /proc/<pid>/stat):
 * on a loaded machine the stop was seen to take effect only after requests sent later were served.
 */
async function stopProcess(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP');
  const deadline = Date.now() + 5_000;
  while (!/^\d+ \(.*\) T/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) {
    if (Date.now() > deadline) throw new Error(`process ${pid} did not stop within 5 s of SIGSTOP`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** client.end(), given up after 2 s (a client whose connect failed may never settle it). */
async function endWithin(client: pg.Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.end().catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, 2_000);
    }),
  ]);
  clearTimeout(timer);
}

beforeAll(async () => {
  // Builds toxiproxy into the tools cache first when it is missing (about 45 s once).
  links = await startLinkFaults();
  pgLink = await links.proxy('test→postgres', testInfra.databaseUrl);
  redisLink = await links.proxy('test→redis', testInfra.redisUrl);
}, 300_000);

afterEach(async () => {
  // A healthy link for the next test; then the clients, whose held connections are now closed.
  if (links) for (const link of [pgLink, redisLink]) if (link) await links.restore(link);
  await Promise.all(clients.splice(0).map(endWithin));
  for (const redis of redises.splice(0)) redis.disconnect();
});

afterAll(async () => {
  await links?.stop();
});

describe('a proxied link to the real PostgreSQL and Redis', () => {
  test('latency adds its delay to each answer; clearToxics takes it away', async () => {
    const client = await pgClient(pgLink);
    const baseline = await timed(() => client.query('SELECT 1'));
    expect(baseline.error).toBeUndefined();

    await links.latency(pgLink, 400);
    const slow = await timed(() => client.query('SELECT 1'));
    expect(slow.error).toBeUndefined();
    expect(slow.ms).toBeGreaterThanOrEqual(390);
    expect(slow.ms).toBeLessThan(baseline.ms + 1_500);

    const redis = new Redis(viaProxy(testInfra.redisUrl, redisLink), { maxRetriesPerRequest: 1 });
    redises.push(redis);
    expect(await redis.ping()).toBe('PONG');
    await links.latency(redisLink, 600);
    const slowPing = await timed(() => redis.ping());
    expect(slowPing.error).toBeUndefined();
    expect(slowPing.ms).toBeGreaterThanOrEqual(590);

    await links.clearToxics(pgLink);
    await links.clearToxics(redisLink);
    const again = await timed(() => client.query('SELECT 1'));
    expect(again.ms).toBeLessThan(300);
    const fastPing = await timed(() => redis.ping());
    expect(fastPing.ms).toBeLessThan(300);
  });

  test('cut refuses new connections and ends held ones at once; restore brings the link back', async () => {
    const held = await pgClient(pgLink);
    await held.query('SELECT 1');
    const direct = await pgClient(undefined);

    await links.cut(pgLink);
    const onHeld = await timed(() => held.query('SELECT 1'));
    expect(onHeld.error?.message).toMatch(/terminated|not queryable|ECONNRESET|EPIPE/i);
    expect(onHeld.ms).toBeLessThan(1_000);
    expect(await tcpConnect(pgLink.port)).toBe('ECONNREFUSED');
    const fresh = await timed(() => pgClient(pgLink));
    expect(fresh.error?.code).toBe('ECONNREFUSED');
    expect(fresh.ms).toBeLessThan(1_000);
    // Only that link: the direct one is untouched.
    await expect(direct.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });

    await links.restore(pgLink);
    const back = await pgClient(pgLink);
    await expect(back.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  test("half-open hangs a query until the client's own query_timeout; statement_timeout never fires", async () => {
    // statement_timeout is the server's: the server never sees the query, so only the client's
    // query_timeout (pg's read timeout) and connectionTimeoutMillis end the wait.
    const client = await pgClient(pgLink, { query_timeout: 1_500, statement_timeout: 300 });
    await client.query('SELECT 1');

    await links.halfOpen(pgLink);
    const hung = await timed(() => client.query('SELECT 1'));
    expect(hung.error?.message).toMatch(/Query read timeout/);
    expect(hung.ms).toBeGreaterThanOrEqual(1_450);
    expect(hung.ms).toBeLessThan(3_000);

    // A new connection is accepted (TCP), but its startup is never answered.
    expect(await tcpConnect(pgLink.port)).toBe('connected');
    const connecting = await timed(() => pgClient(pgLink, { connectionTimeoutMillis: 800 }));
    expect(connecting.error?.message).toMatch(/timeout/i);
    expect(connecting.ms).toBeGreaterThanOrEqual(750);

    // Redis the same: ioredis's commandTimeout is the only way out.
    const redis = new Redis(viaProxy(testInfra.redisUrl, redisLink), {
      commandTimeout: 700,
      maxRetriesPerRequest: 1,
      retryStrategy: () => 100,
    });
    redises.push(redis);
    expect(await redis.ping()).toBe('PONG');
    await links.halfOpen(redisLink);
    const hungPing = await timed(() => redis.ping());
    expect(hungPing.error?.message).toMatch(/Command timed out/);
    expect(hungPing.ms).toBeGreaterThanOrEqual(680);

    // Cleared, the held connections are closed; ioredis reconnects by itself, pg gets a new one.
    await links.clearToxics(redisLink);
    await links.clearToxics(pgLink);
    const deadline = Date.now() + 5_000;
    let pong = '';
    while (pong !== 'PONG' && Date.now() < deadline) pong = await redis.ping().catch(() => '');
    expect(pong).toBe('PONG');
    const back = await pgClient(pgLink);
    await expect(back.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  test('resetPeers resets a held connection at its next use', async () => {
    const client = await pgClient(pgLink);
    await client.query('SELECT 1');

    await links.resetPeers(pgLink);
    const reset = await timed(() => client.query('SELECT 1'));
    expect(reset.error?.message).toMatch(/ECONNRESET|terminated/);
    expect(reset.ms).toBeLessThan(1_000);
    const fresh = await timed(() => pgClient(pgLink));
    expect(fresh.error?.message).toMatch(/ECONNRESET|terminated/);

    await links.clearToxics(pgLink);
    const back = await pgClient(pgLink);
    await expect(back.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  test('repoint moves the same listen address to another upstream, closing held connections', async () => {
    const nowhere = await freePort(); // nothing listens there
    const link = await links.proxy('switch→postgres', `127.0.0.1:${nowhere}`);
    try {
      const before = await timed(() => pgClient(link, { connectionTimeoutMillis: 2_000 }));
      expect(before.error?.message).toMatch(/terminated|ECONNRESET/);

      await links.repoint(link, testInfra.databaseUrl);
      const client = await pgClient(link);
      await expect(client.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
      expect((await links.state(link)).upstream).toBe(pgLink.upstream);

      // Away again (a switchover to a primary that is not up yet): the held connection ends.
      await links.repoint(link, `127.0.0.1:${nowhere}`);
      const held = await timed(() => client.query('SELECT 1'));
      expect(held.error).toBeDefined();
      expect(held.ms).toBeLessThan(1_000);
    } finally {
      await links.remove(link);
    }
  });

  test("a link server whose control API froze is replaced in the link's intended state, other links untouched", async () => {
    // Toxiproxy's API can freeze for good while removing a latency toxic (Shopify/toxiproxy#558);
    // SIGSTOP freezes it here on purpose. Nothing of the frozen process may be waited for.
    const link = await links.proxy('freeze→redis', testInfra.redisUrl);
    const other = await pgClient(pgLink);
    const redis = new Redis(viaProxy(testInfra.redisUrl, link), { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    try {
      expect(await redis.ping()).toBe('PONG');
      await links.latency(link, 500);
      const frozen = links.serverPid(link);
      await stopProcess(frozen);

      const cleared = await timed(() => links.clearToxics(link));
      expect(cleared.error).toBeUndefined();
      expect(cleared.ms).toBeLessThan(8_000);
      expect(links.replacements.get(link.name)).toBe(1);
      expect(links.serverPid(link)).not.toBe(frozen);
      expect(() => process.kill(frozen, 0)).toThrow(); // gone, not left stopped
      expect(await links.state(link)).toMatchObject({ listen: link.address, enabled: true, toxics: [] });
      // The client's connection was closed with the old server; it reconnects to the new one.
      const ping = await timed(() => redis.ping());
      expect(ping.error).toBeUndefined();
      expect(ping.ms).toBeLessThan(400);
      // The other link's server and its held connection were not touched.
      await expect(other.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });

      // A cut asked of a frozen server: the replacement starts cut.
      await stopProcess(links.serverPid(link));
      await links.cut(link);
      expect(links.replacements.get(link.name)).toBe(2);
      expect(await tcpConnect(link.port)).toBe('ECONNREFUSED');
      await links.restore(link);
      expect(await tcpConnect(link.port)).toBe('connected');
    } finally {
      redis.disconnect(); // before its link goes, or it would be left reconnecting
      await links.remove(link);
    }
  });
});

describe('a webhook receiver that never answers', () => {
  let receiver: SilentReceiver;
  beforeEach(async () => {
    receiver = await startSilentReceiver();
  });
  afterEach(async () => {
    await receiver.stop();
  });

  test("a POST to it ends at the sender's AbortSignal deadline, not before", async () => {
    const post = await timed(() =>
      fetch(`${receiver.url}/hook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event_type: 'transaction.completed' }),
        signal: AbortSignal.timeout(800),
      }),
    );
    expect(post.error?.name).toBe('TimeoutError');
    expect(post.ms).toBeGreaterThanOrEqual(780);
    expect(post.ms).toBeLessThan(2_000);
    expect(receiver.connections).toBe(1);
    expect(receiver.requestLines).toEqual(['POST /hook HTTP/1.1']);
  });

  test('stop closes the connections it held', async () => {
    const socket = net.connect(receiver.port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write('POST /hook HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}');
    await receiver.waitForRequests(1);
    expect(receiver.open).toBe(1);
    await receiver.stop();
    await closed;
    expect(receiver.open).toBe(0);
  });
});
