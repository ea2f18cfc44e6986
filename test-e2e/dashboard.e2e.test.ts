// The dashboard in a real browser (docs/dashboard.md; docs/testing.md "Dashboard in a real
// browser"): Debian's Chromium, driven by playwright-core, signs in with the tenant's key, finds a
// delivery that failed every attempt, replays it and sees the new attempt succeed; visits the
// transactions, a transaction, the endpoints and the operator side; a full-page screenshot of each.
// Target: QR_PAYOUT_BASE_URL / QR_PAYOUT_API_KEY / QR_PAYOUT_ADMIN_URL / QR_PAYOUT_ADMIN_TOKEN when
// set (a running sandbox), else a sandbox of its own whose retries are scaled to finish in seconds.
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import { type AdminClient, createAdminClient } from './harness';
import {
  launchChromium,
  type PageProblems,
  screenshotsDir,
  unexpectedErrors,
  watchProblems,
} from './support/dashboard-browser';
import { payPix } from './support/pay';
import { type SandboxProcess, startSandboxProcess } from './support/sandbox-process';

jest.setTimeout(240_000);

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** A name with markup in it: the page must show it as text. */
const HOSTILE_NAME = `<img src=x id=injected> Dashboard & "co" ${randomBytes(3).toString('hex')}`;

interface Target {
  baseUrl: string;
  apiKey: string;
  adminUrl: string;
  adminToken: string;
}

let sandbox: SandboxProcess | undefined;
let target: Target;
let receiver: { url: string; failing: boolean; server: http.Server };
let admin: AdminClient;
let browser: Browser;
let shots: string;

/** The receiver answers 500 with a recognizable body until told to succeed. */
async function startReceiver() {
  const state = { failing: true };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (state.failing) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('receiver failing on purpose <b>not markup</b>');
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, { url, server });
}

/** A sandbox of its own: the 16 attempts of the standard schedule in about two seconds. */
async function startOwnSandbox(): Promise<Target> {
  sandbox = await startSandboxProcess({ env: { WEBHOOK_RETRY_SCALE: '0.000001' } });
  return sandbox;
}

function targetFromEnv(): Target | undefined {
  const { QR_PAYOUT_BASE_URL, QR_PAYOUT_API_KEY, QR_PAYOUT_ADMIN_URL, QR_PAYOUT_ADMIN_TOKEN } = process.env;
  if (!QR_PAYOUT_BASE_URL || !QR_PAYOUT_API_KEY || !QR_PAYOUT_ADMIN_URL || !QR_PAYOUT_ADMIN_TOKEN)
    return undefined;
  return {
    baseUrl: QR_PAYOUT_BASE_URL.replace(/\/$/, ''),
    apiKey: QR_PAYOUT_API_KEY,
    adminUrl: QR_PAYOUT_ADMIN_URL.replace(/\/$/, ''),
    adminToken: QR_PAYOUT_ADMIN_TOKEN,
  };
}

