// What several payout integration tests share: rows the store-level tests (constraints,
// GetTransaction, outbox) seed directly, so they need neither the partner simulator nor a
// settlement path; payout alone over gRPC on a fresh schema; a call expected to fail.
import { randomBytes } from 'node:crypto';
import { type Client, ConnectError } from '@connectrpc/connect';
import { createMemoryBus } from '@qr-payout/platform/events';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { newId } from '@qr-payout/platform/ids';
import { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import pg from 'pg';
import { type RunningPayout, startPayout } from '../src/index';

/** A fresh tenant id, so tests sharing a schema never see each other's rows. */
export const tenant = () => `ten_${randomBytes(4).toString('hex')}`;

/** The error a call ended with; fails the test when the call succeeds. */
export async function failure(promise: Promise<unknown>): Promise<ConnectError> {
  try {
    await promise;
  } catch (err) {
    return ConnectError.from(err);
  }
  throw new Error('expected the call to fail');
}

export type GrpcPayout = {
  schema: string;
  admin: pg.Pool;
  /** Set by the suite's beforeAll. */
  client: Client<typeof PayoutService>;
};

/**
 * Payout alone (memory bus, no partner, no fx) over real gRPC against real PostgreSQL, for the
 * calling describe block: a random schema `<prefix>_<hex>` migrated at start and dropped after.
 */
export function usePayoutOverGrpc(schemaPrefix: string, poolMax: number): GrpcPayout {
  const DATABASE_URL = process.env.DATABASE_URL;
  if (!DATABASE_URL)
    throw new Error('DATABASE_URL is required for the integration tests (scripts/with-infra sets it)');
  const schema = `${schemaPrefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: DATABASE_URL, max: poolMax });
  const bus = createMemoryBus();
  const grpc = { schema, admin } as GrpcPayout;
  let payout: RunningPayout;

  beforeAll(async () => {
    payout = await startPayout(
      {
        DATABASE_URL,
        DB_SCHEMA: schema,
        DB_POOL_MAX: String(poolMax),
        MIGRATE_ON_START: 'true',
        GRPC_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      },
      { bus },
    );
    grpc.client = createGrpcClient(PayoutService, {
      baseUrl: `http://127.0.0.1:${payout.grpcPort}`,
      timeoutMs: 5_000,
    });
  });

  afterAll(async () => {
    await closeGrpcClients();
    await payout.close();
    await bus.close();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  return grpc;
}

export type SeededTransaction = { tenantId: string; instructionId: string; transactionId: string };

export async function seedTransaction(
  pool: pg.Pool,
  schema: string,
  tenantId: string,
  opts: { amountMinor?: bigint; callbackUrl?: string } = {},
): Promise<SeededTransaction> {
  const instructionId = newId('ins');
  const transactionId = newId('txn');
  const amountMinor = (opts.amountMinor ?? 12_345n).toString();
  await pool.query(
    `INSERT INTO "${schema}".instructions (id, tenant_id, scheme_id, country, rail, decoded,
       amount_currency, amount_minor, pay_currency, pay_amount_minor)
     VALUES ($1, $2, 'BR.PIX', 'BR', 'pix', '{"schemeId":"BR.PIX"}', 'BRL', $3, 'BRL', $3)`,
    [instructionId, tenantId, amountMinor],
  );
  await pool.query(
    `INSERT INTO "${schema}".transactions (id, tenant_id, instruction_id, scheme_id, rail,
       amount_currency, amount_minor, pay_currency, pay_amount_minor,
       payer_name, payer_account, payer_tax_id, callback_url)
     VALUES ($1, $2, $3, 'BR.PIX', 'pix', 'BRL', $4, 'BRL', $4,
       'Ana Souza', '0001-12345-6', '12345678909', $5)`,
    [transactionId, tenantId, instructionId, amountMinor, opts.callbackUrl ?? null],
  );
  return { tenantId, instructionId, transactionId };
}
