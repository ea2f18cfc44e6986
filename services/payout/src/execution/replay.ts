// A request whose Idempotency-Key is already taken answers the transaction that key made
// (docs/api/idempotency.md "The Idempotency-Key").

import type { Execution } from './context';
import { idempotencyConflict } from './errors';
import type { LiveTransaction, StoredIdempotencyKey } from './records';
import { HOLD_ACCEPTED, refusalOf, waitAfterSubmission, waitForTerminal } from './wait';

/** What execute and pay answer with: the transaction (undefined when withdrawn), replayed or not. */
export type Answered = { row: LiveTransaction | undefined; replayed: boolean };

/**
 * The key's transaction, for a request with the key's fingerprint (IdempotencyConflict
 * otherwise). The first attempt may have stopped before the partner (crash, fx down, unknown
 * answer): whoever holds the free lease re-runs it; the partner's idempotency makes that safe.
 */
export async function replay(
  x: Execution,
  fingerprint: string,
  stored: StoredIdempotencyKey,
  waitUntil: number,
  signal?: AbortSignal,
): Promise<Answered> {
  if (stored.requestFingerprint !== fingerprint) throw idempotencyConflict();
  if (await x.store.leasePendingTransaction(stored.transactionId, x.leaseMs)) {
    const result = await x.submitter.submitTransaction(stored.transactionId, 0, undefined, HOLD_ACCEPTED);
    const refusal = refusalOf(result, stored.instructionId);
    if (refusal) throw refusal;
    return {
      row: await waitAfterSubmission(x, stored.transactionId, result, waitUntil, signal),
      replayed: true,
    };
  }
  return { row: await waitForTerminal(x, stored.transactionId, waitUntil, signal), replayed: true };
}

/** The replay of the request's key when it is taken; undefined when it is free. */
export async function replayIfKeyTaken(
  x: Execution,
  req: { tenantId: string; idempotencyKey: string; requestFingerprint: string },
  waitUntil: number,
  signal?: AbortSignal,
): Promise<Answered | undefined> {
  const stored = await x.store.findIdempotencyKey(req.tenantId, req.idempotencyKey);
  return stored && replay(x, req.requestFingerprint, stored, waitUntil, signal);
}
