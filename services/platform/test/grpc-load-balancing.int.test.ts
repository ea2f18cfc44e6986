// docs/architecture.md "Internal load balancing", end to end on loopback: replicas of a real service
// on one port of 127.0.0.2-5, a name whose A records list them (served by our own DNS responder, as
// a headless Service's are by the cluster DNS), one createGrpcClient over it with round_robin, and
// servers that close connections after a (short, here) max connection age.
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { Code } from '@qr-payout/platform/errors';
import { silentLogger } from '@qr-payout/platform/log';
import { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { type DnsResponder, startDnsResponder } from '@qr-payout/test-kit/dns-responder';

// grpc-js reads this once, when it loads: only its c-ares resolver asks the DNS server a
// `dns://<server>/name:port` target names (its default, getaddrinfo, asks the system's). Jest gives
// this file its own module registry and process.env, so grpc-js is loaded below, after this line.
process.env.GRPC_NODE_USE_ALTERNATIVE_RESOLVER = 'true';
type PlatformGrpc = typeof import('@qr-payout/platform/grpc');

const NAME = 'decoder.replicas.test';
// Short so that the test sees in seconds what production sees in about half a minute.
const MAX_CONNECTION_AGE_MS = 2_000;
const DNS_MIN_RESOLUTION_INTERVAL_MS = 500;
const CONCURRENCY = 16;

type Replica = {
  readonly host: string;
  calls: number;
  readonly server: ReturnType<PlatformGrpc['createGrpcServer']>;
};

let platform: PlatformGrpc;
let dns: DnsResponder;
let port = 0;
const replicas: Replica[] = [];

async function startReplica(host: string): Promise<Replica> {
  const server = platform.createGrpcServer({
    serviceName: 'decoder',
    logger: silentLogger(),
    maxConnectionAgeMs: MAX_CONNECTION_AGE_MS,
    maxConnectionAgeGraceMs: 5_000,
    register: (router) =>
      router.service(DecoderService, {
        // A little work, so that calls are in flight when connections age and replicas stop.
        listSchemes: async () => {
          replica.calls += 1;
          await sleep(1);
          return { schemes: [] };
        },
      }),
  });
  const replica: Replica = { host, calls: 0, server };
  port = await server.listen(port, host);
  replicas.push(replica);
  return replica;
}

type Load = { calls: number; failures: string[] };

/** CONCURRENCY callers, each calling ListSchemes in a loop until `done` says stop. */
async function drive(client: ReturnType<typeof createClient>, done: (load: Load) => boolean): Promise<Load> {
  const load: Load = { calls: 0, failures: [] };
  const caller = async () => {
    while (!done(load)) {
      load.calls += 1;
      try {
        await client.listSchemes({});
      } catch (err) {
        load.failures.push(String((err as Error).message));
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, caller));
  return load;
}

function createClient() {
  return platform.createGrpcClient(DecoderService, {
    baseUrl: `dns://${dns.address}/${NAME}:${port}`,
    timeoutMs: 5_000,
    loadBalancing: 'round_robin',
    dnsMinResolutionIntervalMs: DNS_MIN_RESOLUTION_INTERVAL_MS,
  });
}

function snapshot(): Map<string, number> {
  return new Map(replicas.map((r) => [r.host, r.calls]));
}

function since(before: Map<string, number>): Record<string, number> {
  return Object.fromEntries(replicas.map((r) => [r.host, r.calls - (before.get(r.host) ?? 0)]));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  platform = await import('@qr-payout/platform/grpc');
  for (const host of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) await startReplica(host);
  dns = await startDnsResponder({ name: NAME, addresses: replicas.map((r) => r.host), ttlSeconds: 1 });
});

afterAll(async () => {
  await platform?.closeGrpcClients();
  await Promise.all(replicas.map((r) => r.server.close({ graceMs: 1_000 })));
  await dns?.close();
});

test('round_robin spreads calls over every replica, picks up a new one, leaves a stopped one', async () => {
  const client = createClient();

  // 1. Three replicas, 3,000 calls: each gets between 20% and 50%.
  const load1 = await drive(client, (load) => load.calls >= 3_000);
  const spread = since(new Map());
  console.log('3 replicas, 3000 calls:', spread, 'failures:', load1.failures.length);
  expect(load1.failures).toEqual([]);
  for (const count of Object.values(spread)) {
    expect(count).toBeGreaterThanOrEqual(600);
    expect(count).toBeLessThanOrEqual(1_500);
  }

  // 2. A fourth replica starts, then joins the name's answers (a pod turning ready): it gets calls
  // within 10 s, once a connection reaches its age and the client re-resolves.
  const fourth = await startReplica('127.0.0.5');
  dns.setAddresses(replicas.map((r) => r.host));
  const added = Date.now();
  const load2 = await drive(client, () => fourth.calls > 0 || Date.now() - added > 10_000);
  const firstCallMs = Date.now() - added;
  const before3 = snapshot();
  const load3 = await drive(client, (load) => load.calls >= 4_000);
  const spread4 = since(before3);
  console.log(
    `4th replica's first call after ${firstCallMs} ms (${load2.calls} calls meanwhile); next 4000 calls:`,
    spread4,
    'failures:',
    load2.failures.length + load3.failures.length,
  );
  expect(fourth.calls).toBeGreaterThan(0);
  expect(firstCallMs).toBeLessThan(10_000);
  expect([...load2.failures, ...load3.failures]).toEqual([]);
  for (const count of Object.values(spread4)) expect(count).toBeGreaterThanOrEqual(400);

  // 3. One replica stops gracefully (GOAWAY, drain) while calls run. Its address stays in the
  // answers for 3 s (a terminating pod's endpoint not yet removed everywhere), then goes.
  const stopped = replicas[1]!;
  const before4 = snapshot();
  const queriesBefore = dns.queries();
  const stopStart = Date.now();
  let phase = 'stopping';
  const stopping = (async () => {
    await stopped.server.close({ graceMs: 5_000 });
    const closedAt = Date.now();
    await sleep(3_000);
    dns.setAddresses(replicas.filter((r) => r !== stopped).map((r) => r.host));
    await sleep(2_000);
    phase = 'done';
    return closedAt - stopStart;
  })();
  const load4 = await drive(client, () => phase === 'done');
  const closeMs = await stopping;
  const callsAtClose = stopped.calls;
  const load5 = await drive(client, (load) => load.calls >= 2_000);
  const spread5 = since(before4);
  const resolutions = dns.queries() - queriesBefore;
  const elapsedMs = Date.now() - stopStart;
  console.log(
    `${stopped.host} stopped gracefully (close took ${closeMs} ms); ${load4.calls + load5.calls} calls during and after:`,
    spread5,
    'failures:',
    load4.failures.length + load5.failures.length,
    load4.failures.slice(0, 3),
    `${resolutions} resolutions in ${elapsedMs} ms`,
  );
  expect([...load4.failures, ...load5.failures]).toEqual([]);
  expect(stopped.calls).toBe(callsAtClose);
  // The channel stayed the same (a dead address among live ones is no TRANSIENT_FAILURE, which
  // would replace it): it resolved at most once per interval, not once per call.
  expect(resolutions).toBeLessThanOrEqual(Math.ceil(elapsedMs / DNS_MIN_RESOLUTION_INTERVAL_MS) + 2);
  for (const r of replicas.filter((r) => r !== stopped)) {
    expect(r.calls - (before4.get(r.host) ?? 0)).toBeGreaterThan(0);
  }
}, 60_000);

// docs/architecture.md "Replicas that say NOT_SERVING": the client watches each replica's
// grpc.health.v1 status on its connection and leaves a NOT_SERVING one out of the rotation (as a
// replica that lost its database reports itself), unless every connected replica says so.
test('a replica that says NOT_SERVING gets no calls while others serve, and calls again once SERVING', async () => {
  const client = createClient();
  const live = [replicas[0]!, replicas[2]!, replicas[3]!];
  const [sick, ...others] = live;
  await drive(client, (load) => load.calls >= 200);

  sick!.server.health.setStatus('', 'NOT_SERVING');
  await sleep(300);
  const before1 = snapshot();
  const load1 = await drive(client, (load) => load.calls >= 1_000);
  const spread1 = since(before1);
  console.log(`${sick!.host} NOT_SERVING; 1000 calls:`, spread1, 'failures:', load1.failures.length);
  expect(load1.failures).toEqual([]);
  expect(spread1[sick!.host]).toBe(0);
  for (const r of others) expect(spread1[r.host]).toBeGreaterThan(0);

  sick!.server.health.setStatus('', 'SERVING');
  await sleep(300);
  const before2 = snapshot();
  const load2 = await drive(client, (load) => load.calls >= 1_000);
  const spread2 = since(before2);
  console.log(`${sick!.host} SERVING again; 1000 calls:`, spread2);
  expect(load2.failures).toEqual([]);
  expect(spread2[sick!.host]).toBeGreaterThan(0);

  // Every replica NOT_SERVING: none is left out (each still answers what it can).
  for (const r of live) r.server.health.setStatus('', 'NOT_SERVING');
  await sleep(300);
  const before3 = snapshot();
  const load3 = await drive(client, (load) => load.calls >= 600);
  const spread3 = since(before3);
  for (const r of live) r.server.health.setStatus('', 'SERVING');
  console.log('every replica NOT_SERVING; 600 calls:', spread3);
  expect(load3.failures).toEqual([]);
  for (const r of live) expect(spread3[r.host]).toBeGreaterThan(0);
}, 30_000);

// A server that refuses the first `refusals` streams (RST_STREAM REFUSED_STREAM, as a connection
// past its max age does with streams that crossed its GOAWAY), then answers ListSchemes.
async function startRefusingServer(refusals: number) {
  const server = http2.createServer();
  let streams = 0;
  server.on('stream', (stream, headers) => {
    // The client's health watch (health-checked-round-robin.ts): no health service here.
    if (headers[':path'] !== '/payout.decoder.v1.DecoderService/ListSchemes') {
      stream.respond(
        { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' },
        { endStream: true },
      );
      return;
    }
    streams += 1;
    if (streams <= refusals) {
      stream.on('error', () => undefined); // the reset, reported on our side too
      stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
      return;
    }
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    // An empty ListSchemesResponse: uncompressed, length 0.
    stream.end(Buffer.alloc(5));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    streams: () => streams,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('a call whose stream is refused twice (grpc-js retries once) is sent again', async () => {
  const server = await startRefusingServer(3);
  try {
    const client = platform.createGrpcClient(DecoderService, { baseUrl: server.url, timeoutMs: 5_000 });
    await expect(client.listSchemes({})).resolves.toBeDefined();
    expect(server.streams()).toBe(4);
  } finally {
    await platform.closeGrpcClients();
    await server.close();
  }
});

test('a call refused every time fails Unavailable after three attempts', async () => {
  const server = await startRefusingServer(Number.POSITIVE_INFINITY);
  try {
    const client = platform.createGrpcClient(DecoderService, { baseUrl: server.url, timeoutMs: 5_000 });
    await expect(client.listSchemes({})).rejects.toMatchObject({ code: Code.Unavailable });
    expect(server.streams()).toBe(6);
  } finally {
    await platform.closeGrpcClients();
    await server.close();
  }
});
