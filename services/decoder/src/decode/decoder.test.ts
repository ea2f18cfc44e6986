import { Code, type ConnectError, readErrorDetail } from '@qr-payout/platform/errors';
import { AccountType, PointOfInitiation } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';
import { type EmvObject, encodeMerchantQr } from '../emv/encode';
import { qrDecodeError, qrLocationUnavailable } from '../emv/errors';
import type { DynamicPixFetcher, DynamicPixPayload } from '../pix/dynamic/types';
import { SCHEME_CATALOGUE } from '../schemes/catalogue';
import { CONFIDENCE_WEIGHTS } from './confidence';
import { createQrDecoder, decodeQrText } from './decoder';
import { DECODER_SCHEME_IDS, type DecodedInstruction } from './types';

const NOW = new Date('2026-11-23T12:00:00Z');

// An in-memory stand-in for the PSP that serves dynamic Pix payloads (a remote party).
function payloadsAt(entries: Record<string, DynamicPixPayload | Error>): DynamicPixFetcher {
  return {
    fetch: async (location) => {
      const entry = entries[location];
      if (entry === undefined)
        throw qrDecodeError(`The dynamic Pix location ${location} could not be fetched.`);
      if (entry instanceof Error) throw entry;
      return entry;
    },
  };
}

const noDynamicPix = payloadsAt({});

function decodeStatic(text: string): DecodedInstruction {
  const step = decodeQrText(text);
  if (step.kind !== 'decoded') throw new Error('expected a static decode');
  return step.instruction;
}

async function decodeError(text: string, fetcher: DynamicPixFetcher = noDynamicPix) {
  const error = await createQrDecoder({ dynamicPix: fetcher, now: () => NOW })
    .decode(text)
    .then(
      () => undefined,
      (err: unknown) => err,
    );
  const detail = readErrorDetail(error);
  if (!detail) throw new Error(`expected a QrDecodeError, got ${String(error)}`);
  return detail;
}

const tpl = (id: number, ...subs: Array<[number, string]>): EmvObject => ({
  id,
  value: subs.map(([subId, value]) => ({ id: subId, value })),
});

// A Pix QR around `template`; `replace` swaps objects of the same id (or adds them).
function pixQr(template: EmvObject, replace: EmvObject[] = []): string {
  const objects: EmvObject[] = [
    { id: 1, value: '11' },
    template,
    { id: 52, value: '0000' },
    { id: 53, value: '986' },
    { id: 54, value: '12.50' },
    { id: 58, value: 'BR' },
    { id: 59, value: 'LOJA DO TESTE' },
    { id: 60, value: 'SAO PAULO' },
    tpl(62, [5, 'PEDIDO42']),
  ];
  return encodeMerchantQr([
    ...objects.map((object) => replace.find((r) => r.id === object.id) ?? object),
    ...replace.filter((r) => !objects.some((object) => object.id === r.id)),
  ]);
}

describe('the scheme catalogue covers the decoder', () => {
  it('lists every scheme id the decoder can return, and nothing else', () => {
    expect(new Set(SCHEME_CATALOGUE.map((s) => s.id))).toEqual(new Set(DECODER_SCHEME_IDS));
  });
});

