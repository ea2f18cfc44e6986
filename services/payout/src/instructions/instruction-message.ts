import { create, fromJson, type JsonValue, toJson } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type DecodedQr, DecodedQrSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { type Quote, QuoteSchema } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { type Instruction, InstructionSchema } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { StoredInstruction } from './store';

// The decoded QR and the quote are stored as protobuf JSON (jsonb): support can read them in psql,
// and JSON field names survive a contract that gains fields (unknown ones are ignored on read).
const READ_OPTIONS = { ignoreUnknownFields: true };

export function decodedToJson(decoded: DecodedQr): JsonValue {
  return toJson(DecodedQrSchema, decoded);
}

export function quoteToJson(quote: Quote): JsonValue {
  return toJson(QuoteSchema, quote);
}

/** The payout.payout.v1.Instruction of a stored instruction. */
export function toInstructionMessage(row: StoredInstruction): Instruction {
  return create(InstructionSchema, {
    id: row.id,
    tenantId: row.tenantId,
    decoded: fromJson(DecodedQrSchema, row.decoded as JsonValue, READ_OPTIONS),
    amount: { currency: row.amountCurrency, amountMinor: row.amountMinor },
    payAmount: { currency: row.payCurrency, amountMinor: row.payAmountMinor },
    ...(row.quote !== null ? { quote: fromJson(QuoteSchema, row.quote as JsonValue, READ_OPTIONS) } : {}),
    createdAt: timestampFromDate(row.createdAt),
    transactionId: row.transactionId ?? '',
  });
}
