import { createHash } from 'node:crypto';
import { createMemoryRateLimiter } from '../ratelimit/memory';
import { bearerToken, operatorTokenInterceptor, tokenMatches } from './operator-auth';

const digest = (s: string) => createHash('sha256').update(s).digest();

describe('operator token', () => {
  it('reads a bearer token, case-insensitively on the scheme', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer  xyz ')).toBe('xyz');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken(null)).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
  });

  it('matches only the exact token, whatever the lengths', () => {
    const expected = digest('operator-token-123');
    expect(tokenMatches('operator-token-123', expected)).toBe(true);
    expect(tokenMatches('operator-token-12', expected)).toBe(false);
    expect(tokenMatches('operator-token-1234', expected)).toBe(false);
    expect(tokenMatches('', expected)).toBe(false);
  });

  it('refuses to build an open admin API', () => {
    const throttle = { limiter: createMemoryRateLimiter(), failureLimit: 5 };
    expect(() => operatorTokenInterceptor('', throttle)).toThrow(/PAYOUT_ADMIN_TOKEN/);
  });
});
