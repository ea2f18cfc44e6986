import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PUBLIC_ROUTES } from '../http/routes/table';
import { startRouteTestApp } from '../http/routes/test-app';

// The document is generated from the routes (http/routes/table.ts, paths.ts); the client was
// generated from client/openapi.json. Both must say the same, so a route change that alters the
// public contract fails here until the client is regenerated (npm run generate:client) and the
// change is seen in review.

const COMMITTED = JSON.parse(
  readFileSync(path.resolve(__dirname, '../../../client/openapi.json'), 'utf8'),
) as unknown;

describe('the OpenAPI document', () => {
  it('the gateway serves is the one client/openapi.json holds', async () => {
    const { app, base } = await startRouteTestApp({});
    try {
      const res = await fetch(`${base}/v1/openapi.json`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(COMMITTED);
    } finally {
      await app.close();
    }
  });

  it('is generated from routes the app serves, each at its declared method and URL', async () => {
    const { app } = await startRouteTestApp({});
    try {
      const missing = PUBLIC_ROUTES.filter((r) => !app.hasRoute({ method: r.method, url: r.url }));
      expect(missing.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
