// The one implementation of what a QR resolves to (docs/api/resources.md "Instructions (resolve)";
// docs/architecture.md "Transactions"), for CreateInstruction (POST /v1/resolve) and Pay (POST
// /v1/pay) alike: the amount owed (the QR's, or the request's for a QR without one: AmountRequired,
// AmountMismatch), its rail's limits, and the FX quote when the payer pays from another currency.
// Nothing is stored here: the caller stores the instruction, alone (CreateInstruction) or with its
// transaction and key (Pay).
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { Client } from '@connectrpc/connect';
import { Code, ConnectError } from '@qr-payout/platform/errors';
import { isId, newId } from '@qr-payout/platform/ids';
import { isCurrencyCode } from '@qr-payout/platform/money';
import { type Money, MoneySchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import type { DecodedQr } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { FxService, Quote } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { type Instruction, InstructionSchema } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { dependencyUnavailable } from '../execution/errors';
import { checkWithinRailLimits, type RailLimitTable } from '../limits/rail-limits';
import { tenantRequired } from '../transactions/errors';
import { chargeKeyOf } from './charge-key';
import { amountMismatch, amountRequired, invalidInstruction } from './errors';
import { decodedToJson, quoteToJson } from './instruction-message';
import type { NewInstruction } from './store';

/** What a QR resolves to: the instruction's row, and the messages it was made of. */
export type ResolvedInstruction = {
  row: NewInstruction;
  decoded: DecodedQr;
  amount: Money;
  payAmount: Money;
  quote: Quote | undefined;
};

export type ResolveInput = {
  tenantId: string;
  decoded: DecodedQr | undefined;
  /** The request's amount in the QR's currency; undefined: the QR's. */
  amount: Money | undefined;
  /** A quote the caller made (CreateInstruction only); not together with walletCurrency. */
  quote?: Quote | undefined;
  /** ISO 4217 currency the payer pays from; '' or the QR's currency: no FX. */
  walletCurrency: string;
};

export interface InstructionResolver {
  resolve(input: ResolveInput, signal?: AbortSignal): Promise<ResolvedInstruction>;
}

const COUNTRY = /^[A-Z]{2}$/;
const FX_TIMEOUT_MS = 2_000;

function sameMoney(a: Money | undefined, b: Money): boolean {
  return a !== undefined && a.currency === b.currency && a.amountMinor === b.amountMinor;
}

function checkDecoded(decoded: DecodedQr | undefined): DecodedQr {
  if (!decoded) throw invalidInstruction('decoded', 'decoded is required');
  if (decoded.schemeId === '' || decoded.rail === '')
    throw invalidInstruction('decoded', 'decoded needs scheme_id and rail');
  if (!COUNTRY.test(decoded.country))
    throw invalidInstruction('decoded', 'decoded.country must be ISO 3166-1 alpha-2');
  if (!isCurrencyCode(decoded.currency))
    throw invalidInstruction('decoded', 'decoded.currency must be ISO 4217 alphabetic');
  return decoded;
}

/**
 * docs/api/resources.md "Instructions (resolve)": the QR's amount, or the request's for a QR
 * without one; both only when equal.
 */
function amountOwed(requested: Money | undefined, decoded: DecodedQr): Money {
  if (!requested) {
    if (decoded.amount === undefined) throw amountRequired();
    return create(MoneySchema, { currency: decoded.currency, amountMinor: decoded.amount.amountMinor });
  }
  if (requested.currency !== decoded.currency)
    throw invalidInstruction('amount', 'amount must be in the currency of the QR code');
  if (requested.amountMinor <= 0n) throw invalidInstruction('amount', 'amount must be positive');
  if (decoded.amount !== undefined && !sameMoney(decoded.amount, requested))
    throw amountMismatch(
      create(MoneySchema, { currency: decoded.currency, amountMinor: decoded.amount.amountMinor }),
    );
  return requested;
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
  if (!source || !isCurrencyCode(source.currency) || source.amountMinor <= 0n)
    throw invalidInstruction('quote', 'quote.source must be a positive amount');
  if (source.currency === amount.currency)
    throw invalidInstruction('quote', 'a quote converts from another currency');
  const fee = quote.fee?.amountMinor ?? 0n;
  if (fee < 0n || (fee > 0n && quote.fee?.currency !== source.currency))
    throw invalidInstruction('quote', 'quote.fee must be in the source currency');
  return create(MoneySchema, { currency: source.currency, amountMinor: source.amountMinor + fee });
}

/** The Instruction message of a resolved instruction as stored at `createdAt`. */
export function resolvedInstructionMessage(
  resolved: ResolvedInstruction,
  createdAt: Date,
  transactionId = '',
): Instruction {
  return create(InstructionSchema, {
    id: resolved.row.id,
    tenantId: resolved.row.tenantId,
    decoded: resolved.decoded,
    amount: resolved.amount,
    payAmount: resolved.payAmount,
    ...(resolved.quote ? { quote: resolved.quote } : {}),
    createdAt: timestampFromDate(createdAt),
    transactionId,
  });
}

export function createInstructionResolver(deps: {
  /** Per-rail amount limits (RAIL_LIMITS_*): the one place an amount is checked against them. */
  railLimits: RailLimitTable;
  /** Quotes a wallet currency other than the QR's; without it such a request is refused. */
  fx?: Pick<Client<typeof FxService>, 'createQuote'>;
}): InstructionResolver {
  async function quoteFor(
    tenantId: string,
    walletCurrency: string,
    amount: Money,
    signal?: AbortSignal,
  ): Promise<Quote> {
    if (!deps.fx) throw invalidInstruction('wallet_currency', 'FX is not available here');
    try {
      const { quote } = await deps.fx.createQuote(
        { tenantId, sourceCurrency: walletCurrency, target: amount },
        { timeoutMs: FX_TIMEOUT_MS, ...(signal ? { signal } : {}) },
      );
      if (!quote) throw new Error('fx returned no quote');
      return quote;
    } catch (err) {
      // fx's own refusals (an unknown currency, ...) carry their ErrorDetail through; fx being
      // down is ours to say, as retryable.
      const code = ConnectError.from(err).code;
      if (code === Code.Unavailable || code === Code.DeadlineExceeded) throw dependencyUnavailable('fx');
      throw err;
    }
  }

  return {
    async resolve(input, signal) {
      if (input.tenantId === '') throw tenantRequired();
      const decoded = checkDecoded(input.decoded);
      const amount = amountOwed(input.amount, decoded);
      // Checked where the amount is fixed: execute and pay only ever pay a resolved instruction.
      checkWithinRailLimits(deps.railLimits, decoded.rail, amount);
      const { walletCurrency } = input;
      if (walletCurrency !== '' && !isCurrencyCode(walletCurrency))
        throw invalidInstruction('wallet_currency', 'wallet_currency must be ISO 4217 alphabetic');
      if (walletCurrency !== '' && input.quote)
        throw invalidInstruction('quote', 'give a quote or a wallet_currency, not both');
      const quote =
        input.quote ??
        (walletCurrency !== '' && walletCurrency !== decoded.currency
          ? await quoteFor(input.tenantId, walletCurrency, amount, signal)
          : undefined);
      // Instruction.pay_amount: what the payer pays, the amount itself without FX.
      const payAmount = quote ? payAmountUnder(quote, input.tenantId, amount) : amount;
      return {
        row: {
          id: newId('ins'),
          tenantId: input.tenantId,
          schemeId: decoded.schemeId,
          country: decoded.country,
          rail: decoded.rail,
          decodedJson: decodedToJson(decoded),
          amountCurrency: amount.currency,
          amountMinor: amount.amountMinor,
          payCurrency: payAmount.currency,
          payAmountMinor: payAmount.amountMinor,
          quoteId: quote?.id ?? null,
          quoteJson: quote ? quoteToJson(quote) : null,
          chargeKey: chargeKeyOf(decoded),
        },
        decoded,
        amount,
        payAmount,
        quote,
      };
    },
  };
}
