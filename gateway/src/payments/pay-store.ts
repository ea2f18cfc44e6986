import type { Pool } from 'pg';

// All SQL of pay_idempotency_keys (migrations/0002): which instruction a pay's key resolved to.

export interface PayRecord {
  requestFingerprint: string;
  instructionId: string;
}

export interface PayRecordStore {
  /** The unexpired record of (tenant, key), if any. */
  find(tenantId: string, key: string): Promise<PayRecord | undefined>;
  /**
   * Records that (tenant, key) resolved to `instructionId`, unless an unexpired record already
   * holds the key (a concurrent pay that won): returns whichever record holds it afterwards.
   */
  claim(tenantId: string, key: string, record: PayRecord): Promise<PayRecord>;
  /**
   * Deletes up to `batch` expired records (they are never read: find skips them, claim replaces
   * them) and answers how many. Run periodically off the request path (startPayKeyReaper).
   */
  reapExpired(batch?: number): Promise<number>;
}

/** Reaps expired pay records every `intervalMs`, a batch at a time, until none is left. */
export function startPayKeyReaper(
  store: Pick<PayRecordStore, 'reapExpired'>,
  opts: { intervalMs: number; onError: (err: unknown) => void },
): { stop(): void } {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      while ((await store.reapExpired()) > 0) {}
    } catch (err) {
      opts.onError(err);
    } finally {
      running = false;
    }
  }, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

interface Row {
  request_fingerprint: string;
  instruction_id: string;
}

const toRecord = (row: Row): PayRecord => ({
  requestFingerprint: row.request_fingerprint,
  instructionId: row.instruction_id,
});

export function createPayRecordStore(pool: Pool, opts: { ttlMs: number }): PayRecordStore {
  async function find(tenantId: string, key: string): Promise<PayRecord | undefined> {
    const { rows } = await pool.query<Row>(
      `SELECT request_fingerprint, instruction_id FROM pay_idempotency_keys
        WHERE tenant_id = $1 AND idempotency_key = $2 AND expires_at > now()`,
      [tenantId, key],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  return {
    find,
    async claim(tenantId, key, record) {
      // An expired record is replaced (spec §8: after 24 h the key is new); a live one is kept.
      const { rows } = await pool.query<Row>(
        `INSERT INTO pay_idempotency_keys
           (tenant_id, idempotency_key, request_fingerprint, instruction_id, expires_at)
         VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')
         ON CONFLICT (tenant_id, idempotency_key) DO UPDATE
           SET request_fingerprint = EXCLUDED.request_fingerprint,
               instruction_id = EXCLUDED.instruction_id,
               created_at = now(),
               expires_at = EXCLUDED.expires_at
           WHERE pay_idempotency_keys.expires_at <= now()
         RETURNING request_fingerprint, instruction_id`,
        [tenantId, key, record.requestFingerprint, record.instructionId, opts.ttlMs],
      );
      if (rows[0]) return toRecord(rows[0]);
      const holder = await find(tenantId, key);
      if (!holder) throw new Error('pay idempotency record vanished while claimed');
      return holder;
    },

    async reapExpired(batch = 1_000) {
      const { rowCount } = await pool.query(
        `DELETE FROM pay_idempotency_keys WHERE ctid IN (
           SELECT ctid FROM pay_idempotency_keys WHERE expires_at <= now() LIMIT $1)`,
        [batch],
      );
      return rowCount ?? 0;
    },
  };
}
