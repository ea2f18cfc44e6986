import type { FastifyInstance } from 'fastify';
import { DASHBOARD_CSP } from '../../dashboard/headers';
import { startRouteTestApp } from './test-app';

// The tenant side of the dashboard on the public port (docs/dashboard.md "How it is served"):
// the page and its own assets with the security headers, nothing else.

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  ({ app, base } = await startRouteTestApp({}));
});
afterAll(() => app.close());

const SECURITY_HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

function headersOf(res: Response): Record<string, string> {
  return Object.fromEntries(res.headers.entries());
}

describe('GET /dashboard', () => {
  it('serves the page without a key, never cached, under the strict CSP', async () => {
    const res = await fetch(`${base}/dashboard`);
    expect(res.status).toBe(200);
    expect(headersOf(res)).toMatchObject({
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    });
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/dashboard/assets/tenant.js"></script>');
    expect(html).not.toMatch(/<script>|<style|\sstyle=|\son[a-z]+=/);
  });

  it("fills the filters' state words from the API's own vocabularies", async () => {
    const html = await (await fetch(`${base}/dashboard`)).text();
    expect(html).toContain(
      '<meta name="transaction-statuses" content="pending processing completed failed">',
    );
    expect(html).toContain(
      '<meta name="delivery-statuses" content="pending delivering delivered failed exhausted">',
    );
    expect(html).not.toContain('{{');
  });

  it('states its CSP exactly: nothing inline, nothing from elsewhere, no framing', () => {
    expect(DASHBOARD_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
  });
});

describe('GET /dashboard/assets/:name', () => {
  it.each([
    ['tenant.js', 'text/javascript; charset=utf-8'],
    ['webhook-views.js', 'text/javascript; charset=utf-8'],
    ['dashboard.css', 'text/css; charset=utf-8'],
  ])('serves %s as %s with the security headers', async (name, contentType) => {
    const res = await fetch(`${base}/dashboard/assets/${name}`);
    expect(res.status).toBe(200);
    expect(headersOf(res)).toMatchObject({
      ...SECURITY_HEADERS,
      'content-type': contentType,
      'cache-control': 'no-cache',
    });
    expect((await res.text()).length).toBeGreaterThan(100);
  });

  it.each([
    'operator.js',
    'tenant.html',
    'tsconfig.json',
    '..%2Fpackage.json',
    '%2E%2E%2Fsrc%2Fdashboard%2Ffiles.ts',
    'nope.js',
  ])('answers 404 NotFoundError in the error shape for %s', async (name) => {
    const res = await fetch(`${base}/dashboard/assets/${name}`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ _tag: 'NotFoundError', type: 'NotFoundError' });
    expect(body.message).toEqual(expect.stringContaining('No dashboard asset named'));
  });
});
