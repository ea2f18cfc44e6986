// Property-based tests: no input string makes the decoder fail with anything but QrDecodeError,
// and what the encoder writes the decoder reads back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readErrorDetail } from '@qr-payout/platform/errors';
import fc from 'fast-check';
import { crc16, crcHex } from '../emv/crc';
import { type EmvObject, encodeMerchantQr } from '../emv/encode';
import { qrDecodeError } from '../emv/errors';
import type { DynamicPixFetcher } from '../pix/dynamic/types';
import { createQrDecoder } from './decoder';
import type { DecodedInstruction } from './types';

const corpus: string[] = readFileSync(path.join(__dirname, '../../test/fixtures/qr-vectors.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => (JSON.parse(line) as { payload: string }).payload);

// Serves a payload for some locations and refuses the rest, like a remote PSP would.
const fetcher: DynamicPixFetcher = {
  fetch: async (location) => {
    if (location.length % 2 === 0) throw qrDecodeError('The dynamic Pix location could not be fetched.');
    return { txid: 't', key: 'a@b.co', currency: 'BRL', status: 'ATIVA', amountMinor: 100n };
  },
};
const decoder = createQrDecoder({ dynamicPix: fetcher });

/** Decodes and classifies: an instruction, or QrDecodeError; anything else fails the property. */
async function outcomeOf(text: string): Promise<'decoded' | 'QrDecodeError'> {
  try {
    const decoded = await decoder.decode(text);
    expect(decoded.confidence).toBeGreaterThanOrEqual(0);
    expect(decoded.confidence).toBeLessThanOrEqual(1);
    return 'decoded';
  } catch (err) {
    const detail = readErrorDetail(err);
    if (detail?.tag !== 'QrDecodeError') throw err;
    return 'QrDecodeError';
  }
}

// Re-signs a mutated payload so the mutation reaches the profiles instead of stopping at the CRC.
function withFreshCrc(text: string): string {
  const at = text.lastIndexOf('6304');
  if (at < 0) return text;
  const body = text.slice(0, at + 4);
  return `${body}${crcHex(crc16(body))}`;
}

interface Mutation {
  source: string;
  at: number;
  kind: 'replace' | 'insert' | 'delete' | 'truncate';
  text: string;
  resign: boolean;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  source: fc.constantFrom(...corpus),
  at: fc.nat(),
  kind: fc.constantFrom('replace' as const, 'insert' as const, 'delete' as const, 'truncate' as const),
  text: fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }),
  resign: fc.boolean(),
});

function mutate({ source, at, kind, text, resign }: Mutation): string {
  const i = at % (source.length + 1);
  const mutated =
    kind === 'replace'
      ? source.slice(0, i) + text + source.slice(i + text.length)
      : kind === 'insert'
        ? source.slice(0, i) + text + source.slice(i)
        : kind === 'delete'
          ? source.slice(0, i) + source.slice(i + text.length)
          : source.slice(0, i);
  return resign ? withFreshCrc(mutated) : mutated;
}

describe('decoder properties', () => {
  it('random strings yield a decoded instruction or QrDecodeError, nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-ascii' })),
        async (text) => {
          await outcomeOf(text);
          await outcomeOf(`000201${text}`);
          await outcomeOf(withFreshCrc(`000201${text}6304`));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('random mutations of real payloads (with and without a fresh CRC) never crash', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        await outcomeOf(mutate(m));
      }),
      { numRuns: 5000 },
    );
  });

  it('a payload whose CRC is rewritten after the fact is refused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...corpus),
        fc.integer({ min: 0, max: 0xffff }),
        async (source, crc) => {
          if (!source.slice(-8).startsWith('6304')) return;
          const forged = `${source.slice(0, -4)}${crcHex(crc)}`;
          if (forged.toUpperCase() === withFreshCrc(source).toUpperCase()) return;
          expect(await outcomeOf(forged)).toBe('QrDecodeError');
        },
      ),
    );
  });
});

// What a scanner or a paste adds around a QR text (the decoder's trimming rule lists them all).
const pastedWhitespace = fc.string({
  unit: fc.constantFrom(
    ' ',
    '\t',
    '\n',
    '\r',
    '\r\n',
    '\v',
    '\f',
    '\u0085',
    '\u00a0',
    '\u1680',
    '\u180e',
    '\u2000',
    '\u2007',
    '\u200a',
    '\u200b',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u2060',
    '\u3000',
    '\ufeff',
  ),
  maxLength: 6,
});

/** The whole outcome of a decode, to compare two decodes: the instruction, or the error detail. */
async function settled(text: string): Promise<unknown> {
  try {
    return { decoded: await decoder.decode(text) };
  } catch (err) {
    const detail = readErrorDetail(err);
    if (!detail) throw err;
    return { error: detail };
  }
}

