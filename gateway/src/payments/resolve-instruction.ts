import { create } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import { type Money, MoneySchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import type { DecoderService } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { FxService, Quote } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { Instruction, PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { apiError } from '../errors/api-error';
import type { CurrencyCatalogue } from '../fx/currencies';
import { toMinorUnits } from '../http/money';

// The resolve step of the money path, shared by POST /v1/resolve and POST /v1/pay: decode the QR,
// quote FX when the wallet currency differs from the payment currency (spec §1.2), and store the
// instruction in payout. The amount comes from the QR, or from the request for a QR without one
// (design §3).

export interface ResolveInstructionDeps {
  decoder: Pick<Client<typeof DecoderService>, 'decode'>;
  fx: Pick<Client<typeof FxService>, 'createQuote'>;
  currencies: CurrencyCatalogue;
  payout: Pick<Client<typeof PayoutService>, 'createInstruction'>;
}

export interface ResolveInput {
  tenantId: string;
  qrString: string;
  walletCurrency?: string | undefined;
  amount?: number | undefined;
}

export async function resolveInstruction(
  deps: ResolveInstructionDeps,
  input: ResolveInput,
): Promise<Instruction> {
  const { walletCurrency } = input;
  // A request field first: an unknown currency is the client's error whatever the QR says.
  await checkWalletCurrency(deps.currencies, walletCurrency);
  const { decoded } = await deps.decoder.decode({ qrString: input.qrString });
  if (!decoded) throw new Error('decoder returned no instruction');
  const amount = create(MoneySchema, {
    currency: decoded.currency,
    amountMinor: amountToPay(decoded.amount?.amountMinor, input.amount, decoded.currency),
  });
  const quote =
    walletCurrency !== undefined && walletCurrency !== decoded.currency
      ? await quoteFor(deps.fx, input.tenantId, walletCurrency, amount)
      : undefined;
  const { instruction } = await deps.payout.createInstruction({
    tenantId: input.tenantId,
    decoded,
    amount,
    ...(quote ? { quote } : {}),
  });
  if (!instruction) throw new Error('payout returned no instruction');
  return instruction;
}

/** 400 ValidationError unless the wallet currency (when given) is one fx quotes from. */
export async function checkWalletCurrency(
  currencies: CurrencyCatalogue,
  walletCurrency: string | undefined,
): Promise<void> {
  if (walletCurrency !== undefined && !(await currencies.isQuotable(walletCurrency))) {
    throw apiError(
      'ValidationError',
      `wallet_currency ${walletCurrency} is not a currency we quote from (ISO 4217 code, upper case).`,
    );
  }
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
  fx: ResolveInstructionDeps['fx'],
  tenantId: string,
  sourceCurrency: string,
  target: Money,
): Promise<Quote> {
  const { quote } = await fx.createQuote({ tenantId, sourceCurrency, target });
  if (!quote) throw new Error('fx returned no quote');
  return quote;
}
