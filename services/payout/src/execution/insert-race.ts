// The one handling of the races a first execute or pay can lose at its INSERT (docs/api/
// idempotency.md "Execute and pay"): the unique constraints decide, and the loser is told here
// whether the charge or the key went to its own request (a replay) or to someone else's. The
// winner's transaction goes on to its rail here too, the same for execute and pay.

import type { Execution } from './context';
import { chargeAlreadyPaid } from './errors';
import type { ChargeHolder, InsertOutcome, LiveTransaction } from './records';
import { submitInsertedAndWait } from './wait';

/** How execute and pay differ in a lost race; everything else is the same. */
export type InsertRace<A> = {
  tenantId: string;
  chargeKey: string | null;
  /** The instruction ChargeAlreadyPaid names: execute's; '' for pay, whose instruction was never written. */
  refusedInstructionId: string;
  /** The INSERT, run once more when the charge's holder went away meanwhile. */
  insert(): Promise<InsertOutcome>;
  /**
   * The answer when the charge went to this request's own race (execute: the holder is its own
   * instruction; pay: its key was taken), undefined when it went to another payment.
   */
  chargeTakenByOwn(holder: () => Promise<ChargeHolder | undefined>): Promise<A | undefined>;
  /** The answer when the key was taken. */
  keyTaken(): Promise<A>;
  /** What the partner request of the inserted transaction carries (submitInsertedAndWait). */
  submission: Parameters<typeof submitInsertedAndWait>[2];
  /** The answer when this request's INSERT won: the transaction as it stands after the wait. */
  won(row: LiveTransaction | undefined, inserted: LiveTransaction): A;
};

/**
 * A first execute or pay from its INSERT to its answer: a lost race's answer, or the inserted
 * transaction submitted to its rail and waited for until `waitUntil`.
 */
export async function insertSubmitAndWait<A>(
  x: Execution,
  race: InsertRace<A>,
  waitUntil: number,
  signal?: AbortSignal,
): Promise<A> {
  const decided = await insertDecidingRaces(x, race);
  if ('answer' in decided) return decided.answer;
  const row = await submitInsertedAndWait(x, decided.inserted, race.submission, waitUntil, signal);
  return race.won(row, decided.inserted);
}

/** The row the INSERT wrote, or the answer of the race it lost. */
async function insertDecidingRaces<A>(
  x: Execution,
  race: InsertRace<A>,
): Promise<{ inserted: LiveTransaction } | { answer: A }> {
  let outcome = await race.insert();
  const { chargeKey } = race;
  if (outcome.kind === 'charge_taken' && chargeKey !== null) {
    let holderRead: Promise<ChargeHolder | undefined> | undefined;
    const holder = () => {
      holderRead ??= x.store.findChargeHolder(chargeKey);
      return holderRead;
    };
    const own = await race.chargeTakenByOwn(holder);
    if (own !== undefined) return { answer: own };
    const other = await holder();
    // The payment that held the charge failed or was withdrawn since our INSERT: the charge is
    // free again and one more INSERT decides.
    if (!other) outcome = await race.insert();
    else {
      throw chargeAlreadyPaid(
        race.refusedInstructionId,
        other.tenantId === race.tenantId ? other.id : undefined,
      );
    }
  }
  if (outcome.kind === 'charge_taken') throw chargeAlreadyPaid(race.refusedInstructionId);
  if (outcome.kind === 'duplicate') return { answer: await race.keyTaken() };
  return { inserted: outcome.row };
}