describe('Brazil: Pix', () => {
  it.each([
    ['CPF', '58540944014', AccountType.PIX_CPF, 'cpf'],
    ['CNPJ', '50486087000127', AccountType.PIX_CNPJ, 'cnpj'],
    ['phone', '+5561998765432', AccountType.PHONE, 'phone'],
    ['e-mail', 'pagamentos@loja.com.br', AccountType.EMAIL, 'email'],
    ['random key', 'ca8ea7b3-3bc0-4c2b-9d3e-5b0e3a6f1d21', AccountType.PIX_EVP, 'evp'],
  ])('static code with a %s key', (_name, key, accountType, kind) => {
    const decoded = decodeStatic(pixQr(tpl(26, [0, 'br.gov.bcb.pix'], [1, key], [2, 'Pedido 42'])));
    expect(decoded).toMatchObject({
      schemeId: 'BR.PIX',
      country: 'BR',
      currency: 'BRL',
      amountMinor: 1250n,
      rail: 'pix',
      pointOfInitiation: PointOfInitiation.STATIC,
      creditor: {
        name: 'LOJA DO TESTE',
        account: key,
        accountType,
        city: 'SAO PAULO',
        merchantCategoryCode: '0000',
      },
      references: { txid: 'PEDIDO42', pix_key_type: kind, pix_additional_info: 'Pedido 42' },
      confidence: 1,
    });
  });

  it('reads the GUI in any case and in any template 26–51', () => {
    const decoded = decodeStatic(pixQr(tpl(31, [0, 'BR.GOV.BCB.PIX'], [1, 'pagamentos@loja.com.br'])));
    expect(decoded.creditor.account).toBe('pagamentos@loja.com.br');
  });

  it('lowers confidence for a key that fails its check digits, and says which factor failed', () => {
    const decoded = decodeStatic(pixQr(tpl(26, [0, 'br.gov.bcb.pix'], [1, '11111111111'])));
    expect(decoded.confidence).toBe(1 - CONFIDENCE_WEIGHTS.identifiers_valid);
    expect(decoded.confidenceFactors.find((f) => f.name === 'identifiers_valid')).toMatchObject({
      passed: false,
    });
  });

  describe('dynamic codes', () => {
    const location = 'pix.psp.example/qr/v2/9d36b84fc70b478fb95c12729b90ca25';
    const qr = pixQr(tpl(26, [0, 'br.gov.bcb.pix'], [25, location]), [{ id: 1, value: '12' }]);
    const payload: DynamicPixPayload = {
      txid: 'fc9a4366ff3d4964b5dbc6c91a8722d3',
      key: '50486087000127',
      creditorName: 'EMPRESA RECEBEDORA LTDA',
      amountMinor: 9990n,
      currency: 'BRL',
      status: 'ATIVA',
      expiresAt: new Date('2026-11-24T12:00:00Z'),
      revision: 2,
    };

    it('take key, amount and name from the verified payload, not from the QR', async () => {
      const decoded = await createQrDecoder({
        dynamicPix: payloadsAt({ [location]: payload }),
        now: () => NOW,
      }).decode(qr);
      expect(decoded).toMatchObject({
        schemeId: 'BR.PIX',
        amountMinor: 9990n,
        creditor: {
          name: 'EMPRESA RECEBEDORA LTDA',
          account: '50486087000127',
          accountType: AccountType.PIX_CNPJ,
        },
        references: {
          txid: 'fc9a4366ff3d4964b5dbc6c91a8722d3',
          pix_location: location,
          pix_revision: '2',
          pix_expires_at: '2026-11-24T12:00:00.000Z',
        },
        confidence: 1,
      });
    });

    it('keep the QR name when the payload has none, and have no amount when the payload has none', async () => {
      const bare = { ...payload, creditorName: undefined, amountMinor: undefined };
      const decoded = await createQrDecoder({
        dynamicPix: payloadsAt({ [location]: bare }),
        now: () => NOW,
      }).decode(qr);
      expect(decoded.creditor.name).toBe('LOJA DO TESTE');
      expect(decoded.amountMinor).toBeUndefined();
    });

    it('are a clear QrDecodeError when the location cannot be fetched', async () => {
      expect(await decodeError(qr)).toMatchObject({
        tag: 'QrDecodeError',
        message: expect.stringContaining(location),
      });
    });

    it('pass on QrLocationUnavailable (UNAVAILABLE) when the PSP did not answer: a retryable outage', async () => {
      const outage = qrLocationUnavailable(
        'The dynamic Pix location at pix.psp.example did not answer in time.',
        {
          reason: 'location_timeout',
        },
      );
      const error = await createQrDecoder({ dynamicPix: payloadsAt({ [location]: outage }), now: () => NOW })
        .decode(qr)
        .catch((err: unknown) => err);
      expect(error).toBe(outage);
      expect((error as ConnectError).code).toBe(Code.Unavailable);
      expect(readErrorDetail(error)).toMatchObject({
        tag: 'QrLocationUnavailable',
        field: 'qr_string',
        metadata: { reason: 'location_timeout' },
      });
    });

    it('turn any other fetch failure into QrDecodeError', async () => {
      const detail = await decodeError(qr, payloadsAt({ [location]: new TypeError('socket hang up') }));
      expect(detail.message).toContain('could not be fetched');
    });

    it('refuse a charge that is not ATIVA or has expired', async () => {
      const paid = await decodeError(qr, payloadsAt({ [location]: { ...payload, status: 'CONCLUIDA' } }));
      expect(paid).toMatchObject({
        message: expect.stringContaining('CONCLUIDA'),
        metadata: { pix_status: 'CONCLUIDA' },
      });
      const expired = await decodeError(
        qr,
        payloadsAt({ [location]: { ...payload, expiresAt: new Date('2026-11-23T11:59:59Z') } }),
      );
      expect(expired.message).toContain('expired');
    });

    it('refuse a location written with a scheme', async () => {
      const withScheme = pixQr(tpl(26, [0, 'br.gov.bcb.pix'], [25, `https://${location}`]));
      expect((await decodeError(withScheme)).message).toContain('scheme');
    });
  });

  it('refuses a Mercado Pago wallet QR without a Pix template', async () => {
    const qr = encodeMerchantQr([
      tpl(43, [0, 'com.mercadolibre'], [3, '582245993']),
      { id: 52, value: '5812' },
      { id: 53, value: '986' },
      { id: 58, value: 'BR' },
      { id: 59, value: 'TuNegocio' },
      { id: 60, value: 'Sao Paulo' },
    ]);
    expect((await decodeError(qr)).message).toContain('Mercado Pago');
  });
});

