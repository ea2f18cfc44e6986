import { timestampDate } from '@bufbuild/protobuf/wkt';
import { decodeKeysetCursor, encodeKeysetCursor, pageSizeOf } from '@qr-payout/platform/paging';
import { transactionStatuses } from '@qr-payout/platform/vocabulary';
import {
  type ListTransactionsRequest,
  type Transaction,
  TransactionStatus,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { invalidListParameter, tenantRequired, transactionNotFound } from './errors';
import type { TransactionCursor, TransactionStore } from './store';
import type { TransactionStatus as StoredStatus } from './transaction';
import { toTransactionMessage } from './transaction-message';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export type TransactionPage = { transactions: Transaction[]; nextCursor: string };

export interface TransactionService {
  /** The tenant's transaction; NotFoundError for an unknown id or another tenant's id. */
  getTransaction(tenantId: string, transactionId: string): Promise<Transaction>;
  /** One page of the tenant's transactions, newest first; ValidationError for a bad parameter. */
  listTransactions(req: ListTransactionsRequest): Promise<TransactionPage>;
}

function decodeCursor(raw: string): TransactionCursor {
  const position = decodeKeysetCursor(raw, 'txn');
  if (!position) throw invalidListParameter('cursor', 'cursor is not a next_cursor returned by this API');
  return position;
}

function pageSize(limit: number): number {
  const size = pageSizeOf(limit, { default: DEFAULT_PAGE_SIZE, max: MAX_PAGE_SIZE });
  if (size === undefined) {
    throw invalidListParameter('limit', `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return size;
}

export function createTransactionService(deps: { store: TransactionStore }): TransactionService {
  return {
    async getTransaction(tenantId, transactionId) {
      if (tenantId === '') throw tenantRequired();
      // Ids are ASCII and short; anything else cannot exist, and is not worth a query.
      if (transactionId === '' || transactionId.length > 64) throw transactionNotFound();
      const row = await deps.store.findTransaction(tenantId, transactionId);
      if (!row) throw transactionNotFound();
      return toTransactionMessage(row, row);
    },

    async listTransactions(req) {
      if (req.tenantId === '') throw tenantRequired();
      let status: StoredStatus | undefined;
      if (req.status !== TransactionStatus.UNSPECIFIED) {
        status = transactionStatuses.nameOf(req.status);
        if (!status) throw invalidListParameter('status', 'status is not a transaction state');
      }
      const createdGte = req.createdGte ? timestampDate(req.createdGte) : undefined;
      const createdLt = req.createdLt ? timestampDate(req.createdLt) : undefined;
      if (createdGte && createdLt && createdGte.getTime() >= createdLt.getTime()) {
        throw invalidListParameter('created_lt', 'created_lt must be later than created_gte');
      }
      const limit = pageSize(req.page?.limit ?? 0);
      const cursor = req.page?.cursor ?? '';
      const after = cursor === '' ? undefined : decodeCursor(cursor);
      // One row more than asked tells whether another page exists.
      const { rows, cursors } = await deps.store.listTransactions({
        tenantId: req.tenantId,
        status,
        createdGte,
        createdLt,
        after,
        limit: limit + 1,
      });
      const last = cursors[limit - 1];
      return {
        transactions: rows.slice(0, limit).map((row) => toTransactionMessage(row, row)),
        nextCursor: rows.length > limit && last ? encodeKeysetCursor(last) : '',
      };
    },
  };
}
