import fc from 'fast-check';
import type { RetryStrategyName } from '../endpoints/retry-strategy';
import { baseDelayMs, maxAttempts, nextAttemptDelayMs, parseRetryAfter, scheduleHorizonMs } from './schedule';

const MIN = 60_000;
const HOUR = 60 * MIN;
const strategies: RetryStrategyName[] = ['standard', 'extended'];

// The schedule of docs/api/webhooks.md "Retries" written out by hand, delay before attempts 2, 3, …
const STANDARD_DELAYS = [5 * MIN, 30 * MIN, 2 * HOUR, 5 * HOUR, 10 * HOUR, ...new Array(10).fill(12 * HOUR)];
const EXTENDED_DELAYS = [...STANDARD_DELAYS, 12 * HOUR];

describe('baseDelayMs', () => {
  it.each([
    ['standard', STANDARD_DELAYS],
    ['extended', EXTENDED_DELAYS],
  ] as const)('follows docs/api/webhooks.md "Retries" for %s', (strategy, delays) => {
    expect(maxAttempts(strategy)).toBe(delays.length + 1);
    expect(baseDelayMs(strategy, 0)).toBe(0);
    delays.forEach((delay, i) => {
      expect(baseDelayMs(strategy, i + 1)).toBe(delay);
    });
    expect(baseDelayMs(strategy, delays.length + 1)).toBeUndefined();
    expect(baseDelayMs(strategy, delays.length + 50)).toBeUndefined();
  });

  it('gives standard 16 attempts over 137 h 35 min and extended 17 over 149 h 35 min', () => {
    expect(maxAttempts('standard')).toBe(16);
    expect(maxAttempts('extended')).toBe(17);
    expect(scheduleHorizonMs('standard')).toBe(137 * HOUR + 35 * MIN);
    expect(scheduleHorizonMs('extended')).toBe(149 * HOUR + 35 * MIN);
    expect(scheduleHorizonMs('standard') / (24 * HOUR)).toBeCloseTo(5.73, 2);
    expect(scheduleHorizonMs('extended') / (24 * HOUR)).toBeCloseTo(6.23, 2);
  });

  it('refuses a negative or fractional attempt count', () => {
    expect(() => baseDelayMs('standard', -1)).toThrow(RangeError);
    expect(() => baseDelayMs('standard', 1.5)).toThrow(RangeError);
  });
});

