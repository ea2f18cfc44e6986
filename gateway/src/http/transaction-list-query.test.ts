import { timestampDate } from '@bufbuild/protobuf/wkt';
import { TRANSACTION_STATUSES } from '@qr-payout/platform/vocabulary';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { compileQueryValidator } from './list-query';
import {
  listTransactionsQuery,
  TRANSACTION_LIST_QUERY_CHECKS,
  TRANSACTION_LIST_QUERY_SCHEMA,
  type TransactionListQueryParams,
} from './transaction-list-query';

// The route's query validator (list-query.ts, as Fastify runs it) and the translation to
// ListTransactions, as the handler runs them.
const validate = compileQueryValidator(TRANSACTION_LIST_QUERY_SCHEMA, TRANSACTION_LIST_QUERY_CHECKS);

function parseTransactionListQuery(query: unknown) {
  const result = validate(query);
  if ('error' in result) throw result.error;
  return listTransactionsQuery(result.value as TransactionListQueryParams);
}

function refusal(query: unknown): string {
  const result = validate(query);
  if (!('error' in result)) throw new Error('expected a ValidationError');
  expect(result.error.tag).toBe('ValidationError');
  return result.error.message;
}

describe('the query of GET /v1/transactions', () => {
  it('reads no parameters as "not given"', () => {
    expect(parseTransactionListQuery({})).toEqual({
      status: TransactionStatus.UNSPECIFIED,
      createdGte: undefined,
      createdLt: undefined,
      limit: 0,
      cursor: '',
    });
  });

  it('translates every parameter', () => {
    const query = parseTransactionListQuery({
      status: 'processing',
      created_gte: '2026-01-02T03:04:05.678Z',
      created_lt: '2026-01-03T00:00:00-03:00',
      limit: '50',
      cursor: 'abc',
    });
    expect(query.status).toBe(TransactionStatus.PROCESSING);
    expect(timestampDate(query.createdGte!).toISOString()).toBe('2026-01-02T03:04:05.678Z');
    expect(timestampDate(query.createdLt!).toISOString()).toBe('2026-01-03T03:00:00.000Z');
    expect(query).toMatchObject({ limit: 50, cursor: 'abc' });
  });

  it('leaves the page size range to payout, without overflowing int32', () => {
    expect(parseTransactionListQuery({ limit: '1000' }).limit).toBe(1000);
    expect(parseTransactionListQuery({ limit: '99999999999' }).limit).toBe(2_147_483_647);
  });

  it.each([
    [{ page: '2' }, /page is not a known query parameter/],
    [{ status: 'done' }, `status must be one of ${TRANSACTION_STATUSES.join(', ')}`],
    [{ status: ['completed', 'failed'] }, /status must be given once/],
    [{ limit: '0' }, /limit must be a positive integer/],
    [{ limit: '1.5' }, /limit must be a positive integer/],
    [{ created_gte: '2026-01-02' }, /created_gte must be an ISO 8601 date-time/],
    [{ created_lt: '2026-01-02T03:04:05' }, /created_lt must be an ISO 8601 date-time with a time zone/],
    [{ created_lt: '2026-13-45T03:04:05Z' }, /created_lt must be an ISO 8601 date-time/],
    [{ created_gte: '2026-02-30T00:00:00Z' }, /created_gte must be an ISO 8601 date-time/],
    [{ created_gte: '2026-11-31T00:00:00Z' }, /created_gte must be an ISO 8601 date-time/],
    [{ created_lt: '2026-11-24T15:37:35.9481Z' }, /created_lt must be .* at most milliseconds/],
  ])('refuses %j naming the parameter', (query, message) => {
    expect(refusal(query)).toMatch(message);
  });

  it.each([
    [{ status: 'done', page: '2' }, 'page is not a known query parameter'],
    [{ limit: '0', status: ['a', 'b'] }, 'status must be given once'],
    [{ status: 'done', cursor: ['a', 'b'] }, 'cursor must be given once'],
    [{ created_gte: ['a', 'b'], status: 'done' }, `status must be one of ${TRANSACTION_STATUSES.join(', ')}`],
    [{ created_lt: ['a', 'b'], limit: 'x' }, 'limit must be a positive integer'],
    [{ created_lt: ['a', 'b'], created_gte: 'x' }, expect.stringMatching(/^created_gte must be an ISO 8601/)],
    [{ created_lt: 'x', created_gte: ['a', 'b'] }, 'created_gte must be given once'],
  ])('reports the first problem of %j, in the order it always has', (query, message) => {
    expect(refusal(query)).toEqual(message);
  });

  it('leaves a leap second and an hour past 24 to Date.parse, as before', () => {
    expect(refusal({ created_gte: '2026-01-02T25:00:00Z' })).toMatch(/created_gte must be an ISO 8601/);
    expect(
      timestampDate(parseTransactionListQuery({ created_lt: '2026-01-02T24:00:00Z' }).createdLt!),
    ).toEqual(new Date('2026-01-03T00:00:00Z'));
  });
});
