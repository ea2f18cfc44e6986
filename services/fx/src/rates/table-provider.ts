import { type Decimal, divide, parseDecimal } from '../decimal/decimal';
import type { RateProvider } from './rate-provider';
import type { RateTable } from './rate-table';

/**
 * Significant digits kept in a cross rate. per_usd values carry at most 24 digits, so a
 * quotient of two is rarely exact; 12 significant digits is finer than any market quotes a mid,
 * and the quote math is exact against whatever rate it is given.
 */
export const CROSS_RATE_DIGITS = 12;

/**
 * The configured rate table as a RateProvider. Every entry is a mid against USD (the pivot), so
 * the mid source → target is per_usd(target) / per_usd(source). `asOf` is when the table was
 * loaded: a configured table does not move.
 */
export function createTableRateProvider(table: RateTable, loadedAt: Date = new Date()): RateProvider {
  const perUsd = new Map<string, Decimal>(table.map((entry) => [entry.code, parseDecimal(entry.perUsd)]));
  return {
    async getMid(source, target) {
      const sourcePerUsd = perUsd.get(source);
      const targetPerUsd = perUsd.get(target);
      if (sourcePerUsd === undefined || targetPerUsd === undefined || source === target) return undefined;
      return { mid: divide(targetPerUsd, sourcePerUsd, CROSS_RATE_DIGITS), asOf: loadedAt };
    },
  };
}
