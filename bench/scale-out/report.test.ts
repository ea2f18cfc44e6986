import { DATABASE_BACKENDS } from '../shared/cpu';
import {
  breakEvenRate,
  compareAtRate,
  componentOf,
  costAt,
  formatComparison,
  formatIdle,
  idleOf,
  type MeasuredRound,
  poolRounds,
  SCALE_OUT_GOAL_RATIO,
  type SystemKey,
  splitCost,
} from './report';

function round(
  system: SystemKey,
  n: number,
  cpu: Record<string, number>,
  extra: Partial<MeasuredRound> = {},
): MeasuredRound {
  return {
    system,
    rate: 50,
    round: n,
    sent: 1000,
    perSec: 50,
    byHttpStatus: { 200: 1000 },
    byTransactionStatus: { completed: 1000 },
    errors: 0,
    unexpected: 0,
    capHits: 0,
    maxSendLagMs: 1,
    p50Ms: 10,
    p99Ms: 40,
    maxMs: 60,
    cpu: { seconds: 20, cpu },
    drainSeconds: 0.5,
    commits: 8000,
    ...extra,
  };
}

describe('componentOf', () => {
  it('names the component of a replica row only', () => {
    expect(componentOf('gateway[0]')).toBe('gateway');
    expect(componentOf('payout[12]')).toBe('payout');
    expect(componentOf('partner simulator')).toBeUndefined();
    expect(componentOf(DATABASE_BACKENDS)).toBeUndefined();
  });
});

describe('poolRounds', () => {
  it('sums CPU over the rounds, per pay, by replica, component, services and the judged total', () => {
    const pooled = poolRounds(
      [
        round('b', 1, {
          'gateway[0]': 1,
          'gateway[1]': 1,
          'payout[0]': 2,
          [DATABASE_BACKENDS]: 3,
          'Kafka (java)': 9,
        }),
        round('b', 2, {
          'gateway[0]': 3,
          'gateway[1]': 1,
          'payout[0]': 2,
          [DATABASE_BACKENDS]: 1,
          'Kafka (java)': 9,
        }),
      ],
      Float64Array.from([5, 1, 3, 2, 4]),
    );
    expect(pooled.sent).toBe(2000);
    expect(pooled.perSec).toBeCloseTo(50);
    // 4 s of gateway[0] over 2,000 pays: 2 ms per pay.
    expect(pooled.msPerPay['gateway[0]']).toBeCloseTo(2);
    expect(pooled.componentMsPerPay.gateway).toBeCloseTo(3);
    expect(pooled.componentMsPerPay.payout).toBeCloseTo(2);
    expect(pooled.servicesMsPerPay).toBeCloseTo(5);
    expect(pooled.databaseMsPerPay).toBeCloseTo(2);
    // Kafka is shown, never counted.
    expect(pooled.totalMsPerPay).toBeCloseTo(7);
    expect(pooled.commitsPerPay).toBeCloseTo(8);
    expect(pooled.p50Ms).toBe(3);
    expect(pooled.maxMs).toBe(5);
  });
});

describe('idleOf', () => {
  it('averages a system’s idle windows in ms of CPU per second', () => {
    const idle = idleOf('a', [
      {
        system: 'a',
        when: 'before',
        cpu: { seconds: 10, cpu: { 'payout[0]': 0.1, [DATABASE_BACKENDS]: 0.05 } },
        commits: 20,
      },
      { system: 'b', when: 'before', cpu: { seconds: 10, cpu: { 'payout[0]': 5 } }, commits: 99 },
      {
        system: 'a',
        when: 'after',
        cpu: { seconds: 10, cpu: { 'payout[0]': 0.3, [DATABASE_BACKENDS]: 0.15 } },
        commits: 40,
      },
    ])!;
    expect(idle.msPerSec['payout[0]']).toBeCloseTo(20);
    expect(idle.totalMsPerSec).toBeCloseTo(30);
    expect(idle.commitsPerSec).toBeCloseTo(3);
    expect(idleOf('b', [])).toBeUndefined();
  });
});

describe('the idle and per-pay split', () => {
  // a: 10 ms/s idle, 4 ms per pay; b: 30 ms/s idle, 4.2 ms per pay.
  const a = { idleMsPerSec: 10, perPayMs: 4 };
  const b = { idleMsPerSec: 30, perPayMs: 4.2 };

  it('splits a measured total back into its idle and per-pay parts', () => {
    expect(splitCost(costAt(a, 50), 50, 10).perPayMs).toBeCloseTo(4);
  });

  it('finds the rate from which the ratio stays within the goal', () => {
    const rate = breakEvenRate(a, b, SCALE_OUT_GOAL_RATIO);
    // 30/r + 4.2 = 1.15 · (10/r + 4)  ⇔  r = 18.5 / 0.4
    expect(rate).toBeCloseTo(18.5 / 0.4);
    expect(costAt(b, rate) / costAt(a, rate)).toBeCloseTo(SCALE_OUT_GOAL_RATIO);
    expect(costAt(b, rate * 2) / costAt(a, rate * 2)).toBeLessThan(SCALE_OUT_GOAL_RATIO);
  });

  it('says any rate, or none', () => {
    expect(breakEvenRate(a, { idleMsPerSec: 11, perPayMs: 4.1 }, SCALE_OUT_GOAL_RATIO)).toBe(0);
    expect(breakEvenRate(a, { idleMsPerSec: 10, perPayMs: 5 }, SCALE_OUT_GOAL_RATIO)).toBe(
      Number.POSITIVE_INFINITY,
    );
  });
});

