// ExecuteInstruction, Pay and ApplyPartnerCallback (docs/api/idempotency.md "Execute and pay",
// "The Idempotency-Key"; docs/architecture.md "Transactions", "Rails and partners").
//
// Execute is Brandur Leach's atomic phases on our schema: (1) the pending transaction and its
// idempotency key commit together, the unique constraints deciding races (insert-race.ts); (2) the
// quote is confirmed and the payout submitted under our transaction id as the partner's
// Idempotency-Key; (3) the answer moves the transaction on (wait.ts). A crash between phases leaves
// a pending row that the polling worker resumes after its lease. Nothing is frozen: a retry with
// the same key re-runs a submission that never reached the partner, or answers the transaction as
// it stands (replay.ts).
//
// Pay is the same phases with resolve in front, under the one key: the instruction is written in
// phase (1)'s statement, so a pay that loses its key writes nothing (README "Resolve and Pay").

import type {
  ApplyPartnerCallbackRequest,
  ExecuteInstructionRequest,
  Instruction,
  PayRequest,
  Transaction,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { type ExecutionServiceDeps, executionOf } from './context';
import { executeInstruction } from './execute';
import { applyPartnerCallback } from './partner-callback';
import { pay } from './pay';

export interface ExecutionService {
  executeInstruction(
    req: ExecuteInstructionRequest,
    signal?: AbortSignal,
  ): Promise<{ transaction: Transaction; replayed: boolean }>;
  /** Resolve and execute under one key (POST /v1/pay): the instruction, its transaction, replayed. */
  pay(
    req: PayRequest,
    signal?: AbortSignal,
  ): Promise<{ instruction: Instruction; transaction: Transaction; replayed: boolean }>;
  applyPartnerCallback(req: ApplyPartnerCallbackRequest): Promise<Transaction>;
}

export function createExecutionService(deps: ExecutionServiceDeps): ExecutionService {
  const x = executionOf(deps);
  return {
    pay: (req, signal) => pay(x, req, signal),
    executeInstruction: (req, signal) => executeInstruction(x, req, signal),
    applyPartnerCallback: (req) => applyPartnerCallback(x, req),
  };
}
