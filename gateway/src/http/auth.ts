import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../errors/api-error';
import { rateLimitHeaders, retryAfterSeconds } from '../ratelimit/headers';
import { type ConsumeResult, RATE_LIMIT_WINDOW_MS, type RateLimiter } from '../ratelimit/limiter';
import { createBoundedTtlCache } from '../tenants/auth-cache';
import type { AuthenticatedKey } from '../tenants/key-authentication';
import { hashApiKeyHex } from '../tenants/keys';
import type { TenantService } from '../tenants/service';

export const API_KEY_HEADER = 'x-api-key';
/** Longer keys are refused without hashing or a database lookup. */
export const MAX_API_KEY_LENGTH = 256;

export const MISSING_KEY_MESSAGE = 'Missing API key: send your key in the x-api-key header.';
export const INVALID_KEY_MESSAGE = 'Invalid API key: the key in the x-api-key header is unknown or revoked.';
export const AUTH_FAILURES_MESSAGE = 'Too many failed API key attempts from this address.';

export type ApiKeyHeader = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'present'; key: string };

/**
 * Classifies the x-api-key header (docs/api/resources.md "Authentication"): missing or empty,
 * unusable, or a key to check.
 */
export function readApiKeyHeader(value: string | string[] | undefined): ApiKeyHeader {
  if (value === undefined) return { kind: 'missing' };
  if (Array.isArray(value)) return value.length === 0 ? { kind: 'missing' } : { kind: 'invalid' };
  if (value.trim() === '') return { kind: 'missing' };
  if (value.length > MAX_API_KEY_LENGTH) return { kind: 'invalid' };
  return { kind: 'present', key: value };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's key, set by the auth hook on authenticated routes. */
    auth: AuthenticatedKey | null;
  }
}

/**
 * The tenant of a request on an authenticated route: the one owner of that read. Every such route
 * runs the auth hook first (createAuthHook), so a request without `auth` here is a route registered
 * without it; it fails as an unexpected error (logged, 500 InternalError, docs/api/errors.md "Error
 * names") instead of being served as a tenant ''.
 */
export function tenantIdOf(request: Pick<FastifyRequest, 'auth' | 'method' | 'url'>): string {
  if (!request.auth) {
    throw new Error(`${request.method} ${request.url} reached a tenant's handler without the auth hook`);
  }
  return request.auth.tenantId;
}

/**
 * What the auth hook needs of the tenant service. `cachedAuthentication` is optional for test
 * fakes; without it every lookup of an over-budget address waits its turn (see createAuthHook).
 */
export type AuthTenants = Pick<TenantService, 'authenticate'> &
  Partial<Pick<TenantService, 'cachedAuthentication'>>;

export interface AuthHookDeps {
  tenants: AuthTenants;
  limiter: RateLimiter;
  /** Failed key attempts allowed per client address per minute (AUTH_FAILURE_LIMIT). */
  authFailureLimit: number;
  now?: () => number;
}

/** The failure budget's refusal of an address, remembered until one of its slots frees. */
export interface Refusal {
  result: ConsumeResult;
  atMs: number;
}

/**
 * The onRequest hook of every /v1 route: authenticates x-api-key, then spends one request of the
 * key's rate limit and sets the rate-limit headers (docs/api/resources.md "Authentication";
 * docs/api/rate-limits.md "Per key").
 *
 * Failed key attempts are limited per client address (AUTH_FAILURE_LIMIT, ADR 0003). The key is
 * always verified first, and the budget only ever answers requests whose key turned out invalid:
 * under it they get 401 AuthError, over it 429 RateLimitError with retryAfter. A valid key is
 * served whatever its address did (one client behind a NAT or a carrier's CGNAT must not lock out
 * the others) and counts only against its own per-key limit; valid requests neither spend nor
 * reset the failure budget.
 *
 * The cost of a flood of bad keys stays bounded: a repeated key is answered by the tenant
 * service's in-process caches (known and unknown keys); while an address is over its budget, its
 * keys that no cache answers are looked up one at a time (at most one database query per address
 * and replica, the others wait their turn: the failing attempts are slowed, a valid key at worst
 * waits), and its refusals spend no Redis call until the budget frees a slot.
 */
