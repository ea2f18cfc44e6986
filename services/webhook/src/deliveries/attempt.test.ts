import { attemptFromOutcome, nextStep } from './attempt';
import { baseDelayMs, maxAttempts } from './schedule';
import type { SendOutcome } from './sender';
import type { ClaimedDelivery } from './store';

// What the worker makes of one attempt's outcome (docs/api/webhooks.md "Retries"): the state that
// follows, and when a 429/503 Retry-After moves the next attempt.

const startedAt = new Date('2026-11-24T10:00:00Z');
const claimed = { retryStrategy: 'standard', attempts: 0 } as ClaimedDelivery;
const answer = (status: number, retryAfter?: string): SendOutcome => ({
  kind: 'response',
  status,
  excerpt: 'ok',
  retryAfter,
  durationMs: 3,
  address: '203.0.113.7',
});
const midDraw = () => 0.5; // jitter factor exactly 1

describe('attemptFromOutcome', () => {
  it('a 2xx is a success with no error', () => {
    expect(attemptFromOutcome(answer(204), startedAt)).toMatchObject({
      succeeded: true,
      errorClass: null,
      responseStatus: 204,
      resolvedAddress: '203.0.113.7',
    });
  });

  it('reads Retry-After on 429 and 503 only', () => {
    expect(attemptFromOutcome(answer(429, '7'), startedAt).retryAfterMs).toBe(7_000);
    expect(attemptFromOutcome(answer(503, '7'), startedAt).retryAfterMs).toBe(7_000);
    expect(attemptFromOutcome(answer(500, '7'), startedAt).retryAfterMs).toBeUndefined();
    expect(attemptFromOutcome(answer(302), startedAt)).toMatchObject({
      succeeded: false,
      errorClass: 'http_status',
    });
  });

  it('a network error keeps its class and no status', () => {
    const outcome: SendOutcome = {
      kind: 'error',
      errorClass: 'timeout',
      message: 'timed out',
      durationMs: 15_000,
      address: '',
    };
    expect(attemptFromOutcome(outcome, startedAt)).toMatchObject({
      succeeded: false,
      responseStatus: null,
      errorClass: 'timeout',
      resolvedAddress: null,
      permanent: false,
    });
  });
});

describe('nextStep', () => {
  it('delivered after a success, failed after a permanent refusal', () => {
    const success = attemptFromOutcome(answer(200), startedAt);
    expect(nextStep(success, claimed, 1, midDraw)).toEqual({ next: 'delivered', nextAttemptAt: null });
    expect(nextStep({ ...success, succeeded: false, permanent: true }, claimed, 1, midDraw).next).toBe(
      'failed',
    );
  });

  it('pending at the scheduled delay, moved later by a 429 Retry-After within twice the delay', () => {
    const before = Date.now();
    const plain = nextStep(attemptFromOutcome(answer(500), startedAt), claimed, 1, midDraw);
    const base = baseDelayMs('standard', 1)!; // 5 min before attempt 2
    expect(plain.next).toBe('pending');
    expect(plain.nextAttemptAt!.getTime() - before).toBeGreaterThanOrEqual(base - 5);
    expect(plain.nextAttemptAt!.getTime() - before).toBeLessThanOrEqual(base + 1_000);

    const throttled = nextStep(attemptFromOutcome(answer(429, '86400'), startedAt), claimed, 1, midDraw);
    expect(throttled.nextAttemptAt!.getTime() - before).toBeGreaterThanOrEqual(2 * base - 5);
    expect(throttled.nextAttemptAt!.getTime() - before).toBeLessThanOrEqual(2 * base + 1_000);
  });

  it('exhausted when the last attempt of the strategy failed', () => {
    const last = { ...claimed, attempts: maxAttempts('standard') - 1 } as ClaimedDelivery;
    expect(nextStep(attemptFromOutcome(answer(500), startedAt), last, 1, midDraw)).toEqual({
      next: 'exhausted',
      nextAttemptAt: null,
    });
  });
});
