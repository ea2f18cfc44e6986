import { isId, newId } from '@qr-payout/platform/ids';
import { isCurrencyCode } from '@qr-payout/platform/money';
import type { Money } from '@qr-payout/proto/payout/common/v1/common_pb';
import type { Quote } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { formatDecimal } from '../decimal/decimal';
import type { RateProvider } from '../rates/rate-provider';
import {
  consumerIdInvalid,
  currencyNotIso,
  currencyNotQuoted,
  pairNotQuoted,
  quoteAlreadyUsed,
  quoteExpired,
  quoteNotFound,
  sameCurrency,
  targetAmountInvalid,
  tenantRequired,
  walletCurrencyNotQuoted,
} from './errors';
import { priceQuote } from './quote-math';
import { toQuoteMessage } from './quote-message';
import type { QuoteStore } from './store';

const INT64_MAX = 2n ** 63n - 1n;
const MAX_CONSUMER_ID_LENGTH = 128;

export type QuotePricing = {
  /** Spread below the mid, basis points (FX_SPREAD_BPS). */
  readonly spreadBps: number;
  /** Fee on top of the source amount, basis points (FX_FEE_BPS). */
  readonly feeBps: number;
  /** How long a quote can be confirmed (FX_QUOTE_TTL_MS). */
  readonly ttlMs: number;
};

export type CreateQuoteInput = {
  readonly tenantId: string;
  /** The payer's wallet currency. */
  readonly sourceCurrency: string;
  /** What the merchant must receive. */
  readonly target: Money | undefined;
};

export interface QuoteService {
  /** Prices and stores an open quote; ValidationError (field wallet_currency) when fx cannot quote it. */
  createQuote(input: CreateQuoteInput, signal?: AbortSignal): Promise<Quote>;
  /** The tenant's quote; NotFoundError for an unknown id or another tenant's id. */
  getQuote(tenantId: string, quoteId: string): Promise<Quote>;
  /**
   * Consumes the quote for `consumerId`. Again by the same consumer: the same confirmed quote.
   * QuoteAlreadyUsed when another consumer has it, QuoteExpired when it expired while open.
   */
  confirmQuote(tenantId: string, quoteId: string, consumerId: string): Promise<Quote>;
}

export type QuoteServiceDeps = {
  readonly store: QuoteStore;
  readonly rates: RateProvider;
  /** ISO 4217 minor-unit digits of every currency fx quotes. */
  readonly minorUnits: ReadonlyMap<string, number>;
  readonly pricing: QuotePricing;
};

export function createQuoteService(deps: QuoteServiceDeps): QuoteService {
  function digitsOf(code: string, notQuoted: (code: string) => Error): number {
    if (!isCurrencyCode(code)) throw currencyNotIso();
    const digits = deps.minorUnits.get(code);
    if (digits === undefined) throw notQuoted(code);
    return digits;
  }

  return {
    async createQuote({ tenantId, sourceCurrency, target }, signal) {
      if (tenantId === '') throw tenantRequired();
      if (!target) throw targetAmountInvalid('is required');
      if (target.amountMinor <= 0n) throw targetAmountInvalid('must be positive');
      if (sourceCurrency === target.currency) throw sameCurrency(sourceCurrency);
      const targetDigits = digitsOf(target.currency, currencyNotQuoted);
      const sourceDigits = digitsOf(sourceCurrency, walletCurrencyNotQuoted);
      const mid = await deps.rates.getMid(sourceCurrency, target.currency, signal);
      if (!mid) throw pairNotQuoted(sourceCurrency, target.currency);

      const { spreadBps, feeBps, ttlMs } = deps.pricing;
      const price = priceQuote({
        targetMinor: target.amountMinor,
        targetDigits,
        sourceDigits,
        mid: mid.mid,
        spreadBps,
        feeBps,
      });
      // The payer's total must fit the int64 money fields downstream.
      if (price.sourceMinor + price.feeMinor > INT64_MAX) {
        throw targetAmountInvalid(`is too large to convert to ${sourceCurrency}`);
      }
      const stored = await deps.store.insertQuote({
        id: newId('quo'),
        tenantId,
        sourceCurrency,
        targetCurrency: target.currency,
        rate: formatDecimal(price.rate),
        midRate: formatDecimal(mid.mid),
        spreadBps,
        sourceMinor: price.sourceMinor,
        targetMinor: target.amountMinor,
        feeMinor: price.feeMinor,
        ttlMs,
      });
      return toQuoteMessage(stored);
    },

    async getQuote(tenantId, quoteId) {
      if (tenantId === '') throw tenantRequired();
      if (!isId(quoteId, 'quo')) throw quoteNotFound();
      const stored = await deps.store.findQuote(tenantId, quoteId);
      if (!stored) throw quoteNotFound();
      return toQuoteMessage(stored);
    },

    async confirmQuote(tenantId, quoteId, consumerId) {
      if (tenantId === '') throw tenantRequired();
      if (consumerId === '') throw consumerIdInvalid('is required');
      if (consumerId.length > MAX_CONSUMER_ID_LENGTH) {
        throw consumerIdInvalid(`must be at most ${MAX_CONSUMER_ID_LENGTH} characters`);
      }
      if (!isId(quoteId, 'quo')) throw quoteNotFound();
      const confirmed = await deps.store.confirmOpenQuote(tenantId, quoteId, consumerId);
      if (confirmed) return toQuoteMessage(confirmed);
      // Nothing matched: read the quote again (a fresh snapshot, so a racing confirm that just
      // committed is visible) to say why.
      const stored = await deps.store.findQuote(tenantId, quoteId);
      if (!stored) throw quoteNotFound();
      if (stored.status === 'confirmed') {
        if (stored.consumerId === consumerId) return toQuoteMessage(stored);
        throw quoteAlreadyUsed(quoteId);
      }
      if (stored.expired) throw quoteExpired(quoteId);
      // The UPDATE saw it expired or confirmed, and neither undoes itself.
      throw new Error(`quote ${quoteId} is open and unexpired yet could not be confirmed`);
    },
  };
}
