import { Code, type ConnectError, serviceError } from '@qr-payout/platform/errors';

// docs/api/errors.md "Error names": 404 NotFoundError for an unknown id and for another tenant's id
// alike, so a caller cannot probe which ids exist.
export function transactionNotFound(): ConnectError {
  return serviceError('NotFoundError', 'transaction not found', {
    code: Code.NotFound,
    field: 'transaction_id',
  });
}

export function tenantRequired(): ConnectError {
  return serviceError('ValidationError', 'tenant_id is required', {
    code: Code.InvalidArgument,
    field: 'tenant_id',
  });
}

/** A ListTransactions parameter out of its range; `field` is the public query parameter's name. */
export function invalidListParameter(field: string, message: string): ConnectError {
  return serviceError('ValidationError', message, { code: Code.InvalidArgument, field });
}
