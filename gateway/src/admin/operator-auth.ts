import { createHash, timingSafeEqual } from 'node:crypto';
import { Code, ConnectError, createContextKey, type Interceptor } from '@connectrpc/connect';
import { retryAfterSeconds } from '../ratelimit/headers';
import { RATE_LIMIT_WINDOW_MS, type RateLimiter } from '../ratelimit/limiter';

// docs/architecture.md "Operators": every admin call carries `Authorization: Bearer <operator token>`.

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Compares in constant time: both sides are hashed first, so lengths never leak either. */
export function tokenMatches(given: string, expectedDigest: Buffer): boolean {
  return timingSafeEqual(digest(given), expectedDigest);
}

export function bearerToken(authorization: string | null): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/** Shortest operator token the gateway starts with (PAYOUT_ADMIN_TOKEN; docs/operators.md). */
export const MIN_OPERATOR_TOKEN_LENGTH = 32;

/** The caller's address, set per request by the admin server (contextValues) for the throttle. */
export const kCallerAddress = createContextKey<string>('unknown', { description: 'admin caller address' });

export interface OperatorAuthThrottle {
  limiter: RateLimiter;
  /** Failed token attempts allowed per address per minute (AUTH_FAILURE_LIMIT, as the public API). */
  failureLimit: number;
}

/**
 * Every admin call needs the operator token; a missing or wrong one is Unauthenticated. An address
 * past its failure budget is locked out: every call from it is ResourceExhausted with Retry-After,
 * the right token included, until the window frees a slot. Serving the right token meanwhile would
 * let a guesser go on at network speed, reading 429 as "wrong" and 200 as "right"
 * (docs/operators.md "Where the admin API and its token come from").
 */
export function operatorTokenInterceptor(adminToken: string, throttle: OperatorAuthThrottle): Interceptor {
  if (!adminToken) throw new Error('the admin API needs an operator token (PAYOUT_ADMIN_TOKEN)');
  const expected = digest(adminToken);
  return (next) => async (req) => {
    const key = `adminauthfail:${req.contextValues.get(kCallerAddress)}`;
    const { limiter, failureLimit } = throttle;
    const lock = await limiter.peek(key, failureLimit, RATE_LIMIT_WINDOW_MS);
    if (!lock.allowed) throw lockedOut(retryAfterSeconds(lock));
    const token = bearerToken(req.header.get('authorization'));
    if (token === undefined || !tokenMatches(token, expected)) {
      const budget = await limiter.consume(key, failureLimit, RATE_LIMIT_WINDOW_MS);
      if (!budget.allowed) throw lockedOut(retryAfterSeconds(budget));
      throw new ConnectError('missing or invalid operator token', Code.Unauthenticated);
    }
    return next(req);
  };
}

function lockedOut(seconds: number): ConnectError {
  return new ConnectError(
    `too many failed operator token attempts from this address: retry after ${seconds} s`,
    Code.ResourceExhausted,
    new Headers({ 'retry-after': String(seconds) }),
  );
}
