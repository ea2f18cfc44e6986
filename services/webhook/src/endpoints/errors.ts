import { Code, serviceError } from '@qr-payout/platform/errors';

/** 404 NotFoundError: no endpoint with that id (docs/api/errors.md "Error names"). */
export function endpointNotFound(endpointId: string) {
  return serviceError('NotFoundError', 'webhook endpoint not found', {
    code: Code.NotFound,
    field: 'endpoint_id',
    metadata: { endpoint_id: endpointId },
  });
}
