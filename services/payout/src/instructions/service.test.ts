import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Code, readErrorDetail } from '@qr-payout/platform/errors';
import { type DecodedQr, DecodedQrSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { type Quote, QuoteSchema } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import {
  type CreateInstructionRequest,
  CreateInstructionRequestSchema,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { railLimits } from '../limits/rail-limits';
import { createInstructionResolver } from './resolve';
import { createInstructionService } from './service';
import type { InstructionStore, NewInstruction, StoredInstruction } from './store';

const LIMITS = (() => {
  const read = railLimits().read({});
  if (!read.ok) throw new Error(read.problem);
  return read.value;
})();

const CREATED = new Date('2026-01-02T03:04:05.678Z');

// Field overrides of a message, as plain init objects.
type Init<Schema extends Parameters<typeof create>[0], M> = Exclude<MessageInitShape<Schema>, M>;

function decoded(overrides: Init<typeof DecodedQrSchema, DecodedQr> = {}): DecodedQr {
  return create(DecodedQrSchema, {
    schemeId: 'BR.PIX',
    country: 'BR',
    currency: 'BRL',
    amount: { currency: 'BRL', amountMinor: 1234n },
    creditor: {
      name: 'Padaria Pao Quente',
      account: 'd3b07384-d9a0-4c9b-8f8e-0c6d1b2f3a4b',
      city: 'SAO PAULO',
    },
    confidence: 0.97,
    rail: 'pix',
    references: { txid: 'abc123' },
    ...overrides,
  });
}

function quote(overrides: Init<typeof QuoteSchema, Quote> = {}): Quote {
  return create(QuoteSchema, {
    id: 'quo_01JD0000000000000000000001',
    tenantId: 'ten_a',
    rate: '5.4228',
    midRate: '5.45',
    spreadBps: 50,
    source: { currency: 'USD', amountMinor: 228n },
    target: { currency: 'BRL', amountMinor: 1234n },
    fee: { currency: 'USD', amountMinor: 0n },
    ...overrides,
  });
}

function request(
  overrides: Init<typeof CreateInstructionRequestSchema, CreateInstructionRequest> = {},
): CreateInstructionRequest {
  return create(CreateInstructionRequestSchema, {
    tenantId: 'ten_a',
    decoded: decoded(),
    amount: { currency: 'BRL', amountMinor: 1234n },
    ...overrides,
  });
}

// An in-memory store that keeps what it is given as the SQL store would (JSON columns included).
function memoryStore(): InstructionStore & { rows: StoredInstruction[]; finds: number } {
  const store = {
    rows: [] as StoredInstruction[],
    finds: 0,
    async insertInstruction(ins: NewInstruction) {
      store.rows.push({
        id: ins.id,
        tenantId: ins.tenantId,
        decoded: JSON.parse(JSON.stringify(ins.decodedJson)),
        amountCurrency: ins.amountCurrency,
        amountMinor: ins.amountMinor,
        payCurrency: ins.payCurrency,
        payAmountMinor: ins.payAmountMinor,
        quote: ins.quoteJson === null ? null : JSON.parse(JSON.stringify(ins.quoteJson)),
        createdAt: CREATED,
        transactionId: null,
      });
      return { createdAt: CREATED };
    },
    async findInstruction(tenantId: string, instructionId: string) {
      store.finds += 1;
      return store.rows.find((r) => r.tenantId === tenantId && r.id === instructionId);
    },
  };
  return store;
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    return readErrorDetail(err);
  }
  throw new Error('expected a rejection');
}

describe('createInstruction', () => {
  it('stores the instruction and returns it; pay amount equals the amount without FX', async () => {
    const store = memoryStore();
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store,
    });
    const ins = await service.createInstruction(request());
    expect(ins.id).toMatch(/^ins_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(ins).toMatchObject({
      tenantId: 'ten_a',
      amount: { currency: 'BRL', amountMinor: 1234n },
      payAmount: { currency: 'BRL', amountMinor: 1234n },
      transactionId: '',
    });
    expect(ins.quote).toBeUndefined();
    expect(ins.decoded?.creditor?.name).toBe('Padaria Pao Quente');
    expect(timestampDate(ins.createdAt!).toISOString()).toBe(CREATED.toISOString());
    expect(store.rows).toHaveLength(1);
    expect(store.rows[0]).toMatchObject({ id: ins.id, quote: null, payCurrency: 'BRL' });
  });

  it('with a quote, the payer pays the quote source amount plus its fee', async () => {
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store: memoryStore(),
    });
    const ins = await service.createInstruction(request({ quote: quote() }));
    expect(ins.payAmount).toMatchObject({ currency: 'USD', amountMinor: 228n });
    expect(ins.quote).toMatchObject({ id: 'quo_01JD0000000000000000000001', rate: '5.4228' });
    const withFee = await service.createInstruction(
      request({ quote: quote({ fee: { currency: 'USD', amountMinor: 3n } }) }),
    );
    expect(withFee.payAmount).toMatchObject({ currency: 'USD', amountMinor: 231n });
  });

  it('reads back exactly what it stored, through the JSON columns', async () => {
    const store = memoryStore();
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store,
    });
    const created = await service.createInstruction(request({ quote: quote() }));
    const read = await service.getInstruction('ten_a', created.id);
    expect(read).toEqual(created);
  });

  it('takes the amount from the request for a QR without one', async () => {
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store: memoryStore(),
    });
    const ins = await service.createInstruction(
      request({ decoded: decoded({ amount: undefined }), amount: { currency: 'BRL', amountMinor: 500n } }),
    );
    expect(ins.amount?.amountMinor).toBe(500n);
  });

  it('refuses an amount that differs from the QR amount with AmountMismatch', async () => {
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store: memoryStore(),
    });
    expect(
      await rejection(service.createInstruction(request({ amount: { currency: 'BRL', amountMinor: 99n } }))),
    ).toMatchObject({
      tag: 'AmountMismatch',
      code: Code.InvalidArgument,
      field: 'amount',
      message:
        'The amount differs from the amount in the QR code: the QR code fixes 12.34 BRL; send that amount or none.',
    });
  });

  it('refuses an amount above the rail maximum with AmountOutOfRange naming the limit', async () => {
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store: memoryStore(),
    });
    const req = (amountMinor: bigint) =>
      request({ decoded: decoded({ amount: undefined }), amount: { currency: 'BRL', amountMinor } });
    expect(await rejection(service.createInstruction(req(100_000_001n)))).toMatchObject({
      tag: 'AmountOutOfRange',
      code: Code.OutOfRange,
      field: 'amount',
      message: 'The amount is above the maximum of 1000000.00 BRL for this scheme.',
    });
    // Both ends are included.
    expect((await service.createInstruction(req(100_000_000n))).amount?.amountMinor).toBe(100_000_000n);
    expect((await service.createInstruction(req(1n))).amount?.amountMinor).toBe(1n);
  });

  it('takes the QR amount when none is sent, and refuses a QR without one with AmountRequired', async () => {
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store: memoryStore(),
    });
    const ins = await service.createInstruction(request({ amount: undefined }));
    expect(ins.amount).toMatchObject({ currency: 'BRL', amountMinor: 1234n });
    const err = await service
      .createInstruction(request({ amount: undefined, decoded: decoded({ amount: undefined }) }))
      .catch((e: unknown) => e);
    expect(readErrorDetail(err)).toMatchObject({ tag: 'AmountRequired', field: 'amount' });
  });

  it("quotes a wallet currency other than the QR's with fx, for the tenant and the amount owed", async () => {
    const asked: unknown[] = [];
    const fx = {
      createQuote: (async (req: { tenantId: string; sourceCurrency: string }) => {
        asked.push(req);
        return { quote: quote() };
      }) as never,
    };
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS, fx }),
      store: memoryStore(),
    });
    const ins = await service.createInstruction(request({ walletCurrency: 'USD' }));
    expect(asked).toEqual([
      expect.objectContaining({
        tenantId: 'ten_a',
        sourceCurrency: 'USD',
        target: expect.objectContaining({ amountMinor: 1234n }),
      }),
    ]);
    expect(ins.payAmount).toMatchObject({ currency: 'USD', amountMinor: 228n });
    // The QR's own currency needs no quote.
    await service.createInstruction(request({ walletCurrency: 'BRL' }));
    expect(asked).toHaveLength(1);
  });

  it.each<[string, Init<typeof CreateInstructionRequestSchema, CreateInstructionRequest>, string]>([
    ['no decoded QR', { decoded: undefined }, 'decoded'],
    ['a decoded QR without a rail', { decoded: decoded({ rail: '' }) }, 'decoded'],
    ['a malformed country', { decoded: decoded({ country: 'bra' }) }, 'decoded'],
    ['a malformed wallet currency', { walletCurrency: 'usd' }, 'wallet_currency'],
    ['a wallet currency and a quote', { walletCurrency: 'USD', quote: quote() }, 'quote'],
    ['an amount in another currency', { amount: { currency: 'USD', amountMinor: 1234n } }, 'amount'],
    [
      'a zero amount',
      { decoded: decoded({ amount: undefined }), amount: { currency: 'BRL', amountMinor: 0n } },
      'amount',
    ],
    ["another tenant's quote", { quote: quote({ tenantId: 'ten_b' }) }, 'quote'],
    [
      'a quote for another amount',
      { quote: quote({ target: { currency: 'BRL', amountMinor: 1n } }) },
      'quote',
    ],
    [
      'a quote from the payment currency',
      { quote: quote({ source: { currency: 'BRL', amountMinor: 1234n } }) },
      'quote',
    ],
    ['a quote with a malformed id', { quote: quote({ id: 'q1' }) }, 'quote'],
    [
      'a quote whose fee is in another currency',
      { quote: quote({ fee: { currency: 'BRL', amountMinor: 5n } }) },
      'quote',
    ],
  ])('refuses %s with ValidationError', async (_what, overrides, field) => {
    const store = memoryStore();
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store,
    });
    expect(await rejection(service.createInstruction(request(overrides)))).toMatchObject({
      tag: 'ValidationError',
      code: Code.InvalidArgument,
      field,
    });
    expect(store.rows).toHaveLength(0);
  });

  it('refuses a call without a tenant', async () => {
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store: memoryStore(),
    });
    expect(await rejection(service.createInstruction(request({ tenantId: '' })))).toMatchObject({
      tag: 'ValidationError',
      field: 'tenant_id',
    });
  });
});

