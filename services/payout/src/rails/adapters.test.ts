import type { PayoutResource } from '@qr-payout/platform/partner-protocol';
import { AccountType } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { brebAdapter, pixAdapter, railAdapterFor } from './adapters';
import { RailMappingError, type SubmissionInput } from './rail-adapter';

const input = (overrides: Partial<SubmissionInput> = {}): SubmissionInput => ({
  transactionId: 'txn_01JD0000000000000000000001',
  amount: { currency: 'BRL', amountMinor: 9_007_199_254_740_993n },
  creditor: { name: 'Padaria', account: 'loja@example.com', accountType: AccountType.EMAIL, taxId: '' },
  references: { txid: 'PEDIDO42', storeLabel: 'LOJA 1', 'not a key': 'x' },
  payer: {
    name: 'Ana Souza',
    account: '0001-12345-6',
    taxId: '12345678909',
    country: 'BR',
    idType: 'tax_id',
  },
  callbackUrl: 'https://api.example.com/v1/partner/callbacks/pix',
  ...overrides,
});

const resource = (overrides: Partial<PayoutResource>): PayoutResource => ({
  id: 'pp_ab12',
  idempotency_key: 'txn_01JD0000000000000000000001',
  rail: 'pix',
  amount: { currency: 'BRL', amount_minor: '1250' },
  status: 'ACSP',
  reason_code: null,
  reason: null,
  reference: null,
  created_at: '2026-11-23T14:00:00.000Z',
  settled_at: null,
  ...overrides,
});

describe('rail adapters', () => {
  it('serves the five rails of docs/architecture.md "What the service does" and nothing else', () => {
    for (const rail of ['pix', 'transferencias-3.0', 'bre-b', 'cce-inmediatas', 'bolivia-qr-interoperable']) {
      expect(railAdapterFor(rail)?.rail).toBe(rail);
    }
    expect(railAdapterFor('swift')).toBeUndefined();
    expect(railAdapterFor('toString')).toBeUndefined();
  });

  it('maps an instruction and payer to the partner request, money as an exact string', () => {
    expect(pixAdapter.toPartnerRequest(input())).toEqual({
      rail: 'pix',
      amount: { currency: 'BRL', amount_minor: '9007199254740993' },
      creditor: { name: 'Padaria', account: 'loja@example.com', account_type: 'pix_email' },
      debtor: {
        name: 'Ana Souza',
        account: '0001-12345-6',
        residency: 'resident',
        document: { type: 'tax_id', number: '12345678909', issuing_country: 'BR' },
      },
      references: { txid: 'PEDIDO42', store_label: 'LOJA 1' },
      callback_url: 'https://api.example.com/v1/partner/callbacks/pix',
    });
  });

  it('sends a payer whose document another country issued, or who declared none, as non-resident', () => {
    const payer = { name: 'Juan Pérez', account: 'AR-1', taxId: '20162475860' };
    const foreign = pixAdapter.toPartnerRequest(
      input({ payer: { ...payer, country: 'AR', idType: 'tax_id' } }),
    );
    expect(foreign.debtor).toMatchObject({
      residency: 'non_resident',
      document: { type: 'tax_id', number: '20162475860', issuing_country: 'AR' },
    });
    const undeclared = pixAdapter.toPartnerRequest(
      input({ payer: { ...payer, country: null, idType: null } }),
    );
    expect(undeclared.debtor).toMatchObject({
      residency: 'non_resident',
      document: { type: 'undeclared', number: '20162475860', issuing_country: null },
    });
    // Residency is the rail's country: the same Argentine payer is a resident on Transferencias.
    const home = railAdapterFor('transferencias-3.0')?.toPartnerRequest(
      input({
        amount: { currency: 'ARS', amountMinor: 100n },
        creditor: { name: 'Kiosco', account: '0'.repeat(22), accountType: AccountType.CBU_CVU, taxId: '' },
        payer: { ...payer, country: 'AR', idType: 'tax_id' },
      }),
    );
    expect(home?.debtor.residency).toBe('resident');
  });

  it('names account types per rail and passes a creditor tax id on', () => {
    const body = brebAdapter.toPartnerRequest(
      input({
        amount: { currency: 'COP', amountMinor: 5_000_000n },
        creditor: {
          name: 'Tienda',
          account: '@tienda',
          accountType: AccountType.BREB_KEY,
          taxId: '9001234567',
        },
      }),
    );
    expect(body.creditor).toEqual({
      name: 'Tienda',
      account: '@tienda',
      account_type: 'breb_key',
      tax_id: '9001234567',
    });
  });

  it('refuses another currency or an account type the rail cannot route on', () => {
    expect(() =>
      pixAdapter.toPartnerRequest(input({ amount: { currency: 'USD', amountMinor: 1n } })),
    ).toThrow(RailMappingError);
    expect(() =>
      pixAdapter.toPartnerRequest(
        input({ creditor: { name: 'x', account: '0000', accountType: AccountType.CBU_CVU, taxId: '' } }),
      ),
    ).toThrow(/cannot route on account type CBU_CVU/);
  });

  it('maps ISO 20022 statuses to our outcomes', () => {
    expect(pixAdapter.toOutcome(resource({ status: 'PDNG' }))).toEqual({
      kind: 'in_flight',
      partnerPayoutId: 'pp_ab12',
      partnerStatus: 'PDNG',
    });
    expect(pixAdapter.toOutcome(resource({ status: 'ACSP' })).kind).toBe('in_flight');
    expect(
      pixAdapter.toOutcome(
        resource({
          status: 'ACSC',
          reference: 'E99999999202611231400abcDEF12345',
          settled_at: '2026-11-23T14:00:01.000Z',
        }),
      ),
    ).toEqual({
      kind: 'completed',
      partnerPayoutId: 'pp_ab12',
      reference: 'E99999999202611231400abcDEF12345',
      settledAt: new Date('2026-11-23T14:00:01.000Z'),
    });
    expect(
      pixAdapter.toOutcome(
        resource({ status: 'RJCT', reason_code: 'AC03', reason: 'invalid creditor account number' }),
      ),
    ).toEqual({
      kind: 'failed',
      partnerPayoutId: 'pp_ab12',
      code: 'AC03',
      reason: 'invalid creditor account number',
      partnerStatus: 'RJCT',
    });
  });

  it('fills what a partner left out: reason words, a reference, a reason code', () => {
    expect(pixAdapter.toOutcome(resource({ status: 'RJCT', reason_code: 'AM04' }))).toMatchObject({
      code: 'AM04',
      reason: 'insufficient funds',
    });
    expect(pixAdapter.toOutcome(resource({ status: 'RJCT' }))).toMatchObject({ code: 'MS03' });
    expect(pixAdapter.toOutcome(resource({ status: 'ACSC' }))).toMatchObject({ reference: 'pp_ab12' });
  });
});
