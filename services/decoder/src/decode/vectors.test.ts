// Table test over the corpus of real payloads (test/fixtures/qr-vectors.jsonl, docs/qr-schemes.md
// "Test vectors"). Expectations come from each record's own fields, never from the
// decoder: valid records decode to the record's country, currency, amount, name and account;
// invalid ones answer QrDecodeError; well-formed records we must refuse are named by a rule below.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readErrorDetail } from '@qr-payout/platform/errors';
import type { DynamicPixFetcher, DynamicPixPayload } from '../pix/dynamic/types';
import { createQrDecoder } from './decoder';
import type { DecodedInstruction } from './types';

interface VectorRecord {
  country: string;
  payload: string;
  source: string;
  invalid?: boolean;
  parsed: {
    amount?: string;
    name?: string;
    currency?: string;
    account_templates?: Array<Record<string, string>>;
  };
  checks?: { cbu_cvu?: { value: string; check_digits_ok: boolean } };
}

const records: VectorRecord[] = readFileSync(
  path.join(__dirname, '../../test/fixtures/qr-vectors.jsonl'),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as VectorRecord);

const CURRENCIES: Record<string, { alpha: string; numeric: string }> = {
  AR: { alpha: 'ARS', numeric: '032' },
  BO: { alpha: 'BOB', numeric: '068' },
  BR: { alpha: 'BRL', numeric: '986' },
  CO: { alpha: 'COP', numeric: '170' },
  PE: { alpha: 'PEN', numeric: '604' },
};

// What the in-memory fetcher (a test double of the remote PSP) serves for every location: the
// signed payload, not the QR, is the authority on key, name and amount of a dynamic Pix code.
const DYNAMIC_PAYLOAD: DynamicPixPayload = {
  txid: 'vectortxid0001',
  key: 'ca8ea7b3-3bc0-4c2b-9d3e-5b0e3a6f1d21',
  creditorName: 'RECEBEDOR DO PAYLOAD',
  amountMinor: 4321n,
  currency: 'BRL',
  status: 'ATIVA',
  revision: 0,
};
const locationsFetched: string[] = [];
const fetcher: DynamicPixFetcher = {
  fetch: async (location) => {
    locationsFetched.push(location);
    return DYNAMIC_PAYLOAD;
  },
};
const decoder = createQrDecoder({ dynamicPix: fetcher });

const isPixTemplate = (t: Record<string, string>) => /^br\.gov\.bcb\.(pix|spi)$/i.test(t['00'] ?? '');

// Well-formed payloads that are not payable here, with the reason the decoder must give.
function refusal(record: VectorRecord): RegExp | undefined {
  const currency = CURRENCIES[record.country];
  if (!currency) return /^Unknown country/;
  const templates = record.parsed.account_templates ?? [];
  if (record.country === 'BR' && !templates.some(isPixTemplate)) return /Not a (Pix|payment) QR|Mercado Pago/;
  if (record.parsed.currency !== undefined && record.parsed.currency !== currency.numeric)
    return /is not the currency of/;
  return undefined;
}

// "10." → 1000n, "0.9" → 90n; zero means the payer enters the amount.
function expectedAmount(text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  const [units = '', decimals = ''] = text.split('.');
  const minor = BigInt(units || '0') * 100n + BigInt((decimals + '00').slice(0, 2));
  return minor === 0n ? undefined : minor;
}

function allTemplateValues(record: VectorRecord): string[] {
  const values: string[] = [];
  for (const template of record.parsed.account_templates ?? [])
    for (const [key, value] of Object.entries(template)) if (key !== 'tag') values.push(value);
  return values;
}

function expectAccount(record: VectorRecord, decoded: DecodedInstruction): void {
  const templates = record.parsed.account_templates ?? [];
  const account = decoded.creditor.account;
  if (record.country === 'BR') {
    const key = templates.filter(isPixTemplate).find((t) => t['01'])?.['01'];
    expect(account).toBe(key ?? DYNAMIC_PAYLOAD.key);
    return;
  }
  if (record.checks?.cbu_cvu?.check_digits_ok) {
    expect(account).toBe(record.checks.cbu_cvu.value);
    expect(decoded.schemeId).toBe('AR.CBU_CVU');
    return;
  }
  const breb = templates.find((t) => /^CO\.COM\.[A-Z]+\.LLA$/i.test(t['00'] ?? ''));
  if (breb) {
    expect(account).toBe(['01', '02', '03', '04', '05'].map((sub) => breb[sub]).find(Boolean));
    expect(decoded.schemeId).toBe('CO.BREB');
    return;
  }
  const yape = templates.find((t) => t.tag === '39');
  if (yape) {
    expect(account).toBe(yape.raw);
    expect(decoded.schemeId).toBe('PE.YAPE');
    return;
  }
  // Acquirer QRs: the account is one of the identifiers the record lists (merchant id, CUIT, GUI).
  const cuit = templates.find((t) => t.tag === '50');
  const candidates = [...allTemplateValues(record), ...(cuit ? [cuit['01'] ?? cuit['00'] ?? ''] : [])].map(
    (v) => (/^[\d-]+$/.test(v) ? v.replace(/-/g, '') : v),
  );
  expect(candidates).toContain(account);
}

describe('shared QR vector corpus', () => {
  it('has records of every supported country', () => {
    expect(new Set(records.map((r) => r.country))).toEqual(
      new Set(['AR', 'BO', 'BR', 'CO', 'PE', 'CN', 'TH']),
    );
  });

  it.each(records.map((record, index) => [index, record.country, record.source, record] as const))(
    '#%i %s %s',
    async (_index, _country, _source, record) => {
      const outcome = await decoder.decode(record.payload).then(
        (decoded) => ({ decoded }),
        (err: unknown) => ({
          error: readErrorDetail(err) ?? { tag: 'not a coded error', message: String(err) },
        }),
      );
      const refused = record.invalid ? /./ : refusal(record);
      if (refused) {
        expect('error' in outcome && outcome.error).toMatchObject({ tag: 'QrDecodeError' });
        if ('error' in outcome) expect(outcome.error.message).toMatch(refused);
        return;
      }
      if (!('decoded' in outcome)) throw new Error(`expected a decode, got ${JSON.stringify(outcome.error)}`);
      const { decoded } = outcome;
      const currency = CURRENCIES[record.country]!;
      expect(decoded.country).toBe(record.country);
      expect(decoded.currency).toBe(currency.alpha);
      expect(decoded.schemeId.startsWith(`${record.country}.`)).toBe(true);
      const dynamic = decoded.creditor.account === DYNAMIC_PAYLOAD.key;
      expect(decoded.creditor.name).toBe(dynamic ? DYNAMIC_PAYLOAD.creditorName : (record.parsed.name ?? ''));
      expect(decoded.amountMinor).toBe(
        dynamic ? DYNAMIC_PAYLOAD.amountMinor : expectedAmount(record.parsed.amount),
      );
      expectAccount(record, decoded);
      expect(decoded.confidence).toBeGreaterThanOrEqual(0);
      expect(decoded.confidence).toBeLessThanOrEqual(1);
    },
  );

  it('fetched the payload of every dynamic Pix location it decoded', () => {
    expect(locationsFetched.length).toBeGreaterThan(10);
    for (const location of locationsFetched) expect(location).not.toContain('://');
  });
});
