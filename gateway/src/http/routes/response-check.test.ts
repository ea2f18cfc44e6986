import { startRouteTestApp, TEST_API_KEY } from './test-app';

// The test app checks every response against its route's declaration (response-check.ts).

describe('responses checked against their routes', () => {
  it('pass when the body is as declared', async () => {
    const { app, base } = await startRouteTestApp({});
    const res = await fetch(`${base}/v1/schemes`, { headers: { 'x-api-key': TEST_API_KEY } });
    expect(res.status).toBe(200);
    await expect(app.close()).resolves.toBeUndefined();
  });

  it('fail the close, naming the route, status and field, when a body is not', async () => {
    const { app, base } = await startRouteTestApp({
      schemes: { getJson: async () => ({ schemes: '[{"country":1}]', payerIdentity: '{}' }) },
    });
    const res = await fetch(`${base}/v1/schemes`, { headers: { 'x-api-key': TEST_API_KEY } });
    expect(res.status).toBe(200);
    await expect(app.close()).rejects.toThrow(/GET \/v1\/schemes 200: .*schemes\/0/);
  });
});
