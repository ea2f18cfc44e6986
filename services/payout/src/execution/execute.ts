// ExecuteInstruction (docs/api/idempotency.md "Execute and pay"): Brandur Leach's atomic phases on
// our schema, as service.ts describes them.

import { isId, newId } from '@qr-payout/platform/ids';
import type { ExecuteInstructionRequest, Transaction } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { type ChargeSource, chargeKeyOf } from '../instructions/charge-key';
import { instructionNotFound } from '../instructions/errors';
import type { ValidPayer } from '../payers/validate-payer';
import { toTransactionMessage } from '../transactions/transaction-message';
import type { Execution } from './context';
import { dependencyUnavailable, instructionAlreadyExecuted } from './errors';
import { insertSubmitAndWait } from './insert-race';
import type { ExecutableInstruction } from './records';
import { type Answered, replayIfKeyTaken } from './replay';
import { checkKeyedRequest, checkPayment } from './request-checks';
import { waitDeadline } from './wait';

/** An instruction as a first execute finds it: executed already, or checked and ready to write. */
type Executable =
  | { executed: true; instruction: ExecutableInstruction }
  | { executed: false; instruction: ExecutableInstruction; payer: ValidPayer; callbackUrl: string | null };

export async function executeInstruction(
  x: Execution,
  req: ExecuteInstructionRequest,
  signal?: AbortSignal,
): Promise<{ transaction: Transaction; replayed: boolean }> {
  checkKeyedRequest(req);
  const waitUntil = waitDeadline(x, req.waitMs);
  // A transaction withdrawn while we waited on it (its quote expired under another attempt)
  // never existed: run once more, which answers for this request alone.
  for (let round = 0; round < 2; round += 1) {
    const { row, replayed, instruction } = await execute(x, req, waitUntil, signal);
    if (!row) continue;
    // The answer shows the instruction's country, creditor and quote, as GetTransaction does:
    // from the instruction execute read, read again only for a replay that failed its check.
    const facts =
      instruction?.id === row.instructionId
        ? instruction
        : await x.store.findExecutableInstruction(row.tenantId, row.instructionId);
    return { transaction: toTransactionMessage(row, facts), replayed };
  }
  throw dependencyUnavailable('the payout state');
}

/**
 * A request whose key is already taken is a replay, whatever else it says: checked first only
 * when the request fails before its insert (the insert itself tells a taken key), so a first
 * attempt costs no key lookup.
 */
async function execute(
  x: Execution,
  req: ExecuteInstructionRequest,
  waitUntil: number,
  signal?: AbortSignal,
): Promise<
  Answered & {
    /** The instruction as read for the request; absent for a replay whose check failed. */
    instruction?: ExecutableInstruction;
  }
> {
  const transactionId = newId('txn');
  let executable: Executable;
  try {
    executable = await checkExecutable(x, req, transactionId);
  } catch (err) {
    const replayed = await replayIfKeyTaken(x, req, waitUntil, signal);
    if (replayed) return replayed;
    throw err;
  }
  return {
    ...(await executeChecked(x, req, executable, transactionId, waitUntil, signal)),
    instruction: executable.instruction,
  };
}

async function executeChecked(
  x: Execution,
  req: ExecuteInstructionRequest,
  executable: Executable,
  transactionId: string,
  waitUntil: number,
  signal?: AbortSignal,
): Promise<Answered> {
  if (executable.executed) return replayOrRefuse(x, req, executable.instruction, waitUntil, signal);
  const { instruction, payer, callbackUrl } = executable;
  // An instruction stored before migration 0002 has no charge_key column value: read it from its QR.
  const chargeKey = instruction.chargeKey ?? chargeKeyOf(instruction.decoded as ChargeSource);
  const keyTaken = () => replayOrRefuse(x, req, instruction, waitUntil, signal);
  return insertSubmitAndWait(
    x,
    {
      tenantId: req.tenantId,
      chargeKey,
      refusedInstructionId: instruction.id,
      insert: () =>
        x.store.insertPendingTransaction(
          { id: transactionId, instruction, chargeKey, payer, callbackUrl },
          { key: req.idempotencyKey, fingerprint: req.requestFingerprint, ttlMs: x.keyTtlMs },
          x.leaseMs,
        ),
      // Our own instruction's transaction (a concurrent execute with another key) is the usual case.
      chargeTakenByOwn: async (holder) =>
        (await holder())?.instructionId === instruction.id ? keyTaken() : undefined,
      keyTaken,
      submission: {
        payer,
        decoded: instruction.decoded,
        quoteId: instruction.quoteId,
        instructionId: instruction.id,
      },
      won: (row) => ({ row, replayed: false }),
    },
    waitUntil,
    signal,
  );
}

/**
 * The instruction has a transaction: ours when a request with the same key committed it after
 * our first read of the key (concurrent retries), another key's otherwise.
 */
async function replayOrRefuse(
  x: Execution,
  req: ExecuteInstructionRequest,
  instruction: ExecutableInstruction,
  waitUntil: number,
  signal?: AbortSignal,
): Promise<Answered> {
  const replayed = await replayIfKeyTaken(x, req, waitUntil, signal);
  if (replayed) return replayed;
  // The refusal names the existing transaction: known when the instruction was read executed,
  // read once when another request's insert beat ours (a rare path).
  const existing =
    instruction.transactionId ??
    (await x.store.findExecutableInstruction(req.tenantId, instruction.id))?.transactionId;
  throw instructionAlreadyExecuted(instruction.id, existing ?? '');
}

/**
 * The instruction and payer of a first execute, checked before anything is written, as the
 * partner request of `transactionId` would carry them.
 */
async function checkExecutable(
  x: Execution,
  req: ExecuteInstructionRequest,
  transactionId: string,
): Promise<Executable> {
  // An id of another shape cannot exist (docs/api/errors.md "Error names": unknown ids are
  // NotFound), no query needed.
  if (!isId(req.instructionId, 'ins')) throw instructionNotFound();
  const instruction = await x.store.findExecutableInstruction(req.tenantId, req.instructionId);
  if (!instruction) throw instructionNotFound();
  // Executed already: a replay or a refusal, decided by the key; the payer is not checked.
  if (instruction.transactionId !== null) return { executed: true, instruction };
  const { payer, callbackUrl } = checkPayment(x, req, instruction, transactionId, 'instruction_id');
  return { executed: false, instruction, payer, callbackUrl };
}
