import type { Originator } from '@qr-payout/platform/partner-protocol';
import type { Money, PayoutStatus, Rail, ReasonCode } from './protocol';

/** A payout as the simulated partner holds it: in memory (store.ts) and on disk (journal.ts). */
export type Payout = {
  readonly id: string;
  readonly idempotencyKey: string;
  /** Digest of the submitted body: the same key with another body is a conflict. */
  readonly fingerprint: string;
  readonly rail: Rail;
  readonly amount: Money;
  readonly callbackUrl: string | undefined;
  /** The originator as submitted (residency, document). */
  readonly debtor: Originator;
  /** The submission's references (Pix txid and location, ...), as sent. */
  readonly references: Readonly<Record<string, string>>;
  readonly status: PayoutStatus;
  readonly reasonCode: ReasonCode | null;
  readonly reference: string | null;
  readonly createdAt: Date;
  readonly settledAt: Date | null;
};
