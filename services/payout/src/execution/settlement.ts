// Applies what a partner said about a transaction, whichever path brought it (the submission
// answer, a callback, a poll): a terminal outcome settles the transaction with its outbox event
// (docs/architecture.md "Transactions"), an in-flight one records the partner's id and when to look again.
import type { Logger } from '@qr-payout/platform/log';
import type { PartnerOutcome } from '../rails/rail-adapter';
import type { StoredTransaction } from '../transactions/store';
import type { SettlementSignals } from './settlement-signals';
import type { ExecutionStore, LiveTransaction } from './store';

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
    known?: StoredTransaction,
  ): Promise<LiveTransaction | undefined>;
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
        deps.logger.info({ transaction_id: transactionId, status: outcome.kind }, 'transaction settled');
        deps.signals.notify(transactionId, settled);
      }
      return settled;
    },
  };
}
