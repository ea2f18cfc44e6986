// The wait of execute and pay for a transaction's outcome (README "Execute: state machine, durable
// idempotency, rails"), and their first submission of the row they just inserted.

import type { ValidPayer } from '../payers/validate-payer';
import { isTerminalStatus } from '../transactions/transaction';
import type { Execution } from './context';
import { dependencyUnavailable, instructionAlreadyExecuted, quoteExpired } from './errors';
import type { LiveTransaction, TransactionToSubmit } from './records';
import type { SubmissionResult } from './submission';

const MAX_WAIT_MS = 60_000;
/** Execute and pay wait for the outcome: a partner's acceptance is theirs to hold (README "Execute"). */
export const HOLD_ACCEPTED = { holdAccepted: true } as const;

export function isTerminal(row: LiveTransaction): boolean {
  return isTerminalStatus(row.status);
}

/** The row a submission left, when it reached the partner and this process wrote the answer. */
function rowSubmitted(result: SubmissionResult): LiveTransaction | undefined {
  return result.kind === 'submitted' ? result.row : undefined;
}

/**
 * The wait counts from the call's start, so the whole call stays within wait_ms plus one
 * submission, and the caller's deadline (wait_ms plus a margin) holds.
 */
export function waitDeadline(x: Execution, waitMs: number): number {
  return Date.now() + (waitMs === 0 ? x.defaultWaitMs : Math.min(waitMs, MAX_WAIT_MS));
}

/** The refusal a submission that did not reach the partner answers with; undefined for none. */
export function refusalOf(result: SubmissionResult, instructionId: string): Error | undefined {
  if (result.kind === 'abandoned') {
    return result.reason === 'quote_expired'
      ? quoteExpired(instructionId)
      : instructionAlreadyExecuted(instructionId);
  }
  if (result.kind === 'retry_later' && result.cause === 'fx_unavailable') return dependencyUnavailable('fx');
  return undefined;
}

/**
 * Waits until the transaction is terminal or `deadline` (epoch ms) and answers it as it stands;
 * undefined when it was withdrawn. `known`: the row as the caller just wrote it, so the first
 * look needs no read. A settlement in this process hands the settled row over with its wake-up;
 * otherwise the row is read again after each pause (one settled by another replica).
 */
export async function waitForTerminal(
  x: Execution,
  transactionId: string,
  deadline: number,
  signal?: AbortSignal,
  known?: LiveTransaction,
): Promise<LiveTransaction | undefined> {
  const done = () => Date.now() >= deadline || signal?.aborted === true;
  let pause = 25;
  let row = known;
  for (;;) {
    if (row && (isTerminal(row) || done())) return row;
    // Subscribed before the read, so a settlement between the read and the pause still wakes us.
    const woken = x.signals.next(transactionId, Math.min(pause, deadline - Date.now()), signal);
    if (!row) {
      row = await x.store.findTransaction(transactionId);
      if (!row || isTerminal(row) || done()) return row;
    }
    row = (await woken) ?? undefined;
    pause = Math.min(pause * 2, 500);
  }
}

/**
 * The wait after this call's own submission. A payout the partner accepted (ACSP/PDNG) stays
 * `pending`, leased to this call, with the partner's id held here (README "Execute" step 4): a
 * callback settles it pending → completed|failed directly, so the usual pay writes its row once
 * more only. `processing` is written (guarded, from `pending` only) when someone will look at it:
 * when the worker's first poll is due (a callback that never comes is found by polling, as for
 * any submission), or when this call stops waiting, whichever is first.
 */
export async function waitAfterSubmission(
  x: Execution,
  transactionId: string,
  result: SubmissionResult,
  waitUntil: number,
  signal?: AbortSignal,
): Promise<LiveTransaction | undefined> {
  if (result.kind !== 'accepted') {
    return waitForTerminal(x, transactionId, waitUntil, signal, rowSubmitted(result));
  }
  const firstPollAt = Date.now() + x.firstPollMs;
  let row = await waitForTerminal(x, transactionId, Math.min(waitUntil, firstPollAt), signal, result.row);
  if (row?.status === 'pending') {
    // Undefined: settled (or moved on) meanwhile; the row is then read as it stands.
    row =
      (await x.store.markProcessing(
        transactionId,
        result.partnerPayoutId,
        Math.max(0, firstPollAt - Date.now()),
        { fromPendingOnly: true },
      )) ?? (await x.store.findTransaction(transactionId));
  }
  return row && !isTerminal(row) ? waitForTerminal(x, transactionId, waitUntil, signal, row) : row;
}

/**
 * Execute's and pay's first submission of the transaction they just inserted, then the wait for
 * its outcome. The submission starts from the row just written and what the caller holds:
 * nothing to read back.
 */
export async function submitInsertedAndWait(
  x: Execution,
  inserted: LiveTransaction,
  facts: { payer: ValidPayer; decoded: unknown; quoteId: string | null; instructionId: string },
  waitUntil: number,
  signal?: AbortSignal,
): Promise<LiveTransaction | undefined> {
  const { payer } = facts;
  const submission: TransactionToSubmit = {
    ...inserted,
    payer,
    decoded: facts.decoded,
    quoteId: facts.quoteId,
  };
  x.held.set(inserted.id, inserted);
  try {
    const result = await x.submitter.submitTransaction(inserted.id, 0, submission, HOLD_ACCEPTED);
    const refusal = refusalOf(result, facts.instructionId);
    if (refusal) throw refusal;
    if (result.kind === 'accepted') {
      x.held.set(inserted.id, { ...result.row, partnerPayoutId: result.partnerPayoutId });
    }
    return await waitAfterSubmission(x, inserted.id, result, waitUntil, signal);
  } finally {
    x.held.delete(inserted.id);
  }
}
