import type { Transaction } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { tenantRequired, transactionNotFound } from './errors';
import type { TransactionStore } from './store';
import { toTransactionMessage } from './transaction-message';

export interface TransactionService {
  /** The tenant's transaction; NotFoundError for an unknown id or another tenant's id. */
  getTransaction(tenantId: string, transactionId: string): Promise<Transaction>;
}

export function createTransactionService(deps: { store: TransactionStore }): TransactionService {
  return {
    async getTransaction(tenantId, transactionId) {
      if (tenantId === '') throw tenantRequired();
      // Ids are ASCII and short; anything else cannot exist, and is not worth a query.
      if (transactionId === '' || transactionId.length > 64) throw transactionNotFound();
      const row = await deps.store.findTransaction(tenantId, transactionId);
      if (!row) throw transactionNotFound();
      return toTransactionMessage(row);
    },
  };
}
