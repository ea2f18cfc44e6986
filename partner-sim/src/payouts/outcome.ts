import type { PayoutStatus, ReasonCode } from './protocol';

// Sandbox outcomes (docs/api/sandbox.md "Test amounts"), chosen like test cards by the last
// two digits of amount_minor.

export type Outcome =
  /** Rejected in the POST answer itself; the callback follows at once. */
  | { readonly kind: 'rejected_at_once'; readonly reasonCode: ReasonCode }
  /** Accepted (ACSP), then settled to `status` after the normal or slow delay. */
  | {
      readonly kind: 'settles_later';
      readonly status: Extract<PayoutStatus, 'ACSC' | 'RJCT'>;
      readonly reasonCode: ReasonCode | null;
      readonly delay: 'normal' | 'slow';
      /** False: the outcome is only visible to polling (no callback is ever sent). */
      readonly callback: boolean;
    };

const SETTLED_WITH_CALLBACK: Outcome = {
  kind: 'settles_later',
  status: 'ACSC',
  reasonCode: null,
  delay: 'normal',
  callback: true,
};

const OUTCOME_BY_LAST_TWO_DIGITS: Readonly<Record<string, Outcome>> = {
  '51': { kind: 'rejected_at_once', reasonCode: 'AC03' },
  '52': { kind: 'settles_later', status: 'ACSC', reasonCode: null, delay: 'normal', callback: false },
  '53': { kind: 'settles_later', status: 'RJCT', reasonCode: 'AM04', delay: 'normal', callback: false },
  '54': { kind: 'settles_later', status: 'ACSC', reasonCode: null, delay: 'slow', callback: true },
};

/** `amountMinor` is a string of digits; "51" and "0051" and "1051" all end in 51. */
export function outcomeFor(amountMinor: string): Outcome {
  const lastTwo = amountMinor.padStart(2, '0').slice(-2);
  return OUTCOME_BY_LAST_TWO_DIGITS[lastTwo] ?? SETTLED_WITH_CALLBACK;
}
