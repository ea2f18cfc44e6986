import type pg from 'pg';

/** A stored instruction as the services see it, with the transaction that executed it. */
export type StoredInstruction = {
  id: string;
  tenantId: string;
  /** payout.decoder.v1.DecodedQr in protobuf JSON. */
  decoded: unknown;
  amountCurrency: string;
  amountMinor: bigint;
  payCurrency: string;
  payAmountMinor: bigint;
  /** payout.fx.v1.Quote in protobuf JSON, null without FX. */
  quote: unknown;
  createdAt: Date;
  /** The transaction that executed it (from transactions.instruction_id), null while not executed. */
  transactionId: string | null;
};

/** A row of payout.instructions as findInstruction reads it (int8 columns arrive as strings). */
type InstructionRow = {
  id: string;
  tenant_id: string;
  decoded: unknown;
  amount_currency: string;
  amount_minor: string;
  pay_currency: string;
  pay_amount_minor: string;
  quote: unknown;
  created_at: Date;
  transaction_id: string | null;
};

function toStoredInstruction(row: InstructionRow): StoredInstruction {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    decoded: row.decoded,
    amountCurrency: row.amount_currency,
    amountMinor: BigInt(row.amount_minor),
    payCurrency: row.pay_currency,
    payAmountMinor: BigInt(row.pay_amount_minor),
    quote: row.quote,
    createdAt: row.created_at,
    transactionId: row.transaction_id,
  };
}

export type NewInstruction = {
  id: string;
  tenantId: string;
  schemeId: string;
  country: string;
  rail: string;
  decodedJson: unknown;
  amountCurrency: string;
  amountMinor: bigint;
  payCurrency: string;
  payAmountMinor: bigint;
  quoteId: string | null;
  quoteJson: unknown;
  /** The single-use charge the QR pays (`charge-key.ts`), null for a reusable QR. */
  chargeKey: string | null;
};

export interface InstructionStore {
  /** Inserts the instruction; resolves with the creation time the database gave it. */
  insertInstruction(instruction: NewInstruction): Promise<{ createdAt: Date }>;
  /** The tenant's instruction with this id; undefined for an unknown id or another tenant's. */
  findInstruction(tenantId: string, instructionId: string): Promise<StoredInstruction | undefined>;
}

export function createInstructionStore(pool: pg.Pool): InstructionStore {
  return {
    async insertInstruction(ins) {
      const { rows } = await pool.query<{ created_at: Date }>(
        `INSERT INTO instructions (id, tenant_id, scheme_id, country, rail, decoded,
           amount_currency, amount_minor, pay_currency, pay_amount_minor, quote_id, quote, charge_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         RETURNING created_at`,
        [
          ins.id,
          ins.tenantId,
          ins.schemeId,
          ins.country,
          ins.rail,
          JSON.stringify(ins.decodedJson),
          ins.amountCurrency,
          ins.amountMinor.toString(),
          ins.payCurrency,
          ins.payAmountMinor.toString(),
          ins.quoteId,
          ins.quoteJson === null ? null : JSON.stringify(ins.quoteJson),
          ins.chargeKey,
        ],
      );
      return { createdAt: rows[0]!.created_at };
    },

    async findInstruction(tenantId, instructionId) {
      // The executing transaction is read through transactions.instruction_id (UNIQUE, indexed):
      // one source of truth for "executed", nothing to keep in step on the instruction row.
      const { rows } = await pool.query<InstructionRow>(
        `SELECT i.id, i.tenant_id, i.decoded, i.amount_currency, i.amount_minor, i.pay_currency,
                i.pay_amount_minor, i.quote, i.created_at, t.id AS transaction_id
           FROM instructions i
           LEFT JOIN transactions t ON t.instruction_id = i.id
          WHERE i.id = $1 AND i.tenant_id = $2`,
        [instructionId, tenantId],
      );
      const row = rows[0];
      return row && toStoredInstruction(row);
    },
  };
}
