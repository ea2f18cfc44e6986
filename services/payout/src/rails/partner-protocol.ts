// Payout's side of the partner payout protocol (docs/partner-protocol.md): the wire types and the
// parser are the one contract in platform, which the partner simulator follows too; what each
// status means for a transaction is payout's own (rail-adapter.ts `toOutcome`).
export {
  type Originator,
  type PayoutResource,
  parsePayoutResource,
  RAIL_COUNTRY,
  RAIL_CURRENCY,
  RAILS,
  type RailName,
  type SubmitPayoutBody,
} from '@qr-payout/platform/partner-protocol';
