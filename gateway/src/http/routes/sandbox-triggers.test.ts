import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { DecodedQrSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import {
  InstructionSchema,
  type PayRequest,
  TransactionSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance } from 'fastify';
import { SANDBOX_TEST_QRS } from '../../docs/sandbox-test-qrs';
import { NO_IDEMPOTENCY_CACHE } from '../../idempotency/cache';
import { SANDBOX_TRIGGER_QR_IDS } from '../../payments/sandbox-triggers';
import type { PublicAppDeps } from '../app';
import { startRouteTestApp, TEST_API_KEY } from './test-app';

// POST /v1/sandbox/triggers through the real app (auth, validation, error registry) with a fake
// decoder and payout: what the route checks and what it sends to payout's Pay
// (docs/api/sandbox.md "Triggers"). The real outcome is test-e2e/sandbox-triggers.e2e.test.ts's.

const at = timestampFromDate(new Date('2026-01-02T03:04:05.678Z'));

function fakes() {
  const pays: PayRequest[] = [];
  const decoded: string[] = [];
  const clients = {
    decoder: {
      decode: async ({ qrString }: { qrString: string }) => {
        decoded.push(qrString);
        return {
          decoded: create(DecodedQrSchema, {
            schemeId: 'BR.PIX',
            country: 'BR',
            currency: 'BRL',
            amount: { currency: 'BRL', amountMinor: 2051n },
            creditor: { name: 'Padaria', account: '123e4567-e89b-42d3-a456-426614174000' },
            confidence: 1,
            rail: 'pix',
          }),
        };
      },
    },
    currencies: { isQuotable: async () => true },
    payout: {
      pay: async (req: PayRequest) => {
        pays.push(req);
        return {
          replayed: false,
          instruction: create(InstructionSchema, {
            id: 'ins_01JD0000000000000000000001',
            decoded: req.decoded,
          }),
          transaction: create(TransactionSchema, {
            id: 'txn_01JD0000000000000000000001',
            instructionId: 'ins_01JD0000000000000000000001',
            status: TransactionStatus.FAILED,
            rail: 'pix',
            schemeId: 'BR.PIX',
            country: 'BR',
            creditor: { name: 'Padaria', account: '123e4567-e89b-42d3-a456-426614174000' },
            amount: { currency: 'BRL', amountMinor: 2051n },
            payAmount: { currency: 'BRL', amountMinor: 2051n },
            error: { code: 'AC03', reason: 'Invalid creditor account' },
            createdAt: at,
            updatedAt: at,
            statusHistory: [
              { status: TransactionStatus.PENDING, at },
              { status: TransactionStatus.FAILED, at },
            ],
          }),
        };
      },
    },
  };
  return { pays, decoded, clients: clients as unknown as Partial<PublicAppDeps> };
}

const apps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

async function start(sandboxMode: boolean) {
  const f = fakes();
  const { app, base } = await startRouteTestApp({
    ...f.clients,
    payments: {
      idempotency: NO_IDEMPOTENCY_CACHE,
      settings: { get: async () => ({ executeWaitMs: 0, idempotencyKeyTtlMs: 86_400_000 }) },
      executeCallTimeoutMs: 1_000,
      partnerCallbackSecret: undefined,
      sandboxMode,
    },
  });
  apps.push(app);
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/v1/sandbox/triggers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': TEST_API_KEY, ...headers },
      body: JSON.stringify(body),
    });
  return { ...f, post, base };
}