describe('compareAtRate', () => {
  const rounds = [
    round('a', 1, { 'gateway[0]': 40, [DATABASE_BACKENDS]: 40 }),
    round('b', 1, { 'gateway[0]': 22, 'gateway[1]': 22, [DATABASE_BACKENDS]: 44 }),
    round('a', 2, { 'gateway[0]': 40, [DATABASE_BACKENDS]: 40 }),
    round('b', 2, { 'gateway[0]': 25, 'gateway[1]': 25, [DATABASE_BACKENDS]: 50 }),
  ];
  const pool = (key: 'a' | 'b') =>
    poolRounds(
      rounds.filter((r) => r.system === key),
      Float64Array.from([10, 20]),
    );

  it('judges the pooled total b ÷ a against 1.15 and gives each round’s ratio', () => {
    const c = compareAtRate(50, rounds, { a: pool('a'), b: pool('b') }, {});
    expect(c.roundRatios[0]).toBeCloseTo(1.1);
    expect(c.roundRatios[1]).toBeCloseTo(1.25);
    expect(c.ratio).toBeCloseTo(1.175);
    expect(c.pass).toBe(false);
    expect(c.split).toBeUndefined();
    expect(formatComparison(c, rounds, {})).toContain('scale-out at 50 pays/s: FAIL');
  });

  it('fails a run where a pay went unanswered even within the goal', () => {
    const clean = rounds.map((r) => (r.system === 'b' ? { ...r, cpu: rounds[0]!.cpu } : r));
    clean[1] = { ...clean[1]!, errors: 1 };
    const c = compareAtRate(
      50,
      clean,
      {
        a: poolRounds(
          clean.filter((r) => r.system === 'a'),
          new Float64Array(),
        ),
        b: poolRounds(
          clean.filter((r) => r.system === 'b'),
          new Float64Array(),
        ),
      },
      {},
    );
    expect(c.ratio).toBeCloseTo(1);
    expect(c.clean).toBe(false);
    expect(c.pass).toBe(false);
  });

  it('prints every replica, the component sums and the idle table', () => {
    const idle = {
      a: idleOf('a', [
        { system: 'a', when: 'before', cpu: { seconds: 10, cpu: { 'gateway[0]': 0.1 } }, commits: 10 },
      ]),
      b: idleOf('b', [
        {
          system: 'b',
          when: 'before',
          cpu: { seconds: 10, cpu: { 'gateway[0]': 0.1, 'gateway[1]': 0.1 } },
          commits: 20,
        },
      ]),
    };
    const c = compareAtRate(50, rounds, { a: pool('a'), b: pool('b') }, idle);
    const text = formatComparison(c, rounds, idle);
    expect(text).toMatch(/gateway\[1\]/);
    expect(text).toMatch(/gateway \(sum\)/);
    expect(text).toMatch(/projected ratio/);
    expect(formatIdle(idle)).toMatch(/gateway\[1\]\s+10\.0/);
  });

  it('measures the floor: a at half the rate, against a and against b, per-pay parts after idle', () => {
    // a: 1000 pays over 20 s windows at 50/s; a½: the same pays over 40 s at 25/s.
    const halfCpu = { 'gateway[0]': 46, [DATABASE_BACKENDS]: 46 };
    const half = [round('a½', 1, halfCpu, { perSec: 25, cpu: { seconds: 40, cpu: halfCpu } })];
    const idle = {
      a: idleOf('a', [
        { system: 'a', when: 'before', cpu: { seconds: 10, cpu: { 'gateway[0]': 0.1 } }, commits: 0 },
      ]),
      b: idleOf('b', [
        { system: 'b', when: 'before', cpu: { seconds: 10, cpu: { 'gateway[0]': 0.2 } }, commits: 0 },
      ]),
    };
    const c = compareAtRate(
      50,
      [...rounds, ...half],
      { a: pool('a'), b: pool('b'), half: poolRounds(half, new Float64Array([5])) },
      idle,
    );
    // Idle of a: 10 ms/s. a: 80 ms/pay total, 20 s per 1000 pays → 50/s → 0.2 ms idle per pay.
    // a½: 92 ms/pay, 25/s → 0.4 ms idle per pay → per-pay part 91.6; a's 79.8.
    expect(c.floor?.split.perPayMs).toBeCloseTo(91.6);
    expect(c.floor?.perPayRatio).toBeCloseTo(91.6 / 79.8);
    // b: (88 + 100) / 2 = 94 ms/pay, idle 20 ms/s at 50/s = 0.4 → 93.6.
    expect(c.floor?.bOverFloor).toBeCloseTo(93.6 / 91.6);
    const text = formatComparison(c, [...rounds, ...half], idle);
    expect(text).toMatch(/a½ ms\/pay/);
    expect(text).toMatch(/floor, a at 25\/s/);
    expect(text).toMatch(/a½ pooled \(1 rounds\)/);
  });
});
