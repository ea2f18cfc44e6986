import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { Money } from '@qr-payout/proto/payout/common/v1/common_pb';
import type { Quote } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { Instruction } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { fromMinorUnits } from '../money';

function money(m: Money | undefined): number {
  return m ? fromMinorUnits(m.amountMinor, m.currency) : 0;
}

/** The public quote (docs/api/fx-and-confidence.md "FX quotes"). */
export function toPublicQuote(quote: Quote) {
  return {
    id: quote.id,
    rate: quote.rate,
    source_amount: money(quote.source),
    source_currency: quote.source?.currency ?? '',
    target_amount: money(quote.target),
    target_currency: quote.target?.currency ?? '',
    fee: money(quote.fee),
    expires_at: quote.expiresAt ? timestampDate(quote.expiresAt).toISOString() : '',
  };
}

/**
 * The public instruction: exactly the docs/api/resources.md "Instructions (resolve)" fields, plus
 * wallet_currency, wallet_amount and quote when the request carried wallet_currency (null quote
 * when no conversion was needed).
 */
export function toPublicInstruction(instruction: Instruction, opts: { walletCurrencyRequested: boolean }) {
  const decoded = instruction.decoded;
  const amount = instruction.amount;
  const base = {
    id: instruction.id,
    amount: money(amount),
    currency: amount?.currency ?? decoded?.currency ?? '',
    creditor: { name: decoded?.creditor?.name ?? '', account: decoded?.creditor?.account ?? '' },
    scheme: decoded?.schemeId ?? '',
    country: decoded?.country ?? '',
    confidence: decoded?.confidence ?? 0,
  };
  if (!opts.walletCurrencyRequested) return base;
  const pay = instruction.payAmount ?? amount;
  return {
    ...base,
    wallet_currency: pay?.currency ?? base.currency,
    wallet_amount: money(pay),
    quote: instruction.quote ? toPublicQuote(instruction.quote) : null,
  };
}