function countryQr(country: string, currency: string, objects: EmvObject[], name = 'COMERCIO'): string {
  return encodeMerchantQr([
    { id: 1, value: '12' },
    ...objects,
    { id: 52, value: '5812' },
    { id: 53, value: currency },
    { id: 54, value: '150.00' },
    { id: 58, value: country },
    { id: 59, value: name },
    { id: 60, value: 'CIUDAD' },
  ]);
}

describe('Argentina', () => {
  it('a valid CBU/CVU in 51 is AR.CBU_CVU with the account in clear', () => {
    const decoded = decodeStatic(
      countryQr('AR', '032', [tpl(50, [0, '30-62017749-7']), tpl(51, [0, '0000068000000002222956'])]),
    );
    expect(decoded).toMatchObject({
      schemeId: 'AR.CBU_CVU',
      currency: 'ARS',
      amountMinor: 15000n,
      rail: 'transferencias-3.0',
      creditor: { account: '0000068000000002222956', accountType: AccountType.CBU_CVU, taxId: '30620177497' },
      references: { cbu_cvu_kind: 'cvu' },
      confidence: 1,
    });
  });

  it('an acquirer QR names the merchant id the acquirer resolves, and says it is not an account', () => {
    const decoded = decodeStatic(
      countryQr('AR', '032', [
        tpl(43, [0, 'com.mercadolibre'], [3, '674582173'], [6, 'fa7070cc-266c-44aa-aa0c-5d9900a99b13']),
        tpl(50, [0, '20162475860']),
      ]),
    );
    expect(decoded).toMatchObject({
      schemeId: 'AR.INTEROPERABLE',
      creditor: { account: '674582173', accountType: AccountType.MERCHANT_ID, taxId: '20162475860' },
      references: { acquirer: 'mercadopago', pos_id: 'fa7070cc-266c-44aa-aa0c-5d9900a99b13' },
    });
    expect(decoded.confidenceFactors.find((f) => f.name === 'account_in_clear')?.passed).toBe(false);
    expect(decoded.confidence).toBe(1 - CONFIDENCE_WEIGHTS.account_in_clear);
  });

  it('a CBU with bad check digits is not trusted as an account', async () => {
    const qr = countryQr('AR', '032', [tpl(51, [0, '0000068000000002222957'])]);
    expect((await decodeError(qr)).message).toContain('check digits');
  });

  it('reads a CUIT written as 50/00 "CUIT" and 50/01 formatted', () => {
    const decoded = decodeStatic(
      countryQr('AR', '032', [
        tpl(44, [0, 'com.spr'], [1, '12345']),
        tpl(50, [0, 'CUIT'], [1, '27-12849095-2']),
      ]),
    );
    expect(decoded.creditor.taxId).toBe('27128490952');
    expect(decoded.confidenceFactors.find((f) => f.name === 'identifiers_valid')?.passed).toBe(true);
  });
});

