// The quote prune job (docs/operators.md "Retention") in a running fx service against real
// PostgreSQL: quotes whose expiry is older than QUOTE_RETENTION_MS go, open or confirmed; quotes
// expired more recently and open ones stay; the prune reads quotes_expires_at_idx.
import { withTransaction } from '@qr-payout/platform/db';
import { newId } from '@qr-payout/platform/ids';
import { startOnFreshSchema } from '@qr-payout/test-kit/service';
import { eventually } from '@qr-payout/test-kit/wait';
import { loadFxConfig, startFx } from '../src/index';
import { PRUNE_EXPIRED_QUOTES } from '../src/retention/store';

jest.setTimeout(30_000);

const DAY_MS = 86_400_000;

describe('fx quote retention (real PostgreSQL)', () => {
  it('deletes quotes expired longer than QUOTE_RETENTION_MS ago, and only those', async () => {
    const fx = await startOnFreshSchema('fx_test', (env) => startFx(loadFxConfig(env)), {
      QUOTE_RETENTION_MS: String(30 * DAY_MS),
      RETENTION_INTERVAL_MS: '50',
    });
    const pool = fx.schema.pool();
    try {
      // [id, days since creation, days since expiry (negative: expires later), confirmed]
      const quotes: Array<[string, number, number, boolean]> = [
        ['old_open', 32, 31, false],
        ['old_confirmed', 32, 31, true],
        ['recent_confirmed', 3, 2, true],
        ['open', 0, -1, false],
      ];
      const ids = new Map(quotes.map(([name]) => [name, newId('quo')]));
      for (const [name, createdDaysAgo, expiredDaysAgo, confirmed] of quotes) {
        await pool.query(
          `INSERT INTO quotes (id, tenant_id, source_currency, target_currency, rate, mid_rate, spread_bps,
             source_minor, target_minor, created_at, expires_at, status, consumer_id, confirmed_at)
           VALUES ($1, 'ten_retention', 'USD', 'BRL', 5.4, 5.45, 50, 1845, 10000,
             now() - $2::int * interval '1 day', now() - $3::int * interval '1 day',
             $4, $5, CASE WHEN $4 = 'confirmed' THEN now() - $2::int * interval '1 day' END)`,
          [
            ids.get(name),
            createdDaysAgo,
            expiredDaysAgo,
            confirmed ? 'confirmed' : 'open',
            confirmed ? newId('txn') : null,
          ],
        );
      }
      const left = await eventually(async () => {
        const { rows } = await pool.query<{ id: string }>('SELECT id FROM quotes');
        return rows.length === 2 ? rows.map((r) => r.id) : undefined;
      });
      expect(left.sort()).toEqual([ids.get('recent_confirmed'), ids.get('open')].sort());

      // Usable, whatever the planner picks for a table this small.
      const plan = await withTransaction(pool, async (client) => {
        await client.query('SET LOCAL enable_seqscan = off');
        return client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN ${PRUNE_EXPIRED_QUOTES.replace('$1', '1000').replace('$2', String(30 * DAY_MS))}`,
        );
      });
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('quotes_expires_at_idx');
    } finally {
      await fx.stop();
    }
  });
});
