// Pay (POST /v1/pay) over real gRPC, real fx, the real partner simulator: resolve and execute
// under one key in payout's own database (services/payout/README.md "Resolve and Pay").
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { Code } from '@connectrpc/connect';
import { readErrorDetail } from '@qr-payout/platform/errors';
import {
  type PayRequest,
  PayRequestSchema,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { failure } from '@qr-payout/test-kit/service';
import { fingerprintOf, pixQr, simStats, startWorld, tenant, type World } from './execute-harness';

const PAYER = { name: 'Ana Souza', account: '0001-12345-6', taxId: '123.456.789-09' };

function payRequest(
  tenantId: string,
  overrides: Omit<MessageInitShape<typeof PayRequestSchema>, '$typeName'> = {},
): PayRequest {
  return create(PayRequestSchema, {
    tenantId,
    decoded: pixQr(1250n),
    payer: PAYER,
    idempotencyKey: `pay key ${Math.random()}`,
    requestFingerprint: fingerprintOf({ qr: 'pix', payer: PAYER }),
    waitMs: 5_000,
    ...overrides,
  });
}

describe('payout Pay', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
  });

  afterAll(async () => {
    await world?.close();
  });

  async function rowsOf(tenantId: string) {
    const count = async (table: string) =>
      Number(
        (
          await world.admin.query<{ n: string }>(
            `SELECT count(*) AS n FROM "${world.schema}".${table} WHERE tenant_id = $1`,
            [tenantId],
          )
        ).rows[0]?.n,
      );
    return {
      instructions: await count('instructions'),
      transactions: await count('transactions'),
      keys: await count('idempotency_keys'),
    };
  }

  it('resolves and executes under one key; a retry replays both, from the database alone', async () => {
    const tenantId = tenant();
    // A key with a space: the one rule (platform idempotency-key) accepts it, here as at the gateway.
    const req = payRequest(tenantId, { idempotencyKey: 'order 42 pay' });
    const first = await world.client.pay(req);
    expect(first.replayed).toBe(false);
    expect(first.transaction).toMatchObject({
      tenantId,
      status: TransactionStatus.COMPLETED,
      instructionId: first.instruction?.id,
      amount: { currency: 'BRL', amountMinor: 1250n },
      country: 'BR',
    });
    expect(first.instruction).toMatchObject({
      tenantId,
      transactionId: first.transaction?.id,
      amount: { currency: 'BRL', amountMinor: 1250n },
    });
    const again = await world.client.pay(req);
    expect(again.replayed).toBe(true);
    expect(again.instruction).toEqual(first.instruction);
    expect(again.transaction?.id).toBe(first.transaction?.id);
    // The first answer's facts (country, creditor) came from memory, the replay's from the
    // database: the same transaction either way.
    expect(again.transaction).toEqual(first.transaction);
    expect(await rowsOf(tenantId)).toEqual({ instructions: 1, transactions: 1, keys: 1 });
  });

  it('IdempotencyConflict for the key with another fingerprint; nothing written', async () => {
    const tenantId = tenant();
    const req = payRequest(tenantId);
    await world.client.pay(req);
    const err = await failure(world.client.pay({ ...req, requestFingerprint: fingerprintOf('other') }));
    expect(readErrorDetail(err)).toMatchObject({ tag: 'IdempotencyConflict', field: 'idempotency_key' });
    expect(await rowsOf(tenantId)).toEqual({ instructions: 1, transactions: 1, keys: 1 });
  });

  it('a taken key is the earlier pay even when the new body does not resolve or check: IdempotencyConflict', async () => {
    const tenantId = tenant();
    const req = payRequest(tenantId, { decoded: pixQr(1270n) });
    await world.client.pay(req);
    // The key is not looked up before resolving (the INSERT decides): a refusal of the new body is
    // given only once the key is known to be free.
    for (const overrides of [{ decoded: pixQr() }, { callbackUrl: 'ftp://merchant.example/hook' }]) {
      const err = await failure(
        world.client.pay({ ...req, ...overrides, requestFingerprint: fingerprintOf(overrides) }),
      );
      expect(readErrorDetail(err)).toMatchObject({ tag: 'IdempotencyConflict', field: 'idempotency_key' });
    }
    expect(await rowsOf(tenantId)).toEqual({ instructions: 1, transactions: 1, keys: 1 });
  });

  it('20 concurrent pays with one key: one instruction, one transaction, one submission; losers leave nothing', async () => {
    const tenantId = tenant();
    const req = payRequest(tenantId, { decoded: pixQr(1260n) });
    const before = await simStats(world);
    const answers = await Promise.all(Array.from({ length: 20 }, () => world.client.pay(req)));
    const transactionIds = new Set(answers.map((a) => a.transaction?.id));
    const instructionIds = new Set(answers.map((a) => a.instruction?.id));
    expect([transactionIds.size, instructionIds.size]).toEqual([1, 1]);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect(await rowsOf(tenantId)).toEqual({ instructions: 1, transactions: 1, keys: 1 });
    const after = await simStats(world);
    const [txn] = [...transactionIds];
    expect((after.submissions[txn as string] ?? 0) - (before.submissions[txn as string] ?? 0)).toBe(1);
  });

  it('refuses what payout alone decides, naming the field, before writing anything', async () => {
    const tenantId = tenant();
    const cases: [MessageInitShape<typeof PayRequestSchema>, string, string][] = [
      [{ decoded: pixQr() }, 'AmountRequired', 'amount'],
      [{ amount: { currency: 'BRL', amountMinor: 99n } }, 'AmountMismatch', 'amount'],
      [{ callbackUrl: 'ftp://merchant.example/hook' }, 'ValidationError', 'callback_url'],
      [{ callbackUrl: 'https://user:pw@merchant.example/hook' }, 'ValidationError', 'callback_url'],
      [{ idempotencyKey: 'clé' }, 'ValidationError', 'idempotency_key'],
      [{ idempotencyKey: '   ' }, 'IdempotencyKeyMissing', 'idempotency_key'],
      [{ walletCurrency: 'usd' }, 'ValidationError', 'wallet_currency'],
    ];
    for (const [overrides, tag, field] of cases) {
      const err = await failure(world.client.pay(payRequest(tenantId, overrides)));
      expect([readErrorDetail(err)?.tag, readErrorDetail(err)?.field]).toEqual([tag, field]);
      expect(err.code).toBe(Code.InvalidArgument);
    }
    expect(await rowsOf(tenantId)).toEqual({ instructions: 0, transactions: 0, keys: 0 });
  });

  it('quotes a wallet currency with fx and shows what the payer pays', async () => {
    const tenantId = tenant();
    const req = payRequest(tenantId, { walletCurrency: 'USD' });
    const { instruction, transaction } = await world.client.pay(req);
    expect(instruction?.quote?.id).toMatch(/^quo_/);
    expect(instruction?.payAmount?.currency).toBe('USD');
    expect(transaction?.quote?.id).toBe(instruction?.quote?.id);
    expect(transaction?.quote?.rate).toBe(instruction?.quote?.rate);
    expect(transaction?.payAmount).toEqual(instruction?.payAmount);
    // The applied quote as the stored instruction shows it on a replay, the rate's string included.
    expect((await world.client.pay(req)).transaction).toEqual(transaction);
  });
});
