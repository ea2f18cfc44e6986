// Decode confidence: a weighted sum of named checks (documented in the decoder README, "Confidence").
import type { ConfidenceFactor } from './types';

export interface ConfidenceChecks {
  /** Tags 52, 53, 58, 59, 60 and the scheme's own mandatory tags are present. */
  readonly mandatoryTags: boolean;
  /** The identifiers the QR carries pass their format and check-digit rules. */
  readonly identifiersValid: boolean;
  /** The scheme identifier (GUI, network, token shape) is one we know. */
  readonly knownIdentifier: boolean;
  /** 58 and 53 are both present and name the country and its currency. */
  readonly countryCurrencyConsistent: boolean;
  /** The account the rail routes on is in the QR (or in its verified payload), not a token to resolve. */
  readonly accountInClear: boolean;
}

export const CONFIDENCE_WEIGHTS = {
  crc_valid: 0.2,
  mandatory_tags: 0.15,
  identifiers_valid: 0.2,
  known_identifier: 0.15,
  country_currency_consistent: 0.15,
  account_in_clear: 0.15,
} as const;

type FactorName = keyof typeof CONFIDENCE_WEIGHTS;

// Factors are immutable values: one shared object per name and outcome, none built per decode.
const FACTORS = Object.fromEntries(
  (Object.keys(CONFIDENCE_WEIGHTS) as FactorName[]).map((name) => [
    name,
    [false, true].map((passed) => Object.freeze({ name, passed, weight: CONFIDENCE_WEIGHTS[name] })),
  ]),
) as unknown as Record<FactorName, readonly [ConfidenceFactor, ConfidenceFactor]>;

function factor(name: FactorName, passed: boolean): ConfidenceFactor {
  return FACTORS[name][passed ? 1 : 0];
}

export function scoreConfidence(checks: ConfidenceChecks): {
  confidence: number;
  factors: ConfidenceFactor[];
} {
  const factors: ConfidenceFactor[] = [
    // A QR whose CRC does not match is refused, so a decoded QR always passed this one.
    factor('crc_valid', true),
    factor('mandatory_tags', checks.mandatoryTags),
    factor('identifiers_valid', checks.identifiersValid),
    factor('known_identifier', checks.knownIdentifier),
    factor('country_currency_consistent', checks.countryCurrencyConsistent),
    factor('account_in_clear', checks.accountInClear),
  ];
  let sum = 0;
  for (const { passed, weight } of factors) if (passed) sum += weight;
  // Two decimals: the weights are hundredths, so this only removes float noise.
  return { confidence: Math.round(sum * 100) / 100, factors };
}
