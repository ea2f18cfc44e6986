// What the polling worker does with a transaction still pending or processing past its rail's
// settlement horizon (README "Transaction state machine"). Pure: the worker asks the partner, this
// decides, the worker applies. Before the horizon nothing here applies: a pending row is
// (re)submitted and a processing one polled, as ever.
import type { PartnerOutcome } from '../rails/rail-adapter';

/**
 * ISO 20022 ExternalStatusReason1Code of a payout the partner never received by the horizon:
 * AB06 TimeoutInstructedAgent, "transaction stopped due to timeout at the instructed agent". We
 * instruct the partner; the horizon is our timeout for it, and we stop the transaction. Not FF01
 * (invalid file format: the request was fine), not MS03 (reason not specified: we know it), not
 * AB05 (the creditor's agent is beyond the partner; we never got that far).
 */
export const NOT_RECEIVED_CODE = 'AB06';
export const NOT_RECEIVED_REASON =
  'the partner never received the payout within the settlement horizon; nothing was paid';

/** What the partner said when asked at the horizon. */
export type PartnerAnswer =
  | { kind: 'found'; outcome: PartnerOutcome }
  /** 404: no payout under that id or idempotency key. */
  | { kind: 'not_found' }
  /** Timeout, 5xx, unreadable: the partner said nothing we can act on. */
  | { kind: 'unknown' };

/** Why a transaction is reported stuck. */
export type StuckReason =
  /** The partner still has it in process past the horizon. */
  | 'partner_in_flight'
  /** The partner did not answer usefully. */
  | 'partner_unreachable'
  /** The partner acknowledged the payout once and now does not know it: money may have moved. */
  | 'partner_lost_accepted'
  /** No adapter for its rail in this deployment. */
  | 'rail_not_served';

export type HorizonDecision =
  /** The partner knows the outcome: the usual settlement (one outbox event). */
  | { kind: 'settle'; outcome: Exclude<PartnerOutcome, { kind: 'in_flight' }> }
  /** Never received: failed with AB06; never submitted again (it is terminal). */
  | { kind: 'fail_not_received' }
  /**
   * Reported stuck and polled at the max backoff. `inFlight`: the partner's in-process answer,
   * recorded first (a pending row then becomes processing with the partner's id).
   */
  | { kind: 'stuck'; reason: StuckReason; inFlight?: Extract<PartnerOutcome, { kind: 'in_flight' }> };

/** True once `ageMs` (from created_at, by the database clock) reaches the rail's horizon. */
export function isPastHorizon(ageMs: number, horizonMs: number): boolean {
  return ageMs >= horizonMs;
}

/**
 * `status`: the row as claimed. A pending row was looked up by its idempotency key (our
 * transaction id): a 404 there means the partner never received it, and since the row is
 * leased to this worker no submission of ours is in flight, so failing it is safe. A processing
 * row was acknowledged by the partner: a 404 for it is the partner's fault, never a failure we
 * may declare (the money may have moved), so an operator must reconcile it.
 */
export function decideAtHorizon(status: 'pending' | 'processing', answer: PartnerAnswer): HorizonDecision {
  switch (answer.kind) {
    case 'found':
      return answer.outcome.kind === 'in_flight'
        ? { kind: 'stuck', reason: 'partner_in_flight', inFlight: answer.outcome }
        : { kind: 'settle', outcome: answer.outcome };
    case 'not_found':
      return status === 'pending'
        ? { kind: 'fail_not_received' }
        : { kind: 'stuck', reason: 'partner_lost_accepted' };
    case 'unknown':
      return { kind: 'stuck', reason: 'partner_unreachable' };
  }
}
