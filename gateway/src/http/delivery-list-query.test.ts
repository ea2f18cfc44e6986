import { DeliveryStatus } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import fc from 'fast-check';
import {
  DELIVERY_LIST_QUERY_CHECKS,
  DELIVERY_LIST_QUERY_SCHEMA,
  type DeliveryListQueryParams,
  listDeliveriesQuery,
} from './delivery-list-query';
import { compileQueryValidator } from './list-query';

const TXN = 'txn_01JD0000000000000000000001';

// The route's query validator (list-query.ts, as Fastify runs it) and the translation to
// ListDeliveries, as the handler runs them.
const validate = compileQueryValidator(DELIVERY_LIST_QUERY_SCHEMA, DELIVERY_LIST_QUERY_CHECKS);

function parseDeliveryListQuery(query: unknown) {
  const result = validate(query);
  if ('error' in result) throw result.error;
  return listDeliveriesQuery(result.value as DeliveryListQueryParams);
}

function refusal(query: unknown): string {
  const result = validate(query);
  if (!('error' in result)) throw new Error('expected a ValidationError');
  expect(result.error.tag).toBe('ValidationError');
  return result.error.message;
}

describe('the query of GET /v1/webhook-deliveries', () => {
  it('without parameters asks for the first page with no filter', () => {
    expect(parseDeliveryListQuery({})).toEqual({
      transactionId: '',
      status: undefined,
      limit: 0,
      cursor: '',
    });
    expect(parseDeliveryListQuery(undefined)).toEqual({
      transactionId: '',
      status: undefined,
      limit: 0,
      cursor: '',
    });
  });

  it('combines every filter and the page', () => {
    expect(
      parseDeliveryListQuery({ transaction_id: TXN, status: 'exhausted', limit: '50', cursor: 'abc' }),
    ).toEqual({ transactionId: TXN, status: DeliveryStatus.EXHAUSTED, limit: 50, cursor: 'abc' });
  });

  it('maps each public state to the proto enum', () => {
    expect(parseDeliveryListQuery({ status: 'pending' }).status).toBe(DeliveryStatus.PENDING);
    expect(parseDeliveryListQuery({ status: 'delivering' }).status).toBe(DeliveryStatus.DELIVERING);
    expect(parseDeliveryListQuery({ status: 'delivered' }).status).toBe(DeliveryStatus.DELIVERED);
    expect(parseDeliveryListQuery({ status: 'failed' }).status).toBe(DeliveryStatus.FAILED);
  });

  it('leaves the page size range and the cursor to the webhook service', () => {
    expect(parseDeliveryListQuery({ limit: '101' }).limit).toBe(101);
    expect(parseDeliveryListQuery({ limit: '99999999999999999999' }).limit).toBe(2_147_483_647);
    expect(parseDeliveryListQuery({ cursor: '%%not-ours%%' }).cursor).toBe('%%not-ours%%');
    expect(parseDeliveryListQuery({ cursor: '' }).cursor).toBe('');
  });

  it.each([
    [{ status: 'PENDING' }, 'status must be one of pending, delivering, delivered, failed, exhausted'],
    [{ status: '' }, 'status must be one of'],
    [{ limit: 'ten' }, 'limit must be a positive integer'],
    [{ limit: '1.5' }, 'limit must be a positive integer'],
    [{ limit: '-1' }, 'limit must be a positive integer'],
    [{ limit: '0' }, 'limit must be a positive integer'],
    [{ limit: '' }, 'limit must be a positive integer'],
    [{ transaction_id: 'txn_123' }, 'transaction_id must be a transaction id'],
    [{ transaction_id: 'ins_01JD0000000000000000000001' }, 'transaction_id must be a transaction id'],
    [{ transaction_id: TXN.toLowerCase() }, 'transaction_id must be a transaction id'],
    [{ status: ['pending', 'failed'] }, 'status must be given once'],
    [{ page: '2' }, 'page is not a known query parameter'],
    [{ transactionId: TXN }, 'transactionId is not a known query parameter'],
  ])('refuses %j', (query, message) => {
    expect(refusal(query)).toContain(message);
  });

  it.each([
    [{ status: 'x', transactionId: TXN }, 'transactionId is not a known query parameter'],
    [{ transaction_id: 'x', cursor: ['a', 'b'] }, 'cursor must be given once'],
    [{ limit: '0', status: 'x', transaction_id: 'x' }, 'transaction_id must be a transaction id'],
    [{ limit: '0', status: 'x' }, 'status must be one of pending, delivering, delivered, failed, exhausted'],
  ])('reports the first problem of %j, in the order it always has', (query, message) => {
    expect(refusal(query)).toContain(message);
  });

  it('passes every positive integer through and refuses anything else (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_147_483_647 }), (n) => {
        expect(parseDeliveryListQuery({ limit: String(n) }).limit).toBe(n);
      }),
    );
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^[0-9]+$/.test(s)),
        (s) => {
          expect(refusal({ limit: s })).toBe('limit must be a positive integer');
        },
      ),
    );
  });
});
