// The partner payout protocol (docs/partner-protocol.md): the wire types are the one contract in
// platform, which payout follows too; the simulator's own choices (its two reason codes) are here.
import type {
  Originator,
  PartnerStatus,
  RailName,
  WireMoney,
  PayoutResource as WirePayoutResource,
} from '@qr-payout/platform/partner-protocol';

export { RAIL_CURRENCY, RAILS, type SubmitPayoutBody } from '@qr-payout/platform/partner-protocol';

export type Rail = RailName;
export type Money = WireMoney;

/**
 * PDNG pending, ACSP accepted and settlement in process, ACSC settled (terminal success),
 * RJCT rejected (terminal failure).
 */
export type PayoutStatus = PartnerStatus;

/** ISO 20022 ExternalStatusReason1Code values the simulator produces. */
export type ReasonCode = 'AC03' | 'AM04';

export const REASON_TEXT: Readonly<Record<ReasonCode, string>> = {
  AC03: 'invalid creditor account number',
  AM04: 'insufficient funds',
};

/** The payout resource as the simulator makes it: the wire's, with its own reason codes and rails. */
export type PayoutResource = Omit<WirePayoutResource, 'rail' | 'reason_code'> & {
  rail: Rail;
  reason_code: ReasonCode | null;
  /** The originator as submitted, so a test can see what the partner was told. */
  debtor: Originator;
};

export function isTerminal(status: PayoutStatus): boolean {
  return status === 'ACSC' || status === 'RJCT';
}
