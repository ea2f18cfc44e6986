import type { Client } from '@connectrpc/connect';
import type { PayoutService, Transaction } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { apiError } from '../errors/api-error';
import { isInstructionId } from '../http/ids';
import type { ExecutionSettingsSource } from './execution-settings';

// The execute step of the money path, shared by POST /v1/execute and POST /v1/pay: payout runs it
// exactly once per (tenant, Idempotency-Key) in its own database (the durable guarantee,
// docs/architecture.md "Idempotency"), waits up to its EXECUTE_WAIT_MS for a terminal state and answers the
// transaction as it stands.

export interface ExecuteInstructionDeps {
  payout: Pick<Client<typeof PayoutService>, 'executeInstruction'>;
  /**
   * payout's settings: how long it waits for a terminal state before answering
   * (docs/api/idempotency.md "Execute and pay": 8 s by default).
   */
  settings: ExecutionSettingsSource;
  /** Deadline of the call on top of the wait: the usual service deadline. */
  callTimeoutMs: number;
}

export interface PayerInput {
  name: string;
  account: string;
  taxId: string;
  /** payer_country and payer_id_type as sent; absent when not sent (payout tells the two apart). */
  country?: string | undefined;
  idType?: string | undefined;
}

export interface ExecuteInput {
  tenantId: string;
  instructionId: string;
  payer: PayerInput;
  callbackUrl?: string | undefined;
  idempotencyKey: string;
  requestFingerprint: string;
}

export interface ExecuteOutcome {
  transaction: Transaction;
  /** payout had already executed this key with this fingerprint: nothing ran again. */
  replayed: boolean;
}

export async function executeInstruction(
  deps: ExecuteInstructionDeps,
  input: ExecuteInput,
): Promise<ExecuteOutcome> {
  // A malformed id cannot exist: the same 404 as an unknown one, without a call (no probing,
  // docs/api/errors.md "Error names").
  if (!isInstructionId(input.instructionId)) throw apiError('NotFoundError', 'instruction not found');
  const { executeWaitMs } = await deps.settings.get();
  // No abort signal: a client that hangs up must not cancel a payout half way; the answer still
  // fills the idempotency cache for its retry.
  const { transaction, replayed } = await deps.payout.executeInstruction(
    {
      tenantId: input.tenantId,
      instructionId: input.instructionId,
      payer: { ...input.payer },
      callbackUrl: input.callbackUrl ?? '',
      idempotencyKey: input.idempotencyKey,
      requestFingerprint: input.requestFingerprint,
      waitMs: executeWaitMs,
    },
    { timeoutMs: executeWaitMs + deps.callTimeoutMs },
  );
  if (!transaction) throw new Error('payout returned no transaction');
  return { transaction, replayed };
}
