import { create } from '@bufbuild/protobuf';
import type { ConfigReader } from '@qr-payout/platform/config';
import { Code, type ConnectError, serviceError } from '@qr-payout/platform/errors';
import { minorUnitDigits, minorUnitsText } from '@qr-payout/platform/money';
import { RAIL_CURRENCY, type RailName } from '@qr-payout/platform/partner-protocol';
import type { Money } from '@qr-payout/proto/payout/common/v1/common_pb';
import { type RailLimits, RailLimitsSchema } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { perRailConfig, railEnvName } from '../rails/per-rail-config';

// Per-rail amount limits (docs/api/resources.md "Money"): the smallest and largest amount a rail
// accepts, in the rail's currency, both ends included. Payout owns the rule; CreateInstruction,
// where an amount is fixed, is the one place it is checked, and ListRailLimits shows the same
// numbers to the gateway.

/** The currency each rail pays in: the partner protocol's (platform), the one list. */
export { RAIL_CURRENCY };

/** One rail's limits in minor units of its currency. */
export interface AmountRange {
  currency: string;
  minMinor: bigint;
  maxMinor: bigint;
}

export type RailLimitTable = Readonly<Record<RailName, AmountRange>>;

/**
 * Sandbox defaults, in major units. An operator sets each rail's real limits per partner contract
 * (RAIL_LIMITS_<RAIL>); these are only plausible values for the sandbox.
 */
const DEFAULT_RAIL_LIMITS: Readonly<Record<RailName, string>> = {
  pix: '0.01..1000000.00',
  'transferencias-3.0': '1.00..50000000.00',
  'bre-b': '1..100000000',
  'cce-inmediatas': '0.01..100000.00',
  'bolivia-qr-interoperable': '0.01..1000000.00',
};

/** 15 digits of minor units: a JSON number holds any amount up to it exactly. */
const MAX_LIMIT_MINOR = 999_999_999_999_999n;

const DECIMAL = /^(\d{1,15})(?:\.(\d+))?$/;

/** A non-negative decimal in major units as minor units; undefined when not exact for `currency`. */
export function parseMajorAmount(text: string, currency: string): bigint | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const digits = minorUnitDigits(currency);
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return undefined;
  return BigInt((match[1] ?? '0') + fraction.padEnd(digits, '0'));
}

/** Parses `<min>..<max>` (major units, for example `0.01..1000000.00`); a problem text on failure. */
export function parseAmountRange(text: string, currency: string): AmountRange | string {
  const [minText = '', maxText = '', ...rest] = text.split('..').map((part) => part.trim());
  const minMinor = parseMajorAmount(minText, currency);
  const maxMinor = parseMajorAmount(maxText, currency);
  if (rest.length > 0 || minMinor === undefined || maxMinor === undefined)
    return `must be <min>..<max> in ${currency} with at most ${minorUnitDigits(currency)} decimals`;
  if (minMinor <= 0n) return 'must have a positive minimum';
  if (minMinor > maxMinor) return 'must have a minimum no larger than its maximum';
  // What a JSON number holds exactly (gateway http/money.ts): every amount within limits is then
  // read as the client wrote it.
  if (maxMinor > MAX_LIMIT_MINOR) return 'must have a maximum of at most 15 digits of minor units';
  return { currency, minMinor, maxMinor };
}

/** The env variable of a rail's limits: RAIL_LIMITS_PIX, RAIL_LIMITS_TRANSFERENCIAS_3_0, ... */
function railLimitsVariable(rail: RailName): string {
  return `RAIL_LIMITS_${railEnvName(rail)}`;
}

/** Config reader of every rail's limits: one variable per rail, each defaulting to the sandbox's. */
export function railLimits(): ConfigReader<RailLimitTable> {
  return perRailConfig({
    name: 'RAIL_LIMITS_*',
    variableOf: railLimitsVariable,
    parse: (raw, rail) => parseAmountRange(raw || DEFAULT_RAIL_LIMITS[rail], RAIL_CURRENCY[rail]),
  });
}

/** 422 AmountOutOfRange: the message names the limit and the currency. */
function amountOutOfRange(message: string): ConnectError {
  return serviceError('AmountOutOfRange', message, { code: Code.OutOfRange, field: 'amount' });
}

/**
 * Refuses an amount outside its rail's limits. A rail without limits (none today: the table covers
 * every RailName) or an amount in another currency is left to the other checks.
 */
export function checkWithinRailLimits(limits: RailLimitTable, rail: string, amount: Money): void {
  const range = (limits as Partial<Record<string, AmountRange>>)[rail];
  if (!range || range.currency !== amount.currency) return;
  const { currency } = range;
  if (amount.amountMinor < range.minMinor)
    throw amountOutOfRange(
      `The amount is below the minimum of ${minorUnitsText(range.minMinor, currency)} ${currency} for this scheme.`,
    );
  if (amount.amountMinor > range.maxMinor)
    throw amountOutOfRange(
      `The amount is above the maximum of ${minorUnitsText(range.maxMinor, currency)} ${currency} for this scheme.`,
    );
}

/** The table as ListRailLimits answers it. */
export function railLimitsMessages(limits: RailLimitTable): RailLimits[] {
  return Object.entries(limits).map(([rail, range]) =>
    create(RailLimitsSchema, {
      rail,
      minAmount: { currency: range.currency, amountMinor: range.minMinor },
      maxAmount: { currency: range.currency, amountMinor: range.maxMinor },
    }),
  );
}