describe('POST /v1/sandbox/triggers in the sandbox', () => {
  let sandbox: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    sandbox = await start(true);
  });

  it('pays the test QR of the event for the calling tenant under the request key, and answers 201', async () => {
    const res = await sandbox.post(
      { event: 'transaction.failed', callback_url: 'http://127.0.0.1:9000/hook' },
      { 'idempotency-key': 'trigger-1' },
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as { transaction: { status: string; error: { code: string } } };
    expect(body.transaction).toMatchObject({ status: 'failed', error: { code: 'AC03' } });
    const qr = SANDBOX_TEST_QRS.find((q) => q.id === SANDBOX_TRIGGER_QR_IDS['transaction.failed']);
    expect(sandbox.decoded.at(-1)).toBe(qr?.qr_string);
    expect(sandbox.pays.at(-1)).toMatchObject({
      tenantId: 'ten_a',
      idempotencyKey: 'trigger-1',
      callbackUrl: 'http://127.0.0.1:9000/hook',
      payer: { name: 'Jane Doe', country: 'US', idType: 'passport' },
    });
  });

  it('pays the completed test QR for transaction.completed', async () => {
    const res = await sandbox.post({ event: 'transaction.completed' }, { 'idempotency-key': 'trigger-2' });
    expect(res.status).toBe(201);
    const qr = SANDBOX_TEST_QRS.find((q) => q.id === SANDBOX_TRIGGER_QR_IDS['transaction.completed']);
    expect(qr?.expected.transaction_status).toBe('completed');
    expect(sandbox.decoded.at(-1)).toBe(qr?.qr_string);
  });

  it.each([
    [{ event: 'transaction.refunded' }, 'event'],
    [{}, 'event'],
    [{ event: 'transaction.failed', amount: 1 }, 'amount'],
  ])('refuses %j with 400 ValidationError naming %s, paying nothing', async (body, field) => {
    const before = sandbox.pays.length;
    const res = await sandbox.post(body, { 'idempotency-key': `bad-${field}` });
    expect(res.status).toBe(400);
    const error = (await res.json()) as { _tag: string; message: string };
    expect(error._tag).toBe('ValidationError');
    expect(error.message).toContain(field);
    expect(sandbox.pays).toHaveLength(before);
  });

  it('needs an Idempotency-Key like every payment', async () => {
    const res = await sandbox.post({ event: 'transaction.failed' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { _tag: string })._tag).toBe('IdempotencyKeyMissing');
  });

  it('needs the API key', async () => {
    const res = await sandbox.post({ event: 'transaction.failed' }, { 'x-api-key': 'nope' });
    expect(res.status).toBe(401);
  });

  it('shares the events with the trigger table, each mapped to a catalogue QR of that outcome', () => {
    const expected = { 'transaction.completed': 'completed', 'transaction.failed': 'failed' } as const;
    for (const [event, id] of Object.entries(SANDBOX_TRIGGER_QR_IDS)) {
      const qr = SANDBOX_TEST_QRS.find((q) => q.id === id);
      expect(qr?.expected.transaction_status).toBe(expected[event as keyof typeof expected]);
      expect(qr?.expected.answered_status).toBeUndefined();
    }
  });
});

describe('POST /v1/sandbox/triggers outside the sandbox', () => {
  it('answers 403 SandboxOnly whatever the body and key, paying nothing', async () => {
    const production = await start(false);
    for (const [body, headers] of [
      [{ event: 'transaction.failed' }, { 'idempotency-key': 'k' }],
      [{ event: 'nope' }, {}],
    ] as const) {
      const res = await production.post(body, headers);
      expect(res.status).toBe(403);
      const error = (await res.json()) as { _tag: string; docs_url: string };
      expect(error._tag).toBe('SandboxOnly');
      expect(error.docs_url).toMatch(/\/errors#SandboxOnly$/);
    }
    expect(production.pays).toHaveLength(0);
  });

  it('is documented alike: /v1/openapi.json is the same with and without SANDBOX_MODE', async () => {
    const documents = await Promise.all(
      [true, false].map(async (sandboxMode) => {
        const { base } = await start(sandboxMode);
        return (await fetch(`${base}/v1/openapi.json`)).text();
      }),
    );
    expect(documents[0]).toBe(documents[1]);
    expect(
      JSON.parse(documents[0] as string).paths['/v1/sandbox/triggers'].post.responses['403'],
    ).toBeDefined();
  });

  it('still authenticates first: no key is 401', async () => {
    const production = await start(false);
    const res = await production.post({ event: 'transaction.failed' }, { 'x-api-key': '' });
    expect(res.status).toBe(401);
  });
});
