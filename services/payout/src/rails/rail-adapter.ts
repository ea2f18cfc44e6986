// One adapter per rail behind one interface (docs/architecture.md "Rails and partners"): it maps an
// instruction and its payer to the partner's request, and the partner's ISO 20022 statuses to our
// transaction outcomes.

import {
  type Originator,
  type PayoutResource,
  RAIL_COUNTRY,
  type RailName,
  type SubmitPayoutBody,
} from '@qr-payout/platform/partner-protocol';
import type { PayerIdType } from '@qr-payout/platform/payer-fields';
import { AccountType } from '@qr-payout/proto/payout/decoder/v1/decoder_pb';

/** What a submission is made of: the stored transaction, its instruction's creditor, the payer. */
export type SubmissionInput = {
  transactionId: string;
  amount: { currency: string; amountMinor: bigint };
  creditor: { name: string; account: string; accountType: AccountType; taxId: string };
  /** The decoded QR's references (Pix txid, terminal id, ...). */
  references: Readonly<Record<string, string>>;
  /** The checked payer (payers/validate-payer.ts): taxId is the number of their document. */
  payer: {
    name: string;
    account: string;
    taxId: string;
    country: string | null;
    idType: PayerIdType | null;
  };
  callbackUrl: string;
};

/** What a partner answer means for our transaction's state (docs/architecture.md "Transactions"). */
export type PartnerOutcome =
  | { kind: 'in_flight'; partnerPayoutId: string; partnerStatus: string }
  | { kind: 'completed'; partnerPayoutId: string; reference: string; settledAt: Date }
  | { kind: 'failed'; partnerPayoutId: string; code: string; reason: string; partnerStatus: string };

export interface RailAdapter {
  readonly rail: RailName;
  /** The one currency the rail settles in. */
  readonly currency: string;
  /** The POST /v1/payouts body; throws RailMappingError when the instruction cannot go on this rail. */
  toPartnerRequest(input: SubmissionInput): SubmitPayoutBody;
  /** Our outcome for a partner payout resource (a POST answer, a GET, or a callback). */
  toOutcome(resource: PayoutResource): PartnerOutcome;
}

export class RailMappingError extends Error {
  override readonly name = 'RailMappingError';
}

// ISO 20022 ExternalStatusReason1Code words, for rejections that arrive without a reason.
const REASON_TEXT: Readonly<Record<string, string>> = {
  AC01: 'incorrect account number',
  AC03: 'invalid creditor account number',
  AC04: 'closed account number',
  AC06: 'blocked account',
  AG01: 'transaction forbidden on this account',
  AM02: 'amount exceeds the allowed maximum',
  AM04: 'insufficient funds',
  AM09: 'wrong amount',
  AB05: 'timeout at the creditor agent',
  BE01: 'creditor name does not match the account',
  DUPL: 'duplicate payment',
  FF01: 'invalid request format',
  MS03: 'reason not specified',
  RR04: 'regulatory reason',
};

/** Words for an ISO 20022 reason code ("rejected by the partner" for an unknown one). */
function reasonText(code: string): string {
  return REASON_TEXT[code] ?? 'rejected by the partner';
}

// The protocol's reference keys: lower snake case, at most 20, values up to 140 characters.
const REFERENCE_KEY = /^[a-z][a-z0-9_]{0,39}$/;
const MAX_REFERENCES = 20;
const MAX_REFERENCE_LENGTH = 140;

export type RailSpec = {
  rail: RailName;
  currency: string;
  /** Account types the rail routes on, with the protocol's name for each. */
  accountTypes: ReadonlyMap<AccountType, string>;
};

function forwardedReferences(refs: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(refs)) {
    if (Object.keys(out).length === MAX_REFERENCES) break;
    const wireKey = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
    if (REFERENCE_KEY.test(wireKey) && value !== '' && value.length <= MAX_REFERENCE_LENGTH)
      out[wireKey] = value;
  }
  return out;
}

/**
 * The payer as the rail's originator (docs/payer-identity.md "Partner"): resident only when their
 * document was issued by the rail's country; an undeclared document is a foreign identifier, so
 * the payer is not presented as a resident with a local tax id they never claimed.
 */
function originatorOf(payer: SubmissionInput['payer'], railCountry: string): Originator {
  return {
    name: payer.name,
    account: payer.account,
    residency: payer.country === railCountry ? 'resident' : 'non_resident',
    document: { type: payer.idType ?? 'undeclared', number: payer.taxId, issuing_country: payer.country },
  };
}

/**
 * The adapter of a rail from its spec: the protocol is one for every rail, so what differs is the
 * currency and the account types it routes on (its country is RAIL_COUNTRY's). The payer's document
 * arrives checked (payers/).
 */
export function defineRailAdapter(spec: RailSpec): RailAdapter {
  return {
    rail: spec.rail,
    currency: spec.currency,
    toPartnerRequest(input) {
      if (input.amount.currency !== spec.currency) {
        throw new RailMappingError(`${spec.rail} settles ${spec.currency}, not ${input.amount.currency}`);
      }
      const accountType = spec.accountTypes.get(input.creditor.accountType);
      if (accountType === undefined) {
        throw new RailMappingError(
          `${spec.rail} cannot route on account type ${AccountType[input.creditor.accountType] ?? input.creditor.accountType}`,
        );
      }
      return {
        rail: spec.rail,
        amount: { currency: input.amount.currency, amount_minor: input.amount.amountMinor.toString() },
        creditor: {
          name: input.creditor.name,
          account: input.creditor.account,
          account_type: accountType,
          ...(input.creditor.taxId !== '' ? { tax_id: input.creditor.taxId } : {}),
        },
        debtor: originatorOf(input.payer, RAIL_COUNTRY[spec.rail]),
        references: forwardedReferences(input.references),
        callback_url: input.callbackUrl,
      };
    },
    toOutcome(resource) {
      switch (resource.status) {
        case 'PDNG':
        case 'ACSP':
          return { kind: 'in_flight', partnerPayoutId: resource.id, partnerStatus: resource.status };
        case 'ACSC': {
          // The rail's reference is what the merchant's bank shows; a partner that sends none still
          // settled, so its own id stands in rather than leaving the settlement unrecorded.
          const reference = resource.reference || resource.id;
          const settledAt = resource.settled_at ? new Date(resource.settled_at) : new Date();
          return {
            kind: 'completed',
            partnerPayoutId: resource.id,
            reference,
            settledAt: Number.isNaN(settledAt.getTime()) ? new Date() : settledAt,
          };
        }
        case 'RJCT': {
          const code = resource.reason_code ?? 'MS03';
          return {
            kind: 'failed',
            partnerPayoutId: resource.id,
            code,
            reason: resource.reason ?? reasonText(code),
            partnerStatus: 'RJCT',
          };
        }
      }
    },
  };
}