// Round trip: instructions generated per scheme, encoded with the encoder, decode to themselves.
const ascii = (min: number, max: number) =>
  fc
    .string({
      unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz0123456789'),
      minLength: min,
      maxLength: max,
    })
    .map((s) => s.trim())
    .filter((s) => s.length >= min);

interface Generated {
  readonly country: string;
  readonly currencyNumeric: string;
  readonly schemeId: string;
  readonly account: string;
  readonly templates: EmvObject[];
}

const digits = (n: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((a) => a.join(''));

const generatedScheme: fc.Arbitrary<Generated> = fc.oneof(
  fc
    .oneof(
      fc.uuid(),
      fc.emailAddress().filter((e) => e.length <= 60),
      digits(8).map((d) => `+55119${d}`),
    )
    .map(
      (key): Generated => ({
        country: 'BR',
        currencyNumeric: '986',
        schemeId: 'BR.PIX',
        account: key,
        templates: [
          {
            id: 26,
            value: [
              { id: 0, value: 'br.gov.bcb.pix' },
              { id: 1, value: key },
            ],
          },
        ],
      }),
    ),
  digits(13).map(
    (merchantId): Generated => ({
      country: 'AR',
      currencyNumeric: '032',
      schemeId: 'AR.INTEROPERABLE',
      account: merchantId,
      templates: [
        {
          id: 43,
          value: [
            { id: 0, value: 'com.mercadolibre' },
            { id: 3, value: merchantId },
          ],
        },
      ],
    }),
  ),
  fc.tuple(fc.integer({ min: 1, max: 5 }), digits(9)).map(
    ([subId, rest]): Generated => ({
      country: 'CO',
      currencyNumeric: '170',
      schemeId: 'CO.BREB',
      account: `3${rest}`,
      templates: [
        {
          id: 26,
          value: [
            { id: 0, value: 'CO.COM.RBM.LLA' },
            { id: subId, value: `3${rest}` },
          ],
        },
      ],
    }),
  ),
  fc.stringMatching(/^[0-9a-f]{32}$/).map(
    (token): Generated => ({
      country: 'PE',
      currencyNumeric: '604',
      schemeId: 'PE.YAPE',
      account: token,
      templates: [{ id: 39, value: token }],
    }),
  ),
  digits(12).map(
    (merchantId): Generated => ({
      country: 'BO',
      currencyNumeric: '068',
      schemeId: 'BO.EMVCO',
      account: merchantId,
      templates: [
        {
          id: 32,
          value: [
            { id: 0, value: 'bo.com.atc' },
            { id: 1, value: merchantId },
          ],
        },
      ],
    }),
  ),
);

describe('whitespace around the QR text', () => {
  it('any real payload with any surrounding whitespace decodes as the bare text does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...corpus),
        pastedWhitespace,
        pastedWhitespace,
        async (source, before, after) => {
          const bare = await settled(source);
          expect(await settled(`${before}${source}${after}`)).toEqual(bare);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('any generated QR of every scheme with any surrounding whitespace decodes as the bare text does', async () => {
    await fc.assert(
      fc.asyncProperty(
        generatedScheme,
        ascii(1, 25),
        pastedWhitespace,
        pastedWhitespace,
        async (scheme, name, before, after) => {
          const text = encodeMerchantQr([
            ...scheme.templates,
            { id: 52, value: '0000' },
            { id: 53, value: scheme.currencyNumeric },
            { id: 58, value: scheme.country },
            { id: 59, value: name },
            { id: 60, value: 'CITY' },
          ]);
          const bare = await settled(text);
          expect(bare).toHaveProperty('decoded');
          expect(await settled(`${before}${text}${after}`)).toEqual(bare);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('encoder/decoder round trip', () => {
  it('holds for generated instructions of every scheme, in any tag order', async () => {
    await fc.assert(
      fc.asyncProperty(
        generatedScheme,
        ascii(1, 25),
        ascii(1, 15),
        fc.option(fc.bigInt({ min: 1n, max: 99_999_999_999n }), { nil: undefined }),
        fc.boolean(),
        async (scheme, name, city, amountMinor, shuffle) => {
          const amount =
            amountMinor === undefined
              ? []
              : [{ id: 54, value: `${amountMinor / 100n}.${String(amountMinor % 100n).padStart(2, '0')}` }];
          const objects: EmvObject[] = [
            ...scheme.templates,
            { id: 52, value: '0000' },
            { id: 53, value: scheme.currencyNumeric },
            ...amount,
            { id: 58, value: scheme.country },
            { id: 59, value: name },
            { id: 60, value: city },
          ];
          const ordered = shuffle ? [...objects].reverse() : objects;
          const decoded: DecodedInstruction = await decoder.decode(encodeMerchantQr(ordered));
          expect(decoded).toMatchObject({
            schemeId: scheme.schemeId,
            country: scheme.country,
            amountMinor,
            creditor: { name, city, account: scheme.account },
          });
        },
      ),
      { numRuns: 1000 },
    );
  });
});
