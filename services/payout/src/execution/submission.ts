// Submits a pending transaction to its rail's partner: the path of execute right after the
// pending row commits, of a replay whose first attempt never reached the partner, and of the
// polling worker after a crash or an unknown answer. Our transaction id is the partner's
// Idempotency-Key, so however often this runs for one transaction, the partner pays at most once.
import { fromJson, type JsonValue } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import { Code, ConnectError, readErrorDetail } from '@qr-payout/platform/errors';
import type { Logger } from '@qr-payout/platform/log';
import type { PayoutResource, RailName } from '@qr-payout/platform/partner-protocol';
import { AccountType, DecodedQrSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import type { FxService } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { railAdapterFor } from '../rails/adapters';
import type { PartnerClient } from '../rails/partner-client';
import { type RailAdapter, RailMappingError, type SubmissionInput } from '../rails/rail-adapter';
import type { LiveTransaction, TransactionToSubmit } from './records';
import type { Settlement } from './settlement';
import type { ExecutionStore } from './store';

/** What became of a submission attempt. */
export type SubmissionResult =
  /**
   * The partner answered: the transaction is processing or terminal now. `row` is the row as this
   * submission left it; undefined when another path had moved it on meanwhile.
   */
  | { kind: 'submitted'; row: LiveTransaction | undefined }
  /**
   * The partner accepted the payout (ACSP/PDNG) and the caller holds the answer (`holdAccepted`):
   * nothing was written, the row is still `pending` and leased to the caller, which writes
   * `processing` with `partnerPayoutId` if it stops waiting before a terminal state (README
   * "Execute" step 4). `row`: the pending row as the caller's submission started from it.
   */
  | { kind: 'accepted'; row: LiveTransaction; partnerPayoutId: string }
  /** The transaction was not pending (someone else moved it on): nothing done. */
  | { kind: 'not_pending' }
  /** Its quote could not be confirmed: the transaction and its key were deleted, never sent. */
  | { kind: 'abandoned'; reason: 'quote_expired' | 'quote_used' }
  /** fx or the partner did not answer usefully; the worker tries again later. */
  | { kind: 'retry_later'; cause: 'fx_unavailable' | 'partner_unknown' };

export interface Submitter {
  /**
   * `attempt` (0 for the first) sets the backoff before the worker's next try. `pending`: the row
   * when the caller has just written it (execute), so it is not read again. `holdAccepted`: an
   * in-flight answer is handed back (`accepted`) instead of written as `processing`, for a caller
   * that waits for the outcome anyway (execute, pay).
   */
  submitTransaction(
    transactionId: string,
    attempt: number,
    pending?: TransactionToSubmit,
    opts?: { holdAccepted?: boolean },
  ): Promise<SubmissionResult>;
}

export type SubmitterDeps = {
  store: ExecutionStore;
  settlement: Settlement;
  partner: PartnerClient;
  fx: Client<typeof FxService>;
  logger: Logger;
  /** PARTNER_CALLBACK_BASE_URL: partners call back <base>/v1/partner/callbacks/<rail>. */
  callbackBaseUrl: string;
  /** Delay before the worker's next look at a transaction after `attempt` attempts. */
  backoffMs(attempt: number): number;
  fxTimeoutMs?: number;
};

const DECODED_READ = { ignoreUnknownFields: true } as const;

/** The partner callback URL of a rail under PARTNER_CALLBACK_BASE_URL. */
export function partnerCallbackUrl(baseUrl: string, rail: RailName): string {
  return new URL(`v1/partner/callbacks/${rail}`, baseUrl.replace(/\/?$/, '/')).toString();
}

/** What a submission is built from: the transaction's amount, its instruction's QR, the payer. */
export type SubmissionParts = {
  transactionId: string;
  amountCurrency: string;
  amountMinor: bigint;
  /** payout.decoder.v1.DecodedQr in protobuf JSON, as instructions store it. */
  decodedJson: unknown;
  payer: SubmissionInput['payer'];
};

/** The adapter input of a transaction. */
export function submissionInput(parts: SubmissionParts, callbackUrl: string): SubmissionInput {
  const decoded = fromJson(DecodedQrSchema, parts.decodedJson as JsonValue, DECODED_READ);
  return {
    transactionId: parts.transactionId,
    amount: { currency: parts.amountCurrency, amountMinor: parts.amountMinor },
    creditor: {
      name: decoded.creditor?.name ?? '',
      account: decoded.creditor?.account ?? '',
      accountType: decoded.creditor?.accountType ?? AccountType.UNSPECIFIED,
      taxId: decoded.creditor?.taxId ?? '',
    },
    references: decoded.references,
    payer: parts.payer,
    callbackUrl,
  };
}

export function createSubmitter(deps: SubmitterDeps): Submitter {
  const log = deps.logger;

  /** Confirms the instruction's quote for this transaction (fx: idempotent per consumer). */
  async function confirmQuote(
    row: TransactionToSubmit,
  ): Promise<'confirmed' | 'expired' | 'used' | 'unavailable'> {
    if (row.quoteId === null) return 'confirmed';
    try {
      await deps.fx.confirmQuote(
        { tenantId: row.tenantId, quoteId: row.quoteId, consumerId: row.id },
        { timeoutMs: deps.fxTimeoutMs ?? 2_000 },
      );
      return 'confirmed';
    } catch (err) {
      const tag = readErrorDetail(err)?.tag;
      // A quote that is gone is as unusable as an expired one: the payer must resolve again.
      if (tag === 'QuoteExpired' || ConnectError.from(err).code === Code.NotFound) return 'expired';
      if (tag === 'QuoteAlreadyUsed') return 'used';
      log.warn({ err, transaction_id: row.id }, 'fx could not confirm the quote; retrying later');
      return 'unavailable';
    }
  }

  async function failWithoutPartner(
    row: TransactionToSubmit,
    code: string,
    reason: string,
  ): Promise<SubmissionResult> {
    log.error(
      { transaction_id: row.id, rail: row.rail, code, reason },
      'transaction failed before the partner',
    );
    const settled = await deps.settlement.applyPartnerOutcome(
      row.id,
      { kind: 'failed', partnerPayoutId: '', code, reason, partnerStatus: '' },
      0,
      row,
    );
    return { kind: 'submitted', row: settled };
  }

  async function submitTo(
    adapter: RailAdapter,
    row: TransactionToSubmit,
    attempt: number,
    holdAccepted: boolean,
  ): Promise<SubmissionResult> {
    let body: ReturnType<RailAdapter['toPartnerRequest']>;
    try {
      const parts: SubmissionParts = {
        transactionId: row.id,
        amountCurrency: row.amountCurrency,
        amountMinor: row.amountMinor,
        decodedJson: row.decoded,
        payer: row.payer,
      };
      body = adapter.toPartnerRequest(
        submissionInput(parts, partnerCallbackUrl(deps.callbackBaseUrl, adapter.rail)),
      );
    } catch (err) {
      if (err instanceof RailMappingError) return failWithoutPartner(row, 'FF01', err.message);
      throw err;
    }
    // What the partner says of the payout, from its answer or a lookup, moves the transaction on.
    const applied = async (resource: PayoutResource): Promise<SubmissionResult> => {
      const outcome = adapter.toOutcome(resource);
      if (outcome.kind === 'in_flight' && holdAccepted) {
        return { kind: 'accepted', row, partnerPayoutId: outcome.partnerPayoutId };
      }
      return {
        kind: 'submitted',
        row: await deps.settlement.applyPartnerOutcome(row.id, outcome, deps.backoffMs(0), row),
      };
    };
    const answer = await deps.partner.submitPayout(adapter.rail, row.id, body);
    if (answer.kind === 'answered') return applied(answer.resource);
    if (answer.kind === 'refused') {
      // A 4xx refusal of the request itself: the partner created no payout, and the same request
      // would be refused again.
      return failWithoutPartner(
        row,
        'FF01',
        `the partner refused the payout request (HTTP ${answer.status})`,
      );
    }
    // The payout may exist: ask by our key before deciding anything (partner protocol).
    const lookup = await deps.partner.findPayoutByIdempotencyKey(adapter.rail, row.id);
    if (lookup.kind === 'found') return applied(lookup.resource);
    log.warn(
      { transaction_id: row.id, rail: adapter.rail, detail: answer.detail, lookup: lookup.kind, attempt },
      'partner submission outcome unknown; the worker retries it',
    );
    await deps.store.releaseForRetry(row.id, deps.backoffMs(attempt));
    return { kind: 'retry_later', cause: 'partner_unknown' };
  }

  return {
    async submitTransaction(transactionId, attempt, pending, opts) {
      const row = pending ?? (await deps.store.findSubmission(transactionId));
      if (row?.status !== 'pending') return { kind: 'not_pending' };
      const adapter = railAdapterFor(row.rail);
      if (!adapter) return failWithoutPartner(row, 'FF01', `rail ${row.rail} is not served`);
      const quote = await confirmQuote(row);
      if (quote === 'expired' || quote === 'used') {
        const abandoned = await deps.store.abandonUnsubmitted(row.id);
        if (abandoned) {
          log.info({ transaction_id: row.id, reason: quote }, 'quote not confirmed; transaction withdrawn');
          return { kind: 'abandoned', reason: quote === 'expired' ? 'quote_expired' : 'quote_used' };
        }
        return { kind: 'not_pending' };
      }
      if (quote === 'unavailable') {
        await deps.store.releaseForRetry(row.id, deps.backoffMs(attempt));
        return { kind: 'retry_later', cause: 'fx_unavailable' };
      }
      return submitTo(adapter, row, attempt, opts?.holdAccepted === true);
    },
  };
}
