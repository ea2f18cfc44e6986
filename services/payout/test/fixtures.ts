// Rows the store-level integration tests (constraints, GetTransaction, outbox) seed directly, so
// they need neither the partner simulator nor a settlement path.
import { newId } from '@qr-payout/platform';
import type pg from 'pg';

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
