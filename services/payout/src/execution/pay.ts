// Pay (POST /v1/pay): resolve and execute under one key (README "Resolve and Pay"). The instruction
// is written in the INSERT's statement, so a pay that loses its key writes nothing.

import { newId } from '@qr-payout/platform/ids';
import type { Instruction, PayRequest, Transaction } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { instructionNotFound } from '../instructions/errors';
import { toInstructionMessage } from '../instructions/instruction-message';
import { type ResolvedInstruction, resolvedInstructionMessage } from '../instructions/resolve';
import type { ValidPayer } from '../payers/validate-payer';
import { toTransactionMessage } from '../transactions/transaction-message';
import type { Execution } from './context';
import { dependencyUnavailable } from './errors';
import { insertSubmitAndWait } from './insert-race';
import { type Answered, replay, replayIfKeyTaken } from './replay';
import { checkKeyedRequest, checkPayment } from './request-checks';
import { waitDeadline } from './wait';

/** What one pay round left: the transaction, and the instruction when this round made it. */
type PayRound = Answered & { made?: { resolved: ResolvedInstruction; createdAt: Date } };

/** A pay resolved and checked, ready for its INSERT. */
type PreparedPay = {
  resolved: ResolvedInstruction;
  transactionId: string;
  payer: ValidPayer;
  callbackUrl: string | null;
};

export async function pay(
  x: Execution,
  req: PayRequest,
  signal?: AbortSignal,
): Promise<{ instruction: Instruction; transaction: Transaction; replayed: boolean }> {
  checkKeyedRequest(req);
  const waitUntil = waitDeadline(x, req.waitMs);
  // As execute: a transaction withdrawn while we waited on it is run once more.
  for (let round = 0; round < 2; round += 1) {
    const { row, replayed, made } = await payOnce(x, req, waitUntil, signal);
    if (!row) continue;
    if (made) {
      // The instruction this call wrote: its message and facts are known, nothing to read.
      const { resolved, createdAt } = made;
      const facts = {
        country: resolved.row.country,
        creditor: (resolved.row.decodedJson as { creditor?: unknown }).creditor ?? null,
        quoteId: resolved.quote?.id ?? null,
        quoteRate: resolved.quote?.rate ?? null,
      };
      return {
        instruction: resolvedInstructionMessage(resolved, createdAt, row.id),
        transaction: toTransactionMessage(row, facts),
        replayed,
      };
    }
    const [stored, facts] = await Promise.all([
      x.instructions.findInstruction(row.tenantId, row.instructionId),
      x.store.findExecutableInstruction(row.tenantId, row.instructionId),
    ]);
    if (!stored) throw instructionNotFound();
    return {
      instruction: toInstructionMessage(stored),
      transaction: toTransactionMessage(row, facts),
      replayed,
    };
  }
  throw dependencyUnavailable('the payout state');
}

/**
 * A key already taken is a replay of the pay that took it (its instruction and transaction,
 * nothing resolved again); otherwise the QR is resolved, and the instruction, its pending
 * transaction and the key are written in one statement, so a losing racer writes nothing, then
 * submitted as execute submits.
 */
async function payOnce(
  x: Execution,
  req: PayRequest,
  waitUntil: number,
  signal?: AbortSignal,
): Promise<PayRound> {
  // The key is not looked up first: the gateway answers repeats from its cache, so a new key is
  // the usual case, and the INSERT below decides (a taken key writes nothing and is replayed).
  // A repeat that reaches us and fails to resolve or check (the charge was paid since, another
  // body) is still the earlier pay's: the key is looked up before the refusal is given.
  let prepared: PreparedPay;
  try {
    prepared = await preparePay(x, req, signal);
  } catch (err) {
    const taken = await x.store.findIdempotencyKey(req.tenantId, req.idempotencyKey).catch(() => undefined);
    if (taken) return replay(x, req.requestFingerprint, taken, waitUntil, signal);
    throw err;
  }
  const { resolved, transactionId, payer, callbackUrl } = prepared;
  const ins = resolved.row;
  const txn = { id: transactionId, chargeKey: ins.chargeKey, payer, callbackUrl };
  const key = { key: req.idempotencyKey, fingerprint: req.requestFingerprint, ttlMs: x.keyTtlMs };
  return insertSubmitAndWait<PayRound>(
    x,
    {
      tenantId: req.tenantId,
      chargeKey: ins.chargeKey,
      refusedInstructionId: '',
      insert: () => x.store.insertPaidInstruction(ins, txn, key, x.leaseMs),
      // The charge's payment may be a concurrent pay with our key: then it is ours to replay.
      chargeTakenByOwn: () => replayIfKeyTaken(x, req, waitUntil, signal),
      // The key's pay won the race and is replayed; a winner gone already (withdrawn) → retry.
      keyTaken: async () =>
        (await replayIfKeyTaken(x, req, waitUntil, signal)) ?? { row: undefined, replayed: false },
      submission: { payer, decoded: ins.decodedJson, quoteId: ins.quoteId, instructionId: ins.id },
      won: (row, inserted) => ({ row, replayed: false, made: { resolved, createdAt: inserted.createdAt } }),
    },
    waitUntil,
    signal,
  );
}

/** The pay's QR resolved and its payment checked, as its partner request would carry them. */
async function preparePay(x: Execution, req: PayRequest, signal?: AbortSignal): Promise<PreparedPay> {
  const resolved = await x.resolver.resolve(
    {
      tenantId: req.tenantId,
      decoded: req.decoded,
      amount: req.amount,
      walletCurrency: req.walletCurrency,
    },
    signal,
  );
  const transactionId = newId('txn');
  const { payer, callbackUrl } = checkPayment(
    x,
    req,
    {
      country: resolved.row.country,
      rail: resolved.row.rail,
      amountCurrency: resolved.row.amountCurrency,
      amountMinor: resolved.row.amountMinor,
      decoded: resolved.row.decodedJson,
    },
    transactionId,
    'decoded',
  );
  return { resolved, transactionId, payer, callbackUrl };
}
