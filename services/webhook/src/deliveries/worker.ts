import { randomUUID } from 'node:crypto';
import type { Logger } from '@qr-payout/platform/log';
import { runOutsideTrace } from '@qr-payout/platform/telemetry';
import { SIGNATURE_HEADER } from '@qr-payout/webhook-receiver';
import { signSignatureHeader } from '@qr-payout/webhook-receiver/signature-scheme';
import type { SealedBox } from '../crypto/sealed-box';
import type { EgressGuard } from '../egress/guard';
import { openEndpointHeaders } from '../endpoints/service';
import { createDeliveryMetrics } from '../metrics';
import { openSigningSecrets } from '../secrets/service';
import { inAttemptSpan } from './attempt-span';
import { createDeliveredBatcher } from './delivered-batch';
import { nextAttemptDelayMs, parseRetryAfter } from './schedule';
import { type SendOutcome, sendWebhook } from './sender';
import type * as store from './store';

// The delivery worker (docs/api/webhooks.md "Delivery semantics", "Retries";
// services/webhook/README.md "Delivery worker"): claims due deliveries with a lease (FOR UPDATE
// SKIP LOCKED, committed before any HTTP), signs each attempt afresh, sends it through the egress
// guard, and records the attempt and the next state (a success in a grouped statement, a failure in
// one of its own). Replicas share the work through SKIP LOCKED; a crashed worker's lease lapses and
// its deliveries are claimed again.

