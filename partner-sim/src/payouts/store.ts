import { createHash, randomBytes } from 'node:crypto';
import type { PayoutJournal } from './journal';
import type { Payout } from './payout';
import type { PayoutResource, SubmitPayoutBody } from './protocol';
import { REASON_TEXT } from './protocol';

// Payouts held by the simulated partner, bounded like the Pix charges (oldest forgotten first). In
// memory, and with a journal (journal.ts, PARTNER_SIM_STATE_FILE) also on disk, so a restarted
// simulator still knows every payout it accepted, as a real partner does.

export type PayoutStore = {
  insert(payout: Payout): void;
  byId(id: string): Payout | undefined;
  byIdempotencyKey(key: string): Payout | undefined;
  /** Replaces the stored payout of `id`; undefined when it is unknown (or was forgotten). */
  update(id: string, change: Pick<Payout, 'status' | 'reasonCode' | 'settledAt'>): Payout | undefined;
  /** Every payout held, oldest first (a restart resumes their settlements). */
  all(): Payout[];
};

export const DEFAULT_MAX_PAYOUTS = 10_000;

export function newPayoutId(): string {
  return `pp_${randomBytes(16).toString('hex')}`;
}

// Key order must not matter: {"a":1,"b":2} and {"b":2,"a":1} are the same request.
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function fingerprintOf(body: SubmitPayoutBody): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

export function toResource(payout: Payout): PayoutResource {
  return {
    id: payout.id,
    idempotency_key: payout.idempotencyKey,
    rail: payout.rail,
    amount: payout.amount,
    status: payout.status,
    reason_code: payout.reasonCode,
    reason: payout.reasonCode === null ? null : REASON_TEXT[payout.reasonCode],
    reference: payout.reference,
    created_at: payout.createdAt.toISOString(),
    settled_at: payout.settledAt === null ? null : payout.settledAt.toISOString(),
    debtor: payout.debtor,
  };
}

export function createPayoutStore(opts: { maxPayouts?: number; journal?: PayoutJournal } = {}): PayoutStore {
  const maxPayouts = opts.maxPayouts ?? DEFAULT_MAX_PAYOUTS;
  const journal = opts.journal;
  // Insertion order is age: Map iteration starts with the oldest payout.
  const byId = new Map<string, Payout>();
  const idByKey = new Map<string, string>();

  // Written before the caller answers anyone about the change. Twice the bound of lines (each
  // payout writes about two) and the file is rewritten with the live payouts only.
  function persist(payout: Payout): void {
    if (!journal) return;
    journal.record(payout);
    if (journal.lines() > 2 * maxPayouts) journal.compact(byId.values());
  }

  function evictOldest(): void {
    while (byId.size > maxPayouts) {
      const oldest = byId.values().next().value;
      if (!oldest) return;
      byId.delete(oldest.id);
      idByKey.delete(oldest.idempotencyKey);
    }
  }

  for (const payout of journal?.load() ?? []) {
    byId.set(payout.id, payout);
    idByKey.set(payout.idempotencyKey, payout.id);
  }
  evictOldest();

  return {
    insert(payout) {
      byId.set(payout.id, payout);
      idByKey.set(payout.idempotencyKey, payout.id);
      evictOldest();
      persist(payout);
    },
    byId: (id) => byId.get(id),
    byIdempotencyKey(key) {
      const id = idByKey.get(key);
      return id === undefined ? undefined : byId.get(id);
    },
    update(id, change) {
      const payout = byId.get(id);
      if (!payout) return undefined;
      const changed: Payout = { ...payout, ...change };
      byId.set(id, changed);
      persist(changed);
      return changed;
    },
    all: () => [...byId.values()],
  };
}
