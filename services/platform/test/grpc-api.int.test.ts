import { setTimeout as delay } from 'node:timers/promises';
import type { HandlerContext } from '@connectrpc/connect';
import { Code } from '@qr-payout/platform/errors';
import { closeGrpcClients, createGrpcClient, createGrpcServer } from '@qr-payout/platform/grpc';
import { silentLogger } from '@qr-payout/platform/log';
import { Health, HealthCheckResponse_ServingStatus } from '@qr-payout/proto/grpc/health/v1/health_pb';
import { DecoderService, type ListSchemesRequest } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';

type GrpcServer = ReturnType<typeof createGrpcServer>;

// The connect-shaped API the services are written against, served by grpc-js: handler context,
// partial implementations, hooks, call options, and clients that outlive closeGrpcClients().

class SchemesOnly {
  constructor(private readonly servedBy: string) {}

  listSchemes(_req: ListSchemesRequest, ctx: HandlerContext) {
    seen.header = ctx.requestHeader.get('x-caller');
    seen.timeoutMs = ctx.timeoutMs();
    ctx.responseHeader.set('x-served-by', this.servedBy);
    ctx.responseTrailer.set('x-row-count', '0');
    return { schemes: [] };
  }
}

const seen: { header?: string | null; timeoutMs?: number | undefined; hooked: string[] } = { hooked: [] };
let server: GrpcServer;
let baseUrl: string;

beforeAll(async () => {
  server = createGrpcServer({
    serviceName: 'api-test',
    logger: silentLogger(),
    interceptors: [
      (next, method) => (request, ctx) => {
        seen.hooked.push(`server ${method.name}`);
        return next(request, ctx);
      },
    ],
    // Decode is left out: it must answer UNIMPLEMENTED. A class instance: methods may use `this`.
    register: (router) => router.service(DecoderService, new SchemesOnly('api-test')),
  });
  baseUrl = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
});

afterAll(async () => {
  await closeGrpcClients();
  await server.close({ graceMs: 1_000 });
});

it('gives handlers the request headers, the deadline, and sends their response headers and trailers', async () => {
  const client = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
  let header: Headers | undefined;
  let trailer: Headers | undefined;
  await client.listSchemes(
    {},
    {
      headers: { 'x-caller': 'test' },
      onHeader: (h) => {
        header = h;
      },
      onTrailer: (t) => {
        trailer = t;
      },
    },
  );
  expect(seen.header).toBe('test');
  expect(seen.timeoutMs).toBeGreaterThan(1_000);
  expect(seen.timeoutMs).toBeLessThanOrEqual(2_000);
  expect(header?.get('x-served-by')).toBe('api-test');
  expect(trailer?.get('x-row-count')).toBe('0');
});

it('answers UNIMPLEMENTED for a method the implementation leaves out', async () => {
  const client = createGrpcClient(DecoderService, { baseUrl, timeoutMs: 2_000 });
  await expect(client.decode({ qrString: 'x' })).rejects.toMatchObject({ code: Code.Unimplemented });
});

it('runs server and client hooks around each unary call', async () => {
  seen.hooked = [];
  const client = createGrpcClient(DecoderService, {
    baseUrl,
    timeoutMs: 2_000,
    interceptors: [
      (next, method) => (request, options) => {
        seen.hooked.push(`client ${method.name}`);
        return next(request, { ...options, headers: { 'x-caller': 'hooked' } });
      },
    ],
  });
  await client.listSchemes({});
  expect(seen.hooked).toEqual(['client ListSchemes', 'server ListSchemes']);
  expect(seen.header).toBe('hooked');
});

it('fails an aborted call with Canceled, also when aborted before it starts', async () => {
  const client = createGrpcClient(Health, { baseUrl, timeoutMs: 0 });
  const abort = new AbortController();
  const watching = (async () => {
    for await (const _ of client.watch({ service: '' }, { signal: abort.signal })) abort.abort();
  })();
  await expect(watching).rejects.toMatchObject({ code: Code.Canceled });
  await expect(client.check({ service: '' }, { signal: abort.signal })).rejects.toMatchObject({
    code: Code.Canceled,
  });
});

it('keeps a client made before closeGrpcClients() working after it', async () => {
  const client = createGrpcClient(Health, { baseUrl, timeoutMs: 2_000 });
  await client.check({ service: '' });
  await closeGrpcClients();
  expect((await client.check({ service: '' })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
});

it('sends NOT_SERVING to open Watch streams, then ends them, when the server closes', async () => {
  const closing = createGrpcServer({ serviceName: 'closing', logger: silentLogger(), register: () => {} });
  const url = `http://127.0.0.1:${await closing.listen(0, '127.0.0.1')}`;
  const health = createGrpcClient(Health, { baseUrl: url, timeoutMs: 0 });
  const statuses: HealthCheckResponse_ServingStatus[] = [];
  const watching = (async () => {
    for await (const res of health.watch({ service: '' })) statuses.push(res.status);
  })();
  while (statuses.length === 0) await delay(10);
  await closing.close({ graceMs: 2_000 });
  await watching;
  expect(statuses).toEqual([
    HealthCheckResponse_ServingStatus.SERVING,
    HealthCheckResponse_ServingStatus.NOT_SERVING,
  ]);
  expect(closing.inFlight()).toBe(0);
});
