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
      'USD.minor_units must be 0, 2 or 3',
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
