// What several payout integration tests share: rows the store-level tests (constraints,
// GetTransaction, outbox) seed directly, so they need neither the partner simulator nor a
// settlement path; payout alone over gRPC on a fresh schema.
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import { createMemoryBus } from '@qr-payout/platform/events';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { newId } from '@qr-payout/platform/ids';
import {
  AccountType,
  type ConfidenceFactorSchema,
  type CreditorSchema,
  type DecodedQr,
  DecodedQrSchema,
  PointOfInitiation,
} from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { testTenantId } from '@qr-payout/test-kit/fixtures';
import { freshSchema } from '@qr-payout/test-kit/schema';
import { databaseEnv, serviceEnv } from '@qr-payout/test-kit/service';
import type pg from 'pg';
import { loadPayoutConfig, type RunningPayout, startPayout } from '../src/index';

/** A fresh tenant id, so tests sharing a schema never see each other's rows. */
export const tenant = () => testTenantId('ten');

/**
 * A static Pix QR as the decoder hands it to payout (DecodedQr), paying a Pix e-mail key unless
 * `over.creditor` says otherwise.
 */
export function pixQr(
  amountMinor?: bigint,
  over: {
    creditor?: MessageInitShape<typeof CreditorSchema>;
    confidenceFactors?: MessageInitShape<typeof ConfidenceFactorSchema>[];
  } = {},
): DecodedQr {
  return create(DecodedQrSchema, {
    schemeId: 'BR.PIX',
    country: 'BR',
    currency: 'BRL',
    ...(amountMinor !== undefined ? { amount: { currency: 'BRL', amountMinor } } : {}),
    creditor: over.creditor ?? {
      name: 'Padaria Pao Quente',
      account: 'padaria@example.com',
      accountType: AccountType.EMAIL,
      city: 'SAO PAULO',
      merchantCategoryCode: '5812',
    },
    confidence: 0.97,
    confidenceFactors: over.confidenceFactors ?? [],
    pointOfInitiation: PointOfInitiation.STATIC,
    rail: 'pix',
    references: { txid: 'PEDIDO42' },
  });
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
  const schema = freshSchema(schemaPrefix);
  const bus = createMemoryBus();
  const grpc = { schema: schema.name, admin: schema.pool(poolMax) } as GrpcPayout;
  let payout: RunningPayout;

  beforeAll(async () => {
    payout = await startPayout(loadPayoutConfig(serviceEnv(databaseEnv(schema.name, poolMax))), { bus });
    grpc.client = createGrpcClient(PayoutService, { baseUrl: payout.url, timeoutMs: 5_000 });
  });

  afterAll(async () => {
    await closeGrpcClients();
    await payout.stop();
    await bus.close();
    await schema.drop();
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
