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

/**
 * 429 DeliveryReplayTooSoon: a replay sooner than WEBHOOK_REPLAY_MIN_INTERVAL_MS after the last
 * one (docs/api/webhooks.md "Webhook deliveries", Replay); Retry-After says when it is allowed.
 */
export function deliveryReplayTooSoon(deliveryId: string, minIntervalMs: number, retryAfterSeconds: number) {
  return serviceError(
    'DeliveryReplayTooSoon',
    `The delivery was replayed less than ${minIntervalMs / 1000} s ago; replay it again in ${retryAfterSeconds} s.`,
    {
      code: Code.ResourceExhausted,
      field: 'delivery_id',
      metadata: { delivery_id: deliveryId },
      retryAfterSeconds,
    },
  );
}
