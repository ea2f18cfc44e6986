import { Code, type ConnectError, serviceError } from '@qr-payout/platform/errors';

// The field the gateway names: fx is asked for a quote only when the payer's wallet_currency
// differs from the payment currency, so a currency or pair fx cannot quote is that field's fault.
const WALLET_CURRENCY = 'wallet_currency';

export function tenantRequired(): ConnectError {
  return serviceError('ValidationError', 'tenant_id is required', {
    code: Code.InvalidArgument,
    field: 'tenant_id',
  });
}

export function consumerIdInvalid(problem: string): ConnectError {
  return serviceError('ValidationError', `consumer_id ${problem}`, {
    code: Code.InvalidArgument,
    field: 'consumer_id',
  });
}

export function targetAmountInvalid(problem: string): ConnectError {
  return serviceError('ValidationError', `amount ${problem}`, {
    code: Code.InvalidArgument,
    field: 'amount',
  });
}

export function sameCurrency(code: string): ConnectError {
  return serviceError('ValidationError', `wallet_currency ${code} is the payment currency: no quote needed`, {
    code: Code.InvalidArgument,
    field: WALLET_CURRENCY,
  });
}

export function currencyNotIso(): ConnectError {
  return serviceError('ValidationError', 'currency must be an ISO 4217 code of three capital letters', {
    code: Code.InvalidArgument,
    field: WALLET_CURRENCY,
  });
}

export function currencyNotQuoted(code: string): ConnectError {
  return serviceError('ValidationError', `currency ${code} is not supported for conversion`, {
    code: Code.InvalidArgument,
    field: WALLET_CURRENCY,
    metadata: { currency: code },
  });
}

/** The payer's currency is not one fx quotes from: the one check of it (docs/api/fx-and-confidence.md "Wallet currencies"). */
export function walletCurrencyNotQuoted(code: string): ConnectError {
  return serviceError(
    'ValidationError',
    `wallet_currency ${code} is not a currency we quote from; GET /v1/fx/currencies lists those we do.`,
    { code: Code.InvalidArgument, field: WALLET_CURRENCY, metadata: { currency: code } },
  );
}

export function pairNotQuoted(source: string, target: string): ConnectError {
  return serviceError('ValidationError', `no rate from ${source} to ${target}`, {
    code: Code.InvalidArgument,
    field: WALLET_CURRENCY,
    metadata: { source_currency: source, target_currency: target },
  });
}

// docs/api/errors.md "Error names": NotFound for an unknown id and for another tenant's id alike,
// so a caller cannot probe which ids exist.
export function quoteNotFound(): ConnectError {
  return serviceError('NotFoundError', 'quote not found', { code: Code.NotFound, field: 'quote_id' });
}

export function quoteExpired(quoteId: string): ConnectError {
  return serviceError('QuoteExpired', 'the FX quote has expired', {
    code: Code.FailedPrecondition,
    field: 'quote_id',
    metadata: { quote_id: quoteId },
  });
}

export function quoteAlreadyUsed(quoteId: string): ConnectError {
  return serviceError('QuoteAlreadyUsed', 'the FX quote was already used by another payment', {
    code: Code.FailedPrecondition,
    field: 'quote_id',
    metadata: { quote_id: quoteId },
  });
}
