import { rateLimitHeaders, retryAfterSeconds } from './headers';

describe('rate-limit headers', () => {
  it('sends x-ratelimit-* with reset in Unix seconds and the IETF structured fields', () => {
    const headers = rateLimitHeaders(
      {
        allowed: true,
        limit: 100,
        remaining: 42,
        resetAtMs: 1_700_000_060_500,
        retryAfterMs: 0,
        nowMs: 1_700_000_010_000,
      },
      60_000,
    );
    expect(headers).toEqual({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '42',
      'x-ratelimit-reset': '1700000061',
      'ratelimit-policy': '"default";q=100;w=60',
      ratelimit: '"default";r=42;t=51',
    });
  });

  it('gives retryAfter in whole seconds, rounded up, at least 1', () => {
    expect(retryAfterSeconds({ retryAfterMs: 1 })).toBe(1);
    expect(retryAfterSeconds({ retryAfterMs: 0 })).toBe(1);
    expect(retryAfterSeconds({ retryAfterMs: 1000 })).toBe(1);
    expect(retryAfterSeconds({ retryAfterMs: 1001 })).toBe(2);
    expect(retryAfterSeconds({ retryAfterMs: 59_999 })).toBe(60);
  });
});
