// A claimed delivery from its attempt to its recorded state (services/webhook/README.md "Delivery
// worker"): an attempt of a disabled endpoint's delivery fails it at once; otherwise the attempt is
// made, a success joins the grouped delivered statement, a failure is written on its own, and an
// endpoint the failure auto-disables fails its other pending deliveries with it.
import type { Logger } from '@qr-payout/platform/log';
import type { DeliveryMetrics } from '../metrics';
import { type AttemptSending, nextStep, signAndSend } from './attempt';
import { inAttemptSpan } from './attempt-span';
import type { DeliveredBatcher } from './delivered-batch';
import type * as store from './store';

export type AttemptDeliveryDeps = {
  deliveries: store.DeliveryStore;
  logger: Logger;
  attemptSending: AttemptSending;
  /** Multiplies every retry delay (WEBHOOK_RETRY_SCALE). */
  retryScale: number;
  autoDisable: store.AutoDisableRule;
  random: () => number;
  delivered: DeliveredBatcher;
  counted: DeliveryMetrics;
  /** Asks the worker to look again when a pending retry falls due. */
  retryDueAt(at: Date): void;
};

/** Attempts a claimed delivery and records what follows; `sent` frees its slot once the HTTP exchange ends. */
export type AttemptDelivery = (
  claimed: store.ClaimedDelivery,
  leaseToken: string,
  sent: () => void,
) => Promise<void>;

export function createAttemptDelivery(deps: AttemptDeliveryDeps): AttemptDelivery {
  const { deliveries, logger, attemptSending, autoDisable, delivered, counted } = deps;

  function leaseLost(claimed: store.ClaimedDelivery): void {
    logger.warn({ delivery_id: claimed.id }, 'delivery lease lapsed during the attempt; not recorded');
  }

  /** The endpoint's other pending deliveries fail with it (docs/api/webhooks.md "Auto-disable"). */
  async function failWithDisabledEndpoint(claimed: store.ClaimedDelivery, endpointId: string): Promise<void> {
    const failedWithIt = await deliveries.failPendingDeliveriesOfEndpoint(
      endpointId,
      autoDisable.deliveryError,
    );
    counted.finished('failed', failedWithIt);
    logger.warn(
      { endpoint_id: endpointId, tenant_id: claimed.tenantId },
      'webhook endpoint disabled: its attempts only failed for the auto-disable period',
    );
  }

  return async function attemptDelivery(claimed, leaseToken, sent) {
    const startedAt = new Date();
    if (claimed.endpointEnabled === false) {
      const failed = await deliveries.failClaimedDelivery({
        deliveryId: claimed.id,
        leaseToken,
        error: autoDisable.deliveryError,
      });
      if (failed) counted.finished('failed');
      return;
    }
    const attempt = await inAttemptSpan(claimed, () =>
      signAndSend(attemptSending, claimed, startedAt),
    ).finally(sent);
    counted.attempted(attempt);
    const { next, nextAttemptAt } = nextStep(attempt, claimed, deps.retryScale, deps.random);
    const { permanent: _permanent, retryAfterMs: _retryAfterMs, ...recorded } = attempt;
    const result = {
      ...recorded,
      deliveryId: claimed.id,
      leaseToken,
      trigger: claimed.trigger,
      next,
      nextAttemptAt,
    };
    if (next === 'delivered') {
      if (await delivered.record(result)) counted.finished('delivered');
      else leaseLost(claimed);
      return;
    }
    const finished = await deliveries.finishAttempt(result, autoDisable);
    if (!finished) {
      leaseLost(claimed);
      return;
    }
    counted.finished(finished.delivery.status);
    if (finished.endpointDisabled && claimed.endpointId)
      await failWithDisabledEndpoint(claimed, claimed.endpointId);
    if (next === 'pending' && nextAttemptAt) deps.retryDueAt(nextAttemptAt);
  };
}
