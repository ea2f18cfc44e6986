import fc from 'fast-check';
import type { PartnerOutcome } from '../rails/rail-adapter';
import { decideAtHorizon, isPastHorizon, type PartnerAnswer } from './horizon-check';

const completed: PartnerOutcome = {
  kind: 'completed',
  partnerPayoutId: 'pp_1',
  reference: 'E1',
  settledAt: new Date('2026-11-24T12:00:00Z'),
};
const rejected: PartnerOutcome = {
  kind: 'failed',
  partnerPayoutId: 'pp_1',
  code: 'AM04',
  reason: 'insufficient funds',
  partnerStatus: 'RJCT',
};
const inFlight: PartnerOutcome = { kind: 'in_flight', partnerPayoutId: 'pp_1', partnerStatus: 'ACSP' };

describe('decideAtHorizon', () => {
  it.each(['pending', 'processing'] as const)(
    '%s: a terminal answer settles it as the partner says',
    (status) => {
      expect(decideAtHorizon(status, { kind: 'found', outcome: completed })).toEqual({
        kind: 'settle',
        outcome: completed,
      });
      expect(decideAtHorizon(status, { kind: 'found', outcome: rejected })).toEqual({
        kind: 'settle',
        outcome: rejected,
      });
    },
  );

  it.each(['pending', 'processing'] as const)(
    '%s: still in process at the partner is stuck, recording the answer',
    (status) => {
      expect(decideAtHorizon(status, { kind: 'found', outcome: inFlight })).toEqual({
        kind: 'stuck',
        reason: 'partner_in_flight',
        inFlight,
      });
    },
  );

  it('pending and unknown to the partner: never received, so failed', () => {
    expect(decideAtHorizon('pending', { kind: 'not_found' })).toEqual({ kind: 'fail_not_received' });
  });

  it('processing and unknown to the partner: it acknowledged the payout once, so stuck, never failed', () => {
    expect(decideAtHorizon('processing', { kind: 'not_found' })).toEqual({
      kind: 'stuck',
      reason: 'partner_lost_accepted',
    });
  });

  it.each(['pending', 'processing'] as const)('%s: no useful answer is stuck', (status) => {
    expect(decideAtHorizon(status, { kind: 'unknown' })).toEqual({
      kind: 'stuck',
      reason: 'partner_unreachable',
    });
  });

  it('only a pending row the partner does not know is ever failed by the horizon', () => {
    const answers = fc.constantFrom<PartnerAnswer>(
      { kind: 'found', outcome: completed },
      { kind: 'found', outcome: rejected },
      { kind: 'found', outcome: inFlight },
      { kind: 'not_found' },
      { kind: 'unknown' },
    );
    fc.assert(
      fc.property(fc.constantFrom('pending' as const, 'processing' as const), answers, (status, answer) => {
        const decision = decideAtHorizon(status, answer);
        expect(decision.kind === 'fail_not_received').toBe(
          status === 'pending' && answer.kind === 'not_found',
        );
        // A settlement is always the partner's own terminal answer.
        if (decision.kind === 'settle') expect(answer).toEqual({ kind: 'found', outcome: decision.outcome });
      }),
    );
  });
});

describe('isPastHorizon', () => {
  it('is reached exactly at the horizon and stays reached', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.integer({ min: 1, max: 10_000_000 }), (age, horizon) => {
        expect(isPastHorizon(age, horizon)).toBe(age >= horizon);
        if (isPastHorizon(age, horizon)) expect(isPastHorizon(age + 1, horizon)).toBe(true);
      }),
    );
  });
});
