import { create } from '@bufbuild/protobuf';
import { silentLogger } from '@qr-payout/platform/log';
import { ListSchemesResponseSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import {
  ListPayerIdentityRulesResponseSchema,
  ListRailLimitsResponseSchema,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';

// What payout's ListPayerIdentityRules answers, in small.
const PAYER_RULES = create(ListPayerIdentityRulesResponseSchema, {
  fields: [
    { field: 'payer_tax_id', required: true, description: 'The payer’s own identifier' },
    { field: 'payer_country', required: false, description: 'Issuing country' },
  ],
  documents: [{ country: 'AR', idType: 'tax_id', name: 'CUIT/CUIL', format: '11 digits' }],
  passportFormat: '5 to 20 letters and digits',
});

import { createSchemeCatalogue, type RailLimitsSource, type SchemeSource, toPublicScheme } from './catalogue';

function source() {
  const state = { calls: 0, fail: false, name: 'Pix' };
  const decoder: SchemeSource = {
    listSchemes: (async () => {
      state.calls++;
      if (state.fail) throw new Error('decoder down');
      return create(ListSchemesResponseSchema, {
        schemes: [
          {
            id: 'BR.PIX',
            name: state.name,
            country: 'BR',
            currency: 'BRL',
            rail: 'pix',
            qrTypes: ['static'],
          },
        ],
      });
    }) as unknown as SchemeSource['listSchemes'],
  };
  const payout: RailLimitsSource = {
    listRailLimits: (async () =>
      create(ListRailLimitsResponseSchema, {
        limits: [
          {
            rail: 'pix',
            minAmount: { currency: 'BRL', amountMinor: 1n },
            maxAmount: { currency: 'BRL', amountMinor: 100_000_000n },
          },
        ],
      })) as unknown as RailLimitsSource['listRailLimits'],
    listPayerIdentityRules: (async () =>
      PAYER_RULES) as unknown as RailLimitsSource['listPayerIdentityRules'],
  };
  return { decoder, payout, state };
}

describe('scheme catalogue cache', () => {
  it('renders snake_case schemes and calls the decoder once per TTL', async () => {
    const { decoder, payout, state } = source();
    let clock = 0;
    const catalogue = createSchemeCatalogue({
      decoder,
      payout,
      logger: silentLogger(),
      ttlMs: 1000,
      now: () => clock,
    });
    const [a, b] = await Promise.all([catalogue.getJson(), catalogue.getJson()]);
    expect(JSON.parse(a.schemes)).toEqual([
      {
        id: 'BR.PIX',
        name: 'Pix',
        country: 'BR',
        currency: 'BRL',
        rail: 'pix',
        qr_types: ['static'],
        description: '',
        min_amount: 0.01,
        max_amount: 1000000,
      },
    ]);
    expect(JSON.parse(a.payerIdentity)).toEqual({
      fields: [
        { field: 'payer_tax_id', required: true, description: 'The payer’s own identifier' },
        { field: 'payer_country', required: false, description: 'Issuing country' },
      ],
      documents: [{ country: 'AR', id_type: 'tax_id', name: 'CUIT/CUIL', format: '11 digits' }],
      passport_format: '5 to 20 letters and digits',
    });
    expect(b).toBe(a);
    clock = 999;
    await catalogue.getJson();
    expect(state.calls).toBe(1);
  });

  it('after the TTL serves the cached list at once and refreshes it in the background', async () => {
    const { decoder, payout, state } = source();
    let clock = 0;
    const catalogue = createSchemeCatalogue({
      decoder,
      payout,
      logger: silentLogger(),
      ttlMs: 1000,
      now: () => clock,
    });
    await catalogue.getJson();
    state.name = 'Pix 2';
    clock = 1000;
    expect(JSON.parse((await catalogue.getJson()).schemes)[0].name).toBe('Pix');
    await new Promise((r) => setImmediate(r));
    expect(JSON.parse((await catalogue.getJson()).schemes)[0].name).toBe('Pix 2');
    expect(state.calls).toBe(2);
  });

  it('keeps the old list when a refresh fails and fails only while it has none', async () => {
    const { decoder, payout, state } = source();
    let clock = 0;
    const catalogue = createSchemeCatalogue({
      decoder,
      payout,
      logger: silentLogger(),
      ttlMs: 1000,
      retryMs: 100,
      now: () => clock,
    });
    state.fail = true;
    await expect(catalogue.getJson()).rejects.toThrow('decoder down');
    state.fail = false;
    const first = await catalogue.getJson();
    state.fail = true;
    clock = 5000;
    expect(await catalogue.getJson()).toBe(first);
    await new Promise((r) => setImmediate(r));
    expect(await catalogue.getJson()).toBe(first);
  });

  it('shows null limits for a rail payout has none for, or in another currency', () => {
    const scheme = {
      id: 'X',
      name: 'X',
      country: 'BR',
      currency: 'BRL',
      rail: 'x',
      qrTypes: [],
      description: '',
    } as never;
    expect(toPublicScheme(scheme)).toMatchObject({ min_amount: null, max_amount: null });
    const usd = {
      rail: 'x',
      minAmount: { currency: 'USD', amountMinor: 1n },
      maxAmount: { currency: 'USD', amountMinor: 2n },
    } as never;
    expect(toPublicScheme(scheme, usd)).toMatchObject({ min_amount: null, max_amount: null });
  });
});
