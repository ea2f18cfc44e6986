import type { ConfigReader } from '@qr-payout/platform/config';
import type { RailName } from '@qr-payout/platform/partner-protocol';
import { perRailConfig, railEnvName } from '../rails/per-rail-config';

// Settlement horizon per rail (README "Transaction state machine"): how
// long after its creation a transaction may still be pending or processing before the polling
// worker asks the partner for a final answer and, failing one, reports it stuck. Every rail served
// today is an instant rail (seconds at the rail), so the defaults are a few minutes: well past the
// partner's normal settlement, short enough that an operator hears of a stuck payment the same
// hour. An operator sets each rail's per partner contract; tests shorten it.

/** Milliseconds per rail. */
export type SettlementHorizons = Readonly<Record<RailName, number>>;

export const DEFAULT_SETTLEMENT_HORIZON_MS = 5 * 60_000;
/** A horizon past a week is a misconfiguration (minutes, not milliseconds, were meant). */
const MAX_SETTLEMENT_HORIZON_MS = 7 * 24 * 60 * 60_000;

/** The env variable of a rail's horizon: SETTLEMENT_HORIZON_PIX_MS, SETTLEMENT_HORIZON_BRE_B_MS, ... */
export function settlementHorizonVariable(rail: RailName): string {
  return `SETTLEMENT_HORIZON_${railEnvName(rail)}_MS`;
}

/** Config reader of every rail's horizon: one variable per rail, each defaulting to 5 minutes. */
export function settlementHorizons(): ConfigReader<SettlementHorizons> {
  return perRailConfig({
    name: 'SETTLEMENT_HORIZON_*_MS',
    variableOf: settlementHorizonVariable,
    parse(raw) {
      if (raw === '') return DEFAULT_SETTLEMENT_HORIZON_MS;
      const ms = /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
      return ms >= 1 && ms <= MAX_SETTLEMENT_HORIZON_MS
        ? ms
        : `must be milliseconds from 1 to ${MAX_SETTLEMENT_HORIZON_MS}`;
    },
  });
}

/**
 * The horizon of `rail`; 0 for a rail this service does not serve, whose transactions can never
 * settle here and are therefore stuck at once.
 */
export function horizonOf(horizons: SettlementHorizons, rail: string): number {
  return (horizons as Partial<Record<string, number>>)[rail] ?? 0;
}
