// ExecuteInstruction, Pay and ApplyPartnerCallback (docs/api/idempotency.md "Execute and pay",
// "The Idempotency-Key"; docs/architecture.md "Transactions", "Rails and partners").
//
// Execute is Brandur Leach's atomic phases on our schema: (1) the pending transaction and its
// idempotency key commit together, the unique constraints deciding races; (2) the quote is
// confirmed and the payout submitted under our transaction id as the partner's Idempotency-Key;
// (3) the answer moves the transaction on. A crash between phases leaves a pending row that the
// polling worker resumes after its lease. Nothing is frozen: a retry with the same key re-runs a
// submission that never reached the partner, or answers the transaction as it stands.
//
// Pay is the same phases with resolve in front, under the one key: the instruction is written in
// phase (1)'s statement, so a pay that loses its key writes nothing (README "Resolve and Pay").

import { checkIdempotencyKey, INVALID_IDEMPOTENCY_KEY_MESSAGE } from '@qr-payout/platform/idempotency-key';
import { isId, newId } from '@qr-payout/platform/ids';
import { describeJsonProblem, JsonRefused, parseStrictJson } from '@qr-payout/platform/json';
import type { Logger } from '@qr-payout/platform/log';
import { checkTargetUrl } from '@qr-payout/platform/net';
import type {
  ApplyPartnerCallbackRequest,
  ExecuteInstructionRequest,
  Instruction,
  PayRequest,
  Transaction,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { type ChargeSource, chargeKeyOf } from '../instructions/charge-key';
import { instructionNotFound } from '../instructions/errors';
import { toInstructionMessage } from '../instructions/instruction-message';
import {
  type InstructionResolver,
  type ResolvedInstruction,
  resolvedInstructionMessage,
} from '../instructions/resolve';
import type { InstructionStore } from '../instructions/store';
import { type ValidPayer, validatePayer } from '../payers/validate-payer';
import { railAdapterFor } from '../rails/adapters';
import { type PayoutResource, parsePayoutResource } from '../rails/partner-protocol';
import { RailMappingError } from '../rails/rail-adapter';
import { tenantRequired, transactionNotFound } from '../transactions/errors';
import { toTransactionMessage } from '../transactions/transaction-message';
import {
  chargeAlreadyPaid,
  dependencyUnavailable,
  idempotencyConflict,
  idempotencyKeyMissing,
  instructionAlreadyExecuted,
  invalidRequest,
  quoteExpired,
} from './errors';
import type { Settlement } from './settlement';
import type { SettlementSignals } from './settlement-signals';
import type {
  ExecutableInstruction,
  ExecutionStore,
  LiveTransaction,
  StoredIdempotencyKey,
  TransactionToSubmit,
} from './store';
import { partnerCallbackUrl, type SubmissionResult, type Submitter, submissionInput } from './submission';

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

export type ExecutionServiceDeps = {
  store: ExecutionStore;
  submitter: Submitter;
  settlement: Settlement;
  signals: SettlementSignals;
  logger: Logger;
  /** EXECUTE_WAIT_MS: the wait when the request gives none. */
  defaultWaitMs: number;
  /** How long execute owns its new transaction before the worker may take it over. */
  leaseMs: number;
  /**
   * POLL_BACKOFF_BASE_MS, the worker's first look after a submission: how long execute holds a
   * partner's acceptance in memory before it writes `processing` for the worker to poll.
   */
  firstPollMs: number;
  /** PARTNER_CALLBACK_BASE_URL, to check at execute that the instruction maps to its rail. */
  callbackBaseUrl: string;
  /** IDEMPOTENCY_KEY_TTL_MS unless a test shortens it. */
  idempotencyKeyTtlMs?: number;
  /** What a QR resolves to (amount, rail limits, quote), shared with CreateInstruction. */
  resolver: InstructionResolver;
  /** Pay's replays answer the instruction as stored. */
  instructions: Pick<InstructionStore, 'findInstruction'>;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: http and private callback_url hosts (sandbox, tests). */
  allowPrivateCallbackTargets: boolean;
};

/**
 * docs/api/idempotency.md "The Idempotency-Key": a key is remembered 24 hours. Payout owns it; the
 * gateway's cache learns it through GetExecutionSettings.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_WAIT_MS = 60_000;
const FINGERPRINT = /^[0-9A-Za-z+/=_-]{1,128}$/;
/** Execute and pay wait for the outcome: a partner's acceptance is theirs to hold (README "Execute"). */
const HOLD_ACCEPTED = { holdAccepted: true } as const;

/** An instruction as a first execute finds it: executed already, or checked and ready to write. */
type Executable =
  | { executed: true; instruction: ExecutableInstruction }
  | { executed: false; instruction: ExecutableInstruction; payer: ValidPayer; callbackUrl: string | null };

/** The row a submission left, when it reached the partner and this process wrote the answer. */
function rowSubmitted(result: SubmissionResult): LiveTransaction | undefined {
  return result.kind === 'submitted' ? result.row : undefined;
}

function isTerminal(row: LiveTransaction): boolean {
  return row.status === 'completed' || row.status === 'failed';
}

/**
 * The ad-hoc webhook target of execute and pay (docs/architecture.md "Transactions"), by the rules
 * of registered endpoints (platform checkTargetUrl, docs/api/webhooks.md "Where we send";
 * docs/api/idempotency.md "Execute and pay"): the one check of callback_url. Returns the normalized
 * URL, null when none was given.
 */
function checkCallbackUrl(value: string, allowPrivateTargets: boolean): string | null {
  if (value === '') return null;
  const checked = checkTargetUrl(value, { allowPrivateTargets });
  if (!checked.ok) throw invalidRequest('callback_url', checked.problem.replace(/^url\b/, 'callback_url'));
  return checked.url;
}

/**
 * The partner's payout resource a callback body carries; ValidationError naming `payload` when it
 * is not JSON or not a payout resource (the gateway answers 400, the partner sees its error).
 */
function parseCallbackPayload(payload: Uint8Array): PayoutResource {
  let body: unknown;
  try {
    body = parseStrictJson(Buffer.from(payload).toString('utf8'));
  } catch (err) {
    if (err instanceof JsonRefused) throw invalidRequest('payload', describeJsonProblem(err.problem));
    throw err;
  }
  const resource = parsePayoutResource(body);
  if (!resource) {
    throw invalidRequest('payload', 'The request body is not a payout resource (docs/partner-protocol.md).');
  }
  return resource;
}

/** What execute and pay check of their key, fingerprint and wait before anything else. */
function checkKeyedRequest(req: {
  tenantId: string;
  idempotencyKey: string;
  requestFingerprint: string;
  waitMs: number;
}): void {
  if (req.tenantId === '') throw tenantRequired();
  const verdict = checkIdempotencyKey(req.idempotencyKey);
  if (verdict === 'missing') throw idempotencyKeyMissing();
  if (verdict === 'invalid') throw invalidRequest('idempotency_key', INVALID_IDEMPOTENCY_KEY_MESSAGE);
  if (!FINGERPRINT.test(req.requestFingerprint)) {
    throw invalidRequest(
      'request_fingerprint',
      'request_fingerprint must be 1 to 128 hex or base64 characters',
    );
  }
  if (req.waitMs < 0) throw invalidRequest('wait_ms', 'wait_ms must not be negative');
}

export function createExecutionService(deps: ExecutionServiceDeps): ExecutionService {
  const keyTtlMs = deps.idempotencyKeyTtlMs ?? IDEMPOTENCY_KEY_TTL_MS;
  // The rows this process's executes and pays are submitting or waiting on, with the partner's id
  // once it accepted (written only when the call stops waiting). The partner's callback for one of
  // them is checked against this row instead of a read (README "Execute: state machine, durable
  // idempotency, rails"); it can be stale only in its status, which the settlement's guarded
  // UPDATE decides anyway.
  const held = new Map<string, LiveTransaction>();

  /**
   * The wait counts from the call's start, so the whole call stays within wait_ms plus one
   * submission, and the caller's deadline (wait_ms plus a margin) holds.
   */
  function waitDeadline(waitMs: number): number {
    return Date.now() + (waitMs === 0 ? deps.defaultWaitMs : Math.min(waitMs, MAX_WAIT_MS));
  }

  /**
   * Waits until the transaction is terminal or `deadline` (epoch ms) and answers it as it stands;
   * undefined when it was withdrawn. `known`: the row as the caller just wrote it, so the first
   * look needs no read. A settlement in this process hands the settled row over with its wake-up;
   * otherwise the row is read again after each pause (one settled by another replica).
   */
  async function waitForTerminal(
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
      const woken = deps.signals.next(transactionId, Math.min(pause, deadline - Date.now()), signal);
      if (!row) {
        row = await deps.store.findTransaction(transactionId);
        if (!row || isTerminal(row) || done()) return row;
      }
      row = (await woken) ?? undefined;
      pause = Math.min(pause * 2, 500);
    }
  }

  function refusalOf(result: SubmissionResult, instructionId: string): Error | undefined {
    if (result.kind === 'abandoned') {
      return result.reason === 'quote_expired'
        ? quoteExpired(instructionId)
        : instructionAlreadyExecuted(instructionId);
    }
    if (result.kind === 'retry_later' && result.cause === 'fx_unavailable')
      return dependencyUnavailable('fx');
    return undefined;
  }

  /**
   * Execute's and pay's first submission of the transaction they just inserted, then the wait for
   * its outcome. The submission starts from the row just written and what the caller holds:
   * nothing to read back.
   */
  async function submitInsertedAndWait(
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
    held.set(inserted.id, inserted);
    try {
      const result = await deps.submitter.submitTransaction(inserted.id, 0, submission, HOLD_ACCEPTED);
      const refusal = refusalOf(result, facts.instructionId);
      if (refusal) throw refusal;
      if (result.kind === 'accepted') {
        held.set(inserted.id, { ...result.row, partnerPayoutId: result.partnerPayoutId });
      }
      return await waitAfterSubmission(inserted.id, result, waitUntil, signal);
    } finally {
      held.delete(inserted.id);
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
  async function waitAfterSubmission(
    transactionId: string,
    result: SubmissionResult,
    waitUntil: number,
    signal?: AbortSignal,
  ): Promise<LiveTransaction | undefined> {
    if (result.kind !== 'accepted') {
      return waitForTerminal(transactionId, waitUntil, signal, rowSubmitted(result));
    }
    const firstPollAt = Date.now() + deps.firstPollMs;
    let row = await waitForTerminal(transactionId, Math.min(waitUntil, firstPollAt), signal, result.row);
    if (row?.status === 'pending') {
      // Undefined: settled (or moved on) meanwhile; the row is then read as it stands.
      row =
        (await deps.store.markProcessing(
          transactionId,
          result.partnerPayoutId,
          Math.max(0, firstPollAt - Date.now()),
          { fromPendingOnly: true },
        )) ?? (await deps.store.findTransaction(transactionId));
    }
    return row && !isTerminal(row) ? waitForTerminal(transactionId, waitUntil, signal, row) : row;
  }

  async function replay(
    fingerprint: string,
    stored: StoredIdempotencyKey,
    waitUntil: number,
    signal?: AbortSignal,
  ): Promise<{ row: LiveTransaction | undefined }> {
    if (stored.requestFingerprint !== fingerprint) throw idempotencyConflict();
    // The first attempt may have stopped before the partner (crash, fx down, unknown answer):
    // whoever holds the free lease re-runs it; the partner's idempotency makes that safe.
    if (await deps.store.leasePendingTransaction(stored.transactionId, deps.leaseMs)) {
      const result = await deps.submitter.submitTransaction(
        stored.transactionId,
        0,
        undefined,
        HOLD_ACCEPTED,
      );
      const refusal = refusalOf(result, stored.instructionId);
      if (refusal) throw refusal;
      return { row: await waitAfterSubmission(stored.transactionId, result, waitUntil, signal) };
    }
    return { row: await waitForTerminal(stored.transactionId, waitUntil, signal) };
  }

  /**
   * The instruction has a transaction: ours when a request with the same key committed it after
   * our first read of the key (concurrent retries), another key's otherwise.
   */
  async function replayOrRefuse(
    req: ExecuteInstructionRequest,
    instruction: ExecutableInstruction,
    waitUntil: number,
    signal?: AbortSignal,
  ): Promise<{ row: LiveTransaction | undefined; replayed: boolean }> {
    const winner = await deps.store.findIdempotencyKey(req.tenantId, req.idempotencyKey);
    if (winner)
      return { ...(await replay(req.requestFingerprint, winner, waitUntil, signal)), replayed: true };
    // The refusal names the existing transaction: known when the instruction was read executed,
    // read once when another request's insert beat ours (a rare path).
    const existing =
      instruction.transactionId ??
      (await deps.store.findExecutableInstruction(req.tenantId, instruction.id))?.transactionId;
    throw instructionAlreadyExecuted(instruction.id, existing ?? '');
  }

  /**
   * A request whose key is already taken is a replay, whatever else it says: checked first only
   * when the request fails before its insert (the insert itself tells a taken key), so a first
   * attempt costs no key lookup.
   */
  async function execute(
    req: ExecuteInstructionRequest,
    waitUntil: number,
    signal?: AbortSignal,
  ): Promise<{
    row: LiveTransaction | undefined;
    replayed: boolean;
    /** The instruction as read for the request; absent for a replay whose check failed. */
    instruction?: ExecutableInstruction;
  }> {
    const transactionId = newId('txn');
    let executable: Executable;
    try {
      executable = await checkExecutable(req, transactionId);
    } catch (err) {
      const stored = await deps.store.findIdempotencyKey(req.tenantId, req.idempotencyKey);
      if (stored)
        return { ...(await replay(req.requestFingerprint, stored, waitUntil, signal)), replayed: true };
      throw err;
    }
    return {
      ...(await executeChecked(req, executable, transactionId, waitUntil, signal)),
      instruction: executable.instruction,
    };
  }

  async function executeChecked(
    req: ExecuteInstructionRequest,
    executable: Executable,
    transactionId: string,
    waitUntil: number,
    signal?: AbortSignal,
  ): Promise<{ row: LiveTransaction | undefined; replayed: boolean }> {
    if (executable.executed) return replayOrRefuse(req, executable.instruction, waitUntil, signal);
    const { instruction, payer, callbackUrl } = executable;
    // An instruction stored before migration 0002 has no charge_key column value: read it from its QR.
    const chargeKey = instruction.chargeKey ?? chargeKeyOf(instruction.decoded as ChargeSource);
    const insert = () =>
      deps.store.insertPendingTransaction(
        { id: transactionId, instruction, chargeKey, payer, callbackUrl },
        { key: req.idempotencyKey, fingerprint: req.requestFingerprint, ttlMs: keyTtlMs },
        deps.leaseMs,
      );
    let inserted = await insert();
    if (inserted.kind === 'charge_taken' && chargeKey !== null) {
      const holder = await deps.store.findChargeHolder(chargeKey);
      // Our own instruction's transaction (a concurrent execute with another key) is the usual case.
      if (holder?.instructionId === instruction.id)
        return replayOrRefuse(req, instruction, waitUntil, signal);
      // The payment that held the charge failed or was withdrawn since our INSERT: the charge is
      // free again and one more INSERT decides.
      if (!holder) inserted = await insert();
      else throw chargeAlreadyPaid(instruction.id, holder.tenantId === req.tenantId ? holder.id : undefined);
    }
    if (inserted.kind === 'charge_taken') throw chargeAlreadyPaid(instruction.id);
    if (inserted.kind === 'duplicate') return replayOrRefuse(req, instruction, waitUntil, signal);
    const row = await submitInsertedAndWait(
      inserted.row,
      { payer, decoded: instruction.decoded, quoteId: instruction.quoteId, instructionId: instruction.id },
      waitUntil,
      signal,
    );
    return { row, replayed: false };
  }

  /**
   * The instruction and payer of a first execute, checked before anything is written, as the
   * partner request of `transactionId` would carry them.
   */
  async function checkExecutable(req: ExecuteInstructionRequest, transactionId: string): Promise<Executable> {
    // An id of another shape cannot exist (docs/api/errors.md "Error names": unknown ids are
    // NotFound), no query needed.
    if (!isId(req.instructionId, 'ins')) throw instructionNotFound();
    const instruction = await deps.store.findExecutableInstruction(req.tenantId, req.instructionId);
    if (!instruction) throw instructionNotFound();
    // Executed already: a replay or a refusal, decided by the key; the payer is not checked.
    if (instruction.transactionId !== null) return { executed: true, instruction };
    const { payer, callbackUrl } = checkPayment(req, instruction, transactionId, 'instruction_id');
    return { executed: false, instruction, payer, callbackUrl };
  }

  /**
   * The payer and callback_url of a first execute or pay, checked with the partner request of
   * `transactionId` they would make: refused now what the partner request could not carry, rather
   * than failed after the commit. `field`: what a rail that cannot carry it is blamed on.
   */
  function checkPayment(
    req: Pick<ExecuteInstructionRequest, 'payer' | 'callbackUrl'>,
    instruction: Pick<
      ExecutableInstruction,
      'country' | 'rail' | 'amountCurrency' | 'amountMinor' | 'decoded'
    >,
    transactionId: string,
    field: string,
  ): { payer: ValidPayer; callbackUrl: string | null } {
    const payer = validatePayer(req.payer);
    const callbackUrl = checkCallbackUrl(req.callbackUrl, deps.allowPrivateCallbackTargets);
    const adapter = railAdapterFor(instruction.rail);
    if (!adapter) throw invalidRequest(field, `rail ${instruction.rail} is not served`);
    try {
      adapter.toPartnerRequest(
        submissionInput(
          {
            transactionId,
            amountCurrency: instruction.amountCurrency,
            amountMinor: instruction.amountMinor,
            decodedJson: instruction.decoded,
            payer,
          },
          partnerCallbackUrl(deps.callbackBaseUrl, adapter.rail),
        ),
      );
    } catch (err) {
      if (err instanceof RailMappingError) throw invalidRequest(field, err.message);
      throw err;
    }
    return { payer, callbackUrl };
  }

  /** What one pay round left: the transaction, and the instruction when this round made it. */
  type PayRound = {
    row: LiveTransaction | undefined;
    replayed: boolean;
    made?: { resolved: ResolvedInstruction; createdAt: Date };
  };

  /**
   * Pay (POST /v1/pay): a key already taken is a replay of the pay that took it (its instruction
   * and transaction, nothing resolved again); otherwise the QR is resolved, and the instruction,
   * its pending transaction and the key are written in one statement, so a losing racer writes
   * nothing, then submitted as execute submits.
   */
  async function payOnce(req: PayRequest, waitUntil: number, signal?: AbortSignal): Promise<PayRound> {
    const replayOf = async (stored: StoredIdempotencyKey): Promise<PayRound> => ({
      ...(await replay(req.requestFingerprint, stored, waitUntil, signal)),
      replayed: true,
    });
    // The key is not looked up first: the gateway answers repeats from its cache, so a new key is
    // the usual case, and the INSERT below decides (a taken key writes nothing and is replayed).
    // A repeat that reaches us and fails to resolve or check (the charge was paid since, another
    // body) is still the earlier pay's: the key is looked up before the refusal is given.
    let prepared: {
      resolved: ResolvedInstruction;
      transactionId: string;
      payer: ValidPayer;
      callbackUrl: string | null;
    };
    try {
      const resolved = await deps.resolver.resolve(
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
      prepared = { resolved, transactionId, payer, callbackUrl };
    } catch (err) {
      const taken = await deps.store
        .findIdempotencyKey(req.tenantId, req.idempotencyKey)
        .catch(() => undefined);
      if (taken) return replayOf(taken);
      throw err;
    }
    const { resolved, transactionId, payer, callbackUrl } = prepared;
    const ins = resolved.row;
    const txn = { id: transactionId, chargeKey: ins.chargeKey, payer, callbackUrl };
    const key = { key: req.idempotencyKey, fingerprint: req.requestFingerprint, ttlMs: keyTtlMs };
    let inserted = await deps.store.insertPaidInstruction(ins, txn, key, deps.leaseMs);
    if (inserted.kind === 'charge_taken' && ins.chargeKey !== null) {
      // The charge's payment may be a concurrent pay with our key: then it is ours to replay.
      const winner = await deps.store.findIdempotencyKey(req.tenantId, req.idempotencyKey);
      if (winner) return replayOf(winner);
      const holder = await deps.store.findChargeHolder(ins.chargeKey);
      // The payment that held the charge failed since our INSERT: one more INSERT decides.
      if (!holder) inserted = await deps.store.insertPaidInstruction(ins, txn, key, deps.leaseMs);
      else {
        throw chargeAlreadyPaid('', holder.tenantId === req.tenantId ? holder.id : undefined);
      }
    }
    if (inserted.kind === 'charge_taken') throw chargeAlreadyPaid('');
    if (inserted.kind === 'duplicate') {
      const winner = await deps.store.findIdempotencyKey(req.tenantId, req.idempotencyKey);
      // The key's pay won the race and is replayed; a winner gone already (withdrawn) → retry.
      if (winner) return replayOf(winner);
      return { row: undefined, replayed: false };
    }
    const row = await submitInsertedAndWait(
      inserted.row,
      { payer, decoded: ins.decodedJson, quoteId: ins.quoteId, instructionId: ins.id },
      waitUntil,
      signal,
    );
    return {
      row,
      replayed: false,
      made: { resolved, createdAt: inserted.row.createdAt },
    };
  }

  return {
    async pay(req, signal) {
      checkKeyedRequest(req);
      const waitUntil = waitDeadline(req.waitMs);
      // As execute: a transaction withdrawn while we waited on it is run once more.
      for (let round = 0; round < 2; round += 1) {
        const { row, replayed, made } = await payOnce(req, waitUntil, signal);
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
          deps.instructions.findInstruction(row.tenantId, row.instructionId),
          deps.store.findExecutableInstruction(row.tenantId, row.instructionId),
        ]);
        if (!stored) throw instructionNotFound();
        return {
          instruction: toInstructionMessage(stored),
          transaction: toTransactionMessage(row, facts),
          replayed,
        };
      }
      throw dependencyUnavailable('the payout state');
    },

    async executeInstruction(req, signal) {
      checkKeyedRequest(req);
      const waitUntil = waitDeadline(req.waitMs);
      // A transaction withdrawn while we waited on it (its quote expired under another attempt)
      // never existed: run once more, which answers for this request alone.
      for (let round = 0; round < 2; round += 1) {
        const { row, replayed, instruction } = await execute(req, waitUntil, signal);
        if (!row) continue;
        // The answer shows the instruction's country, creditor and quote, as GetTransaction does:
        // from the instruction execute read, read again only for a replay that failed its check.
        const facts =
          instruction?.id === row.instructionId
            ? instruction
            : await deps.store.findExecutableInstruction(row.tenantId, row.instructionId);
        return { transaction: toTransactionMessage(row, facts), replayed };
      }
      throw dependencyUnavailable('the payout state');
    },

    async applyPartnerCallback(req) {
      // The gateway verified the signature and forwards the bytes it covered; what they say is
      // read here alone (docs/partner-protocol.md "Payout resource").
      const resource = parseCallbackPayload(req.payload);
      if (resource.rail !== req.rail) {
        throw invalidRequest('rail', `rail ${resource.rail} does not match the callback path (${req.rail})`);
      }
      if (!isId(resource.idempotency_key, 'txn')) throw transactionNotFound();
      const row =
        held.get(resource.idempotency_key) ?? (await deps.store.findTransaction(resource.idempotency_key));
      if (!row) throw transactionNotFound();
      if (req.rail !== row.rail) throw invalidRequest('rail', 'the callback came for another rail');
      if (row.partnerPayoutId !== null && resource.id !== row.partnerPayoutId) {
        throw invalidRequest('partner_payout_id', 'the callback names another partner payout');
      }
      // A callback repeated after settlement (partners retry) changes nothing.
      if (isTerminal(row)) return toTransactionMessage(row);
      const adapter = railAdapterFor(row.rail);
      if (!adapter) throw invalidRequest('rail', `rail ${row.rail} is not served`);
      const outcome = adapter.toOutcome(resource);
      // The row as the settlement left it; read again only when another path got there first.
      const after =
        (await deps.settlement.applyPartnerOutcome(row.id, outcome, 0, row)) ??
        (await deps.store.findTransaction(row.id));
      if (!after) throw transactionNotFound();
      return toTransactionMessage(after);
    },
  };
}
