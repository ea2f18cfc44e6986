import { timestampDate } from '@bufbuild/protobuf/wkt';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { ApiError } from '../errors/api-error';
import { parseTransactionListQuery } from './transaction-list-query';

function refusal(query: unknown): string {
  try {
    parseTransactionListQuery(query);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).tag).toBe('ValidationError');
    return (err as ApiError).message;
  }
  throw new Error('expected a ValidationError');
}

describe('parseTransactionListQuery', () => {
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
    [{ status: 'done' }, /status must be one of pending, processing, completed, failed/],
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
});
