import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Code } from '@connectrpc/connect';
import { readErrorDetail } from '@qr-payout/platform/errors';
import { createMemoryBus } from '@qr-payout/platform/events';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { Health, HealthCheckResponse_ServingStatus } from '@qr-payout/proto/grpc/health/v1/health_pb';
import { PayoutService, TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { freshSchema } from '@qr-payout/test-kit/schema';
import {
  databaseEnv,
  failure,
  runMigrateCommand,
  type ServiceOnFreshSchema,
  serviceEnv,
  startOnFreshSchema,
} from '@qr-payout/test-kit/service';
import type pg from 'pg';
import { loadPayoutConfig, type RunningPayout, startPayout } from '../src/index';
import { seedTransaction, tenant } from './fixtures';

describe('payout service', () => {
  const bus = createMemoryBus();
  let payout: ServiceOnFreshSchema<RunningPayout>;
  let schema: string;
  let admin: pg.Pool;
  let baseUrl: string;

  beforeAll(async () => {
    payout = await startOnFreshSchema('payout_test', (env) => startPayout(loadPayoutConfig(env), { bus }));
    schema = payout.schema.name;
    admin = payout.schema.pool();
    baseUrl = payout.url;
  });

  afterAll(async () => {
    await closeGrpcClients();
    await payout.stop();
    await bus.close();
  });

  it('answers grpc.health.v1.Health for the server and PayoutService', async () => {
    const health = createGrpcClient(Health, { baseUrl, timeoutMs: 2_000 });
    for (const service of ['', PayoutService.typeName]) {
      const { status } = await health.check({ service });
      expect({ service, status }).toEqual({ service, status: HealthCheckResponse_ServingStatus.SERVING });
    }
  });

  it('GetTransaction: NOT_FOUND with tag NotFoundError for an unknown id', async () => {
    const client = createGrpcClient(PayoutService, { baseUrl, timeoutMs: 2_000 });
    const err = await failure(
      client.getTransaction({ tenantId: 'ten_a', transactionId: 'txn_01JD0000000000000000000000' }),
    );
    expect(err.code).toBe(Code.NotFound);
    expect(readErrorDetail(err)).toMatchObject({ tag: 'NotFoundError', field: 'transaction_id' });
  });

  it("GetTransaction: reads a stored transaction for its tenant, NOT_FOUND for another tenant's", async () => {
    const tenantId = tenant();
    const seeded = await seedTransaction(admin, schema, tenantId, {
      amountMinor: 9_007_199_254_740_993n,
      callbackUrl: 'https://merchant.test/hook',
    });
    const client = createGrpcClient(PayoutService, { baseUrl, timeoutMs: 2_000 });

    const { transaction } = await client.getTransaction({ tenantId, transactionId: seeded.transactionId });
    expect(transaction).toMatchObject({
      id: seeded.transactionId,
      tenantId,
      instructionId: seeded.instructionId,
      status: TransactionStatus.PENDING,
      rail: 'pix',
      schemeId: 'BR.PIX',
      amount: { currency: 'BRL', amountMinor: 9_007_199_254_740_993n },
      callbackUrl: 'https://merchant.test/hook',
    });
    expect(transaction?.result).toBeUndefined();
    expect(transaction?.error).toBeUndefined();
    expect(Date.now() - timestampDate(transaction!.createdAt!).getTime()).toBeLessThan(60_000);

    const err = await failure(
      client.getTransaction({ tenantId: 'ten_other', transactionId: seeded.transactionId }),
    );
    expect(err.code).toBe(Code.NotFound);
    expect(readErrorDetail(err)?.tag).toBe('NotFoundError');
  });

  it('GetTransaction: a settled transaction carries its result', async () => {
    const seeded = await seedTransaction(admin, schema, 'ten_settled');
    await admin.query(
      `UPDATE "${schema}".transactions
          SET status = 'completed', result_reference = 'E2E0001', result_settled_at = now(), updated_at = now()
        WHERE id = $1`,
      [seeded.transactionId],
    );
    const client = createGrpcClient(PayoutService, { baseUrl, timeoutMs: 2_000 });
    const { transaction } = await client.getTransaction({
      tenantId: 'ten_settled',
      transactionId: seeded.transactionId,
    });
    expect(transaction?.status).toBe(TransactionStatus.COMPLETED);
    expect(transaction?.result?.reference).toBe('E2E0001');
  });

  it('never lets a transaction leave a terminal state (database backstop, docs/architecture.md "Transactions")', async () => {
    const seeded = await seedTransaction(admin, schema, 'ten_terminal');
    await admin.query(
      `UPDATE "${schema}".transactions
          SET status = 'failed', error_code = 'AC03', error_reason = 'invalid creditor account',
              error_partner_status = 'RJCT'
        WHERE id = $1`,
      [seeded.transactionId],
    );
    await expect(
      admin.query(
        `UPDATE "${schema}".transactions
            SET status = 'completed', result_reference = 'late', result_settled_at = now(),
                error_code = NULL, error_reason = NULL
          WHERE id = $1`,
        [seeded.transactionId],
      ),
    ).rejects.toThrow(/is failed and cannot change its outcome/);
    // Bookkeeping columns of a terminal transaction may still change.
    await admin.query(`UPDATE "${schema}".transactions SET lease_until = NULL WHERE id = $1`, [
      seeded.transactionId,
    ]);
  });

  it('keeps one transaction per instruction and one row per (tenant, idempotency key)', async () => {
    const seeded = await seedTransaction(admin, schema, 'ten_unique');
    await expect(
      admin.query(
        `INSERT INTO "${schema}".transactions (id, tenant_id, instruction_id, scheme_id, rail, amount_currency,
           amount_minor, pay_currency, pay_amount_minor, payer_name, payer_account, payer_tax_id)
         VALUES ('txn_01JD0000000000000000000077', 'ten_unique', $1, 'BR.PIX', 'pix', 'BRL', 1, 'BRL', 1, 'a', 'b', 'c')`,
        [seeded.instructionId],
      ),
    ).rejects.toThrow(/transactions_instruction_id_key/);
    const insertKey = () =>
      admin.query(
        `INSERT INTO "${schema}".idempotency_keys (tenant_id, key, request_fingerprint, transaction_id, expires_at)
         VALUES ('ten_unique', 'key-1', 'fp', $1, now() + interval '24 hours')`,
        [seeded.transactionId],
      );
    await insertKey();
    await expect(insertKey()).rejects.toThrow(/idempotency_keys_pkey/);
  });

  // Their behaviour is covered by execute.int.test.ts; here only that every RPC is served.
  it('serves ExecuteInstruction and ApplyPartnerCallback', async () => {
    const client = createGrpcClient(PayoutService, { baseUrl, timeoutMs: 2_000 });
    const execute = await failure(client.executeInstruction({ tenantId: 'ten_a', instructionId: 'ins_x' }));
    expect(readErrorDetail(execute)).toMatchObject({
      tag: 'IdempotencyKeyMissing',
      code: Code.InvalidArgument,
    });
    const callback = await failure(client.applyPartnerCallback({ rail: 'pix', payload: Buffer.from('{}') }));
    expect(readErrorDetail(callback)).toMatchObject({ tag: 'ValidationError', field: 'payload' });
  });

  it('starts with its own Kafka bus, which connects only on first publish', async () => {
    const other = freshSchema('payout_test');
    const env = serviceEnv({ ...databaseEnv(other.name), KAFKA_BROKERS: '127.0.0.1:1' });
    const started = await startPayout(loadPayoutConfig(env));
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    await started.stop();
    await other.drop();
  });

  it('`node src/main.ts migrate` applies the migrations and exits', async () => {
    const other = freshSchema('payout_test');
    await runMigrateCommand('services/payout/src/main.ts', other.name);
    const { rows } = await admin.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
      [other.name],
    );
    await other.drop();
    expect(rows.map((row) => row.table_name)).toEqual([
      'idempotency_keys',
      'instructions',
      'outbox_events',
      'schema_migrations',
      'transactions',
    ]);
  }, 30_000);
});
