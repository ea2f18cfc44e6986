import { minorUnitDigits } from '@qr-payout/platform/money';
import { DEFAULT_RATE_TABLE, parseRateTable } from './rate-table';

describe('parseRateTable', () => {
  it('reads codes, minor units and USD rates, sorted by code', () => {
    const result = parseRateTable(
      JSON.stringify({ USD: { minor_units: 2, per_usd: '1' }, CLP: { minor_units: 0, per_usd: '940.5' } }),
    );
    expect(result).toEqual({
      ok: true,
      table: [
        { code: 'CLP', minorUnits: 0, perUsd: '940.5' },
        { code: 'USD', minorUnits: 2, perUsd: '1' },
      ],
    });
  });

  it.each([
    ['not JSON', '{', 'must be a JSON object'],
    ['an array', '[]', 'must be a JSON object keyed by currency code'],
    ['an empty object', '{}', 'must list at least one currency'],
    ['a lower-case code', '{"usd":{"minor_units":2,"per_usd":"1"}}', 'key "usd" is not an ISO 4217 code'],
    [
      'a bad minor unit count',
      '{"USD":{"minor_units":1,"per_usd":"1"}}',
      'USD.minor_units must be 2, the ISO 4217 digits of USD',
    ],
    [
      'a three-digit currency given two digits',
      '{"KWD":{"minor_units":2,"per_usd":"0.307"}}',
      'KWD.minor_units must be 3, the ISO 4217 digits of KWD',
    ],
    [
      'a zero-digit currency given two digits',
      '{"CLP":{"minor_units":2,"per_usd":"940"}}',
      'CLP.minor_units must be 0',
    ],
    ['digits given as text', '{"BRL":{"minor_units":"2","per_usd":"5.45"}}', 'BRL.minor_units must be 2'],
    [
      'a code ISO 4217 lacks',
      '{"XYZ":{"minor_units":2,"per_usd":"1"}}',
      'XYZ is not an ISO 4217 currency with minor-unit digits',
    ],
    ['a code without digits (gold)', '{"XAU":{"per_usd":"0.0004"}}', 'XAU is not an ISO 4217 currency'],
    [
      'a four-digit currency',
      '{"CLF":{"minor_units":4,"per_usd":"0.025"}}',
      'CLF has 4 minor-unit digits; fx quotes only 0, 2 or 3',
    ],
    ['a float rate', '{"BRL":{"minor_units":2,"per_usd":5.45}}', 'BRL.per_usd must be a positive decimal'],
    ['a zero rate', '{"BRL":{"minor_units":2,"per_usd":"0.00"}}', 'BRL.per_usd must be a positive decimal'],
    ['a negative rate', '{"BRL":{"minor_units":2,"per_usd":"-5"}}', 'BRL.per_usd must be a positive decimal'],
    ['an entry that is not an object', '{"BRL":5}', 'BRL must be an object'],
  ])('refuses %s', (_what, raw, problem) => {
    const result = parseRateTable(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain(problem);
  });
});

describe('parseRateTable digits', () => {
  it('takes the ISO 4217 digits when minor_units is left out', () => {
    expect(parseRateTable('{"KWD":{"per_usd":"0.307"},"JPY":{"per_usd":"150"}}')).toEqual({
      ok: true,
      table: [
        { code: 'JPY', minorUnits: 0, perUsd: '150' },
        { code: 'KWD', minorUnits: 3, perUsd: '0.307' },
      ],
    });
  });

  it('quotes only currencies whose digits the presenters know (no currency they would guess)', () => {
    const parsed = parseRateTable('{"BHD":{"minor_units":3,"per_usd":"0.376"}}');
    expect(parsed.ok && parsed.table.map((e) => [e.code, minorUnitDigits(e.code)])).toEqual([['BHD', 3]]);
  });
});

describe('DEFAULT_RATE_TABLE', () => {
  it('holds the five payout currencies of docs/architecture.md "What the service does" plus USD and EUR, with ISO 4217 minor units', () => {
    const minorUnits = Object.fromEntries(DEFAULT_RATE_TABLE.map((entry) => [entry.code, entry.minorUnits]));
    expect(minorUnits).toEqual({ ARS: 2, BOB: 2, BRL: 2, COP: 2, EUR: 2, PEN: 2, USD: 2 });
  });

  it('would parse back from its own FX_RATES form', () => {
    const asJson = Object.fromEntries(
      DEFAULT_RATE_TABLE.map((entry) => [
        entry.code,
        { minor_units: entry.minorUnits, per_usd: entry.perUsd },
      ]),
    );
    expect(parseRateTable(JSON.stringify(asJson))).toEqual({ ok: true, table: DEFAULT_RATE_TABLE });
  });
});