export type DeliveryWorkerSettings = {
  /** Sends in flight at once. */
  concurrency: number;
  /** How often the worker looks for due deliveries when nothing woke it. */
  pollMs: number;
  /** How long a claim owns a delivery; longer than a whole attempt may take. */
  leaseMs: number;
  connectTimeoutMs: number;
  timeoutMs: number;
  maxExcerptBytes: number;
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

const HTTP_RETRY_AFTER_STATUSES = new Set([429, 503]);
// At shutdown, attempts in flight get this long to finish before they are cut (and retried later).
const STOP_GRACE_MS = 2_000;

type Attempt = Omit<
  store.AttemptResult,
  'deliveryId' | 'leaseToken' | 'trigger' | 'next' | 'nextAttemptAt'
> & {
  /** A refusal that no retry can change (the egress guard refused the target). */
  permanent: boolean;
  retryAfterMs: number | undefined;
};

export function attemptFromOutcome(outcome: SendOutcome, startedAt: Date): Attempt {
  if (outcome.kind === 'response') {
    const succeeded = outcome.status >= 200 && outcome.status < 300;
    return {
      startedAt,
      durationMs: outcome.durationMs,
      succeeded,
      responseStatus: outcome.status,
      responseExcerpt: outcome.excerpt === '' ? null : outcome.excerpt,
      errorClass: succeeded ? null : 'http_status',
      error: succeeded ? null : `receiver answered HTTP ${outcome.status}`,
      resolvedAddress: outcome.address,
      permanent: false,
      retryAfterMs: HTTP_RETRY_AFTER_STATUSES.has(outcome.status)
        ? parseRetryAfter(outcome.retryAfter, new Date())
        : undefined,
    };
  }
  return {
    startedAt,
    durationMs: outcome.durationMs,
    succeeded: false,
    responseStatus: null,
    responseExcerpt: null,
    errorClass: outcome.errorClass,
    error: outcome.message,
    resolvedAddress: outcome.address || null,
    permanent: false,
    retryAfterMs: undefined,
  };
}

function failedBeforeSending(
  startedAt: Date,
  errorClass: string,
  error: string,
  permanent: boolean,
): Attempt {
  return {
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    succeeded: false,
    responseStatus: null,
    responseExcerpt: null,
    errorClass,
    error,
    resolvedAddress: null,
    permanent,
    retryAfterMs: undefined,
  };
}

/** What follows an attempt: delivered, failed (permanent), exhausted, or pending until its retry. */
export function nextStep(
  attempt: Attempt,
  claimed: store.ClaimedDelivery,
  retryScale: number,
  random: () => number,
): { next: store.AttemptResult['next']; nextAttemptAt: Date | null } {
  if (attempt.succeeded) return { next: 'delivered', nextAttemptAt: null };
  if (attempt.permanent) return { next: 'failed', nextAttemptAt: null };
  const delay = nextAttemptDelayMs({
    strategy: claimed.retryStrategy,
    attemptsMade: claimed.attempts + 1,
    scale: retryScale,
    random,
    retryAfterMs: attempt.retryAfterMs,
  });
  if (delay === undefined) return { next: 'exhausted', nextAttemptAt: null };
  return { next: 'pending', nextAttemptAt: new Date(Date.now() + delay) };
}

/** What signing and sending an attempt needs from the worker. */
type AttemptSending = {
  sealedBox: SealedBox;
  guard: EgressGuard;
  logger: Logger;
  settings: DeliveryWorkerSettings;
  /** Aborted when the worker's stop outlasts its grace. */
  signal: AbortSignal;
};

/**
 * One HTTP attempt of a claimed delivery: signed with the tenant's secrets, sent to the address
 * the egress guard allowed, or failed before sending when either is missing.
 */
async function signAndSend(
  { sealedBox, guard, logger, settings, signal }: AttemptSending,
  claimed: store.ClaimedDelivery,
  startedAt: Date,
): Promise<Attempt> {
  const secrets = openSigningSecrets(
    sealedBox,
    claimed.tenantId,
    claimed.secretSealed,
    claimed.previousSecretSealed,
  );
  if (secrets.length === 0) {
    return failedBeforeSending(startedAt, 'no_signing_secret', 'the tenant has no signing secret', false);
  }
  const target = await guard.check(claimed.url);
  if (!target.ok) {
    // What the resolver said stays here: the tenant sees one answer for every such name.
    if (target.detail) logger.info({ delivery_id: claimed.id, detail: target.detail }, 'no public address');
    return failedBeforeSending(
      startedAt,
      target.errorClass,
      target.reason,
      target.errorClass === 'refused_target',
    );
  }
  // Registered endpoints get their custom headers; callback_url is signature-only
  // (docs/api/webhooks.md "Custom headers").
  const custom =
    claimed.endpointId && claimed.headersSealed
      ? openEndpointHeaders(sealedBox, claimed.endpointId, claimed.headersSealed)
      : [];
  const headers: Record<string, string> = {};
  for (const { name, value } of custom) headers[name] = value;
  headers['x-event-id'] = claimed.eventId;
  headers['x-event-type'] = claimed.eventType;
  // Signed afresh on every attempt, never stored (docs/api/webhooks.md "The signature").
  headers[SIGNATURE_HEADER] = signSignatureHeader(secrets, claimed.payload, Math.floor(Date.now() / 1000));
  const outcome = await sendWebhook({
    target,
    headers,
    body: claimed.payload,
    connectTimeoutMs: settings.connectTimeoutMs,
    timeoutMs: settings.timeoutMs,
    maxExcerptBytes: settings.maxExcerptBytes,
    signal,
  });
  return attemptFromOutcome(outcome, startedAt);
}

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
  const delivered = createDeliveredBatcher(deliveries);
  // webhook_attempts_total and webhook_deliveries_total (docs/runbooks.md "Oldest due delivery").
  const counted = createDeliveryMetrics();

  async function attemptDelivery(
    claimed: store.ClaimedDelivery,
    leaseToken: string,
    sent: () => void,
  ): Promise<void> {
    const startedAt = new Date();
    if (claimed.endpointEnabled === false) {
      const failed = await deliveries.failClaimedDelivery({
        deliveryId: claimed.id,
        leaseToken,
        error: settings.autoDisable.deliveryError,
      });
      if (failed) counted.finished('failed');
      return;
    }
    const attempt = await inAttemptSpan(claimed, () =>
      signAndSend(attemptSending, claimed, startedAt),
    ).finally(sent);
    counted.attempted(attempt);
    const { next, nextAttemptAt } = nextStep(attempt, claimed, settings.retryScale, random);
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
    const finished = await deliveries.finishAttempt(result, settings.autoDisable);
    if (!finished) {
      leaseLost(claimed);
      return;
    }
    counted.finished(finished.delivery.status);
    if (finished.endpointDisabled && claimed.endpointId) {
      const failedWithIt = await deliveries.failPendingDeliveriesOfEndpoint(
        claimed.endpointId,
        settings.autoDisable.deliveryError,
      );
      counted.finished('failed', failedWithIt);
      logger.warn(
        { endpoint_id: claimed.endpointId, tenant_id: claimed.tenantId },
        'webhook endpoint disabled: its attempts only failed for the auto-disable period',
      );
    }
    if (next === 'pending' && nextAttemptAt) scheduleWake(nextAttemptAt.getTime() - Date.now());
  }

  function leaseLost(claimed: store.ClaimedDelivery): void {
    logger.warn({ delivery_id: claimed.id }, 'delivery lease lapsed during the attempt; not recorded');
  }

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
