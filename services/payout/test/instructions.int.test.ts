// CreateInstruction / GetInstruction over real gRPC (HTTP/2) against real PostgreSQL: a random
// schema migrated by the service at start, dropped afterwards.
import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code } from '@connectrpc/connect';
import { readErrorDetail } from '@qr-payout/platform/errors';
import { newId } from '@qr-payout/platform/ids';
import { MoneySchema } from '@qr-payout/proto/payout/common/v1/common_pb';
import { AccountType } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { type Quote, QuoteSchema, QuoteStatus } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { failure } from '@qr-payout/test-kit/service';
import { pixQr as decodedPixQr, tenant, usePayoutOverGrpc } from './fixtures';

/** The static Pix QR of a merchant paid to its CNPJ. */
const pixQr = (amountMinor: bigint | undefined) =>
  decodedPixQr(amountMinor, {
    creditor: {
      name: 'Padaria Pao Quente',
      account: '12345678000195',
      accountType: AccountType.PIX_CNPJ,
      city: 'SAO PAULO',
      merchantCategoryCode: '5812',
    },
    confidenceFactors: [{ name: 'crc_valid', passed: true, weight: 0.4 }],
  });

function usdQuote(tenantId: string, targetMinor: bigint): Quote {
  const now = new Date();
  return create(QuoteSchema, {
    id: newId('quo'),
    tenantId,
    rate: '5.4228',
    midRate: '5.45',
    spreadBps: 50,
    source: { currency: 'USD', amountMinor: 2277n },
    target: { currency: 'BRL', amountMinor: targetMinor },
    fee: { currency: 'USD', amountMinor: 0n },
    createdAt: timestampFromDate(now),
    expiresAt: timestampFromDate(new Date(now.getTime() + 60_000)),
    status: QuoteStatus.OPEN,
  });
}