describe('Colombia', () => {
  const easpbv = (network: string, field: string, value: string) =>
    tpl(0, [0, `CO.COM.${network}.${field}`], [1, value]).value as EmvObject[];

  it.each([
    [1, '1143995473', AccountType.BREB_KEY, 'document'],
    [2, '3138744066', AccountType.PHONE, 'mobile'],
    [3, 'pagos@tienda.co', AccountType.EMAIL, 'email'],
    [4, '@redeban1015', AccountType.BREB_KEY, 'alias'],
    [5, '0029353497', AccountType.BREB_KEY, 'merchant_code'],
  ])('Bre-B key in 26/%i', (subId, key, accountType, kind) => {
    const decoded = decodeStatic(
      countryQr('CO', '170', [
        tpl(26, [0, 'CO.COM.RBM.LLA'], [subId, key]),
        { id: 49, value: easpbv('RBM', 'RED', 'RBM') },
        { id: 50, value: easpbv('RBM', 'CU', '0029353497') },
        { id: 80, value: easpbv('RBM', 'CANAL', 'POS') },
        { id: 82, value: easpbv('RBM', 'IVA', '1900.00') },
        { id: 90, value: easpbv('RBM', 'TRXID', '25327123456789AB') },
      ]),
    );
    expect(decoded).toMatchObject({
      schemeId: 'CO.BREB',
      currency: 'COP',
      rail: 'bre-b',
      channel: 'POS',
      creditor: { account: key, accountType },
      references: {
        breb_key_type: kind,
        network: 'RBM',
        merchant_code: '0029353497',
        vat_amount: '1900.00',
        transaction_id: '25327123456789AB',
      },
      confidence: 1,
    });
  });

  it('an EASPBV acquirer QR without a key, in shuffled tag order, routes on the merchant code', () => {
    const qr = encodeMerchantQr([
      { id: 0, value: '01' },
      { id: 58, value: 'CO' },
      { id: 59, value: 'COMERCE TEST NAME' },
      {
        id: 49,
        value: [
          { id: 1, value: 'RBM' },
          { id: 0, value: 'CO.COM.RBM.RED' },
        ],
      },
      { id: 90, value: easpbv('RBM', 'TRXID', '101776') },
      {
        id: 50,
        value: [
          { id: 1, value: '123456789' },
          { id: 0, value: 'CO.COM.RBM.CU' },
        ],
      },
      { id: 60, value: 'BOGOTA' },
      { id: 53, value: '170' },
      { id: 52, value: '0000' },
      { id: 54, value: '1356' },
    ]);
    expect(decodeStatic(qr)).toMatchObject({
      schemeId: 'CO.EMVCO',
      amountMinor: 135600n,
      creditor: { account: '123456789', accountType: AccountType.MERCHANT_ID },
      references: { network: 'RBM', transaction_id: '101776' },
    });
  });
});

describe('Peru', () => {
  it('Yape: the tag 39 token is the identifier Yape resolves', () => {
    const decoded = decodeStatic(
      encodeMerchantQr([
        { id: 1, value: '11' },
        { id: 39, value: '03f92874015c5c6e81301afca0f637ae' },
        { id: 52, value: '5611' },
        { id: 53, value: '604' },
        { id: 58, value: 'PE' },
        { id: 59, value: 'YAPERO' },
        { id: 60, value: 'Lima' },
      ]),
    );
    expect(decoded).toMatchObject({
      schemeId: 'PE.YAPE',
      currency: 'PEN',
      rail: 'cce-inmediatas',
      creditor: { account: '03f92874015c5c6e81301afca0f637ae', accountType: AccountType.RAIL_TOKEN },
    });
    expect(decoded.confidence).toBe(1 - CONFIDENCE_WEIGHTS.account_in_clear);
  });

  it('any other EMVCo QR of Peru is PE.INTEROPERABLE', () => {
    const decoded = decodeStatic(
      countryQr('PE', '604', [tpl(26, [0, 'FACILITADOR'], [1, 'IZIPAYVIR;1771899483420'])]),
    );
    expect(decoded).toMatchObject({
      schemeId: 'PE.INTEROPERABLE',
      creditor: { account: 'IZIPAYVIR;1771899483420', accountType: AccountType.MERCHANT_ID },
      references: { acquirer: 'izipay' },
    });
  });
});

