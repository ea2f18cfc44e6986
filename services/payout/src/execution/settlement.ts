// Applies what a partner said about a transaction, whichever path brought it (the submission
// answer, a callback, a poll): a terminal outcome settles the transaction with its outbox event
// (docs/architecture.md "Transactions"), an in-flight one records the partner's id and when to look again.
import { trace } from '@opentelemetry/api';
import type { Logger } from '@qr-payout/platform/log';
import type { PartnerOutcome } from '../rails/rail-adapter';
import { eventTraceContext, type LiveTransaction } from './records';
import type { SettlementSignals } from './settlement-signals';
import type { ExecutionStore } from './store';

export interface Settlement {
  /**
   * `pollInMs`: when the worker asks the partner again while the payout is in flight. Resolves with
   * the row as this call left it, or undefined when the transaction was terminal already (or
   * unknown) and nothing changed, so callers need not read it again. `known`: the row as the
   * caller read it, which spares the settlement a read of its own.
   */
  applyPartnerOutcome(
    transactionId: string,
    outcome: PartnerOutcome,
    pollInMs: number,
    known?: LiveTransaction,
  ): Promise<LiveTransaction | undefined>;
}

/**
 * A settlement written in another trace than the pay's (a partner callback, a poll): its outbox
 * event continues the pay's trace (`ExecutionStore.settle`), and the span that wrote it (the
 * callback's RPC, `payout.poll_transaction`) keeps its own trace with one link to the pay's context
 * (docs/architecture.md "Traces"). Nothing to do when telemetry is off: no context was stored.
 */
function linkToPay(settled: LiveTransaction): void {
  if (settled.payTraceContext === null) return;
  const span = trace.getActiveSpan();
  const pay = trace.getSpanContext(eventTraceContext(settled));
  if (!span || !pay || span.spanContext().traceId === pay.traceId) return;
  span.addLink({ context: pay });
}

export function createSettlement(deps: {
  store: ExecutionStore;
  signals: SettlementSignals;
  logger: Logger;
}): Settlement {
  return {
    async applyPartnerOutcome(transactionId, outcome, pollInMs, known) {
      if (outcome.kind === 'in_flight') {
        return deps.store.markProcessing(transactionId, outcome.partnerPayoutId, pollInMs);
      }
      const settled = await deps.store.settle(
        transactionId,
        outcome.kind === 'completed'
          ? {
              status: 'completed',
              partnerPayoutId: outcome.partnerPayoutId || null,
              reference: outcome.reference,
              settledAt: outcome.settledAt,
            }
          : {
              status: 'failed',
              partnerPayoutId: outcome.partnerPayoutId || null,
              code: outcome.code,
              reason: outcome.reason,
              partnerStatus: outcome.partnerStatus || null,
            },
        known,
      );
      if (settled) {
        linkToPay(settled);
        deps.logger.info({ transaction_id: transactionId, status: outcome.kind }, 'transaction settled');
        deps.signals.notify(transactionId, settled);
      }
      return settled;
    },
  };
}
