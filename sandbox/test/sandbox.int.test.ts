import { mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createAdminClient } from '@qr-payout/test-kit/admin';
import { committedOpenApiDocument, withoutServers } from '@qr-payout/test-kit/openapi';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';
import { verifyWebhookSignature } from '@qr-payout/webhook-receiver';
import { baseEnv, type RunningChild, spawnCommand, spawnTs } from './child-process';
import { startGarbageGateway } from './garbage-gateway';

// The sandbox as `npm start` runs it (its own process, see child-process.ts), in a temporary data
// dir on free ports, checked against the smoke list of the sandbox issue.

jest.setTimeout(180_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ERROR_FIELDS = ['_tag', 'docs_url', 'message', 'request_id', 'type'];
// A Pix static QR with an amount (services/decoder/test/fixtures/qr-vectors.jsonl, from thalesog/pix-utils).
const PIX_QR =
  '00020126650014br.gov.bcb.pix0119nubank@thalesog.com0220Gerado por Pix-Utils52040000530398654041.005802BR5914Thales Ogliari6009Sao Paulo62070503***63046069';

// A Pix static QR without an amount (the e2e suite's): the pay's `amount` sets it, so its last two
// digits pick the partner simulator's outcome (partner-sim/README.md: …54 settles after 20 s).
const PIX_QR_WITHOUT_AMOUNT = PIX_WITHOUT_AMOUNT;

type Banner = {
  baseUrl: string;
  adminUrl: string;
  docsUrl: string;
  apiKey: string;
  signingSecret: string;
  adminToken: string;
};

type Response = { status: number; headers: Headers; text: string; json: Record<string, unknown> | undefined };

let dataDir: string;
let sandbox: RunningChild;
let banner: Banner;
let startupMs: number;

function bannerValue(output: string, label: string): string {
  const match = new RegExp(`^ {2}${label}: +(\\S+)$`, 'm').exec(output);
  if (!match?.[1]) throw new Error(`no "${label}" in the banner:\n${output}`);
  return match[1];
}

async function startSandboxProcess(): Promise<{ child: RunningChild; banner: Banner; startupMs: number }> {
  const started = Date.now();
  const child = spawnTs('sandbox/src/main.ts', {
    ...baseEnv(),
    SANDBOX_DATA_DIR: dataDir,
    PORT: '0',
    ADMIN_PORT: '0',
    LOG_LEVEL: 'warn',
  });
  try {
    await child.waitForLine(/Press Ctrl-C to stop/, 150_000);
  } catch (err) {
    await child.stop('SIGKILL');
    throw err;
  }
  const output = child.output();
  return {
    child,
    startupMs: Date.now() - started,
    banner: {
      baseUrl: bannerValue(output, 'Base URL'),
      docsUrl: bannerValue(output, 'API reference'),
      adminUrl: bannerValue(output, 'Admin API'),
      apiKey: bannerValue(output, 'API key'),
      signingSecret: bannerValue(output, 'Signing secret'),
      adminToken: bannerValue(output, 'Operator token'),
    },
  };
}

async function call(
  url: string,
  init: {
    method?: string;
    apiKey?: string;
    body?: string;
    contentType?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.apiKey !== undefined) headers['x-api-key'] = init.apiKey;
  if (init.contentType) headers['content-type'] = init.contentType;
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body,
  });
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** docs/api/errors.md "The error body": the error body, with request_id equal to the x-request-id header. */
function expectErrorBody(res: Response, status: number, tag: string, docsUrl: string): void {
  expect({ status: res.status, body: res.json ?? res.text }).toMatchObject({ status, body: { _tag: tag } });
  const body = res.json as Record<string, unknown>;
  const fields = tag === 'RateLimitError' ? [...ERROR_FIELDS, 'retryAfter'].sort() : ERROR_FIELDS;
  expect(Object.keys(body).sort()).toEqual(fields);
  expect(body.type).toBe(tag);
  expect(String(body.message).trim()).not.toBe('');
  expect(body.docs_url).toBe(`${docsUrl}/errors#${tag}`);
  expect(body.request_id).toMatch(UUID);
  expect(res.headers.get('x-request-id')).toBe(body.request_id);
}

const adminClient = () => createAdminClient(banner.adminUrl, banner.adminToken);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sandbox-int-'));
  ({ child: sandbox, banner, startupMs } = await startSandboxProcess());
});

