// One attempt of a claimed delivery (docs/api/webhooks.md "Delivery semantics", "Retries"): signed
// afresh with the tenant's secrets, sent through the egress guard, read into the attempt's record,
// and the state that follows it.
import type { Logger } from '@qr-payout/platform/log';
import { SIGNATURE_HEADER } from '@qr-payout/webhook-receiver';
import { signSignatureHeader } from '@qr-payout/webhook-receiver/signature-scheme';
import type { SealedBox } from '../crypto/sealed-box';
import type { EgressGuard } from '../egress/guard';
import { openEndpointHeaders } from '../endpoints/service';
import { openSigningSecrets } from '../secrets/service';
import { nextAttemptDelayMs, parseRetryAfter } from './schedule';
import { type SendOutcome, sendWebhook } from './sender';
import type * as store from './store';

const HTTP_RETRY_AFTER_STATUSES = new Set([429, 503]);

export type Attempt = Omit<
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

/** The limits of one HTTP attempt (WEBHOOK_* settings of the worker). */
export type SendSettings = {
  connectTimeoutMs: number;
  timeoutMs: number;
  maxExcerptBytes: number;
};

/** What signing and sending an attempt needs from the worker. */
export type AttemptSending = {
  sealedBox: SealedBox;
  guard: EgressGuard;
  logger: Logger;
  settings: SendSettings;
  /** Aborted when the worker's stop outlasts its grace. */
  signal: AbortSignal;
};

/**
 * One HTTP attempt of a claimed delivery: signed with the tenant's secrets, sent to the address
 * the egress guard allowed, or failed before sending when either is missing.
 */
export async function signAndSend(
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
