import { parseCommandLine, UsageError } from './args';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, runPayoutctl } from './run';

// `payoutctl trigger EVENT` (docs/api/sandbox.md "Triggers"): parsed from the command table,
// sent as POST /v1/sandbox/triggers with the tenant's key, the API's answer printed. A fake fetch
// stands in for the gateway; test-e2e/sandbox-triggers.e2e.test.ts runs the real route.

const KEY = 'qrp_AbCdEfGh_0123456789abcdefghijklmnopqrstuv';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) }, out, err };
}

type Sent = { url: string; headers: Record<string, string>; body: unknown };

function fakeGateway(status: number, answer: unknown) {
  const sent: Sent[] = [];
  const fetchImpl = (async (url: URL, init: RequestInit) => {
    sent.push({
      url: String(url),
      headers: init.headers as Record<string, string>,
      body: JSON.parse(String(init.body)),
    });
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { sent, fetchImpl };
}

const run = (argv: string[], env: NodeJS.ProcessEnv, fetchImpl: typeof fetch) => {
  const c = capture();
  const noAdmin = () => {
    throw new Error('a trigger never calls the admin API');
  };
  return runPayoutctl(argv, env, c.io, noAdmin, process.cwd(), fetchImpl).then((code) => ({ code, ...c }));
};

describe('payoutctl trigger', () => {
  it('parses the event from the command and the key and URL from the env, without an operator token', () => {
    const parsed = parseCommandLine(['trigger', 'transaction.failed'], {
      QR_PAYOUT_API_KEY: KEY,
      QR_PAYOUT_BASE_URL: 'http://localhost:9090',
    });
    expect(parsed).toEqual({
      type: 'trigger',
      command: { kind: 'trigger', event: 'transaction.failed', callbackUrl: '', idempotencyKey: '' },
      connection: { baseUrl: 'http://localhost:9090', apiKey: KEY },
    });
  });

  it.each([
    [['trigger', 'transaction.refunded'], {}, /unknown command: trigger transaction.refunded/],
    [['trigger', 'transaction.failed'], {}, /no API key: set QR_PAYOUT_API_KEY or pass --api-key/],
    [['trigger', 'transaction.failed', '--api-key', KEY, '--base-url', 'localhost'], {}, /--base-url/],
    [['trigger', 'transaction.failed', '--api-key', KEY, '--token', 'op'], {}, /Unknown option '--token'/],
  ])('refuses %j as a usage error', (argv, env, message) => {
    expect(() => parseCommandLine(argv, env)).toThrow(UsageError);
    expect(() => parseCommandLine(argv, env)).toThrow(message);
  });

  it("POSTs the event with the tenant's key and a fresh Idempotency-Key, and prints the transaction", async () => {
    const transaction = { id: 'txn_1', status: 'failed', error: { code: 'AC03' } };
    const gateway = fakeGateway(201, { transaction, request_id: 'r-1' });
    const argv = ['trigger', 'transaction.failed', '--callback-url', 'http://127.0.0.1:9000/hook'];
    const first = await run(argv, { QR_PAYOUT_API_KEY: KEY }, gateway.fetchImpl);
    const second = await run(argv, { QR_PAYOUT_API_KEY: KEY }, gateway.fetchImpl);
    expect([first.code, second.code]).toEqual([EXIT_OK, EXIT_OK]);
    expect(JSON.parse(first.out.join(''))).toEqual({ transaction, request_id: 'r-1' });
    expect(gateway.sent[0]).toMatchObject({
      url: 'http://127.0.0.1:8080/v1/sandbox/triggers',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: { event: 'transaction.failed', callback_url: 'http://127.0.0.1:9000/hook' },
    });
    const keys = gateway.sent.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('sends the given --idempotency-key, so a retry answers the same transaction', async () => {
    const gateway = fakeGateway(201, { transaction: { id: 'txn_1' } });
    await run(
      ['trigger', 'transaction.completed', '--api-key', KEY, '--idempotency-key', 'try-1'],
      {},
      gateway.fetchImpl,
    );
    expect(gateway.sent[0]?.headers['idempotency-key']).toBe('try-1');
    expect(gateway.sent[0]?.body).toEqual({ event: 'transaction.completed' });
  });

  it("exits 1 with the API's error name and message on stderr (a production gateway: 403 SandboxOnly)", async () => {
    const gateway = fakeGateway(403, {
      _tag: 'SandboxOnly',
      type: 'SandboxOnly',
      message: 'POST /v1/sandbox/triggers is only available in the sandbox.',
      docs_url: 'https://api.example.com/docs/errors#SandboxOnly',
      request_id: 'r-2',
    });
    const result = await run(
      ['trigger', 'transaction.failed'],
      { QR_PAYOUT_API_KEY: KEY },
      gateway.fetchImpl,
    );
    expect(result.code).toBe(EXIT_FAILURE);
    expect(result.out).toEqual([]);
    expect(JSON.parse(result.err.join(''))).toEqual({
      error: {
        code: 'SandboxOnly',
        message: 'POST /v1/sandbox/triggers is only available in the sandbox.',
        request_id: 'r-2',
      },
    });
  });

  it('says which URL it tried when nothing answers', async () => {
    const refused = (async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:8080') });
    }) as unknown as typeof fetch;
    const result = await run(['trigger', 'transaction.failed'], { QR_PAYOUT_API_KEY: KEY }, refused);
    expect(result.code).toBe(EXIT_FAILURE);
    const { error } = JSON.parse(result.err.join('')) as { error: { code: string; message: string } };
    expect(error.code).toBe('unavailable');
    expect(error.message).toContain('connect ECONNREFUSED');
    expect(error.message).toContain('http://127.0.0.1:8080');
    expect(error.message).toContain('QR_PAYOUT_BASE_URL');
  });

  it('exits 2 on a usage error, calling nothing', async () => {
    const gateway = fakeGateway(201, {});
    const result = await run(['trigger', 'transaction.failed'], {}, gateway.fetchImpl);
    expect(result.code).toBe(EXIT_USAGE);
    expect(gateway.sent).toEqual([]);
  });
});
