// All SQL of the money path (docs/architecture.md "Transactions"): durable idempotency, the pending
// → processing → completed|failed state machine with its outbox event, and the polling worker's
// claims.
import type pg from 'pg';
import type { NewInstruction } from '../instructions/store';
import type {
  ChargeHolder,
  ClaimedTransaction,
  ExecutableInstruction,
  IdempotencyKeyToTake,
  InsertOutcome,
  LiveTransaction,
  NewTransaction,
  StoredIdempotencyKey,
  TerminalOutcome,
  TransactionToSubmit,
} from './records';
import { createInsertStatements } from './store-inserts';
import { createLeaseStatements } from './store-leases';
import { createReadQueries } from './store-reads';
import { createSettleStatement } from './store-settle';

export interface ExecutionStore {
  findExecutableInstruction(
    tenantId: string,
    instructionId: string,
  ): Promise<ExecutableInstruction | undefined>;
  /**
   * The tenant's unexpired key (docs/api/idempotency.md "The Idempotency-Key": after 24 h a key may
   * be reused with any body).
   */
  findIdempotencyKey(tenantId: string, key: string): Promise<StoredIdempotencyKey | undefined>;
  /**
   * Inserts the pending transaction and its idempotency key in ONE database transaction, the
   * transaction leased to the caller for `leaseMs`. `duplicate` when the key or the instruction
   * already has one; `charge_taken` when another live transaction pays the same single-use charge
   * (nothing is written then either): the unique constraints decide races, not a prior read.
   */
  insertPendingTransaction(
    txn: NewTransaction,
    /** Keys are per tenant: this one is the instruction's tenant's. */
    key: IdempotencyKeyToTake,
    leaseMs: number,
  ): Promise<InsertOutcome>;
  /**
   * Pay's write (POST /v1/pay): the resolved instruction, its pending transaction and the key in
   * ONE statement, so a request that loses its key to a concurrent one (`duplicate`) or finds the
   * charge taken (`charge_taken`) leaves no instruction behind. `createdAt`: the instruction's
   * (and the transaction's) creation time.
   */
  insertPaidInstruction(
    instruction: NewInstruction,
    txn: Omit<NewTransaction, 'instruction'>,
    key: IdempotencyKeyToTake,
    leaseMs: number,
  ): Promise<InsertOutcome>;
  /** The live (pending, processing or completed) transaction paying the charge, of any tenant. */
  findChargeHolder(chargeKey: string): Promise<ChargeHolder | undefined>;
  findTransaction(transactionId: string): Promise<LiveTransaction | undefined>;
  findSubmission(transactionId: string): Promise<TransactionToSubmit | undefined>;
  /** Leases a pending transaction whose lease is free (a replay re-running an unsent submission). */
  leasePendingTransaction(transactionId: string, leaseMs: number): Promise<boolean>;
  /**
   * pending|processing → processing with the partner's id; the next poll after `pollInMs`. The row
   * as it now stands, or undefined when it was terminal already (or unknown). `fromPendingOnly`:
   * a held acceptance recorded when execute stops waiting (README "Execute" step 4) never rewrites
   * a row that a callback or a poll moved on meanwhile.
   */
  markProcessing(
    transactionId: string,
    partnerPayoutId: string,
    pollInMs: number,
    opts?: { fromPendingOnly?: boolean },
  ): Promise<LiveTransaction | undefined>;
  /** Releases the lease of a transient transaction; the worker looks again after `pollInMs`. */
  releaseForRetry(transactionId: string, pollInMs: number): Promise<void>;
  /**
   * Deletes a pending transaction that never reached the partner, and its key, so that it never
   * existed (its quote could not be confirmed). False when it had moved on meanwhile.
   */
  abandonUnsubmitted(transactionId: string): Promise<boolean>;
  /**
   * The terminal transition and its outbox event in one database transaction
   * (docs/architecture.md "Transactions", "The outbox and Kafka"), guarded by WHERE status IN
   * ('pending','processing'). The settled row, or undefined when it was terminal already (or
   * unknown): nothing is written then. `known`: the row as the caller read it (its immutable fields
   * are all the event needs besides the outcome), saving a read.
   */
  settle(
    transactionId: string,
    outcome: TerminalOutcome,
    known?: LiveTransaction,
  ): Promise<LiveTransaction | undefined>;
  /**
   * Past its settlement horizon and not settled by the partner's answer: records `stuck_since` (kept
   * when already set), releases the lease and looks again after `pollInMs`. False when the row was
   * terminal meanwhile.
   */
  markStuck(transactionId: string, pollInMs: number): Promise<boolean>;
  /**
   * Claims due transient transactions with FOR UPDATE SKIP LOCKED and a lease
   * (docs/architecture.md "Rails and partners").
   */
  claimDueTransactions(limit: number, leaseMs: number): Promise<ClaimedTransaction[]>;
}

/** The store of the money path, one module per concern (reads, inserts, leases, settle). */
export function createExecutionStore(pool: pg.Pool): ExecutionStore {
  return {
    ...createReadQueries(pool),
    ...createInsertStatements(pool),
    ...createLeaseStatements(pool),
    ...createSettleStatement(pool),
  };
}
