import type { Client } from '@connectrpc/connect';
import { toPublicTransaction } from '@qr-payout/platform/public-transaction';
import type { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { apiError } from '../../errors/api-error';
import { isTransactionId } from '../ids';
import { parseTransactionListQuery } from '../transaction-list-query';

export interface TransactionsRouteDeps {
  payout: Pick<Client<typeof PayoutService>, 'getTransaction' | 'listTransactions'>;
  authenticate: onRequestAsyncHookHandler;
}

/**
 * GET /v1/transactions/{id} (docs/api/resources.md "Transactions"): the tenant's transaction, 404
 * for any other id; and GET /v1/transactions: the tenant's transactions newest first, keyset-paged
 * by payout.
 */
export function registerTransactionsRoute(app: FastifyInstance, deps: TransactionsRouteDeps): void {
  app.get('/v1/transactions', { onRequest: deps.authenticate }, async (request) => {
    const query = parseTransactionListQuery(request.query);
    const res = await deps.payout.listTransactions({
      tenantId: request.auth?.tenantId ?? '',
      status: query.status,
      createdGte: query.createdGte,
      createdLt: query.createdLt,
      page: { limit: query.limit, cursor: query.cursor },
    });
    return {
      transactions: res.transactions.map(toPublicTransaction),
      next_cursor: res.pageInfo?.nextCursor || null,
      request_id: request.id,
    };
  });

  app.get<{ Params: { id: string } }>(
    '/v1/transactions/:id',
    { onRequest: deps.authenticate },
    async (request) => {
      const { id } = request.params;
      // A malformed id cannot exist: answered without a call, the same 404 as an unknown id
      // (docs/api/errors.md "Error names", no probing).
      if (!isTransactionId(id)) throw apiError('NotFoundError', 'transaction not found');
      const { transaction } = await deps.payout.getTransaction({
        tenantId: request.auth?.tenantId ?? '',
        transactionId: id,
      });
      if (!transaction) throw new Error('payout returned no transaction');
      return { transaction: toPublicTransaction(transaction), request_id: request.id };
    },
  );
}
