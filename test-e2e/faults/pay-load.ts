// Open-loop pay load for the fault campaign: a pay starts every 1000/rate ms whatever the earlier
// ones are doing, so a slow or dead system gets the same offered load as a healthy one. Each pay is
// a payment of the test kit's Pix QR by one of several tenants, half with a `callback_url`; its
// amount's last two digits pick the sandbox outcome (docs/api/sandbox.md "Test amounts").
// Pays go to the gateways in turn. Two retry rules (docs/testing.md "Fault campaign"):
// - `once` (one gateway): a pay answered 503 or not at all is retried once with the same
//   Idempotency-Key, after `retryAfterMs` (docs/api/idempotency.md), so replays are exercised too;
// - `client` (several gateways): what our typed client does (client/src/transport.ts), up to 4
//   attempts on 409 IdempotencyInProgress, 429 and 503, after the server's Retry-After (never more
//   than 30 s) or an exponential backoff with full jitter from 250 ms, under one deadline for the
//   whole call (the caller's AbortSignal); and, as the load balancer in front of the gateways does,
//   a connection refused or reset is sent again too. Every retry goes to the next gateway, with the
//   same Idempotency-Key and body.
import { randomUUID } from 'node:crypto';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';

/** What one HTTP attempt of a pay got. */
export interface PayAttempt {
  key: string;
  tenantIndex: number;
  /** Index in `gatewayUrls` of the gateway it was sent to. */
  gateway: number;
  sentAt: number;
  answeredAt: number;
  /** HTTP status, or 0 when no answer came (refused, reset, or past the client timeout). */
  status: number;
  /** `no_listener` (connection refused), `reset`, `timeout`; for status 0 only. */
  failure?: 'no_listener' | 'reset' | 'timeout';
  errorTag?: string;
  transactionId?: string;
  transactionStatus?: string;
  replayed: boolean;
  retry: boolean;
  /** The key's last attempt: what the caller got in the end. */
  final: boolean;
  /** `client` rule: the call's deadline passed while it waited to retry (no answer in the end). */
  deadlineExceeded?: boolean;
}

export interface LoadTenant {
  apiKey: string;
  /** Read at each pay: a fault may point it elsewhere for a while. */
  callbackUrl: string;
}

export interface PayLoad {
  readonly attempts: PayAttempt[];
  /** Stops starting pays and waits for those in flight. */
  stop(): Promise<void>;
  /** Resolves with the first attempt sent at or after `since` that got a 2xx. */
  firstSuccessSince(since: number, timeoutMs: number): Promise<PayAttempt | undefined>;
}

/** Sandbox outcomes by the amount's cents, weighted (mostly ordinary completions). */
const CENTS = ['10', '20', '30', '40', '47', '10', '20', '30', '51', '52', '53', '54'];

/** The typed client's defaults (client/src/transport.ts DEFAULT_RETRY_POLICY). */
const CLIENT_RETRY = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 30_000 };

export type RetryRule = 'once' | 'client';

