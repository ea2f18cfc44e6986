// The one HTTP client of the partner protocol. Every submission carries our transaction id as
// Idempotency-Key, so a submission retried after a timeout can never create a second payout at
// the partner; after an unknown answer the caller looks the payout up by that key before deciding.
import type { Attributes } from '@opentelemetry/api';
import { type HttpRequestOptions, httpRequest } from '@qr-payout/platform/http';
import { durationHistogram, secondsSince } from '@qr-payout/platform/metrics';
import {
  type PayoutResource,
  parsePayoutResource,
  type RailName,
  type SubmitPayoutBody,
} from '@qr-payout/platform/partner-protocol';

/** What a submission answer tells us. `unknown`: the payout may or may not exist (ask again). */
export type SubmitAnswer =
  | { kind: 'answered'; resource: PayoutResource }
  | { kind: 'refused'; status: number; problem: string }
  | { kind: 'unknown'; detail: string };

/** What a lookup answer tells us. `not_found`: the partner has no such payout. */
export type LookupAnswer =
  | { kind: 'found'; resource: PayoutResource }
  | { kind: 'not_found' }
  | { kind: 'unknown'; detail: string };

export interface PartnerClient {
  submitPayout(rail: RailName, idempotencyKey: string, body: SubmitPayoutBody): Promise<SubmitAnswer>;
  getPayout(rail: RailName, partnerPayoutId: string): Promise<LookupAnswer>;
  /** GET /v1/payouts?idempotency_key=: did a submission of ours land (one whose answer we lost)? */
  findPayoutByIdempotencyKey(rail: RailName, idempotencyKey: string): Promise<LookupAnswer>;
}

export type PartnerClientOptions = {
  /** The partner's base URL for a rail (PARTNER_<RAIL>_URL or PARTNER_BASE_URL). */
  baseUrlFor(rail: RailName): string;
  apiKey: string;
  timeoutMs: number;
  /** Replaces the HTTP call (tests). */
  send?: typeof httpRequest;
};

const UNKNOWN_STATUSES = new Set([401, 403, 408, 409, 429]);

type HttpAnswer = { ok: true; status: number; body: unknown } | { ok: false; detail: string };

function problemOf(body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const { code, title, detail } = body as Record<string, unknown>;
    const words = [code, title, detail].filter((part) => typeof part === 'string' && part !== '');
    if (words.length > 0) return words.join(': ');
  }
  return 'no problem details';
}

/** What a partner request is for: the `operation` label of its duration. */
type PartnerOperation = 'submit' | 'get' | 'find_by_key';

/**
 * The `outcome` label of a partner request (docs/runbooks.md "Partner errors or latency"): the
 * answer's class, or why there was none. Bounded: never the status itself.
 */
export function partnerOutcome(answer: HttpAnswer): string {
  if (!answer.ok) return answer.detail === 'timeout' ? 'timeout' : 'network_error';
  if (answer.status < 300) return 'success';
  if (answer.status === 404) return 'not_found';
  if (answer.status === 429) return 'rate_limited';
  return answer.status < 500 ? 'client_error' : 'server_error';
}

export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const send = options.send ?? httpRequest;
  const authorization = `Bearer ${options.apiKey}`;
  const durations = durationHistogram(
    '@qr-payout/payout',
    'payout_partner_request_duration_seconds',
    'Duration of the requests to the rails partner, by rail, operation and outcome',
  );
  const attributesByKey = new Map<string, Attributes>();

  function record(rail: RailName, operation: PartnerOperation, answer: HttpAnswer, started: number): void {
    const outcome = partnerOutcome(answer);
    const key = `${rail} ${operation} ${outcome}`;
    let attributes = attributesByKey.get(key);
    if (!attributes) {
      attributes = { rail, operation, outcome };
      attributesByKey.set(key, attributes);
    }
    durations.record(secondsSince(started), attributes);
  }

  async function call(
    rail: RailName,
    operation: PartnerOperation,
    path: string,
    request: Pick<HttpRequestOptions, 'method' | 'headers' | 'body'>,
  ): Promise<HttpAnswer> {
    const started = performance.now();
    const answer = await exchange(rail, path, request);
    record(rail, operation, answer, started);
    return answer;
  }

  async function exchange(
    rail: RailName,
    path: string,
    request: Pick<HttpRequestOptions, 'method' | 'headers' | 'body'>,
  ): Promise<HttpAnswer> {
    const url = new URL(path, options.baseUrlFor(rail).replace(/\/?$/, '/')).toString();
    try {
      const response = await send(url, {
        ...request,
        headers: { ...request.headers, authorization },
        timeoutMs: options.timeoutMs,
      });
      let body: unknown;
      try {
        body = response.text === '' ? undefined : JSON.parse(response.text);
      } catch {
        body = undefined;
      }
      return { ok: true, status: response.status, body };
    } catch (err) {
      // Timeouts, refused or reset connections: the request may have been processed.
      // httpRequest names its timeout error TimeoutError; duck-typed, as anything may be thrown.
      const name = typeof err === 'object' && err !== null && 'name' in err ? String(err.name) : 'Error';
      return { ok: false, detail: name === 'TimeoutError' ? 'timeout' : `network error (${name})` };
    }
  }

  function lookup(answer: HttpAnswer): LookupAnswer {
    if (!answer.ok) return { kind: 'unknown', detail: answer.detail };
    if (answer.status === 404) return { kind: 'not_found' };
    const resource = answer.status === 200 ? parsePayoutResource(answer.body) : undefined;
    return resource ? { kind: 'found', resource } : { kind: 'unknown', detail: `HTTP ${answer.status}` };
  }

  return {
    async submitPayout(rail, idempotencyKey, body) {
      const answer = await call(rail, 'submit', 'v1/payouts', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify(body),
      });
      if (!answer.ok) return { kind: 'unknown', detail: answer.detail };
      if (answer.status === 200 || answer.status === 201) {
        const resource = parsePayoutResource(answer.body);
        return resource
          ? { kind: 'answered', resource }
          : { kind: 'unknown', detail: `HTTP ${answer.status} without a payout resource` };
      }
      // Unknown, to be looked up and retried: 408, 429 and 5xx say nothing about whether the payout
      // exists; 409 says one exists under our key; 401/403 are our configuration, not the payer's
      // fault. Any other 4xx refuses the request itself: no payout was created.
      if (UNKNOWN_STATUSES.has(answer.status) || answer.status >= 500) {
        return { kind: 'unknown', detail: `HTTP ${answer.status}: ${problemOf(answer.body)}` };
      }
      return { kind: 'refused', status: answer.status, problem: problemOf(answer.body) };
    },

    async getPayout(rail, partnerPayoutId) {
      return lookup(
        await call(rail, 'get', `v1/payouts/${encodeURIComponent(partnerPayoutId)}`, { method: 'GET' }),
      );
    },

    async findPayoutByIdempotencyKey(rail, idempotencyKey) {
      const query = new URLSearchParams({ idempotency_key: idempotencyKey });
      return lookup(await call(rail, 'find_by_key', `v1/payouts?${query}`, { method: 'GET' }));
    },
  };
}
