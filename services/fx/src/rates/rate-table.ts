import { isCurrencyCode, isIso4217Currency, minorUnitDigits } from '@qr-payout/platform/money';

// The configured rate table: which currencies fx quotes, their ISO 4217 minor units, and a mid
// rate for each against USD (the pivot: the mid rate A→B is per_usd(B) / per_usd(A)).
// Rates are exact decimal strings, never floats (docs/architecture.md "Money and ids").
// fx owns which currencies are quoted; their digits come from the one ISO 4217 table
// (@qr-payout/platform/money), which the gateway and the presenters convert with, so an entry
// whose digits disagree with it is refused at start.

export type RateEntry = {
  /** ISO 4217 alphabetic code. */
  readonly code: string;
  /** ISO 4217 minor-unit digits (0, 2 or 3). */
  readonly minorUnits: number;
  /** Units of this currency per one US dollar, a positive decimal string. */
  readonly perUsd: string;
};

export type RateTable = readonly RateEntry[];

/**
 * Sandbox default: the five payout currencies of docs/architecture.md "What the service does" plus
 * USD and EUR. Illustrative mid rates, not market data; production sets FX_RATES (or, later, a
 * provider adapter).
 */
export const DEFAULT_RATE_TABLE: RateTable = (
  [
    ['ARS', '1180.00'],
    ['BOB', '6.96'],
    ['BRL', '5.45'],
    ['COP', '4050.00'],
    ['EUR', '0.92'],
    ['PEN', '3.75'],
    ['USD', '1'],
  ] as const
).map(([code, perUsd]) => ({ code, minorUnits: minorUnitDigits(code), perUsd }));

/** ISO 4217 minor-unit digits by currency code, for the currencies of the table. */
export function minorUnitsByCode(table: RateTable): ReadonlyMap<string, number> {
  return new Map(table.map((entry) => [entry.code, entry.minorUnits]));
}

// The digits quote-math.ts prices in (ISO 4217 also has 4: CLF, UYW).
const MINOR_UNITS = new Set([0, 2, 3]);
const POSITIVE_DECIMAL = /^(?:0|[1-9]\d{0,11})(?:\.\d{1,12})?$/;

export type ParsedRateTable = { ok: true; table: RateTable } | { ok: false; problem: string };

/**
 * Parses FX_RATES: a JSON object keyed by currency code, for example
 * `{"BRL": {"minor_units": 2, "per_usd": "5.45"}, "USD": {"minor_units": 2, "per_usd": "1"}}`.
 * `minor_units` may be left out; when given it must be the ISO 4217 digits of the code. A code
 * without ISO 4217 digits is refused. The problem names the offending entry, never echoes the
 * whole value.
 */
export function parseRateTable(raw: string): ParsedRateTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { ok: false, problem: 'must be a JSON object' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, problem: 'must be a JSON object keyed by currency code' };
  }
  const entries: RateEntry[] = [];
  for (const [code, value] of Object.entries(parsed)) {
    if (!isCurrencyCode(code))
      return { ok: false, problem: `key ${JSON.stringify(code)} is not an ISO 4217 code` };
    if (value === null || typeof value !== 'object') {
      return { ok: false, problem: `${code} must be an object with minor_units and per_usd` };
    }
    if (!isIso4217Currency(code))
      return { ok: false, problem: `${code} is not an ISO 4217 currency with minor-unit digits` };
    const { minor_units: given, per_usd: perUsd } = value as Record<string, unknown>;
    const minorUnits = minorUnitDigits(code);
    if (given !== undefined && given !== minorUnits) {
      return {
        ok: false,
        problem: `${code}.minor_units must be ${minorUnits}, the ISO 4217 digits of ${code} (or left out)`,
      };
    }
    if (!MINOR_UNITS.has(minorUnits)) {
      return { ok: false, problem: `${code} has ${minorUnits} minor-unit digits; fx quotes only 0, 2 or 3` };
    }
    if (typeof perUsd !== 'string' || !POSITIVE_DECIMAL.test(perUsd) || !/[1-9]/.test(perUsd)) {
      return { ok: false, problem: `${code}.per_usd must be a positive decimal string such as "5.45"` };
    }
    entries.push({ code, minorUnits, perUsd });
  }
  if (entries.length === 0) return { ok: false, problem: 'must list at least one currency' };
  entries.sort((a, b) => a.code.localeCompare(b.code));
  return { ok: true, table: entries };
}
