import { randomUUID } from 'node:crypto';
import type { Logger } from '@qr-payout/platform/log';
import { runOutsideTrace } from '@qr-payout/platform/telemetry';
import type { SealedBox } from '../crypto/sealed-box';
import type { EgressGuard } from '../egress/guard';
import { createDeliveryMetrics } from '../metrics';
import type { AttemptSending, SendSettings } from './attempt';
import { createAttemptDelivery } from './attempt-delivery';
import { createDeliveredBatcher } from './delivered-batch';
import type * as store from './store';

// The delivery worker (docs/api/webhooks.md "Delivery semantics", "Retries";
// services/webhook/README.md "Delivery worker"): claims due deliveries with a lease (FOR UPDATE
// SKIP LOCKED, committed before any HTTP), signs each attempt afresh, sends it through the egress
// guard, and records the attempt and the next state (a success in a grouped statement, a failure in
// one of its own). Replicas share the work through SKIP LOCKED; a crashed worker's lease lapses and
// its deliveries are claimed again.

export type DeliveryWorkerSettings = SendSettings & {
  /** Sends in flight at once. */
  concurrency: number;
  /** How often the worker looks for due deliveries when nothing woke it. */
  pollMs: number;
  /** How long a claim owns a delivery; longer than a whole attempt may take. */
  leaseMs: number;
  /** Multiplies every retry delay (WEBHOOK_RETRY_SCALE). */
  retryScale: number;
  autoDisable: store.AutoDisableRule;
};

export type DeliveryWorker = {
  /** Looks for due deliveries now (the dispatcher and replay call it after inserting). */
  wake(): void;
  /** Stops claiming and waits for the attempts in flight. */
  stop(): Promise<void>;
};

// At shutdown, attempts in flight get this long to finish before they are cut (and retried later).
const STOP_GRACE_MS = 2_000;

export function startDeliveryWorker(deps: {
  deliveries: store.DeliveryStore;
  sealedBox: SealedBox;
  guard: EgressGuard;
  logger: Logger;
  settings: DeliveryWorkerSettings;
  random?: () => number;
}): DeliveryWorker {
  const { deliveries, sealedBox, guard, logger, settings } = deps;
  const random = deps.random ?? Math.random;
  // Every attempt until its outcome is recorded (stop waits for them) ...
  const inFlight = new Set<Promise<void>>();
  // ... and how many are still sending: the slots WEBHOOK_WORKER_CONCURRENCY bounds. A slot frees
  // when the HTTP exchange ends, not when its row is written, so the writes (grouped) overlap the
  // next sends.
  let sending = 0;
  let stopped = false;
  let claiming: Promise<void> | undefined;
  let again = false;
  // The last claim filled every free slot: more may be due, so a finished attempt claims again.
  let backlog = false;
  let timer: NodeJS.Timeout | undefined;
  const shutdown = new AbortController();
  const attemptSending: AttemptSending = { sealedBox, guard, logger, settings, signal: shutdown.signal };
  const attemptDelivery = createAttemptDelivery({
    deliveries,
    logger,
    attemptSending,
    retryScale: settings.retryScale,
    autoDisable: settings.autoDisable,
    random,
    delivered: createDeliveredBatcher(deliveries),
    // webhook_attempts_total and webhook_deliveries_total (docs/runbooks.md "Oldest due delivery").
    counted: createDeliveryMetrics(),
    retryDueAt: (at) => scheduleWake(at.getTime() - Date.now()),
  });

  function track(claimed: store.ClaimedDelivery, leaseToken: string): void {
    sending++;
    let slotFreed = false;
    const freeSlot = (): void => {
      if (slotFreed) return;
      slotFreed = true;
      sending--;
      if (backlog) wake();
    };
    const running: Promise<void> = attemptDelivery(claimed, leaseToken, freeSlot)
      .catch((err: unknown) => {
        // The lease lapses and another round takes the delivery again.
        logger.error({ err, delivery_id: claimed.id }, 'delivery attempt failed unexpectedly');
      })
      .finally(() => {
        inFlight.delete(running);
        freeSlot();
      });
    inFlight.add(running);
  }

  async function claimRound(): Promise<void> {
    do {
      again = false;
      while (!stopped && sending < settings.concurrency) {
        const leaseToken = randomUUID();
        const limit = settings.concurrency - sending;
        const claimed = await deliveries.claimDueDeliveries({
          limit,
          leaseMs: settings.leaseMs,
          token: leaseToken,
        });
        for (const delivery of claimed) track(delivery, leaseToken);
        backlog = claimed.length === limit;
        if (!backlog) break;
      }
    } while (again && !stopped);
  }

  function wake(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    // Outside any trace: the dispatcher wakes the worker from its consumer span, but claims and
    // their writes serve many deliveries; each attempt joins its delivery's own trace.
    claiming = runOutsideTrace(claimRound)
      .catch((err: unknown) => logger.error({ err }, 'claiming due deliveries failed'))
      .finally(() => {
        claiming = undefined;
      });
  }

  // A wake-up at a retry's due time (for the first minute: the early retries, and every retry of
  // a scaled schedule), so they do not wait for the next poll.
  function scheduleWake(inMs: number): void {
    if (stopped || inMs >= Math.max(settings.pollMs, 60_000)) return;
    setTimeout(wake, Math.max(0, inMs)).unref();
  }

  function poll(): void {
    wake();
    timer = setTimeout(poll, settings.pollMs);
    timer.unref();
  }
  poll();

  return {
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await claiming;
      const cut = setTimeout(() => shutdown.abort(), STOP_GRACE_MS);
      await Promise.allSettled([...inFlight]);
      clearTimeout(cut);
    },
  };
}
