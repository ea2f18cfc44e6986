// The payout retention jobs (docs/operators.md "Retention"): one platform prune job per table that
// would otherwise only grow.
import type { PrunedTable } from '@qr-payout/platform/db';
import { PRUNE_EXPIRED_IDEMPOTENCY_KEYS, PRUNE_PUBLISHED_OUTBOX_EVENTS } from './store';

/** Published outbox events after OUTBOX_RETENTION_MS; expired idempotency keys every IDEMPOTENCY_KEY_REAP_MS. */
export function payoutPrunedTables(config: {
  outboxRetentionMs: number;
  idempotencyKeyReapMs: number;
}): PrunedTable[] {
  return [
    { name: 'outbox_events', statement: PRUNE_PUBLISHED_OUTBOX_EVENTS, params: [config.outboxRetentionMs] },
    {
      name: 'idempotency_keys',
      statement: PRUNE_EXPIRED_IDEMPOTENCY_KEYS,
      intervalMs: config.idempotencyKeyReapMs,
    },
  ];
}
