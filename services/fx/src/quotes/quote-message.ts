import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type Quote, QuoteSchema, QuoteStatus } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { StoredQuote } from './store';

// An open quote past expiresAt reads as expired (the database decided `expired`).
function statusOf(quote: StoredQuote): QuoteStatus {
  if (quote.status === 'confirmed') return QuoteStatus.CONFIRMED;
  if (quote.expired) return QuoteStatus.EXPIRED;
  if (quote.status === 'open') return QuoteStatus.OPEN;
  throw new Error(`quote ${quote.id} has unknown status ${quote.status}`);
}

/** The payout.fx.v1.Quote of a stored quote. */
export function toQuoteMessage(quote: StoredQuote): Quote {
  return create(QuoteSchema, {
    id: quote.id,
    tenantId: quote.tenantId,
    rate: quote.rate,
    midRate: quote.midRate,
    spreadBps: quote.spreadBps,
    source: { currency: quote.sourceCurrency, amountMinor: quote.sourceMinor },
    target: { currency: quote.targetCurrency, amountMinor: quote.targetMinor },
    fee: { currency: quote.sourceCurrency, amountMinor: quote.feeMinor },
    createdAt: timestampFromDate(quote.createdAt),
    expiresAt: timestampFromDate(quote.expiresAt),
    status: statusOf(quote),
  });
}