afterAll(async () => {
  await sandbox?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('prints the URLs and credentials, and keeps the generated ones in the data dir (0600)', async () => {
    expect(banner.baseUrl).toMatch(/^http:\/\/localhost:\d+$/);
    expect(banner.baseUrl).not.toBe('http://localhost:8080');
    expect(banner.docsUrl).toBe(`${banner.baseUrl}/docs`);
    expect(banner.apiKey).toMatch(/^qrp_/);
    expect(banner.signingSecret).toMatch(/^whsec_/);
    expect((await stat(path.join(dataDir, 'sandbox.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dataDir, 'pglite', 'gateway'))).isDirectory()).toBe(true);
    console.info(`sandbox started in ${startupMs} ms (fresh data dir)`);
  });

  it("serves the committed OpenAPI document, the production gateway's too (test-e2e/smoke): only servers differ", async () => {
    const res = await call(`${banner.baseUrl}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(withoutServers(res.json!)).toEqual(withoutServers(committedOpenApiDocument()));
  });

  it('answers GET /v1/schemes with the sandbox key, through the decoder over gRPC', async () => {
    const res = await call(`${banner.baseUrl}/v1/schemes`, { apiKey: banner.apiKey });
    expect(res.status).toBe(200);
    const schemes = res.json?.schemes as unknown[];
    expect(Array.isArray(schemes)).toBe(true);
    expect(JSON.stringify(schemes)).toContain('BR');
    expect(res.json?.request_id).toMatch(UUID);
    expect(res.headers.get('x-request-id')).toBe(res.json?.request_id);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['wrong', 'qrp_Wrong000_0000000000000000000000000000000'],
    ['oversized', 'k'.repeat(10_000)],
  ])('answers 401 AuthError for a %s key', async (_, apiKey) => {
    const res = await call(`${banner.baseUrl}/v1/schemes`, { apiKey });
    expectErrorBody(res, 401, 'AuthError', banner.docsUrl);
  });

  it('sets x-request-id on every response, even unauthenticated and unknown routes', async () => {
    for (const url of [
      `${banner.baseUrl}/v1/nothing-here`,
      `${banner.baseUrl}/docs`,
      `${banner.baseUrl}/v1/schemes`,
    ]) {
      const res = await call(url);
      expect(res.headers.get('x-request-id')).toMatch(UUID);
    }
  });

  it('answers the spec error body on 400, 404, 413 and 415', async () => {
    const resolve = (body: string, contentType = 'application/json') =>
      call(`${banner.baseUrl}/v1/resolve`, { apiKey: banner.apiKey, body, contentType });
    expectErrorBody(await resolve('{}'), 400, 'ValidationError', banner.docsUrl);
    expectErrorBody(
      await call(`${banner.baseUrl}/v1/transactions/txn_01J0000000000000000000000`, {
        apiKey: banner.apiKey,
      }),
      404,
      'NotFoundError',
      banner.docsUrl,
    );
    expectErrorBody(
      await resolve(JSON.stringify({ qr_string: 'x'.repeat(70 * 1024) })),
      413,
      'PayloadTooLarge',
      banner.docsUrl,
    );
    expectErrorBody(
      await resolve('qr_string=abc', 'text/plain'),
      415,
      'UnsupportedMediaType',
      banner.docsUrl,
    );
  });

  it('answers 500 InternalError with nothing internal when an upstream answers garbage', async () => {
    // The sandbox's own services do not misbehave on demand, so a second gateway on the sandbox's
    // embedded infrastructure (PGlite, memory rate limits) is pointed at a non-gRPC decoder.
    const garbage = await startGarbageGateway();
    try {
      const res = await call(`${garbage.baseUrl}/v1/schemes`, { apiKey: garbage.apiKey });
      expectErrorBody(res, 500, 'InternalError', `${garbage.baseUrl}/docs`);
      expect(res.text).not.toContain(garbage.marker);
      expect(String(res.json?.message)).not.toMatch(/content.?type|grpc|http\/?2|ECONN|\.ts\b|\bat \S+ \(/i);
    } finally {
      await garbage.close();
    }
  });

  it('keeps tenants apart', async () => {
    const admin = adminClient();
    const other = await admin.createTenant({ name: 'Other tenant' });
    const otherKey = other.apiKey;
    const created = await admin.createWebhookEndpoint({
      endpoint: { tenantId: other.tenant?.id ?? '', url: 'http://127.0.0.1:9/hooks', eventTypes: ['*'] },
    });
    const endpointId = created.endpoint?.id;
    expect(endpointId).toMatch(/^whe_/);

    const listed = (key: string) =>
      call(`${banner.baseUrl}/v1/webhook-endpoints`, { apiKey: key }).then((res) => {
        expect(res.status).toBe(200);
        return JSON.stringify(res.json);
      });
    expect(await listed(otherKey)).toContain(endpointId);
    expect(await listed(banner.apiKey)).not.toContain(endpointId);
  });

  it('triggers a real failed transaction and its signed webhook (SANDBOX_MODE from its own wiring)', async () => {
    // docs/api/sandbox.md "Triggers": a receiver on loopback, as the sandbox allows.
    const received: { header: string; rawBody: Buffer }[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          header: String(req.headers['service-signature'] ?? ''),
          rawBody: Buffer.concat(chunks),
        });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const port = (receiver.address() as AddressInfo).port;
      const answer = await call(`${banner.baseUrl}/v1/sandbox/triggers`, {
        apiKey: banner.apiKey,
        body: JSON.stringify({ event: 'transaction.failed', callback_url: `http://127.0.0.1:${port}/hook` }),
        contentType: 'application/json',
        headers: { 'idempotency-key': `trigger-${Date.now()}` },
      });
      expect({ status: answer.status, body: answer.json }).toMatchObject({
        status: 201,
        body: { transaction: { status: 'failed', error: { code: 'AC03' } } },
      });
      const txnId = (answer.json?.transaction as { id?: string } | undefined)?.id;
      expect(txnId).toMatch(/^txn_/);
      const deadline = Date.now() + 20_000;
      while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const [hook] = received;
      expect(hook).toBeDefined();
      const verified = verifyWebhookSignature({
        header: hook?.header ?? '',
        rawBody: hook?.rawBody ?? Buffer.alloc(0),
        secrets: [banner.signingSecret],
      });
      expect(verified.ok).toBe(true);
      expect(JSON.parse(String(hook?.rawBody))).toMatchObject({
        event_type: 'transaction.failed',
        data: { transaction_id: txnId },
      });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('resolves a Pix QR through decoder and payout over gRPC', async () => {
    const resolved = await call(`${banner.baseUrl}/v1/resolve`, {
      apiKey: banner.apiKey,
      body: JSON.stringify({ qr_string: PIX_QR }),
      contentType: 'application/json',
    });
    expect(resolved.status).toBe(200);
    expect(resolved.json?.instruction).toMatchObject({
      id: expect.stringMatching(/^ins_/),
      amount: 1,
      currency: 'BRL',
      creditor: { name: 'Thales Ogliari', account: 'nubank@thalesog.com' },
      scheme: 'BR.PIX',
      country: 'BR',
    });
  });

  it('answers 409 IdempotencyInProgress to a same-key pay while the first runs, then replays the first answer', async () => {
    // …54 settles after 20 s, so the first pay holds its key for the gateway's whole wait (8 s)
    // and answers `processing`. Both are sent at once: exactly one takes the key.
    const body = JSON.stringify({
      qr_string: PIX_QR_WITHOUT_AMOUNT,
      amount: 12.54,
      payer_name: 'Ana Souza',
      payer_account: '0001-1234567',
      payer_tax_id: '529.982.247-25',
    });
    const pay = (key: string) =>
      call(`${banner.baseUrl}/v1/pay`, {
        apiKey: banner.apiKey,
        body,
        contentType: 'application/json',
        headers: { 'idempotency-key': key },
      });
    const statusAndBody = (res: Response) => `${res.status} ${res.status === 200 ? '' : res.text}`.trim();
    // A 503 ServiceUnavailable ("retry shortly") is an answer the contract allows a starved machine;
    // such a pair is shown with the sandbox's warnings and sent again under a new key, twice at most.
    let key = '';
    let answers: Response[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      key = `sandbox-in-progress-${Date.now()}-${attempt}`;
      answers = await Promise.all([pay(key), pay(key)]);
      if (!answers.some((res) => res.status === 503)) break;
      const warnings = sandbox
        .output()
        .split('\n')
        .filter((line) => /"level":(40|50|60)/.test(line));
      console.warn(
        `attempt ${attempt}: ${answers.map(statusAndBody).join(' | ')}\n${warnings.slice(-10).join('\n')}`,
      );
    }
    const first = answers.find((res) => res.status === 200);
    const during = answers.find((res) => res.status !== 200);
    // Each answer's body beside its status, so a failure says what the unexpected one was.
    expect(answers.map(statusAndBody).sort()).toEqual([
      '200',
      expect.stringMatching(/^409 .*IdempotencyInProgress/),
    ]);
    if (!first || !during) throw new Error('unreachable');
    expectErrorBody(during, 409, 'IdempotencyInProgress', banner.docsUrl);
    expect(during.headers.get('retry-after')).toBe('1');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.json?.transaction).toMatchObject({ status: 'processing' });

    const replay = await pay(key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const { request_id: replayRequestId, ...replayed } = replay.json ?? {};
    const { request_id: firstRequestId, ...original } = first.json ?? {};
    expect(replayed).toEqual(original);
    expect(replayRequestId).toBe(replay.headers.get('x-request-id'));
    expect(replayRequestId).not.toBe(firstRequestId);
  });

  it('answers 429 RateLimitError on the 101st request in a minute, with the headers and retryAfter', async () => {
    // A fresh tenant, so the requests of the other tests do not count.
    const fresh = await adminClient().createTenant({ name: 'Rate limit check' });
    let last: Response | undefined;
    for (let i = 1; i <= 100; i++) {
      last = await call(`${banner.baseUrl}/v1/schemes`, { apiKey: fresh.apiKey });
      expect({ i, status: last.status }).toEqual({ i, status: 200 });
    }
    expect(last?.headers.get('x-ratelimit-remaining')).toBe('0');
    const limited = await call(`${banner.baseUrl}/v1/schemes`, { apiKey: fresh.apiKey });
    expectErrorBody(limited, 429, 'RateLimitError', banner.docsUrl);
    expect(limited.json?.retryAfter).toEqual(expect.any(Number));
    expect(limited.json?.retryAfter as number).toBeGreaterThan(0);
    expect(limited.json?.retryAfter as number).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('100');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(limited.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
  });
});

describe('restart on the same data dir', () => {
  it('keeps the credentials and the data, and stops cleanly on SIGTERM', async () => {
    const other = await adminClient().createTenant({ name: 'Survives a restart' });
    expect(await sandbox.stop('SIGTERM')).toBe(0);

    const restarted = await startSandboxProcess();
    sandbox = restarted.child;
    console.info(`sandbox restarted in ${restarted.startupMs} ms (existing data dir)`);
    expect(restarted.banner.apiKey).toBe(banner.apiKey);
    expect(restarted.banner.signingSecret).toBe(banner.signingSecret);
    expect(restarted.banner.adminToken).toBe(banner.adminToken);
    banner = restarted.banner;

    // The key of a tenant made before the restart still authenticates: the data is on disk.
    const res = await call(`${banner.baseUrl}/v1/schemes`, { apiKey: other.apiKey });
    expect(res.status).toBe(200);
    const sandboxKey = await call(`${banner.baseUrl}/v1/schemes`, { apiKey: banner.apiKey });
    expect(sandboxKey.status).toBe(200);
  });
});

/** Whether no process of the group is left within `ms` (the esbuild tsx starts exits just after Node). */
async function groupEmptyWithin(group: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await delay(100)) {
    try {
      process.kill(group, 0);
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }
  return false;
}

describe('npm start and a signal to npm alone', () => {
  it('stops the sandbox in order and leaves no process behind', async () => {
    expect(await sandbox.stop('SIGTERM')).toBe(0);
    // npm passes a SIGINT it gets to its child; scripts/sandbox-start makes the sandbox that child.
    const npm = spawnCommand(
      'npm',
      ['start'],
      { ...baseEnv(), SANDBOX_DATA_DIR: dataDir, PORT: '0', ADMIN_PORT: '0', LOG_LEVEL: 'warn' },
      { detached: true },
    );
    sandbox = npm;
    const group = -(npm.child.pid as number);
    try {
      await npm.waitForLine(/Press Ctrl-C to stop/, 150_000);
      const baseUrl = bannerValue(npm.output(), 'Base URL');
      expect(await npm.stop('SIGINT', 15_000)).toBe(0);
      expect(npm.output()).toContain('"step":"databases","msg":"shutdown step done"');
      expect(await groupEmptyWithin(group, 3_000)).toBe(true);
      await expect(fetch(`${baseUrl}/readyz`)).rejects.toThrow();
    } finally {
      try {
        process.kill(group, 'SIGKILL');
      } catch {
        // Nothing left: the expected case.
      }
    }
  });
});
