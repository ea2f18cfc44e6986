import { attemptIsClose, enumWord, errorFromBody, queryString } from '../../dashboard/answers.js';
import { formatDuration, formatMoney, formatTime, NONE } from '../../dashboard/format.js';

// The pure parts of the dashboard's browser code (gateway/dashboard): formatting and reading the
// API's answers. What needs a DOM is proven in Chromium (test-e2e/dashboard.e2e.test.ts).

describe('formatMoney', () => {
  it.each([
    [25.9, 'BRL', '25.90 BRL'],
    [1250.5, 'BRL', '1,250.50 BRL'],
    [1234567, 'CLP', '1,234,567 CLP'],
    [0.125, 'USD', '0.125 USD'],
    [10, 'XXZ', '10.00 XXZ'],
    [10, 'bad!', '10 bad!'],
  ])('writes %p %s as %p: padded to the usual digits, never rounded', (amount, currency, shown) => {
    expect(formatMoney(amount, currency)).toBe(shown);
  });

  it('shows a dash for an amount the API gave as null', () => {
    expect(formatMoney(null, 'BRL')).toBe(NONE);
    expect(formatMoney(5, null)).toBe(NONE);
  });
});

describe('formatTime and formatDuration', () => {
  it('writes UTC to the second', () => {
    expect(formatTime('2026-11-24T12:00:05.456Z')).toBe('2026-11-24 12:00:05 UTC');
    expect(formatTime(null)).toBe(NONE);
    expect(formatTime('not a time')).toBe('not a time');
  });

  it.each([
    [850, '850 ms'],
    [1234, '1.2 s'],
    [185_000, '3 min 5 s'],
    [null, NONE],
  ])('writes %p ms as %p', (ms, shown) => {
    expect(formatDuration(ms)).toBe(shown);
  });
});

describe('errorFromBody', () => {
  it("takes the public API's message and error name", () => {
    const error = errorFromBody(
      { _tag: 'DeliveryReplayTooSoon', type: 'DeliveryReplayTooSoon', message: 'Replay it again in 9 s.' },
      429,
    );
    expect([error.message, error.name, error.status]).toEqual([
      'Replay it again in 9 s.',
      'DeliveryReplayTooSoon',
      429,
    ]);
  });

  it("takes Connect's code and message (the admin API)", () => {
    const error = errorFromBody({ code: 'unauthenticated', message: 'invalid operator token' }, 401);
    expect([error.message, error.name, error.status]).toEqual([
      'invalid operator token',
      'unauthenticated',
      401,
    ]);
  });

  it('falls back to the status for a body without a message', () => {
    expect(errorFromBody(null, 502).message).toBe('HTTP 502');
    expect(errorFromBody({ message: '' }, 500).message).toBe('HTTP 500');
  });
});

describe('queryString and enumWord', () => {
  it('keeps set values only, encoded', () => {
    expect(queryString({ status: 'failed', cursor: null, created_gte: '2026-11-24T00:00:00.000Z' })).toBe(
      '?status=failed&created_gte=2026-11-24T00%3A00%3A00.000Z',
    );
    expect(queryString({ status: '' })).toBe('');
  });

  it("names a Connect JSON enum value with the public API's word", () => {
    expect(enumWord('DELIVERY_STATUS_EXHAUSTED', 'DELIVERY_STATUS_')).toBe('exhausted');
    expect(enumWord('TRANSACTION_STATUS_PROCESSING', 'TRANSACTION_STATUS_')).toBe('processing');
    expect(enumWord(undefined, 'DELIVERY_STATUS_')).toBe('unspecified');
  });
});

describe('attemptIsClose: when the open delivery follows its next attempt', () => {
  const now = Date.parse('2026-11-24T12:00:00.000Z');
  const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();

  it.each([
    ['pending, due now (a replay)', true, { status: 'pending', nextAttemptAt: at(0), lastAttemptAt: null }],
    ['pending, due in 20 s', true, { status: 'pending', nextAttemptAt: at(20_000), lastAttemptAt: null }],
    [
      'pending, due in 5 min (the schedule)',
      false,
      { status: 'pending', nextAttemptAt: at(300_000), lastAttemptAt: null },
    ],
    [
      'pending, overdue by 2 min (a worker behind)',
      false,
      { status: 'pending', nextAttemptAt: at(-120_000), lastAttemptAt: null },
    ],
    [
      'delivering, started 1 s ago',
      true,
      { status: 'delivering', nextAttemptAt: null, lastAttemptAt: at(-1_000) },
    ],
    [
      'delivering, started 2 min ago',
      false,
      { status: 'delivering', nextAttemptAt: null, lastAttemptAt: at(-120_000) },
    ],
    ['delivered', false, { status: 'delivered', nextAttemptAt: null, lastAttemptAt: at(-1_000) }],
    ['exhausted', false, { status: 'exhausted', nextAttemptAt: null, lastAttemptAt: at(-1_000) }],
  ])('%s: followed %p', (_case, followed, delivery) => {
    expect(attemptIsClose(delivery, now)).toBe(followed);
  });
});
