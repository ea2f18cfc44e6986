import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerDashboard } from './admin-routes';
import { loadDashboardFiles } from './files';
import { DASHBOARD_CSP } from './headers';

// The operator side on the admin server (docs/dashboard.md "How it is served"): its page and
// assets only, the admin API's error shape for an unknown asset, anything else left to the RPCs.

let server: http.Server;
let base: string;

beforeAll(async () => {
  const files = loadDashboardFiles('operator');
  server = http.createServer((req, res) => {
    if (answerDashboard(files, req, res)) return;
    res.writeHead(418);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('answerDashboard', () => {
  it('serves the operator page, never cached, under the strict CSP', async () => {
    const res = await fetch(`${base}/dashboard`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await res.text()).toContain('src="/dashboard/assets/operator.js"');
  });

  it('answers HEAD as GET, headers and length without the body', async () => {
    for (const url of [`${base}/dashboard`, `${base}/dashboard/assets/operator.js`]) {
      const [head, get] = [await fetch(url, { method: 'HEAD' }), await fetch(url)];
      const body = await get.text();
      expect(head.status).toBe(200);
      expect(head.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
      expect(await head.text()).toBe('');
    }
  });

  it('serves the operator script and the shared modules', async () => {
    for (const name of ['operator.js', 'api.js', 'dom.js', 'shell.js']) {
      const res = await fetch(`${base}/dashboard/assets/${name}`);
      expect([name, res.status, res.headers.get('content-type')]).toEqual([
        name,
        200,
        'text/javascript; charset=utf-8',
      ]);
    }
  });

  it.each([
    ['tenant.js', 'tenant.js'],
    ['operator.html', 'operator.html'],
    ['..%2Fsrc%2Fmain.ts', '../src/main.ts'],
    ['%E0%A4%A', '%E0%A4%A'],
    ['', ''],
  ])('answers 404 in the admin API error shape for asset %p', async (sent, shown) => {
    const res = await fetch(`${base}/dashboard/assets/${sent}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'not_found',
      message: `No dashboard asset named ${JSON.stringify(shown)}.`,
    });
  });

  it('leaves every other path and method to the admin API', async () => {
    const other = await fetch(`${base}/payout.admin.v1.AdminService/ListTenants`, { method: 'POST' });
    expect(other.status).toBe(418);
    const post = await fetch(`${base}/dashboard`, { method: 'POST' });
    expect(post.status).toBe(418);
  });
});
