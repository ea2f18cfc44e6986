import { DeliveryStatus } from '@qr-payout/proto/payout/webhook/v1/webhook_pb';
import fc from 'fast-check';
import { ApiError } from '../errors/api-error';
import { parseDeliveryListQuery } from './delivery-list-query';

const TXN = 'txn_01JD0000000000000000000001';

function refusal(query: unknown): string {
  try {
    parseDeliveryListQuery(query);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).tag).toBe('ValidationError');
    return (err as ApiError).message;
  }
  throw new Error('expected a ValidationError');
}

describe('parseDeliveryListQuery', () => {
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
