import { Code, ConnectError } from '@qr-payout/platform/errors';
import type { FastifyInstance } from 'fastify';
import type { CurrencyCatalogue } from '../../fx/currencies';
import { startRouteTestApp, TEST_API_KEY } from './test-app';

// GET /v1/fx/currencies through the real app (auth, rate limits, error registry) with a fake
// currency catalogue (fx/currencies.ts).

let app: FastifyInstance | undefined;

async function serve(currencies: Pick<CurrencyCatalogue, 'list'>) {
  await app?.close();
  const started = await startRouteTestApp({ currencies });
  app = started.app;
  return async (key: string | null = TEST_API_KEY) => {
    const res = await fetch(`${started.base}/v1/fx/currencies`, { headers: key ? { 'x-api-key': key } : {} });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
}

afterAll(() => app?.close());

describe('GET /v1/fx/currencies', () => {
  it('lists the catalogue with snake_case minor units and the request id', async () => {
    const get = await serve({
      list: async () => [
        { code: 'BRL', minorUnits: 2 },
        { code: 'JPY', minorUnits: 0 },
      ],
    });
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      currencies: [
        { code: 'BRL', minor_units: 2 },
        { code: 'JPY', minor_units: 0 },
      ],
      request_id: res.headers.get('x-request-id'),
    });
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('needs a key', async () => {
    let calls = 0;
    const get = await serve({
      list: async () => {
        calls++;
        return [];
      },
    });
    const res = await get(null);
    expect(res.status).toBe(401);
    expect(res.body._tag).toBe('AuthError');
    expect(calls).toBe(0);
  });

  it('answers 503 ServiceUnavailable while fx never answered', async () => {
    const get = await serve({
      list: async () => {
        throw new ConnectError('connect ECONNREFUSED 10.0.0.2:50052', Code.Unavailable);
      },
    });
    const res = await get();
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ _tag: 'ServiceUnavailable' });
    expect(JSON.stringify(res.body)).not.toContain('10.0.0.2');
  });
});
