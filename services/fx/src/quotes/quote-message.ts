import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type Quote, QuoteSchema, QuoteStatus } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import type { QuoteRow } from './store';

// An open quote past expires_at reads as expired (the database decided `expired`).
function statusOf(row: QuoteRow): QuoteStatus {
  if (row.status === 'confirmed') return QuoteStatus.CONFIRMED;
  if (row.expired) return QuoteStatus.EXPIRED;
  if (row.status === 'open') return QuoteStatus.OPEN;
  throw new Error(`quote ${row.id} has unknown status ${row.status}`);
}

/** The payout.fx.v1.Quote of a stored row. */
export function toQuoteMessage(row: QuoteRow): Quote {
  return create(QuoteSchema, {
    id: row.id,
    tenantId: row.tenant_id,
    rate: row.rate,
    midRate: row.mid_rate,
    spreadBps: row.spread_bps,
    source: { currency: row.source_currency, amountMinor: BigInt(row.source_minor) },
    target: { currency: row.target_currency, amountMinor: BigInt(row.target_minor) },
    fee: { currency: row.source_currency, amountMinor: BigInt(row.fee_minor) },
    createdAt: timestampFromDate(row.created_at),
    expiresAt: timestampFromDate(row.expires_at),
    status: statusOf(row),
  });
}