export function createAuthHook(deps: AuthHookDeps) {
  const now = deps.now ?? Date.now;
  const refusals = createBoundedTtlCache<Refusal>({ maxEntries: 50_000, now });
  const overBudgetLookups = createSerialLanes();

  async function verify(request: FastifyRequest, key: string, keyHash: string) {
    const cached = deps.tenants.cachedAuthentication?.(keyHash);
    if (cached !== undefined) return cached;
    if (!refusals.get(request.ip)) return deps.tenants.authenticate(key, keyHash);
    return overBudgetLookups.run(request.ip, async () =>
      // A client that gave up while waiting costs no lookup; nobody reads this answer.
      request.raw.socket?.destroyed ? null : deps.tenants.authenticate(key, keyHash),
    );
  }

  async function refuseFailure(ip: string): Promise<never> {
    const remembered = refusals.get(ip)?.value;
    if (remembered) throw blockedError(stillRefused(remembered, now()));
    const result = await deps.limiter.consume(`authfail:${ip}`, deps.authFailureLimit, RATE_LIMIT_WINDOW_MS);
    if (result.allowed) throw apiError('AuthError', INVALID_KEY_MESSAGE);
    refusals.set(ip, { result, atMs: now() }, result.retryAfterMs);
    throw blockedError(result);
  }

  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = readApiKeyHeader(request.headers[API_KEY_HEADER]);
    // A forgotten header is not a guess: it is told so and never counted.
    if (header.kind === 'missing') throw apiError('AuthError', MISSING_KEY_MESSAGE);
    if (header.kind === 'invalid') return refuseFailure(request.ip);

    const auth = await verify(request, header.key, hashApiKeyHex(header.key));
    if (!auth) return refuseFailure(request.ip);

    const result = await deps.limiter.consume(
      `key:${auth.keyPrefix}`,
      auth.rateLimitPerMinute,
      RATE_LIMIT_WINDOW_MS,
    );
    reply.headers(rateLimitHeaders(result, RATE_LIMIT_WINDOW_MS));
    if (!result.allowed) {
      const seconds = retryAfterSeconds(result);
      throw apiError(
        'RateLimitError',
        `Rate limit exceeded: ${result.limit} requests per minute for this key.`,
        {
          retryAfterSeconds: seconds,
          headers: { 'retry-after': String(seconds) },
        },
      );
    }
    request.auth = auth;
  };
}

/** A remembered refusal as it stands at `nowMs`: the same budget, less time to wait. */
export function stillRefused(refusal: Refusal, nowMs: number): ConsumeResult {
  const elapsed = Math.max(0, nowMs - refusal.atMs);
  return {
    ...refusal.result,
    retryAfterMs: Math.max(1, refusal.result.retryAfterMs - elapsed),
    nowMs: refusal.result.nowMs + elapsed,
  };
}

// The rate-limit headers of this refusal describe the address's failure budget, the limit it hit.
function blockedError(result: ConsumeResult) {
  const seconds = retryAfterSeconds(result);
  return apiError('RateLimitError', AUTH_FAILURES_MESSAGE, {
    retryAfterSeconds: seconds,
    headers: { ...rateLimitHeaders(result, RATE_LIMIT_WINDOW_MS), 'retry-after': String(seconds) },
  });
}

/**
 * Runs the tasks of one lane one after another, in arrival order; lanes are independent. A lane
 * exists only while it has work, so the map holds at most the lanes of requests in flight.
 */
export function createSerialLanes() {
  const tails = new Map<string, Promise<void>>();
  return {
    run<T>(lane: string, task: () => Promise<T>): Promise<T> {
      const result = (tails.get(lane) ?? Promise.resolve()).then(task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(lane, tail);
      void tail.then(() => {
        if (tails.get(lane) === tail) tails.delete(lane);
      });
      return result;
    },
    get size() {
      return tails.size;
    },
  };
}
