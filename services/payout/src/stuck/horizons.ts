import type { ConfigReader, Env } from '@qr-payout/platform';
import { RAIL_CURRENCY } from '../limits/rail-limits';
import type { RailName } from '../rails/partner-protocol';

// Settlement horizon per rail (issue 10 "Nothing stuck"; README "Transaction state machine"): how
// long after its creation a transaction may still be pending or processing before the polling
// worker asks the partner for a final answer and, failing one, reports it stuck. Every rail served
// today is an instant rail (seconds at the rail), so the defaults are a few minutes: well past the
// partner's normal settlement, short enough that an operator hears of a stuck payment the same
// hour. An operator sets each rail's per partner contract; tests shorten it.

/** Milliseconds per rail. */
export type SettlementHorizons = Readonly<Record<RailName, number>>;

export const DEFAULT_SETTLEMENT_HORIZON_MS = 5 * 60_000;
/** A horizon past a week is a misconfiguration (minutes, not milliseconds, were meant). */
export const MAX_SETTLEMENT_HORIZON_MS = 7 * 24 * 60 * 60_000;

/** The env variable of a rail's horizon: SETTLEMENT_HORIZON_PIX_MS, SETTLEMENT_HORIZON_BRE_B_MS, ... */
export function settlementHorizonVariable(rail: RailName): string {
  return `SETTLEMENT_HORIZON_${rail.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_MS`;
}

/** Config reader of every rail's horizon: one variable per rail, each defaulting to 5 minutes. */
export function settlementHorizons(): ConfigReader<SettlementHorizons> {
  const rails = Object.keys(RAIL_CURRENCY) as RailName[];
  return {
    name: 'SETTLEMENT_HORIZON_*_MS',
    secret: false,
    read(env: Env) {
      const table: Partial<Record<RailName, number>> = {};
      const problems: string[] = [];
      for (const rail of rails) {
        const name = settlementHorizonVariable(rail);
        const raw = env[name]?.trim() ?? '';
        if (raw === '') {
          table[rail] = DEFAULT_SETTLEMENT_HORIZON_MS;
          continue;
        }
        const ms = /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
        if (!(ms >= 1 && ms <= MAX_SETTLEMENT_HORIZON_MS))
          problems.push(
            `${name} must be milliseconds from 1 to ${MAX_SETTLEMENT_HORIZON_MS} (got ${JSON.stringify(raw)})`,
          );
        else table[rail] = ms;
      }
      if (problems.length > 0) return { ok: false, problem: problems.join('; ') };
      return { ok: true, value: Object.freeze(table as SettlementHorizons) };
    },
  };
}

/**
 * The horizon of `rail`; 0 for a rail this service does not serve, whose transactions can never
 * settle here and are therefore stuck at once.
 */
export function horizonOf(horizons: SettlementHorizons, rail: string): number {
  return (horizons as Partial<Record<string, number>>)[rail] ?? 0;
}
