import { createHash, timingSafeEqual } from 'node:crypto';
import { Code, ConnectError, type Interceptor } from '@connectrpc/connect';

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

export function operatorTokenInterceptor(adminToken: string): Interceptor {
  if (!adminToken) throw new Error('the admin API needs an operator token (PAYOUT_ADMIN_TOKEN)');
  const expected = digest(adminToken);
  return (next) => async (req) => {
    const token = bearerToken(req.header.get('authorization'));
    if (token === undefined || !tokenMatches(token, expected)) {
      throw new ConnectError('missing or invalid operator token', Code.Unauthenticated);
    }
    return next(req);
  };
}
