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
 * Every admin call needs the operator token; a missing or wrong one is Unauthenticated, and past
 * the address's failure budget ResourceExhausted with Retry-After, so the token cannot be guessed
 * at network speed (docs/operators.md "Where the admin API and its token come from").
 */
export function operatorTokenInterceptor(adminToken: string, throttle: OperatorAuthThrottle): Interceptor {
  if (!adminToken) throw new Error('the admin API needs an operator token (PAYOUT_ADMIN_TOKEN)');
  const expected = digest(adminToken);
  return (next) => async (req) => {
    const token = bearerToken(req.header.get('authorization'));
    if (token === undefined || !tokenMatches(token, expected)) {
      const address = req.contextValues.get(kCallerAddress);
      const budget = await throttle.limiter.consume(
        `adminauthfail:${address}`,
        throttle.failureLimit,
        RATE_LIMIT_WINDOW_MS,
      );
      if (!budget.allowed) {
        const seconds = retryAfterSeconds(budget);
        throw new ConnectError(
          `too many failed operator token attempts from this address: retry after ${seconds} s`,
          Code.ResourceExhausted,
          new Headers({ 'retry-after': String(seconds) }),
        );
      }
      throw new ConnectError('missing or invalid operator token', Code.Unauthenticated);
    }
    return next(req);
  };
}
