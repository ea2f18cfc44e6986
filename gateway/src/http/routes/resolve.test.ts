import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, serviceError } from '@qr-payout/platform/errors';
import { type DecodedQr, DecodedQrSchema } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import {
  type CreateQuoteRequest,
  CreateQuoteRequestSchema,
  type Quote,
  QuoteSchema,
} from '@qr-payout/proto/payout/fx/v1/fx_pb';
import {
  type CreateInstructionRequest,
  InstructionSchema,
} from '@qr-payout/proto/payout/payout/v1/payout_pb';
import type { FastifyInstance } from 'fastify';
import type { PublicAppDeps } from '../app';
import { INSTRUCTION_SCHEMA } from '../schemas';
import type { ResolveRouteDeps } from './resolve';
import { TEST_API_KEY as KEY, startRouteTestApp } from './test-app';

// POST /v1/resolve through the real app (auth, validation, error registry) with fake clients. The
// fake payout stands in for payout's resolve (services/payout/src/instructions/resolve.ts): the
// amount rules and the quote are payout's, the gateway decodes and converts the JSON amount.

const EXPIRES = new Date('2026-01-02T03:05:05.678Z');
// The interface's instruction fields: the Instruction schema may add to them, never drop one.
const SPEC_FIELDS = ['amount', 'confidence', 'country', 'creditor', 'currency', 'id', 'scheme'];

function pixQr(amountMinor?: bigint): DecodedQr {
  return create(DecodedQrSchema, {
    schemeId: 'BR.PIX',
    country: 'BR',
    currency: 'BRL',
    ...(amountMinor !== undefined ? { amount: { currency: 'BRL', amountMinor } } : {}),
    creditor: { name: 'Padaria Pao Quente', account: '12345678000195', taxId: '12345678000195' },
    confidence: 0.97,
    rail: 'pix',
  });
}

// Only what POST /v1/resolve uses; the app's other routes are not called here. `fx` is the fx
// client of the fake payout.
type ResolveDeps = Pick<ResolveRouteDeps, 'decoder' | 'payout'> & {
  fx: { createQuote(req: CreateQuoteRequest): Promise<{ quote?: Quote }> };
};

function fakes(decoded: DecodedQr) {
  const calls = {
    decode: 0,
    quotes: [] as CreateQuoteRequest[],
    instructions: [] as CreateInstructionRequest[],
  };
  const deps: ResolveDeps = {
    decoder: {
      decode: (async () => {
        calls.decode++;
        return { decoded };
      }) as never,
    },
    fx: {
      createQuote: (async (req: CreateQuoteRequest) => {
        calls.quotes.push(req);
        // fx is the one owner of the currencies it quotes (services/fx/src/quotes/errors.ts).
        if (!['BRL', 'EUR', 'USD'].includes(req.sourceCurrency))
          throw serviceError(
            'ValidationError',
            `wallet_currency ${req.sourceCurrency} is not a currency we quote from`,
            {
              code: Code.InvalidArgument,
              field: 'wallet_currency',
            },
          );
        return {
          quote: create(QuoteSchema, {
            id: 'quo_01JD0000000000000000000001',
            tenantId: req.tenantId,
            rate: '5.4228',
            source: { currency: req.sourceCurrency, amountMinor: 228n },
            target: req.target,
            fee: { currency: req.sourceCurrency, amountMinor: 3n },
            expiresAt: timestampFromDate(EXPIRES),
          }),
        };
      }) as never,
    },
    payout: {
      createInstruction: (async (req: CreateInstructionRequest) => {
        const qrAmount = req.decoded?.amount;
        if (!req.amount && !qrAmount)
          throw serviceError('AmountRequired', 'no amount', { code: Code.InvalidArgument, field: 'amount' });
        if (req.amount && qrAmount && req.amount.amountMinor !== qrAmount.amountMinor)
          throw serviceError('AmountMismatch', 'another amount', {
            code: Code.InvalidArgument,
            field: 'amount',
          });
        const amount = req.amount ?? qrAmount;
        const quote =
          req.walletCurrency !== '' && req.walletCurrency !== req.decoded?.currency
            ? (
                await deps.fx.createQuote(
                  create(CreateQuoteRequestSchema, {
                    tenantId: req.tenantId,
                    sourceCurrency: req.walletCurrency,
                    ...(amount ? { target: amount } : {}),
                  }),
                )
              ).quote
            : undefined;
        calls.instructions.push(req);
        const source = quote?.source;
        const fee = quote?.fee?.amountMinor ?? 0n;
        return {
          instruction: create(InstructionSchema, {
            id: 'ins_01JD0000000000000000000001',
            tenantId: req.tenantId,
            decoded: req.decoded,
            amount,
            payAmount: source ? { currency: source.currency, amountMinor: source.amountMinor + fee } : amount,
            ...(quote ? { quote } : {}),
          }),
        };
      }) as never,
    },
  };
  return { deps, calls };
}

