import type { Client } from '@connectrpc/connect';
import { toPublicTransaction } from '@qr-payout/platform/public-transaction';
import type { PayoutService } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { apiError } from '../../errors/api-error';
import { EXAMPLE_TRANSACTION, EXAMPLE_TRANSACTION_ID } from '../../openapi/examples';
import {
  describeTags,
  errorResponse,
  example,
  lastPageExample,
  okResponse,
  RATE_LIMIT_HEADERS,
  withRequestId,
} from '../../openapi/responses';
import { defineRoute, type ParamsOf, type QueryOf, routeOptions } from '../../openapi/route';
import { tenantIdOf } from '../auth';
import { isTransactionId } from '../ids';
import { pageBody } from '../page-body';
import { TRANSACTION_RESPONSE_SCHEMA, TRANSACTIONS_RESPONSE_SCHEMA } from '../schemas';
import {
  listTransactionsQuery,
  TRANSACTION_LIST_QUERY_CHECKS,
  TRANSACTION_LIST_QUERY_SCHEMA,
} from '../transaction-list-query';
import { AUTHENTICATED_ERRORS, QUERY_ERRORS } from './shared-responses';

export interface TransactionsRouteDeps {
  payout: Pick<Client<typeof PayoutService>, 'getTransaction' | 'listTransactions'>;
  authenticate: onRequestAsyncHookHandler;
}

export const LIST_TRANSACTIONS_ROUTE = defineRoute({
  method: 'GET',
  url: '/v1/transactions',
  schema: {
    operationId: 'listTransactions',
    tags: ['Transactions'],
    summary: "List the tenant's transactions",
    description:
      'Your transactions, newest first (`createdAt`, then `id`, descending), optionally filtered by `status` and a ' +
      '`created_gte` / `created_lt` range, a page at a time: pass `next_cursor` back as `cursor` until it is null. ' +
      'Paging is by position (keyset), so transactions created while you page never shift a page: nothing is ' +
      'repeated and nothing that existed when you started is skipped. An unknown query parameter, a `status` that is ' +
      'not a state, a date-time without a time zone, a reversed range, a `limit` that is not an integer from 1 to ' +
      '100 or a `cursor` this API did not give are 400 `ValidationError` naming the parameter.',
    querystring: TRANSACTION_LIST_QUERY_SCHEMA,
    querystringChecks: TRANSACTION_LIST_QUERY_CHECKS,
    response: {
      '200': okResponse(
        'One page of transactions.',
        TRANSACTIONS_RESPONSE_SCHEMA,
        true,
        lastPageExample('transactions', EXAMPLE_TRANSACTION),
      ),
      ...QUERY_ERRORS,
      ...AUTHENTICATED_ERRORS,
    },
  },
});

export const GET_TRANSACTION_ROUTE = defineRoute({
  method: 'GET',
  url: '/v1/transactions/:id',
  schema: {
    operationId: 'getTransaction',
    tags: ['Transactions'],
    summary: 'Read a transaction',
    description:
      'The current state of one of your transactions. An unknown id and another ' +
      "tenant's id are both 404 `NotFoundError`, so ids cannot be probed.",
    params: {
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string', examples: [EXAMPLE_TRANSACTION_ID], description: 'Transaction id (`txn_`).' },
      },
    },
    response: {
      '200': okResponse(
        'The transaction.',
        TRANSACTION_RESPONSE_SCHEMA,
        true,
        example('completed', 'Completed', withRequestId('transaction', EXAMPLE_TRANSACTION)),
      ),
      '404': errorResponse(
        ['NotFoundError'],
        `${describeTags(['NotFoundError'])}: no such transaction for this key.`,
        RATE_LIMIT_HEADERS,
      ),
      ...AUTHENTICATED_ERRORS,
    },
  },
});

/**
 * GET /v1/transactions/{id} (docs/api/resources.md "Transactions"): the tenant's transaction, 404
 * for any other id; and GET /v1/transactions: the tenant's transactions newest first, keyset-paged
 * by payout.
 */
export function registerTransactionsRoute(app: FastifyInstance, deps: TransactionsRouteDeps): void {
  app.route<{ Querystring: QueryOf<typeof LIST_TRANSACTIONS_ROUTE> }>({
    ...routeOptions(LIST_TRANSACTIONS_ROUTE),
    onRequest: deps.authenticate,
    handler: async (request) => {
      const query = listTransactionsQuery(request.query);
      const res = await deps.payout.listTransactions({
        tenantId: tenantIdOf(request),
        status: query.status,
        createdGte: query.createdGte,
        createdLt: query.createdLt,
        page: { limit: query.limit, cursor: query.cursor },
      });
      return pageBody('transactions', res.transactions.map(toPublicTransaction), res.pageInfo, request.id);
    },
  });

  app.route<{ Params: ParamsOf<typeof GET_TRANSACTION_ROUTE> }>({
    ...routeOptions(GET_TRANSACTION_ROUTE),
    onRequest: deps.authenticate,
    handler: async (request) => {
      const { id } = request.params;
      // A malformed id cannot exist: answered without a call, the same 404 as an unknown id
      // (docs/api/errors.md "Error names", no probing).
      if (!isTransactionId(id)) throw apiError('NotFoundError', 'transaction not found');
      const { transaction } = await deps.payout.getTransaction({
        tenantId: tenantIdOf(request),
        transactionId: id,
      });
      if (!transaction) throw new Error('payout returned no transaction');
      return { transaction: toPublicTransaction(transaction), request_id: request.id };
    },
  });
}
