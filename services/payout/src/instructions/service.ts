import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { isId, newId } from '@qr-payout/platform';
import { type Money, MoneySchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import type { DecodedQr } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { Quote } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import {
  type CreateInstructionRequest,
  type Instruction,
  InstructionSchema,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { checkWithinRailLimits, type RailLimitTable } from '../limits/rail-limits';
import { tenantRequired } from '../transactions/errors';
import { chargeKeyOf } from './charge-key';
import { amountMismatch, instructionNotFound, invalidInstruction } from './errors';
import { decodedToJson, quoteToJson, toInstructionMessage } from './instruction-message';
import type { InstructionStore } from './store';

export interface InstructionService {
  /** Stores the resolved instruction of a tenant (spec §2.1, design §3) and returns it. */
  createInstruction(req: CreateInstructionRequest): Promise<Instruction>;
  /** The tenant's instruction; NotFoundError for an unknown id or another tenant's id. */
  getInstruction(tenantId: string, instructionId: string): Promise<Instruction>;
}

const COUNTRY = /^[A-Z]{2}$/;
const CURRENCY = /^[A-Z]{3}$/;

function sameMoney(a: Money | undefined, b: Money): boolean {
  return a !== undefined && a.currency === b.currency && a.amountMinor === b.amountMinor;
}

function checkDecoded(decoded: DecodedQr | undefined): DecodedQr {
  if (!decoded) throw invalidInstruction('decoded', 'decoded is required');
  if (decoded.schemeId === '' || decoded.rail === '')
    throw invalidInstruction('decoded', 'decoded needs scheme_id and rail');
  if (!COUNTRY.test(decoded.country))
    throw invalidInstruction('decoded', 'decoded.country must be ISO 3166-1 alpha-2');
  if (!CURRENCY.test(decoded.currency))
    throw invalidInstruction('decoded', 'decoded.currency must be ISO 4217 alphabetic');
  return decoded;
}

function checkAmount(amount: Money | undefined, decoded: DecodedQr): Money {
  if (!amount) throw invalidInstruction('amount', 'amount is required');
  if (amount.currency !== decoded.currency)
    throw invalidInstruction('amount', 'amount must be in the currency of the QR code');
  if (amount.amountMinor <= 0n) throw invalidInstruction('amount', 'amount must be positive');
  // design §3: a QR with an amount is paid exactly that amount.
  if (decoded.amount !== undefined && !sameMoney(decoded.amount, amount)) throw amountMismatch();
  return amount;
}

/**
 * What the payer pays under the quote: its source amount plus the fee charged on top (fx.v1.Quote).
 * The quote must be the tenant's and must deliver exactly the amount the merchant receives.
 */
function payAmountUnder(quote: Quote, tenantId: string, amount: Money): Money {
  if (!isId(quote.id, 'quo')) throw invalidInstruction('quote', 'quote.id must be a quo_ id');
  if (quote.tenantId !== tenantId) throw invalidInstruction('quote', 'quote belongs to another tenant');
  if (!sameMoney(quote.target, amount))
    throw invalidInstruction('quote', 'quote.target must equal the instruction amount');
  const source = quote.source;
  if (!source || !CURRENCY.test(source.currency) || source.amountMinor <= 0n)
    throw invalidInstruction('quote', 'quote.source must be a positive amount');
  if (source.currency === amount.currency)
    throw invalidInstruction('quote', 'a quote converts from another currency');
  const fee = quote.fee?.amountMinor ?? 0n;
  if (fee < 0n || (fee > 0n && quote.fee?.currency !== source.currency))
    throw invalidInstruction('quote', 'quote.fee must be in the source currency');
  return create(MoneySchema, { currency: source.currency, amountMinor: source.amountMinor + fee });
}

export function createInstructionService(deps: {
  store: InstructionStore;
  /** Per-rail amount limits (RAIL_LIMITS_*): the one place an amount is checked against them. */
  railLimits: RailLimitTable;
}): InstructionService {
  return {
    async createInstruction(req) {
      if (req.tenantId === '') throw tenantRequired();
      const decoded = checkDecoded(req.decoded);
      const amount = checkAmount(req.amount, decoded);
      // Checked where the amount is fixed: execute and pay only ever pay a stored instruction.
      checkWithinRailLimits(deps.railLimits, decoded.rail, amount);
      // Instruction.pay_amount: what the payer pays, the amount itself without FX.
      const payAmount = req.quote ? payAmountUnder(req.quote, req.tenantId, amount) : amount;
      const id = newId('ins');
      const { createdAt } = await deps.store.insertInstruction({
        id,
        tenantId: req.tenantId,
        schemeId: decoded.schemeId,
        country: decoded.country,
        rail: decoded.rail,
        decodedJson: decodedToJson(decoded),
        amountCurrency: amount.currency,
        amountMinor: amount.amountMinor,
        payCurrency: payAmount.currency,
        payAmountMinor: payAmount.amountMinor,
        quoteId: req.quote?.id ?? null,
        quoteJson: req.quote ? quoteToJson(req.quote) : null,
        chargeKey: chargeKeyOf(decoded),
      });
      return create(InstructionSchema, {
        id,
        tenantId: req.tenantId,
        decoded,
        amount,
        payAmount,
        ...(req.quote ? { quote: req.quote } : {}),
        createdAt: timestampFromDate(createdAt),
        transactionId: '',
      });
    },

    async getInstruction(tenantId, instructionId) {
      if (tenantId === '') throw tenantRequired();
      // Ids are ASCII and short; anything else cannot exist, and is not worth a query.
      if (instructionId === '' || instructionId.length > 64) throw instructionNotFound();
      const row = await deps.store.findInstruction(tenantId, instructionId);
      if (!row) throw instructionNotFound();
      return toInstructionMessage(row);
    },
  };
}
