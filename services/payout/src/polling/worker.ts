// The polling worker (docs/api/sandbox.md "Test amounts"): the path that settles what no
// callback reports (sandbox 52/53), resumes submissions that stopped (a crash after the pending
// commit, an unknown partner answer, fx down), and backstops lost callbacks. Every replica runs
// one: rows are claimed with FOR UPDATE SKIP LOCKED plus a lease, and no database transaction is
// held across an HTTP call. (Expired idempotency keys are a retention job's, retention/tables.ts.)
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Logger } from '@qr-payout/platform/log';
import { runWorkerLoop } from '@qr-payout/platform/shutdown';
import type { ClaimedTransaction } from '../execution/records';
import type { Settlement } from '../execution/settlement';
import type { ExecutionStore } from '../execution/store';
import type { Submitter } from '../execution/submission';
import { railAdapterFor } from '../rails/adapters';
import type { PartnerClient } from '../rails/partner-client';
import type { RailAdapter } from '../rails/rail-adapter';
import { horizonOf, type SettlementHorizons } from '../stuck/horizons';
import {
  decideAtHorizon,
  type HorizonDecision,
  isPastHorizon,
  NOT_RECEIVED_CODE,
  NOT_RECEIVED_REASON,
} from './horizon-check';

export type PollingWorkerOptions = {
  store: ExecutionStore;
  submitter: Submitter;
  settlement: Settlement;
  partner: PartnerClient;
  logger: Logger;
  intervalMs: number;
  batchSize: number;
  leaseMs: number;
  backoffMs(attempt: number): number;
  /** Per rail: past it, a live transaction gets a final answer or is reported stuck. */
  horizons: SettlementHorizons;
  /** POLL_BACKOFF_MAX_MS: how often a stuck transaction is still asked about. */
  backoffMaxMs: number;
};

/** The span of one claimed transaction's round: a trace of its own, as no request asked for it. */
export const POLL_SPAN = 'payout.poll_transaction';
const tracer = trace.getTracer('@qr-payout/payout/polling');

export type RunningPollingWorker = {
  /** Stops claiming; resolves once the batch in flight is done. Idempotent. */
  stop(): Promise<void>;
};

/** Exponential backoff: `base`, doubled per attempt, capped at `max`. */
export function exponentialBackoff(baseMs: number, maxMs: number): (attempt: number) => number {
  return (attempt) => Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempt, 0), 30));
}

