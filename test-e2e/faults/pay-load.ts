// Open-loop pay load for the fault campaign: a pay starts every 1000/rate ms whatever the earlier
// ones are doing, so a slow or dead system gets the same offered load as a healthy one. Each pay is
// a payment of the test kit's Pix QR by one of several tenants, half with a `callback_url`; its
// amount's last two digits pick the sandbox outcome (docs/sandbox-test-qrs.md "Test amounts"). A pay
// answered 503 or not at all is retried once with the same Idempotency-Key, as a client would
// (docs/api/idempotency.md), so replays are exercised too.
import { randomUUID } from 'node:crypto';
import { PAYER } from '@qr-payout/test-kit/fixtures';
import { PIX_WITHOUT_AMOUNT } from '@qr-payout/test-kit/qrs';

/** What one HTTP attempt of a pay got. */
export interface PayAttempt {
  key: string;
  tenantIndex: number;
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
}

export interface LoadTenant {
  apiKey: string;
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

export function startPayLoad(opts: {
  gatewayUrl: string;
  tenants: LoadTenant[];
  ratePerSecond: number;
  clientTimeoutMs: number;
  retryAfterMs: number;
}): PayLoad {
  const attempts: PayAttempt[] = [];
  const inFlight = new Set<Promise<void>>();
  let n = 0;
  let stopped = false;

  const attempt = async (
    key: string,
    tenantIndex: number,
    body: string,
    retry: boolean,
  ): Promise<PayAttempt> => {
    const tenant = opts.tenants[tenantIndex]!;
    const sentAt = Date.now();
    const record: PayAttempt = { key, tenantIndex, sentAt, answeredAt: 0, status: 0, replayed: false, retry };
    try {
      const res = await fetch(`${opts.gatewayUrl}/v1/pay`, {
        method: 'POST',
        headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json', 'idempotency-key': key },
        body,
        signal: AbortSignal.timeout(opts.clientTimeoutMs),
      });
      const text = await res.text();
      record.status = res.status;
      record.replayed = res.headers.get('idempotent-replayed') === 'true';
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
        name === 'TimeoutError' || name === 'AbortError'
          ? 'timeout'
          : cause === 'ECONNREFUSED'
            ? 'no_listener'
            : 'reset';
    }
    record.answeredAt = Date.now();
    attempts.push(record);
    return record;
  };

  const onePay = async () => {
    const i = n++;
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
    const first = await attempt(key, tenantIndex, body, false);
    if ((first.status === 503 || first.status === 0) && !stopped) {
      await new Promise((resolve) => setTimeout(resolve, opts.retryAfterMs));
      await attempt(key, tenantIndex, body, true);
    }
  };

  const interval = 1000 / opts.ratePerSecond;
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (stopped) return;
    const p = onePay();
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    // Scheduled against the start, so a late tick does not lower the offered rate.
    timer = setTimeout(tick, Math.max(0, started + n * interval - Date.now()));
  };
  tick();

  return {
    attempts,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async firstSuccessSince(since, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const ok = attempts
          .filter((a) => a.sentAt >= since && a.status >= 200 && a.status < 300)
          .sort((a, b) => a.answeredAt - b.answeredAt)[0];
        if (ok || Date.now() > deadline) return ok;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
