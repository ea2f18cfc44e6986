import { Code, serviceError } from '@qr-payout/platform';

/** 404 NotFoundError: no endpoint with that id (design §6). */
export function endpointNotFound(endpointId: string) {
  return serviceError('NotFoundError', 'webhook endpoint not found', {
    code: Code.NotFound,
    field: 'endpoint_id',
    metadata: { endpoint_id: endpointId },
  });
}
