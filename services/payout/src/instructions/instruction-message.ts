import { create, fromJson, type JsonValue, toJson } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type DecodedQr, DecodedQrSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { type Quote, QuoteSchema } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { type Instruction, InstructionSchema } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { InstructionRow } from './store';

// The decoded QR and the quote are stored as protobuf JSON (jsonb): support can read them in psql,
// and JSON field names survive a contract that gains fields (unknown ones are ignored on read).
const READ_OPTIONS = { ignoreUnknownFields: true };

export function decodedToJson(decoded: DecodedQr): JsonValue {
  return toJson(DecodedQrSchema, decoded);
}

export function quoteToJson(quote: Quote): JsonValue {
  return toJson(QuoteSchema, quote);
}

/** The payout.payout.v1.Instruction of a stored row. */
export function toInstructionMessage(row: InstructionRow): Instruction {
  return create(InstructionSchema, {
    id: row.id,
    tenantId: row.tenant_id,
    decoded: fromJson(DecodedQrSchema, row.decoded as JsonValue, READ_OPTIONS),
    amount: { currency: row.amount_currency, amountMinor: BigInt(row.amount_minor) },
    payAmount: { currency: row.pay_currency, amountMinor: BigInt(row.pay_amount_minor) },
    ...(row.quote !== null ? { quote: fromJson(QuoteSchema, row.quote as JsonValue, READ_OPTIONS) } : {}),
    createdAt: timestampFromDate(row.created_at),
    transactionId: row.transaction_id ?? '',
  });
}
