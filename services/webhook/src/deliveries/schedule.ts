import type { RetryStrategyName } from '../endpoints/retry-strategy';

// The retry schedule of docs/api/webhooks.md "Retries". Attempt 1 goes out at once; each later
// attempt waits the delay below after the previous one failed. Standard: 16 attempts over 137 h 35
// min (≈ 5.73 days); extended: one more 12 h step, 17 attempts over 149 h 35 min (≈ 6.23 days).

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

// docs/api/webhooks.md "Retries": the ramp-up both strategies share, then 12 h steps until the
// attempts run out.
const RAMP_UP_MS = [5 * MINUTE_MS, 30 * MINUTE_MS, 2 * HOUR_MS, 5 * HOUR_MS, 10 * HOUR_MS];
const TAIL_DELAY_MS = 12 * HOUR_MS;

const MAX_ATTEMPTS: Record<RetryStrategyName, number> = { standard: 16, extended: 17 };

// docs/api/webhooks.md "Retries": ±20 % jitter, symmetric, so that deliveries failed together do
// not retry together.
const JITTER = 0.2;

/** How many attempts a delivery gets in all, the first one included. */
export function maxAttempts(strategy: RetryStrategyName): number {
  return MAX_ATTEMPTS[strategy];
}

/**
 * The unscaled, unjittered delay before attempt `attemptsMade + 1`: 0 before the first attempt,
 * undefined once `attemptsMade` reaches maxAttempts (the delivery is exhausted).
 */
export function baseDelayMs(strategy: RetryStrategyName, attemptsMade: number): number | undefined {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a non-negative integer, got ${attemptsMade}`);
  }
  if (attemptsMade >= maxAttempts(strategy)) return undefined;
  if (attemptsMade === 0) return 0;
  return RAMP_UP_MS[attemptsMade - 1] ?? TAIL_DELAY_MS;
}

/** The sum of every delay of the schedule: how long after the first attempt the last one is due. */
export function scheduleHorizonMs(strategy: RetryStrategyName): number {
  let total = 0;
  for (let made = 1; made < maxAttempts(strategy); made++) total += baseDelayMs(strategy, made) ?? 0;
  return total;
}

export type NextAttemptDelayOptions = {
  strategy: RetryStrategyName;
  /** Attempts already made, the one that just failed included. */
  attemptsMade: number;
  /** WEBHOOK_RETRY_SCALE: multiplies every delay (tests and the sandbox shrink the schedule). */
  scale: number;
  /** A draw in [0, 1); Math.random when not given. */
  random?: () => number;
  /** The receiver's Retry-After in ms; the caller passes it only for 429 and 503 answers. */
  retryAfterMs?: number;
};

/**
 * Milliseconds (whole) until the next attempt is due, or undefined when the schedule is exhausted.
 * The scheduled delay is base × scale × a jitter drawn uniformly from [0.8, 1.2). A Retry-After is
 * honoured, but never earlier than that draw and never later than twice the scaled base delay, so a
 * receiver can slow its retries down without parking a delivery for days.
 */
export function nextAttemptDelayMs(opts: NextAttemptDelayOptions): number | undefined {
  if (!Number.isFinite(opts.scale) || opts.scale < 0) {
    throw new RangeError(`scale must be a finite number >= 0, got ${opts.scale}`);
  }
  const base = baseDelayMs(opts.strategy, opts.attemptsMade);
  if (base === undefined) return undefined;
  const scaled = base * opts.scale;
  const draw = Math.min(Math.max((opts.random ?? Math.random)(), 0), 1);
  const jittered = scaled * (1 - JITTER + 2 * JITTER * draw);
  if (opts.retryAfterMs === undefined || !(opts.retryAfterMs >= 0)) return Math.round(jittered);
  return Math.round(Math.max(jittered, Math.min(opts.retryAfterMs, 2 * scaled)));
}

const DAY_NAME = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY_NAME = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 §5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must accept.
const IMF_FIXDATE = new RegExp(`^${DAY_NAME}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850_DATE = new RegExp(`^${LONG_DAY_NAME}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY_NAME} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

type DateParts = { year: number; month: string; day: number; h: number; m: number; s: number };

function utcMs({ year, month, day, h, m, s }: DateParts): number | undefined {
  if (day < 1 || day > 31 || h > 23 || m > 59 || s > 60) return undefined;
  const ms = Date.UTC(year, MONTHS.indexOf(month), day, h, m, s);
  // Date.UTC rolls 31 Feb over into March; such a date is junk, not a date. (Second 60 is a leap
  // second, which RFC 9110 allows and which rolls over on purpose.)
  return s === 60 || new Date(ms).getUTCDate() === day ? ms : undefined;
}

// Seven capture groups: six date fields in the order of the form, after the whole match.
type Groups = [string, string, string, string, string, string, string];

function parseHttpDate(text: string, now: Date): number | undefined {
  const imf = IMF_FIXDATE.exec(text) as Groups | null;
  if (imf) {
    const [, day, month, year, h, m, s] = imf;
    return utcMs({ year: +year, month, day: +day, h: +h, m: +m, s: +s });
  }
  const rfc850 = RFC_850_DATE.exec(text) as Groups | null;
  if (rfc850) {
    const [, day, month, yy, h, m, s] = rfc850;
    // RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is in the past century.
    const year = 2000 + +yy > now.getUTCFullYear() + 50 ? 1900 + +yy : 2000 + +yy;
    return utcMs({ year, month, day: +day, h: +h, m: +m, s: +s });
  }
  const asctime = ASCTIME_DATE.exec(text) as Groups | null;
  if (asctime) {
    const [, month, day, h, m, s, year] = asctime;
    return utcMs({ year: +year, month, day: +day.trim(), h: +h, m: +m, s: +s });
  }
  return undefined;
}

/**
 * A Retry-After header value (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as milliseconds from
 * `now`, never negative; undefined when absent or not one of those forms.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER);
  const at = parseHttpDate(text, now);
  return at === undefined ? undefined : Math.max(0, at - now.getTime());
}