describe('nextAttemptDelayMs', () => {
  it('is 0 before the first attempt and undefined once exhausted, Retry-After or not', () => {
    expect(nextAttemptDelayMs({ strategy: 'standard', attemptsMade: 0, scale: 1, retryAfterMs: 9e6 })).toBe(
      0,
    );
    expect(nextAttemptDelayMs({ strategy: 'standard', attemptsMade: 16, scale: 1 })).toBeUndefined();
    expect(
      nextAttemptDelayMs({ strategy: 'standard', attemptsMade: 16, scale: 1, retryAfterMs: 1000 }),
    ).toBeUndefined();
    expect(nextAttemptDelayMs({ strategy: 'extended', attemptsMade: 16, scale: 1, random: () => 0.5 })).toBe(
      12 * HOUR,
    );
    expect(nextAttemptDelayMs({ strategy: 'extended', attemptsMade: 17, scale: 1 })).toBeUndefined();
  });

  it('spans 0.8 to 1.2 of the scaled delay with the draw', () => {
    const at = (r: number) =>
      nextAttemptDelayMs({ strategy: 'standard', attemptsMade: 1, scale: 0.5, random: () => r });
    expect(at(0)).toBe(0.8 * 2.5 * MIN);
    expect(at(0.5)).toBe(2.5 * MIN);
    expect(at(0.999999)).toBeLessThanOrEqual(1.2 * 2.5 * MIN);
    expect(at(0.999999)).toBeGreaterThan(1.199 * 2.5 * MIN);
  });

  it('honours Retry-After between the scheduled draw and twice the scaled delay', () => {
    const opts = { strategy: 'standard' as const, attemptsMade: 1, scale: 1, random: () => 0.5 };
    expect(nextAttemptDelayMs({ ...opts, retryAfterMs: 1000 })).toBe(5 * MIN);
    expect(nextAttemptDelayMs({ ...opts, retryAfterMs: 8 * MIN })).toBe(8 * MIN);
    expect(nextAttemptDelayMs({ ...opts, retryAfterMs: 3 * HOUR })).toBe(10 * MIN);
  });

  it('refuses a negative or non-finite scale', () => {
    expect(() => nextAttemptDelayMs({ strategy: 'standard', attemptsMade: 1, scale: -1 })).toThrow(
      RangeError,
    );
    expect(() => nextAttemptDelayMs({ strategy: 'standard', attemptsMade: 1, scale: Number.NaN })).toThrow(
      RangeError,
    );
  });

  const strategy = fc.constantFrom(...strategies);
  const attemptsMade = fc.integer({ min: 0, max: 20 });
  const scale = fc.oneof(fc.constant(1), fc.double({ min: 0, max: 100, noNaN: true }));
  const draw = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

  it('never draws outside ±20% of base × scale (to the millisecond)', () => {
    fc.assert(
      fc.property(strategy, attemptsMade, scale, draw, (s, made, k, r) => {
        const delay = nextAttemptDelayMs({ strategy: s, attemptsMade: made, scale: k, random: () => r });
        const base = baseDelayMs(s, made);
        if (base === undefined) return delay === undefined;
        return (
          delay !== undefined &&
          Number.isInteger(delay) &&
          delay >= Math.floor(0.8 * base * k) &&
          delay <= Math.ceil(1.2 * base * k)
        );
      }),
    );
  });

  it('gives exactly 16 (standard) or 17 (extended) attempts before it is exhausted', () => {
    fc.assert(
      fc.property(strategy, scale, draw, (s, k, r) => {
        let attempts = 0;
        while (
          nextAttemptDelayMs({ strategy: s, attemptsMade: attempts, scale: k, random: () => r }) !== undefined
        ) {
          attempts++;
        }
        return attempts === (s === 'standard' ? 16 : 17);
      }),
    );
  });

  it('keeps a Retry-After result within [jittered, max(jittered, 2 × base × scale)]', () => {
    fc.assert(
      fc.property(
        strategy,
        attemptsMade,
        scale,
        draw,
        fc.nat({ max: 10 * 24 * HOUR }),
        (s, made, k, r, ra) => {
          const jittered = nextAttemptDelayMs({ strategy: s, attemptsMade: made, scale: k, random: () => r });
          const honoured = nextAttemptDelayMs({
            strategy: s,
            attemptsMade: made,
            scale: k,
            random: () => r,
            retryAfterMs: ra,
          });
          if (jittered === undefined) return honoured === undefined;
          const ceiling = Math.max(jittered, Math.ceil(2 * (baseDelayMs(s, made) ?? 0) * k));
          return honoured !== undefined && honoured >= jittered && honoured <= ceiling;
        },
      ),
    );
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-03-01T12:00:00Z');

  it.each([
    ['0', 0],
    ['120', 120_000],
    [' 7 ', 7000],
    ['Sun, 01 Mar 2026 12:00:30 GMT', 30_000],
    ['Sunday, 01-Mar-26 12:01:00 GMT', 60_000],
    ['Sun Mar  1 12:00:05 2026', 5000],
    ['Sat, 28 Feb 2026 12:00:00 GMT', 0],
  ])('reads %j as %d ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([
    undefined,
    '',
    '-5',
    '1.5',
    '5s',
    'soon',
    '2026-03-01T12:00:30Z',
    'Sun, 31 Feb 2026 12:00:30 GMT',
    'Sun, 01 Mar 2026 25:00:30 GMT',
    'Sun, 01 Mar 2026 12:00:30 UTC',
  ])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });

  it('reads any delta-seconds exactly', () => {
    fc.assert(fc.property(fc.nat({ max: 10_000_000 }), (n) => parseRetryAfter(String(n), now) === n * 1000));
  });

  it('reads any IMF-fixdate as the whole-second distance from now, never negative', () => {
    const dates = fc.date({
      min: new Date('1990-01-01Z'),
      max: new Date('2100-01-01Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(dates, (date) => {
        const whole = Math.floor(date.getTime() / 1000) * 1000;
        return parseRetryAfter(date.toUTCString(), now) === Math.max(0, whole - now.getTime());
      }),
    );
  });

  it('never throws and never answers a negative number, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (value) => {
        const ms = parseRetryAfter(value, now);
        return ms === undefined || ms >= 0;
      }),
    );
  });
});