describe('getInstruction', () => {
  it.each([
    ['an unknown id', 'ten_a', 'ins_01JD0000000000000000000009'],
    ["another tenant's id", 'ten_b', undefined],
  ])('answers NotFoundError for %s', async (_what, tenantId, id) => {
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store: memoryStore(),
    });
    const created = await service.createInstruction(request());
    expect(await rejection(service.getInstruction(tenantId, id ?? created.id))).toMatchObject({
      tag: 'NotFoundError',
      code: Code.NotFound,
      field: 'instruction_id',
    });
  });

  it('answers NotFoundError for an empty or oversized id without asking the store', async () => {
    const store = memoryStore();
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store,
    });
    for (const id of ['', `ins_${'A'.repeat(80)}`]) {
      expect((await rejection(service.getInstruction('ten_a', id)))?.tag).toBe('NotFoundError');
    }
    expect(store.finds).toBe(0);
  });

  it('carries the id of the transaction that executed it', async () => {
    const store = memoryStore();
    const service = createInstructionService({
      resolver: createInstructionResolver({ railLimits: LIMITS }),
      store,
    });
    const created = await service.createInstruction(request());
    store.rows[0]!.transactionId = 'txn_01JD0000000000000000000001';
    expect((await service.getInstruction('ten_a', created.id)).transactionId).toBe(
      'txn_01JD0000000000000000000001',
    );
  });
});
