import { Code, serviceError } from '@qr-payout/platform/errors';

/**
 * 404 NotFoundError: no delivery with that id for this tenant (docs/api/errors.md "Error names": no
 * probing).
 */
export function deliveryNotFound(deliveryId: string) {
  return serviceError('NotFoundError', 'webhook delivery not found', {
    code: Code.NotFound,
    field: 'delivery_id',
    metadata: { delivery_id: deliveryId },
  });
}

/**
 * 409 DeliveryInFlight: replay of a pending or delivering delivery
 * (docs/api/webhooks.md "Delivery states").
 */
export function deliveryInFlight(deliveryId: string, status: string) {
  return serviceError(
    'DeliveryInFlight',
    `The delivery is ${status}; replay it once it is delivered, failed or exhausted.`,
    { code: Code.FailedPrecondition, field: 'delivery_id', metadata: { delivery_id: deliveryId, status } },
  );
}
