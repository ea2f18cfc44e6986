// ExecuteInstruction and ApplyPartnerCallback (spec §4.2, §8; design §3, §4).
//
// Execute is Brandur Leach's atomic phases on our schema: (1) the pending transaction and its
// idempotency key commit together, the unique constraints deciding races; (2) the quote is
// confirmed and the payout submitted under our transaction id as the partner's Idempotency-Key;
// (3) the answer moves the transaction on. A crash between phases leaves a pending row that the
// polling worker resumes after its lease. Nothing is frozen: a retry with the same key re-runs a
// submission that never reached the partner, or answers the transaction as it stands.

import { timestampDate } from '@bufbuild/protobuf/wkt';
import { isId, type Logger, newId } from '@qr-payout/platform';
import type {
  ApplyPartnerCallbackRequest,
  ExecuteInstructionRequest,
  Transaction,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { type ChargeSource, chargeKeyOf } from '../instructions/charge-key';
import { instructionNotFound } from '../instructions/errors';
import { type ValidPayer, validatePayer } from '../payers/validate-payer';
import { railAdapterFor } from '../rails/adapters';
import { PARTNER_STATUSES, type PartnerStatus, type PayoutResource } from '../rails/partner-protocol';
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
import type { ExecutableInstruction, ExecutionStore, LiveTransactionRow, SubmissionRow } from './store';
import { partnerCallbackUrl, type SubmissionResult, type Submitter, submissionInput } from './submission';

export interface ExecutionService {
  executeInstruction(
    req: ExecuteInstructionRequest,
    signal?: AbortSignal,
  ): Promise<{ transaction: Transaction; replayed: boolean }>;
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
  /** PARTNER_CALLBACK_BASE_URL, to check at execute that the instruction maps to its rail. */
  callbackBaseUrl: string;
  /** spec §8: 24 hours. */
  idempotencyKeyTtlMs?: number;
};

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_WAIT_MS = 60_000;
// Printable ASCII without spaces, at most 255 characters (Stripe's and the IETF draft's advice).
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const FINGERPRINT = /^[0-9A-Za-z+/=_-]{1,128}$/;
const MAX_CALLBACK_URL = 2048;

/** An instruction as a first execute finds it: executed already, or checked and ready to write. */
type Executable =
  | { executed: true; instruction: ExecutableInstruction }
  | { executed: false; instruction: ExecutableInstruction; payer: ValidPayer; callbackUrl: string | null };

/** The row a submission left, when it reached the partner and this process wrote the answer. */
function rowSubmitted(result: SubmissionResult): LiveTransactionRow | undefined {
  return result.kind === 'submitted' ? result.row : undefined;
}

function isTerminal(row: LiveTransactionRow): boolean {
  return row.status === 'completed' || row.status === 'failed';
}

function checkCallbackUrl(value: string): string | null {
  if (value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidRequest('callback_url', 'callback_url must be an absolute URL');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || value.length > MAX_CALLBACK_URL) {
    throw invalidRequest(
      'callback_url',
      `callback_url must be an http(s) URL of at most ${MAX_CALLBACK_URL} characters`,
    );
  }
  return value;
}

export function createExecutionService(deps: ExecutionServiceDeps): ExecutionService {
  const keyTtlMs = deps.idempotencyKeyTtlMs ?? DAY_MS;

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
    known?: LiveTransactionRow,
  ): Promise<LiveTransactionRow | undefined> {
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

  async function replay(
    req: ExecuteInstructionRequest,
    stored: { request_fingerprint: string; transaction_id: string },
    waitUntil: number,
    signal?: AbortSignal,
  ): Promise<{ row: LiveTransactionRow | undefined }> {
    if (stored.request_fingerprint !== req.requestFingerprint) throw idempotencyConflict();
    // The first attempt may have stopped before the partner (crash, fx down, unknown answer):
    // whoever holds the free lease re-runs it; the partner's idempotency makes that safe.
    let known: LiveTransactionRow | undefined;
    if (await deps.store.leasePendingTransaction(stored.transaction_id, deps.leaseMs)) {
      const result = await deps.submitter.submitTransaction(stored.transaction_id, 0);
      const refusal = refusalOf(result, req.instructionId);
      if (refusal) throw refusal;
      known = rowSubmitted(result);
    }
    return { row: await waitForTerminal(stored.transaction_id, waitUntil, signal, known) };
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
  ): Promise<{ row: LiveTransactionRow | undefined; replayed: boolean }> {
    const winner = await deps.store.findIdempotencyKey(req.tenantId, req.idempotencyKey);
    if (winner) return { ...(await replay(req, winner, waitUntil, signal)), replayed: true };
    // The refusal names the existing transaction: known when the instruction was read executed,
    // read once when another request's insert beat ours (a rare path).
    const existing =
      instruction.transaction_id ??
      (await deps.store.findExecutableInstruction(req.tenantId, instruction.id))?.transaction_id;
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
    row: LiveTransactionRow | undefined;
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
      if (stored) return { ...(await replay(req, stored, waitUntil, signal)), replayed: true };
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
  ): Promise<{ row: LiveTransactionRow | undefined; replayed: boolean }> {
    if (executable.executed) return replayOrRefuse(req, executable.instruction, waitUntil, signal);
    const { instruction, payer, callbackUrl } = executable;
    // An instruction stored before migration 0002 has no charge_key column value: read it from its QR.
    const chargeKey = instruction.charge_key ?? chargeKeyOf(instruction.decoded as ChargeSource);
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
      if (holder?.instruction_id === instruction.id)
        return replayOrRefuse(req, instruction, waitUntil, signal);
      // The payment that held the charge failed or was withdrawn since our INSERT: the charge is
      // free again and one more INSERT decides.
      if (!holder) inserted = await insert();
      else throw chargeAlreadyPaid(instruction.id, holder.tenant_id === req.tenantId ? holder.id : undefined);
    }
    if (inserted.kind === 'charge_taken') throw chargeAlreadyPaid(instruction.id);
    if (inserted.kind === 'duplicate') return replayOrRefuse(req, instruction, waitUntil, signal);
    // The submission starts from the row just written: nothing to read back.
    const submission: SubmissionRow = {
      ...inserted.row,
      payer_name: payer.name,
      payer_account: payer.account,
      payer_tax_id: payer.taxId,
      decoded: instruction.decoded,
      quote_id: instruction.quote_id,
    };
    const result = await deps.submitter.submitTransaction(transactionId, 0, submission);
    const refusal = refusalOf(result, instruction.id);
    if (refusal) throw refusal;
    return {
      row: await waitForTerminal(transactionId, waitUntil, signal, rowSubmitted(result)),
      replayed: false,
    };
  }

  /**
   * The instruction and payer of a first execute, checked before anything is written, as the
   * partner request of `transactionId` would carry them.
   */
  async function checkExecutable(req: ExecuteInstructionRequest, transactionId: string): Promise<Executable> {
    // An id of another shape cannot exist (design §6: unknown ids are NotFound), no query needed.
    if (!isId(req.instructionId, 'ins')) throw instructionNotFound();
    const instruction = await deps.store.findExecutableInstruction(req.tenantId, req.instructionId);
    if (!instruction) throw instructionNotFound();
    // Executed already: a replay or a refusal, decided by the key; the payer is not checked.
    if (instruction.transaction_id !== null) return { executed: true, instruction };
    const payer = validatePayer(req.payer, instruction.country);
    const callbackUrl = checkCallbackUrl(req.callbackUrl);
    const adapter = railAdapterFor(instruction.rail);
    if (!adapter) throw invalidRequest('instruction_id', `rail ${instruction.rail} is not served`);
    try {
      // Refuse now what the partner request could not carry, rather than fail after the commit.
      adapter.toPartnerRequest(
        submissionInput(
          {
            transactionId,
            amountCurrency: instruction.amount_currency,
            amountMinor: instruction.amount_minor,
            decodedJson: instruction.decoded,
            payer,
          },
          partnerCallbackUrl(deps.callbackBaseUrl, adapter.rail),
        ),
      );
    } catch (err) {
      if (err instanceof RailMappingError) throw invalidRequest('instruction_id', err.message);
      throw err;
    }
    return { executed: false, instruction, payer, callbackUrl };
  }

  return {
    async executeInstruction(req, signal) {
      if (req.tenantId === '') throw tenantRequired();
      if (req.idempotencyKey === '') throw idempotencyKeyMissing();
      if (!IDEMPOTENCY_KEY.test(req.idempotencyKey)) {
        throw invalidRequest(
          'idempotency_key',
          'idempotency_key must be 1 to 255 printable ASCII characters',
        );
      }
      if (!FINGERPRINT.test(req.requestFingerprint)) {
        throw invalidRequest(
          'request_fingerprint',
          'request_fingerprint must be 1 to 128 hex or base64 characters',
        );
      }
      if (req.waitMs < 0) throw invalidRequest('wait_ms', 'wait_ms must not be negative');
      // The wait counts from the call's start, so the whole call stays within wait_ms plus one
      // submission, and the caller's deadline (wait_ms plus a margin) holds.
      const waitUntil =
        Date.now() + (req.waitMs === 0 ? deps.defaultWaitMs : Math.min(req.waitMs, MAX_WAIT_MS));
      // A transaction withdrawn while we waited on it (its quote expired under another attempt)
      // never existed: run once more, which answers for this request alone.
      for (let round = 0; round < 2; round += 1) {
        const { row, replayed, instruction } = await execute(req, waitUntil, signal);
        if (!row) continue;
        // The answer shows the instruction's country, creditor and quote, as GetTransaction does:
        // from the instruction execute read, read again only for a replay that failed its check.
        const facts =
          instruction?.id === row.instruction_id
            ? instruction
            : await deps.store.findExecutableInstruction(row.tenant_id, row.instruction_id);
        return { transaction: toTransactionMessage(row, facts), replayed };
      }
      throw dependencyUnavailable('the payout state');
    },

    async applyPartnerCallback(req) {
      if (!isId(req.transactionId, 'txn')) throw transactionNotFound();
      if (!(PARTNER_STATUSES as readonly string[]).includes(req.partnerStatus)) {
        throw invalidRequest(
          'partner_status',
          `partner_status must be one of ${PARTNER_STATUSES.join(', ')}`,
        );
      }
      const row = await deps.store.findTransaction(req.transactionId);
      if (!row) throw transactionNotFound();
      if (req.rail !== row.rail) throw invalidRequest('rail', 'the callback came for another rail');
      if (
        row.partner_payout_id !== null &&
        req.partnerPayoutId !== '' &&
        req.partnerPayoutId !== row.partner_payout_id
      ) {
        throw invalidRequest('partner_payout_id', 'the callback names another partner payout');
      }
      // A callback repeated after settlement (partners retry) changes nothing.
      if (isTerminal(row)) return toTransactionMessage(row);
      const adapter = railAdapterFor(row.rail);
      if (!adapter) throw invalidRequest('rail', `rail ${row.rail} is not served`);
      const partnerPayoutId = req.partnerPayoutId || row.partner_payout_id || '';
      const resource: PayoutResource = {
        id: partnerPayoutId,
        idempotency_key: row.id,
        rail: row.rail,
        amount: { currency: row.amount_currency, amount_minor: row.amount_minor },
        status: req.partnerStatus as PartnerStatus,
        reason_code: req.reasonCode || null,
        reason: req.reason || null,
        reference: req.reference || null,
        created_at: row.created_at.toISOString(),
        settled_at: req.settledAt ? timestampDate(req.settledAt).toISOString() : null,
      };
      const outcome = adapter.toOutcome(resource);
      // An in-flight callback without any partner id has nothing to record.
      if (outcome.kind === 'in_flight' && partnerPayoutId === '') return toTransactionMessage(row);
      // The row as the settlement left it; read again only when another path got there first.
      const after =
        (await deps.settlement.applyPartnerOutcome(row.id, outcome, 0, row)) ??
        (await deps.store.findTransaction(row.id));
      if (!after) throw transactionNotFound();
      return toTransactionMessage(after);
    },
  };
}
