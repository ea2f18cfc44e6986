import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../errors/api-error';
import { rateLimitHeaders, retryAfterSeconds } from '../ratelimit/headers';
import { type ConsumeResult, RATE_LIMIT_WINDOW_MS, type RateLimiter } from '../ratelimit/limiter';
import { createBoundedTtlCache } from '../tenants/auth-cache';
import { hashApiKeyHex } from '../tenants/keys';
import type { AuthenticatedKey, TenantService } from '../tenants/service';

export const API_KEY_HEADER = 'x-api-key';
/** Longer keys are refused without hashing or a database lookup. */
export const MAX_API_KEY_LENGTH = 256;

export const MISSING_KEY_MESSAGE = 'Missing API key: send your key in the x-api-key header.';
export const INVALID_KEY_MESSAGE = 'Invalid API key: the key in the x-api-key header is unknown or revoked.';
export const AUTH_FAILURES_MESSAGE = 'Too many failed API key attempts from this address.';

export type ApiKeyHeader = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'present'; key: string };

/** Classifies the x-api-key header (spec §5): missing or empty, unusable, or a key to check. */
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

export interface AuthHookDeps {
  tenants: Pick<TenantService, 'authenticate'>;
  limiter: RateLimiter;
  /** Failed key attempts allowed per client address per minute (AUTH_FAILURE_LIMIT). */
  authFailureLimit: number;
  now?: () => number;
}

/**
 * The onRequest hook of every /v1 route: authenticates x-api-key, then spends one request of the
 * key's rate limit and sets the rate-limit headers (spec §5, §8).
 *
 * Failed key attempts are limited per client address (ADR 0003). Only failures count, and only
 * failures are refused, with one refinement that keeps the limit meaningful: while an address is
 * over its failure budget, a key this replica has not verified recently is refused without being
 * checked, so a blocked guesser cannot tell a right key from a wrong one; clients behind the same
 * address that are already using their key keep being served.
 */
export function createAuthHook(deps: AuthHookDeps) {
  const now = deps.now ?? Date.now;
  const blockedUntil = createBoundedTtlCache<true>({ maxEntries: 50_000, now });
  const recentlyVerified = createBoundedTtlCache<true>({ maxEntries: 50_000, now });

  async function refuseFailure(ip: string): Promise<never> {
    const result = await deps.limiter.consume(`authfail:${ip}`, deps.authFailureLimit, RATE_LIMIT_WINDOW_MS);
    if (result.allowed) throw apiError('AuthError', INVALID_KEY_MESSAGE);
    blockedUntil.set(ip, true, result.retryAfterMs);
    throw blockedError(result);
  }

  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = readApiKeyHeader(request.headers[API_KEY_HEADER]);
    if (header.kind === 'missing') throw apiError('AuthError', MISSING_KEY_MESSAGE);
    if (header.kind === 'invalid') return refuseFailure(request.ip);

    const keyHash = hashApiKeyHex(header.key);
    if (blockedUntil.get(request.ip) && !recentlyVerified.get(keyHash)) return refuseFailure(request.ip);
    const auth = await deps.tenants.authenticate(header.key, keyHash);
    if (!auth) return refuseFailure(request.ip);
    if (!recentlyVerified.get(keyHash)) recentlyVerified.set(keyHash, true, RATE_LIMIT_WINDOW_MS);

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

// The rate-limit headers of this refusal describe the address's failure budget, the limit it hit.
function blockedError(result: ConsumeResult) {
  const seconds = retryAfterSeconds(result);
  return apiError('RateLimitError', AUTH_FAILURES_MESSAGE, {
    retryAfterSeconds: seconds,
    headers: { ...rateLimitHeaders(result, RATE_LIMIT_WINDOW_MS), 'retry-after': String(seconds) },
  });
}
