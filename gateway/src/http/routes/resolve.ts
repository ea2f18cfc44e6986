import { create } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { Client } from '@connectrpc/connect';
import { type Money, MoneySchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import type { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { FxService, Quote } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { Instruction, PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { apiError } from '../../errors/api-error';
import type { CurrencyCatalogue } from '../../fx/currencies';
import { fromMinorUnits, toMinorUnits } from '../money';
import { RESOLVE_REQUEST_SCHEMA } from '../schemas';

export interface ResolveRouteDeps {
  decoder: Pick<Client<typeof DecoderService>, 'decode'>;
  fx: Pick<Client<typeof FxService>, 'createQuote'>;
  currencies: CurrencyCatalogue;
  payout: Pick<Client<typeof PayoutService>, 'createInstruction'>;
  authenticate: onRequestAsyncHookHandler;
}

interface ResolveBody {
  qr_string: string;
  wallet_currency?: string;
  amount?: number;
}

/**
 * POST /v1/resolve (spec §4.1): decode the QR text, quote FX when the wallet currency differs
 * from the payment currency (spec §1.2), and store the instruction in payout. The amount comes
 * from the QR, or from the request for a QR without one (design §3).
 */
export function registerResolveRoute(app: FastifyInstance, deps: ResolveRouteDeps): void {
  app.post<{ Body: ResolveBody }>(
    '/v1/resolve',
    { onRequest: deps.authenticate, schema: { body: RESOLVE_REQUEST_SCHEMA } },
    async (request) => {
      const tenantId = request.auth?.tenantId ?? '';
      const walletCurrency = request.body.wallet_currency;
      // A request field first: an unknown currency is the client's error whatever the QR says.
      if (walletCurrency !== undefined && !(await deps.currencies.isQuotable(walletCurrency))) {
        throw apiError(
          'ValidationError',
          `wallet_currency ${walletCurrency} is not a currency we quote from (ISO 4217 code, upper case).`,
        );
      }
      const { decoded } = await deps.decoder.decode({ qrString: request.body.qr_string });
      if (!decoded) throw new Error('decoder returned no instruction');
      const amount = create(MoneySchema, {
        currency: decoded.currency,
        amountMinor: amountToPay(decoded.amount?.amountMinor, request.body.amount, decoded.currency),
      });
      const quote =
        walletCurrency !== undefined && walletCurrency !== decoded.currency
          ? await quoteFor(deps.fx, tenantId, walletCurrency, amount)
          : undefined;
      const { instruction } = await deps.payout.createInstruction({
        tenantId,
        decoded,
        amount,
        ...(quote ? { quote } : {}),
      });
      if (!instruction) throw new Error('payout returned no instruction');
      return {
        instruction: toPublicInstruction(instruction, {
          walletCurrencyRequested: walletCurrency !== undefined,
        }),
        request_id: request.id,
      };
    },
  );
}

/** design §3: the QR's amount, or the request's for a QR without one; both only when equal. */
function amountToPay(
  qrAmount: bigint | undefined,
  requestAmount: number | undefined,
  currency: string,
): bigint {
  const requested = requestAmount === undefined ? undefined : toMinorUnits(requestAmount, currency, 'amount');
  if (qrAmount === undefined && requested === undefined) throw apiError('AmountRequired');
  if (qrAmount !== undefined && requested !== undefined && qrAmount !== requested)
    throw apiError('AmountMismatch');
  return (qrAmount ?? requested) as bigint;
}

async function quoteFor(
  fx: ResolveRouteDeps['fx'],
  tenantId: string,
  sourceCurrency: string,
  target: Money,
): Promise<Quote> {
  const { quote } = await fx.createQuote({ tenantId, sourceCurrency, target });
  if (!quote) throw new Error('fx returned no quote');
  return quote;
}

function money(m: Money | undefined): number {
  return m ? fromMinorUnits(m.amountMinor, m.currency) : 0;
}

/** The public quote (docs/api-conventions.md "FX quotes"). */
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
 * The public instruction: exactly the spec §2.1 fields, plus wallet_currency, wallet_amount and
 * quote when the request carried wallet_currency (null quote when no conversion was needed).
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
