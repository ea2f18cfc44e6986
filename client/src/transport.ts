// The one function every generated operation calls (orval's "mutator", set in scripts/generate.ts):
// base URL and API key, retries with backoff, and the error class. Retried answers are the ones the
// API says to retry: 409 `IdempotencyInProgress` (docs/api/idempotency.md#the-idempotency-key), 429
// (docs/api/rate-limits.md#per-key) and 503 with `Retry-After` (docs/api/errors.md#the-error-body).
// The request is sent again unchanged, so an `Idempotency-Key` set by the caller is the same on
// every attempt.
import type { ErrorBody } from './generated/model';

export type RetryPolicy = {
  /** Attempts in all, the first included (1: never retry). Default 4. */
  maxAttempts: number;
  /** First backoff delay; doubled per attempt, with full jitter. Default 250 ms. */
  baseDelayMs: number;
  /** Longest wait between attempts; a server asking for longer (Retry-After) is not retried. Default 30 s. */
  maxDelayMs: number;
};

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
});

/** What a client sends every request with; made by createClient. */
export type Transport = {
  baseUrl: string;
  apiKey: string;
  retry: RetryPolicy;
  fetch: typeof fetch;
  /** Waits between attempts; replaceable in tests. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each retry, e.g. to log it. */
  onRetry?: (info: RetryInfo) => void;
};

export type RetryInfo = { attempt: number; status: number; tag: string; delayMs: number; url: string };

/** The second argument of every generated operation: fetch's options plus the client's transport. */
export type RequestOptions = RequestInit & { transport?: Transport };

/**
 * An error answer of the API: the HTTP status and the body of docs/api/errors.md#the-error-body
 * (`_tag`, `message`, `docs_url`, `request_id`, and `retryAfter` / `transaction_id` where the error
 * declares them). A response that is not such a body (a proxy's HTML page) keeps `body` undefined
 * and takes `HttpError` as its tag.
 */
export class QrPayoutError extends Error {
  override readonly name = 'QrPayoutError';
  readonly status: number;
  readonly tag: string;
  readonly docsUrl: string | undefined;
  readonly requestId: string | undefined;
  /** Seconds to wait, on 429 RateLimitError. */
  readonly retryAfter: number | undefined;
  /** The transaction concerned, on the errors that name one (InstructionAlreadyExecuted, ChargeAlreadyPaid). */
  readonly transactionId: string | undefined;
  readonly body: ErrorBody | undefined;
  /** Attempts made before giving up (more than 1 after retries). */
  readonly attempts: number;

  constructor(status: number, body: ErrorBody | undefined, attempts: number, fallbackMessage: string) {
    super(body?.message ?? fallbackMessage);
    this.status = status;
    this.body = body;
    this.tag = body?._tag ?? 'HttpError';
    this.docsUrl = body?.docs_url;
    this.requestId = body?.request_id;
    this.retryAfter = body?.retryAfter;
    this.transactionId = body?.transaction_id;
    this.attempts = attempts;
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body._tag === 'string' && typeof body.message === 'string';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Whether the answer is one to send again: 409 IdempotencyInProgress, 429, 503. */
export function isRetryable(status: number, body: ErrorBody | undefined): boolean {
  if (status === 429 || status === 503) return true;
  return status === 409 && body?._tag === 'IdempotencyInProgress';
}

/**
 * How long the server asks us to wait, in ms: `retry-after` (seconds), else on 429 the window's end
 * `x-ratelimit-reset` (Unix seconds), else undefined (back off on our own schedule).
 */
export function serverDelayMs(status: number, headers: Headers, nowMs: number): number | undefined {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim()) * 1000;
  const reset = headers.get('x-ratelimit-reset');
  if (status === 429 && reset !== null && /^\d+$/.test(reset.trim())) {
    return Math.max(0, Number(reset.trim()) * 1000 - nowMs);
  }
  return undefined;
}

/** Exponential backoff with full jitter: a random delay in [0, base·2^(attempt−1)], capped. */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/**
 * The orval mutator. Returns `{ data, status, headers }` (the generated response type) for a 2xx,
 * throws QrPayoutError for anything else once retries are spent.
 */
export async function send<T>(path: string, options: RequestOptions): Promise<T> {
  const { transport, ...init } = options;
  if (!transport) throw new TypeError('QR Payout client: call operations through createClient()');
  const url = new URL(path, transport.baseUrl.endsWith('/') ? transport.baseUrl : `${transport.baseUrl}/`);
  const headers = new Headers(init.headers);
  headers.set('x-api-key', transport.apiKey);
  headers.set('accept', 'application/json');
  const maxAttempts = Math.max(1, transport.retry.maxAttempts);
  for (let attempt = 1; ; attempt++) {
    const res = await transport.fetch(url, { ...init, headers });
    const text = [204, 205, 304].includes(res.status) ? '' : await res.text();
    const parsed = text === '' ? undefined : parseJson(text);
    if (res.ok) return { data: parsed, status: res.status, headers: res.headers } as T;
    const body = isErrorBody(parsed) ? parsed : undefined;
    const fail = () =>
      new QrPayoutError(res.status, body, attempt, `HTTP ${res.status} from ${init.method ?? 'GET'} ${path}`);
    if (attempt >= maxAttempts || !isRetryable(res.status, body)) throw fail();
    const asked = serverDelayMs(res.status, res.headers, Date.now());
    if (asked !== undefined && asked > transport.retry.maxDelayMs) throw fail();
    const delayMs = asked ?? backoffDelayMs(attempt, transport.retry);
    transport.onRetry?.({
      attempt,
      status: res.status,
      tag: body?._tag ?? 'HttpError',
      delayMs,
      url: url.toString(),
    });
    await transport.sleep(delayMs, init.signal ?? undefined);
  }
}

export default send;