export function startPayLoad(opts: {
  gatewayUrls: string[];
  tenants: LoadTenant[];
  ratePerSecond: number;
  clientTimeoutMs: number;
  /** `once`: the wait before the one retry. */
  retryAfterMs: number;
  /** Default `once`. */
  retry?: RetryRule;
}): PayLoad {
  const attempts: PayAttempt[] = [];
  const rule = opts.retry ?? 'once';
  let stopped = false;

  const attempt = async (
    key: string,
    tenantIndex: number,
    gateway: number,
    body: string,
    retry: boolean,
    signal: AbortSignal,
  ): Promise<{ record: PayAttempt; retryAfter: string | null }> => {
    const tenant = opts.tenants[tenantIndex]!;
    const sentAt = Date.now();
    const record: PayAttempt = {
      key,
      tenantIndex,
      gateway,
      sentAt,
      answeredAt: 0,
      status: 0,
      replayed: false,
      retry,
      final: false,
    };
    let retryAfter: string | null = null;
    try {
      const res = await fetch(`${opts.gatewayUrls[gateway]}/v1/pay`, {
        method: 'POST',
        headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json', 'idempotency-key': key },
        body,
        signal,
      });
      const text = await res.text();
      record.status = res.status;
      record.replayed = res.headers.get('idempotent-replayed') === 'true';
      retryAfter = res.headers.get('retry-after');
      try {
        const json = JSON.parse(text) as { _tag?: string; transaction?: { id?: string; status?: string } };
        record.errorTag = json._tag;
        record.transactionId = json.transaction?.id;
        record.transactionStatus = json.transaction?.status;
      } catch {
        // Not JSON: the status says enough.
      }
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      const name = (err as Error).name;
      record.failure =
        name === 'TimeoutError' || name === 'AbortError' || signal.aborted
          ? 'timeout'
          : cause === 'ECONNREFUSED'
            ? 'no_listener'
            : 'reset';
    }
    record.answeredAt = Date.now();
    attempts.push(record);
    return { record, retryAfter };
  };

  /** Today's rule: one retry of a 503 or a missing answer, on the same gateway. */
  const retryOnce = async (key: string, tenantIndex: number, gateway: number, body: string) => {
    const first = await attempt(
      key,
      tenantIndex,
      gateway,
      body,
      false,
      AbortSignal.timeout(opts.clientTimeoutMs),
    );
    if ((first.record.status === 503 || first.record.status === 0) && !stopped) {
      await new Promise((resolve) => setTimeout(resolve, opts.retryAfterMs));
      const second = await attempt(
        key,
        tenantIndex,
        gateway,
        body,
        true,
        AbortSignal.timeout(opts.clientTimeoutMs),
      );
      second.record.final = true;
    } else {
      first.record.final = true;
    }
  };

  /** The typed client's rule, each retry on the next gateway, one deadline for the whole call. */
  const retryAsClient = async (key: string, tenantIndex: number, gateway: number, body: string) => {
    const signal = AbortSignal.timeout(opts.clientTimeoutMs);
    for (let nth = 1; ; nth++) {
      const target = (gateway + nth - 1) % opts.gatewayUrls.length;
      const { record, retryAfter } = await attempt(key, tenantIndex, target, body, nth > 1, signal);
      const retryable =
        record.status === 429 ||
        record.status === 503 ||
        (record.status === 409 && record.errorTag === 'IdempotencyInProgress') ||
        record.failure === 'no_listener' ||
        record.failure === 'reset';
      const asked =
        retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : undefined;
      if (
        !retryable ||
        nth >= CLIENT_RETRY.maxAttempts ||
        signal.aborted ||
        (asked ?? 0) > CLIENT_RETRY.maxDelayMs
      ) {
        record.final = true;
        return;
      }
      const delay =
        asked ??
        Math.round(
          Math.random() * Math.min(CLIENT_RETRY.maxDelayMs, CLIENT_RETRY.baseDelayMs * 2 ** (nth - 1)),
        );
      const slept = await new Promise<boolean>((resolve) => {
        if (signal.aborted) return resolve(false);
        const timer = setTimeout(() => resolve(true), delay);
        const onAbort = () => {
          clearTimeout(timer);
          resolve(false);
        };
        signal.addEventListener('abort', onAbort, { once: true });
      });
      if (!slept) {
        // The deadline passed while waiting: the caller's signal ends the call with no answer.
        record.final = true;
        record.deadlineExceeded = true;
        return;
      }
    }
  };

  const onePay = async (i: number) => {
    const tenantIndex = i % opts.tenants.length;
    const tenant = opts.tenants[tenantIndex]!;
    const cents = CENTS[i % CENTS.length]!;
    const amount = Number(`${10 + (i % 90)}.${cents}`);
    const body = JSON.stringify({
      qr_string: PIX_WITHOUT_AMOUNT,
      amount,
      ...PAYER,
      ...(i % 2 === 0 ? { callback_url: tenant.callbackUrl } : {}),
    });
    const key = randomUUID();
    // Each tenant's pays turn over the gateways too (i alone would tie tenant i to gateway i).
    const gateway = (i + Math.floor(i / opts.tenants.length)) % opts.gatewayUrls.length;
    if (rule === 'client') await retryAsClient(key, tenantIndex, gateway, body);
    else await retryOnce(key, tenantIndex, gateway, body);
  };

  const pacer = paceOpenLoop(opts.ratePerSecond, onePay);

  return {
    attempts,
    async stop() {
      stopped = true;
      await pacer.stop();
    },
    firstSuccessSince: (since, timeoutMs) => firstSuccessSince(attempts, since, timeoutMs),
  };
}

/**
 * An open-loop load: `onePay(i)` every 1000/rate ms, scheduled against the start so a late tick
 * does not lower the offered rate. `stop()` ends the ticks and waits for the pays in flight.
 */
export function paceOpenLoop(
  ratePerSecond: number,
  onePay: (i: number) => Promise<void>,
): { stop(): Promise<void> } {
  const inFlight = new Set<Promise<void>>();
  const interval = 1000 / ratePerSecond;
  const started = Date.now();
  let n = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (stopped) return;
    const p = onePay(n++);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    timer = setTimeout(tick, Math.max(0, started + n * interval - Date.now()));
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** The first attempt sent at or after `since` that got a 2xx (by answer time), waiting up to `timeoutMs`. */
export async function firstSuccessSince<A extends { sentAt: number; answeredAt: number; status: number }>(
  attempts: readonly A[],
  since: number,
  timeoutMs: number,
): Promise<A | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = attempts
      .filter((a) => a.sentAt >= since && a.status >= 200 && a.status < 300)
      .sort((a, b) => a.answeredAt - b.answeredAt)[0];
    if (ok || Date.now() > deadline) return ok;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