async function publicApi<T>(method: string, urlPath: string, body?: unknown): Promise<T> {
  const res = await fetch(`${target.baseUrl}${urlPath}`, {
    method,
    headers: {
      'x-api-key': target.apiKey,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${JSON.stringify(answer)}`);
  return answer as T;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function expectDashboardHeaders(response: Response | null) {
  expect(response?.status()).toBe(200);
  const headers = response?.headers() ?? {};
  expect(headers).toMatchObject({
    'content-security-policy': CSP,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  shots = screenshotsDir();
  const [fromEnv, started, launched] = await Promise.all([
    Promise.resolve(targetFromEnv()),
    startReceiver(),
    launchChromium(),
  ]);
  receiver = started;
  browser = launched;
  target = fromEnv ?? (await startOwnSandbox());
  admin = createAdminClient(target.adminUrl, target.adminToken);
}, 200_000);

afterAll(async () => {
  await browser?.close();
  receiver?.server.close();
  await sandbox?.stop();
}, 60_000);

it('signs in, finds the failed delivery, replays it and sees the new attempt; both sides render', async () => {
  // A completed payment whose event goes to a receiver that answers 500 to every attempt.
  const triggered = await publicApi<{ transaction: { id: string } }>('POST', '/v1/sandbox/triggers', {
    event: 'transaction.completed',
    callback_url: `${receiver.url}/hook`,
  });
  const txnId: string = triggered.transaction.id;
  // And one paid from a USD wallet: the list shows what the wallet paid and the rate.
  const fx = await payPix(target.baseUrl, target.apiKey, 25, { wallet_currency: 'USD' });
  expect(fx.status).toBe(200);
  const fxTxn = (fx.json as { transaction: { id: string; quote: { rate: string } } }).transaction;
  const delivery = await until(
    'the delivery to exhaust its attempts',
    async () => {
      const page = await publicApi<{ deliveries: { id: string; status: string }[] }>(
        'GET',
        `/v1/webhook-deliveries?transaction_id=${txnId}`,
      );
      return page.deliveries.find((d) => d.status === 'exhausted');
    },
    // A target from env keeps its own retry scale (the sandbox's default finishes in under a minute).
    sandbox ? 30_000 : 90_000,
  );
  const { delivery: adminDelivery } = await admin.getWebhookDelivery({ deliveryId: delivery.id });
  const tenantId = adminDelivery?.tenantId ?? '';
  // An endpoint with a custom header, disabled by the operator: the page shows the header's name only.
  const headerValue = `value-${randomBytes(6).toString('hex')}`;
  const created = await admin.createWebhookEndpoint({
    endpoint: {
      tenantId,
      url: `${receiver.url}/endpoint`,
      eventTypes: ['transaction.failed'],
      headers: [{ name: 'X-Dashboard-Team', value: headerValue }],
    },
  });
  await admin.setWebhookEndpointEnabled({ endpointId: created.endpoint?.id ?? '', enabled: false });
  await admin.createTenant({ name: HOSTILE_NAME });

  const tenantPage = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const tenantProblems = await watchProblems(tenantPage);
  expectDashboardHeaders(await tenantPage.goto(`${target.baseUrl}/dashboard`));
  await signIn(tenantPage, 'API key', target.apiKey);
  await tenantSide(tenantPage, { txnId, fxTxn }, delivery.id, headerValue);

  const operatorPage = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const operatorProblems = await watchProblems(operatorPage);
  expectDashboardHeaders(await operatorPage.goto(`${target.adminUrl}/dashboard`));
  await signIn(operatorPage, 'Operator token', target.adminToken);
  await operatorSide(operatorPage, tenantId, delivery.id);

  expectNoProblems(tenantProblems, [401, 429]);
  expectNoProblems(operatorProblems, [401]);
});

function expectNoProblems(problems: PageProblems, provoked: number[]) {
  expect({ csp: problems.cspViolations, errors: unexpectedErrors(problems, provoked) }).toEqual({
    csp: [],
    errors: [],
  });
}

/** A wrong credential is refused with the API's message; the right one opens the dashboard. */
async function signIn(page: Page, label: string, credential: string) {
  await page.getByLabel(label).fill('wrong-credential-0123456789');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
  await shoot(page, `${label === 'API key' ? 'tenant' : 'operator'}-sign-in`);
  await page.getByLabel(label).fill(credential);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

async function tenantSide(
  page: Page,
  paid: { txnId: string; fxTxn: { id: string; quote: { rate: string } } },
  deliveryId: string,
  headerValue: string,
) {
  const { txnId, fxTxn } = paid;
  await page.getByRole('heading', { name: 'Transactions' }).waitFor();
  const row = page.getByRole('row').filter({ hasText: txnId });
  await row.waitFor();
  await expect(row.textContent()).resolves.toMatch(/completed.*\d[\d,]*\.\d{2} [A-Z]{3}/);
  const fxRow = page.getByRole('row').filter({ hasText: fxTxn.id });
  await expect(fxRow.textContent()).resolves.toContain('25.00 BRL');
  await expect(fxRow.textContent()).resolves.toContain(`USD at ${fxTxn.quote.rate}`);
  await shoot(page, 'tenant-transactions');

  await row.getByRole('link', { name: txnId }).click();
  await page.getByRole('heading', { name: `Transaction ${txnId}` }).waitFor();
  // Its statusHistory (docs/api/resources.md "State history"): created pending, then completed (with
  // a processing between when the settlement came after the first poll was due, as on a loaded
  // machine); each later state shows how long after the one before it came.
  const history = page.getByRole('table', { name: /State history/ });
  await history.waitFor();
  const historyRows = await history
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')),
    );
  const states = historyRows.map(([state]) => state);
  expect(states.filter((state) => state !== 'processing')).toEqual(['pending', 'completed']);
  expect(states.indexOf('completed')).toBe(states.length - 1);
  for (const [, , after] of historyRows.slice(1)) expect(after).toMatch(/^\+\d/);
  await page.getByRole('row').filter({ hasText: deliveryId }).waitFor();
  await shoot(page, 'tenant-transaction');

  // The deliveries that used every attempt, then the one of our transaction.
  await page.getByRole('link', { name: 'Webhook deliveries' }).click();
  await page.getByRole('heading', { name: 'Webhook deliveries' }).waitFor();
  await page.getByLabel('Status').selectOption('exhausted');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(/#\/deliveries\?status=exhausted$/);
  const deliveryRow = page.getByRole('row').filter({ hasText: deliveryId });
  await expect(deliveryRow.textContent()).resolves.toContain('exhausted');
  await shoot(page, 'tenant-deliveries-exhausted');

  await deliveryRow.getByRole('link', { name: deliveryId }).click();
  await page.getByRole('heading', { name: `Delivery ${deliveryId}` }).waitFor();
  const attempts = page.getByRole('table', { name: /Attempts/ });
  await expect(attempts.textContent()).resolves.toContain('receiver failing on purpose <b>not markup</b>');
  expect(await attempts.locator('b').count()).toBe(0);
  expect(await attempts.getByRole('row').filter({ hasText: '500' }).count()).toBeGreaterThanOrEqual(16);
  await shoot(page, 'tenant-delivery-exhausted');

  // The receiver recovers; the replay's attempt appears on its own (the page follows it).
  receiver.failing = false;
  await page.getByRole('button', { name: 'Replay' }).click();
  const replayed = attempts.getByRole('row').filter({ hasText: 'replay' }).filter({ hasText: 'succeeded' });
  await replayed.waitFor({ timeout: 20_000 });
  await expect(replayed.textContent()).resolves.toContain('200');
  await page.getByRole('definition').filter({ hasText: 'delivered' }).first().waitFor();
  await shoot(page, 'tenant-delivery-replayed');
  // A second replay at once: the API's own refusal is shown (409 while in flight, 429 too soon).
  await page.getByRole('button', { name: 'Replay' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /was replayed less than|replay it once/ })
    .waitFor();
  await shoot(page, 'tenant-delivery-replay-refused');

  await page.getByRole('link', { name: 'Webhook endpoints' }).click();
  const endpointRow = page.getByRole('row').filter({ hasText: 'X-Dashboard-Team' });
  await endpointRow.waitFor();
  await expect(endpointRow.textContent()).resolves.toMatch(/disabled/);
  expect(await page.content()).not.toContain(headerValue);
  await shoot(page, 'tenant-endpoints');
}

async function operatorSide(page: Page, tenantId: string, deliveryId: string) {
  await page.getByRole('heading', { name: 'Tenants' }).waitFor();
  await page.getByRole('row').filter({ hasText: HOSTILE_NAME }).waitFor();
  expect(await page.locator('#injected').count()).toBe(0);
  await shoot(page, 'operator-tenants');

  await page.getByRole('link', { name: tenantId, exact: true }).click();
  await page.getByRole('heading', { name: `Tenant ${tenantId}` }).waitFor();
  await page.getByRole('row').filter({ hasText: 'X-Dashboard-Team' }).waitFor();
  const deliveryRow = page.getByRole('row').filter({ hasText: deliveryId });
  await deliveryRow.waitFor();
  await page.getByRole('table', { name: /Stuck transactions/ }).waitFor();
  await shoot(page, 'operator-tenant');

  await deliveryRow.getByRole('link', { name: deliveryId }).click();
  await page.getByRole('heading', { name: `Delivery ${deliveryId}` }).waitFor();
  const attempts = page.getByRole('table', { name: /Attempts/ });
  await attempts.getByRole('row').filter({ hasText: 'replay' }).filter({ hasText: 'succeeded' }).waitFor();
  await shoot(page, 'operator-delivery');

  await page.getByRole('link', { name: 'Stuck transactions' }).click();
  await page.getByRole('heading', { name: 'Stuck transactions' }).waitFor();
  await shoot(page, 'operator-stuck');
}