describe('Bolivia', () => {
  it('decodes an EMVCo QR of Bolivia', () => {
    const decoded = decodeStatic(countryQr('BO', '068', [tpl(32, [0, 'bo.com.atc'], [1, '042851160303'])]));
    expect(decoded).toMatchObject({
      schemeId: 'BO.EMVCO',
      currency: 'BOB',
      rail: 'bolivia-qr-interoperable',
      creditor: { account: '042851160303', accountType: AccountType.MERCHANT_ID },
      references: { acquirer: 'atc' },
    });
  });

  it('refuses a payload that is not EMVCo, saying the format is not supported', async () => {
    const detail = await decodeError('QRSIMPLE|BNB|7f3c9a0e1b2d4c5f|Bs 50.00');
    expect(detail.message).toContain('not supported');
  });
});

describe('whitespace around the QR text', () => {
  const qr = pixQr(tpl(26, [0, 'br.gov.bcb.pix'], [1, 'a@b.co']));

  it.each([
    ['a trailing newline', `${qr}\n`],
    ['a trailing space', `${qr} `],
    ['CR LF on both sides', `\r\n${qr}\r\n`],
    ['tabs and spaces', `\t ${qr} \t`],
    ['a byte order mark and a zero-width space in front, a no-break space behind', `\ufeff\u200b${qr}\u00a0`],
  ])('decodes a QR with %s as the bare text', (_case, padded) => {
    expect(decodeStatic(padded)).toEqual(decodeStatic(qr));
  });

  it('keeps whitespace inside the text: it is data (the merchant name here)', () => {
    const spaced = pixQr(tpl(26, [0, 'br.gov.bcb.pix'], [1, 'a@b.co']), [
      { id: 59, value: ' LOJA  DO TESTE ' },
    ]);
    expect(decodeStatic(`\n${spaced}\n`).creditor.name).toBe(' LOJA  DO TESTE ');
  });

  it('still refuses whitespace inside the CRC trailer, and says a blank text is empty', async () => {
    const broken = `${qr.slice(0, -4)} ${qr.slice(-4)}`;
    expect((await decodeError(broken)).message).toMatch(/no CRC/);
    expect(await decodeError(' \n\t')).toMatchObject({
      tag: 'QrDecodeError',
      message: 'The QR text is empty.',
    });
  });
});

describe('tag 54, the amount', () => {
  it.each([
    ['00012.30', 1230n],
    ['10.', 1000n],
    ['0.9', 90n],
    ['.5', 50n],
  ])('reads %s as written: %s minor units', (amount, minor) => {
    const decoded = decodeStatic(
      pixQr(tpl(26, [0, 'br.gov.bcb.pix'], [1, 'a@b.co']), [{ id: 54, value: amount }]),
    );
    expect(decoded.amountMinor).toBe(minor);
  });

  it('reads zero as no amount: the payer enters it', () => {
    const decoded = decodeStatic(
      pixQr(tpl(26, [0, 'br.gov.bcb.pix'], [1, 'a@b.co']), [{ id: 54, value: '000.00' }]),
    );
    expect(decoded.amountMinor).toBeUndefined();
  });
});

describe('errors', () => {
  it.each([
    [
      'an unknown country',
      countryQr('CL', '152', [tpl(26, [0, 'cl.example'], [1, 'x'])]),
      /Unknown country CL/,
    ],
    [
      'a currency that is not the country’s',
      countryQr('AR', '188', [tpl(48, [0, 'com.x'], [1, 'y'])]),
      /188/,
    ],
    ['no merchant account information', countryQr('BR', '986', []), /Not a payment QR/],
    [
      'an amount with three decimals',
      pixQr(tpl(26, [0, 'br.gov.bcb.pix'], [1, 'a@b.co']), [{ id: 54, value: '1.005' }]),
      /amount/,
    ],
    [
      'a bad point of initiation',
      pixQr(tpl(26, [0, 'br.gov.bcb.pix'], [1, 'a@b.co']), [{ id: 1, value: '13' }]),
      /initiation/,
    ],
    [
      'a Pix template without key or location',
      pixQr(tpl(26, [0, 'br.gov.bcb.pix'], [2, 'info'])),
      /neither a key/,
    ],
  ])('%s is a QrDecodeError', async (_name, qr, message) => {
    const detail = await decodeError(qr);
    expect(detail).toMatchObject({ tag: 'QrDecodeError', field: 'qr_string' });
    expect(detail.message).toMatch(message);
  });
});
