import type { Payout } from './payout';
import type { SubmitPayoutBody } from './protocol';
import { createPayoutStore, fingerprintOf, newPayoutId, toResource } from './store';

const BODY: SubmitPayoutBody = {
  rail: 'pix',
  amount: { currency: 'BRL', amount_minor: '1234' },
  creditor: { name: 'Loja', account: 'loja@example.com', account_type: 'pix_email' },
  debtor: {
    name: 'QR Payout',
    account: '1',
    residency: 'resident',
    document: { type: 'tax_id', number: '11222333000181', issuing_country: 'BR' },
  },
  references: { txid: 'abc', end_to_end: 'x' },
};

function payout(key: string): Payout {
  return {
    id: newPayoutId(),
    idempotencyKey: key,
    fingerprint: fingerprintOf(BODY),
    rail: 'pix',
    amount: BODY.amount,
    callbackUrl: undefined,
    debtor: BODY.debtor,
    references: { ...BODY.references },
    status: 'ACSP',
    reasonCode: null,
    reference: null,
    createdAt: new Date('2026-11-23T12:00:00.000Z'),
    settledAt: null,
  };
}

describe('fingerprintOf', () => {
  it('ignores member order at any depth', () => {
    const reordered = {
      references: { end_to_end: 'x', txid: 'abc' },
      debtor: {
        document: { issuing_country: 'BR', number: '11222333000181', type: 'tax_id' },
        residency: 'resident',
        account: '1',
        name: 'QR Payout',
      },
      creditor: BODY.creditor,
      amount: { amount_minor: '1234', currency: 'BRL' },
      rail: 'pix',
    } as SubmitPayoutBody;
    expect(fingerprintOf(reordered)).toBe(fingerprintOf(BODY));
  });

  it('changes with any value', () => {
    expect(fingerprintOf({ ...BODY, amount: { currency: 'BRL', amount_minor: '1235' } })).not.toBe(
      fingerprintOf(BODY),
    );
    expect(fingerprintOf({ ...BODY, callback_url: 'https://a.example/cb' })).not.toBe(fingerprintOf(BODY));
  });
});

describe('createPayoutStore', () => {
  it('finds a payout by id and by idempotency key, and updates it', () => {
    const store = createPayoutStore();
    const p = payout('txn_1');
    store.insert(p);
    expect(store.byId(p.id)).toBe(p);
    expect(store.byIdempotencyKey('txn_1')).toBe(p);
    const settledAt = new Date('2026-11-23T12:00:01.000Z');
    const settled = store.update(p.id, { status: 'ACSC', reasonCode: null, settledAt });
    expect(settled).toMatchObject({ status: 'ACSC', settledAt });
    expect(store.byIdempotencyKey('txn_1')).toBe(settled);
    expect(store.update('pp_unknown', { status: 'ACSC', reasonCode: null, settledAt })).toBeUndefined();
  });

  it('forgets the oldest payouts beyond its bound, by id and by key', () => {
    const store = createPayoutStore({ maxPayouts: 2 });
    const [a, b, c] = [payout('k_a'), payout('k_b'), payout('k_c')];
    store.insert(a);
    store.insert(b);
    store.insert(c);
    expect(store.byId(a.id)).toBeUndefined();
    expect(store.byIdempotencyKey('k_a')).toBeUndefined();
    expect(store.byIdempotencyKey('k_b')).toBe(b);
    expect(store.byIdempotencyKey('k_c')).toBe(c);
  });
});

describe('toResource', () => {
  it('renders the wire shape with the reason words of a rejection', () => {
    const rejected: Payout = { ...payout('txn_r'), status: 'RJCT', reasonCode: 'AC03' };
    expect(toResource(rejected)).toEqual({
      id: rejected.id,
      idempotency_key: 'txn_r',
      rail: 'pix',
      amount: { currency: 'BRL', amount_minor: '1234' },
      status: 'RJCT',
      reason_code: 'AC03',
      reason: 'invalid creditor account number',
      reference: null,
      created_at: '2026-11-23T12:00:00.000Z',
      settled_at: null,
      debtor: BODY.debtor,
    });
  });
});