export function runPollingWorker(opts: PollingWorkerOptions): RunningPollingWorker {
  const log = opts.logger;

  /**
   * What the partner says of a claimed transaction: by its payout id once processing, otherwise by
   * our idempotency key (the transaction id), where a 404 means the partner never received it.
   */
  function askPartner(adapter: RailAdapter, txn: ClaimedTransaction) {
    return txn.status === 'processing' && txn.partnerPayoutId
      ? opts.partner.getPayout(adapter.rail, txn.partnerPayoutId)
      : opts.partner.findPayoutByIdempotencyKey(adapter.rail, txn.id);
  }

  async function pollProcessing(txn: ClaimedTransaction): Promise<void> {
    const adapter = railAdapterFor(txn.rail);
    if (!adapter) {
      log.error({ transaction_id: txn.id, rail: txn.rail }, 'processing transaction on a rail not served');
      await opts.store.releaseForRetry(txn.id, opts.backoffMs(txn.pollAttempts));
      return;
    }
    const answer = await askPartner(adapter, txn);
    if (answer.kind === 'found') {
      await opts.settlement.applyPartnerOutcome(
        txn.id,
        adapter.toOutcome(answer.resource),
        opts.backoffMs(txn.pollAttempts),
      );
      return;
    }
    if (answer.kind === 'not_found') {
      log.error({ transaction_id: txn.id }, 'the partner does not know a payout it accepted');
    }
    await opts.store.releaseForRetry(txn.id, opts.backoffMs(txn.pollAttempts));
  }

  // Past the horizon (README "Transaction state machine"): never a new submission, only a lookup;
  // the partner's terminal answer settles it, "never received" fails it, anything else reports it.
  async function checkAtHorizon(txn: ClaimedTransaction): Promise<void> {
    const adapter = railAdapterFor(txn.rail);
    let decision: HorizonDecision;
    if (!adapter) {
      decision = { kind: 'stuck', reason: 'rail_not_served' };
    } else {
      // A pending row is asked by key (our transaction id): 404 there is "never received".
      const answer = await askPartner(adapter, txn);
      decision = decideAtHorizon(
        txn.status,
        answer.kind === 'found'
          ? { kind: 'found', outcome: adapter.toOutcome(answer.resource) }
          : { kind: answer.kind },
      );
    }
    const context = {
      transaction_id: txn.id,
      rail: txn.rail,
      status: txn.status,
      age_ms: Math.round(txn.ageMs),
      horizon_ms: horizonOf(opts.horizons, txn.rail),
    };
    switch (decision.kind) {
      case 'settle':
        await opts.settlement.applyPartnerOutcome(txn.id, decision.outcome, opts.backoffMaxMs);
        return;
      case 'fail_not_received': {
        // Terminal, so nothing submits it again: the submitter only sends pending rows, and the
        // terminal-state trigger refuses any later change.
        const failed = await opts.settlement.applyPartnerOutcome(
          txn.id,
          {
            kind: 'failed',
            partnerPayoutId: '',
            code: NOT_RECEIVED_CODE,
            reason: NOT_RECEIVED_REASON,
            partnerStatus: '',
          },
          0,
        );
        if (failed)
          log.warn(
            { ...context, code: NOT_RECEIVED_CODE },
            'partner never received the payout; failed at the settlement horizon',
          );
        return;
      }
      case 'stuck':
        if (decision.inFlight)
          await opts.settlement.applyPartnerOutcome(txn.id, decision.inFlight, opts.backoffMaxMs);
        await opts.store.markStuck(txn.id, opts.backoffMaxMs);
        // Once per transaction: later rounds find stuck_since set.
        if (txn.stuckSince === null)
          log.warn(
            { ...context, reason: decision.reason },
            'transaction stuck past its settlement horizon; an operator must reconcile it',
          );
        return;
    }
  }

  // Its partner calls, queries and any outbox event it writes (the event's traceparent) hang
  // under this span, so a settlement found by polling shows in traces like one from a request.
  function handle(txn: ClaimedTransaction): Promise<void> {
    const attributes = {
      'payout.transaction_id': txn.id,
      'payout.transaction_status': txn.status,
      'payout.poll_attempts': txn.pollAttempts,
    };
    return tracer.startActiveSpan(
      POLL_SPAN,
      { root: true, kind: SpanKind.INTERNAL, attributes },
      async (span) => {
        try {
          if (isPastHorizon(txn.ageMs, horizonOf(opts.horizons, txn.rail))) {
            await checkAtHorizon(txn);
          } else if (txn.status === 'pending') {
            const result = await opts.submitter.submitTransaction(txn.id, txn.pollAttempts);
            if (result.kind === 'abandoned') {
              log.info({ transaction_id: txn.id, reason: result.reason }, 'pending transaction withdrawn');
            }
          } else {
            await pollProcessing(txn);
          }
        } catch (err) {
          // The lease expires on its own; the row comes back after it.
          log.error({ err, transaction_id: txn.id }, 'polling a transaction failed');
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'polling a transaction failed' });
        } finally {
          span.end();
        }
      },
    );
  }

  // A full batch means more may be due: go again at once.
  return runWorkerLoop({
    round: async () => {
      const claimed = await opts.store.claimDueTransactions(opts.batchSize, opts.leaseMs);
      await Promise.all(claimed.map(handle));
      return claimed.length >= opts.batchSize;
    },
    intervalMs: opts.intervalMs,
    onError: (err) => log.error({ err }, 'claiming due transactions failed'),
  });
}
