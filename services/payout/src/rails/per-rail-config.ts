// Config that an operator sets per rail, one env variable each (RAIL_LIMITS_<RAIL>,
// SETTLEMENT_HORIZON_<RAIL>_MS; README "Config"): one reader for all of them, so every rail
// served is read and every bad variable is named, all at once, the same way.
import { type ConfigReader, type Env, givenValue, url } from '@qr-payout/platform/config';
import { RAILS, type RailName } from '@qr-payout/platform/partner-protocol';

/** A rail as it stands in an env variable's name: `transferencias-3.0` → `TRANSFERENCIAS_3_0`. */
export function railEnvName(rail: RailName): string {
  return rail.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/**
 * Reads `variableOf(rail)` for every rail (trimmed; '' when unset) with `parse`, which answers the
 * rail's value or a problem text; a problem reads `<VARIABLE> <problem> (got "<raw>")`.
 */
export function perRailConfig<T extends number | object>(opts: {
  name: string;
  variableOf: (rail: RailName) => string;
  parse: (raw: string, rail: RailName) => T | string;
}): ConfigReader<Readonly<Record<RailName, T>>> {
  return {
    name: opts.name,
    secret: false,
    read(env: Env) {
      const table: Partial<Record<RailName, T>> = {};
      const problems: string[] = [];
      for (const rail of RAILS) {
        const name = opts.variableOf(rail);
        const raw = givenValue(env, name) ?? '';
        const value = opts.parse(raw, rail);
        if (typeof value === 'string') problems.push(`${name} ${value} (got ${JSON.stringify(raw)})`);
        else table[rail] = value;
      }
      if (problems.length > 0) return { ok: false, problem: problems.join('; ') };
      return { ok: true, value: Object.freeze(table as Record<RailName, T>) };
    },
  };
}

/**
 * PARTNER_<RAIL>_URL for every rail (docs/partner-protocol.md): each optional, a rail without one
 * uses PARTNER_BASE_URL. The variables follow the rail list, so a new rail gets its own at once.
 */
export function partnerUrlPerRail(): ConfigReader<Readonly<Partial<Record<RailName, string>>>> {
  const readers = RAILS.map(
    (rail) => [rail, url(`PARTNER_${railEnvName(rail)}_URL`, { optional: true })] as const,
  );
  return {
    name: 'PARTNER_<RAIL>_URL',
    secret: false,
    read(env: Env) {
      const table: Partial<Record<RailName, string>> = {};
      const problems: string[] = [];
      for (const [rail, reader] of readers) {
        const result = reader.read(env);
        if (!result.ok) problems.push(result.problem);
        else if (result.value !== undefined) table[rail] = result.value;
      }
      if (problems.length > 0) return { ok: false, problem: problems.join('; ') };
      return { ok: true, value: Object.freeze(table) };
    },
  };
}