describe('payout instructions', () => {
  const grpc = usePayoutOverGrpc('payout_test', 2);
  const { schema, admin } = grpc;

  it('CreateInstruction stores the decoded QR and amount; GetInstruction reads the same back', async () => {
    const tenantId = tenant();
    const decoded = pixQr(1234n);
    const { instruction } = await grpc.client.createInstruction({
      tenantId,
      decoded,
      amount: { currency: 'BRL', amountMinor: 1234n },
    });
    expect(instruction?.id).toMatch(/^ins_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(instruction).toMatchObject({
      tenantId,
      amount: { currency: 'BRL', amountMinor: 1234n },
      payAmount: { currency: 'BRL', amountMinor: 1234n },
      transactionId: '',
    });
    expect(instruction?.quote).toBeUndefined();
    expect(Math.abs(Date.now() - timestampDate(instruction!.createdAt!).getTime())).toBeLessThan(60_000);

    const read = await grpc.client.getInstruction({ tenantId, instructionId: instruction!.id });
    expect(read.instruction).toEqual(instruction);
    expect(read.instruction?.decoded).toEqual(decoded);

    const { rows } = await admin.query(
      `SELECT scheme_id, country, rail, amount_currency, amount_minor, pay_currency, pay_amount_minor,
              quote_id, quote, decoded->'creditor'->>'name' AS creditor_name
         FROM "${schema}".instructions WHERE id = $1`,
      [instruction!.id],
    );
    expect(rows[0]).toEqual({
      scheme_id: 'BR.PIX',
      country: 'BR',
      rail: 'pix',
      amount_currency: 'BRL',
      amount_minor: '1234',
      pay_currency: 'BRL',
      pay_amount_minor: '1234',
      quote_id: null,
      quote: null,
      creditor_name: 'Padaria Pao Quente',
    });
  });

  it('keeps the FX quote: the payer pays its source amount, money exact beyond 2^53', async () => {
    const tenantId = tenant();
    // The amount stays within Pix's limits; the payer's side (the quote's source) is beyond 2^53.
    const big = 9_007_199_254_740_993n;
    const quote = usdQuote(tenantId, 1234n);
    quote.source = create(MoneySchema, { currency: 'USD', amountMinor: big });
    const { instruction } = await grpc.client.createInstruction({
      tenantId,
      decoded: pixQr(undefined),
      amount: { currency: 'BRL', amountMinor: 1234n },
      quote,
    });
    expect(instruction?.payAmount).toMatchObject({ currency: 'USD', amountMinor: big });
    const read = await grpc.client.getInstruction({ tenantId, instructionId: instruction!.id });
    expect(read.instruction?.quote).toEqual(quote);
    expect(read.instruction?.payAmount?.amountMinor).toBe(big);
    const { rows } = await admin.query(`SELECT quote_id FROM "${schema}".instructions WHERE id = $1`, [
      instruction!.id,
    ]);
    expect(rows[0].quote_id).toBe(quote.id);
  });

  it("GetInstruction: NOT_FOUND for an unknown id and for another tenant's id", async () => {
    const owner = tenant();
    const { instruction } = await grpc.client.createInstruction({
      tenantId: owner,
      decoded: pixQr(500n),
      amount: { currency: 'BRL', amountMinor: 500n },
    });
    for (const [tenantId, instructionId] of [
      [tenant(), instruction!.id],
      [owner, newId('ins')],
    ] as const) {
      const err = await failure(grpc.client.getInstruction({ tenantId, instructionId }));
      expect(err.code).toBe(Code.NotFound);
      expect(readErrorDetail(err)).toMatchObject({ tag: 'NotFoundError', field: 'instruction_id' });
    }
  });

  it('GetInstruction carries the transaction once the instruction is executed', async () => {
    const tenantId = tenant();
    const { instruction } = await grpc.client.createInstruction({
      tenantId,
      decoded: pixQr(700n),
      amount: { currency: 'BRL', amountMinor: 700n },
    });
    const transactionId = newId('txn');
    // ExecuteInstruction comes with a later issue; the row it will write is seeded here.
    await admin.query(
      `INSERT INTO "${schema}".transactions (id, tenant_id, instruction_id, scheme_id, rail,
         amount_currency, amount_minor, pay_currency, pay_amount_minor, payer_name, payer_account, payer_tax_id)
       VALUES ($1, $2, $3, 'BR.PIX', 'pix', 'BRL', 700, 'BRL', 700, 'Ana Souza', '0001-1', '12345678909')`,
      [transactionId, tenantId, instruction!.id],
    );
    const read = await grpc.client.getInstruction({ tenantId, instructionId: instruction!.id });
    expect(read.instruction?.transactionId).toBe(transactionId);
  });

  it('ListRailLimits answers every rail with its sandbox default limits over gRPC', async () => {
    const { limits } = await grpc.client.listRailLimits({});
    const shown = Object.fromEntries(
      limits.map((l) => [
        l.rail,
        [l.minAmount?.currency, l.minAmount?.amountMinor, l.maxAmount?.amountMinor],
      ]),
    );
    expect(shown).toEqual({
      pix: ['BRL', 1n, 100_000_000n],
      'transferencias-3.0': ['ARS', 100n, 5_000_000_000n],
      'bre-b': ['COP', 100n, 10_000_000_000n],
      'cce-inmediatas': ['PEN', 1n, 10_000_000n],
      'bolivia-qr-interoperable': ['BOB', 1n, 100_000_000n],
    });
  });

  it('CreateInstruction refuses what the gateway must never send (coded errors, nothing stored)', async () => {
    const tenantId = tenant();
    const mismatch = await failure(
      grpc.client.createInstruction({
        tenantId,
        decoded: pixQr(1234n),
        amount: { currency: 'BRL', amountMinor: 1000n },
      }),
    );
    expect(mismatch.code).toBe(Code.InvalidArgument);
    expect(readErrorDetail(mismatch)).toMatchObject({ tag: 'AmountMismatch', field: 'amount' });

    // 1e15 BRL (10^17 minor units) is far above Pix's maximum: refused where the amount is fixed.
    const tooLarge = await failure(
      grpc.client.createInstruction({
        tenantId,
        decoded: pixQr(10n ** 17n),
        amount: { currency: 'BRL', amountMinor: 10n ** 17n },
      }),
    );
    expect(tooLarge.code).toBe(Code.OutOfRange);
    expect(readErrorDetail(tooLarge)).toMatchObject({
      tag: 'AmountOutOfRange',
      field: 'amount',
      message: 'The amount is above the maximum of 1000000.00 BRL for this scheme.',
    });

    const foreignQuote = await failure(
      grpc.client.createInstruction({
        tenantId,
        decoded: pixQr(1234n),
        amount: { currency: 'BRL', amountMinor: 1234n },
        quote: usdQuote(tenant(), 1234n),
      }),
    );
    expect(readErrorDetail(foreignQuote)).toMatchObject({ tag: 'ValidationError', field: 'quote' });

    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM "${schema}".instructions WHERE tenant_id = $1`,
      [tenantId],
    );
    expect(rows[0].n).toBe(0);
  });
});