let app: FastifyInstance | undefined;

async function resolve(deps: Partial<ResolveDeps>, body: object) {
  await app?.close();
  const resolveDeps: ResolveDeps = { ...fakes(pixQr(1234n)).deps, ...deps };
  // The fake payout's fx client rides along unused by the app.
  const started = await startRouteTestApp(resolveDeps as unknown as Partial<PublicAppDeps>);
  app = started.app;
  const res = await fetch(`${started.base}/v1/resolve`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: bodies are asserted field by field
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

afterAll(async () => {
  await app?.close();
});

describe('POST /v1/resolve', () => {
  it('without wallet_currency: exactly the fields the Instruction schema requires, no FX call', async () => {
    const { deps, calls } = fakes(pixQr(1234n));
    const res = await resolve(deps, { qr_string: 'qr' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.instruction).sort()).toEqual([...INSTRUCTION_SCHEMA.required].sort());
    expect(INSTRUCTION_SCHEMA.required).toEqual(expect.arrayContaining(SPEC_FIELDS));
    expect(res.body.instruction).toMatchObject({
      id: 'ins_01JD0000000000000000000001',
      amount: 12.34,
      currency: 'BRL',
      creditor: { name: 'Padaria Pao Quente', account: '12345678000195' },
      scheme: 'BR.PIX',
      country: 'BR',
      confidence: 0.97,
    });
    expect(calls.quotes).toHaveLength(0);
    // No amount sent: payout takes the QR's; no wallet currency: nothing to quote.
    expect(calls.instructions[0]).toMatchObject({ tenantId: 'ten_a', walletCurrency: '' });
    expect(calls.instructions[0]?.amount).toBeUndefined();
    expect(calls.instructions[0]?.quote).toBeUndefined();
  });

  it('with another wallet_currency: quotes for the tenant and shows what the user pays', async () => {
    const { deps, calls } = fakes(pixQr(1234n));
    const res = await resolve(deps, { qr_string: 'qr', wallet_currency: 'USD' });
    expect(res.status).toBe(200);
    expect(calls.quotes).toEqual([
      expect.objectContaining({
        tenantId: 'ten_a',
        sourceCurrency: 'USD',
        target: expect.objectContaining({ currency: 'BRL', amountMinor: 1234n }),
      }),
    ]);
    expect(calls.instructions[0]?.walletCurrency).toBe('USD');
    expect(res.body.instruction).toMatchObject({ amount: 12.34, currency: 'BRL', wallet_currency: 'USD' });
    expect(res.body.instruction.wallet_amount).toBe(2.31);
    expect(res.body.instruction.quote).toEqual({
      id: 'quo_01JD0000000000000000000001',
      rate: '5.4228',
      source_amount: 2.28,
      source_currency: 'USD',
      target_amount: 12.34,
      target_currency: 'BRL',
      fee: 0.03,
      expires_at: '2026-01-02T03:05:05.678Z',
    });
  });

  it('with wallet_currency equal to the payment currency: no quote, wallet_amount is the amount', async () => {
    const { deps, calls } = fakes(pixQr(1234n));
    const res = await resolve(deps, { qr_string: 'qr', wallet_currency: 'BRL' });
    expect(res.status).toBe(200);
    expect(calls.quotes).toHaveLength(0);
    expect(res.body.instruction).toMatchObject({ wallet_currency: 'BRL', wallet_amount: 12.34, quote: null });
  });

  it("400 ValidationError naming wallet_currency when fx does not quote it: fx's refusal, as fx wrote it", async () => {
    const { deps, calls } = fakes(pixQr(1234n));
    const res = await resolve(deps, { qr_string: 'qr', wallet_currency: 'XYZ' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      _tag: 'ValidationError',
      message: 'wallet_currency XYZ is not a currency we quote from',
    });
    expect(calls.quotes).toHaveLength(1);
    expect(calls.instructions).toHaveLength(0);
  });

  it('400 naming wallet_currency in words, not a regular expression, for a lower-case code', async () => {
    const { deps } = fakes(pixQr(1234n));
    const res = await resolve(deps, { qr_string: 'qr', wallet_currency: 'usd' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'wallet_currency must be an ISO 4217 currency code in upper case, such as USD (GET /v1/fx/currencies lists those we quote from)',
    );
  });

  it('takes the amount from the request for a QR without one, in the payment currency', async () => {
    const { deps, calls } = fakes(pixQr());
    const res = await resolve(deps, { qr_string: 'qr', amount: 50.5 });
    expect(res.status).toBe(200);
    expect(calls.instructions[0]?.amount?.amountMinor).toBe(5050n);
    expect(res.body.instruction.amount).toBe(50.5);
  });

  it.each([
    ['AmountRequired', pixQr(), {}],
    ['AmountMismatch', pixQr(1234n), { amount: 12.35 }],
  ])('422 %s from payout, nothing quoted or stored', async (tag, decoded, extra) => {
    const { deps, calls } = fakes(decoded);
    const res = await resolve(deps, { qr_string: 'qr', wallet_currency: 'USD', ...extra });
    expect(res.status).toBe(422);
    expect(res.body._tag).toBe(tag);
    expect(calls.quotes).toHaveLength(0);
    expect(calls.instructions).toHaveLength(0);
  });

  it("503 QrLocationUnavailable with Retry-After when the merchant's PSP did not answer, nothing stored", async () => {
    const { deps, calls } = fakes(pixQr(1234n));
    const message = 'The dynamic Pix location at pix.psp.example did not answer in time.';
    const res = await resolve(
      {
        ...deps,
        decoder: {
          decode: async () => {
            throw serviceError('QrLocationUnavailable', message, {
              code: Code.Unavailable,
              field: 'qr_string',
              metadata: { reason: 'location_timeout' },
            });
          },
        },
      },
      { qr_string: 'qr', wallet_currency: 'USD' },
    );
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      _tag: 'QrLocationUnavailable',
      type: 'QrLocationUnavailable',
      message,
      docs_url: 'http://localhost:8080/docs/errors#QrLocationUnavailable',
      request_id: res.headers.get('x-request-id'),
    });
    expect(res.headers.get('retry-after')).toBe('2');
    expect(calls.quotes).toHaveLength(0);
    expect(calls.instructions).toHaveLength(0);
  });

  it("maps payout's failures through the registry: coded tag kept (fx's too), an outage is 503", async () => {
    const { deps } = fakes(pixQr(1234n));
    deps.fx.createQuote = async () => {
      throw serviceError('ValidationError', 'source_currency is not quoted', {
        code: Code.InvalidArgument,
        field: 'source_currency',
      });
    };
    const coded = await resolve(deps, { qr_string: 'qr', wallet_currency: 'USD' });
    expect(coded.status).toBe(400);
    expect(coded.body._tag).toBe('ValidationError');
    deps.fx.createQuote = async () => {
      throw new ConnectError('connect ECONNREFUSED', Code.Unavailable);
    };
    const down = await resolve(deps, { qr_string: 'qr', wallet_currency: 'USD' });
    expect(down.status).toBe(503);
    expect(down.body._tag).toBe('ServiceUnavailable');
  });
});
