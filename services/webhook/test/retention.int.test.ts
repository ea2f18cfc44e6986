// The delivery prune job (docs/operators.md "Retention") in a running webhook service against real
// PostgreSQL: finished deliveries (delivered, failed, exhausted) whose last change is older than
// WEBHOOK_DELIVERY_RETENTION_MS go with their attempts; pending and delivering ones, however old,
// and recently finished ones stay; the prune reads deliveries_finished_idx.
import { randomUUID } from 'node:crypto';
import { withTransaction } from '@qr-payout/platform/db';
import { newId } from '@qr-payout/platform/ids';
import { startOnFreshSchema } from '@qr-payout/test-kit/service';
import { eventually } from '@qr-payout/test-kit/wait';
import { generateSealingKey, loadWebhookConfig, startWebhook } from '../src/index';
import { PRUNE_FINISHED_DELIVERIES } from '../src/retention/store';

jest.setTimeout(30_000);

const DAY_MS = 86_400_000;

describe('webhook delivery retention (real PostgreSQL)', () => {
  it('deletes finished deliveries past WEBHOOK_DELIVERY_RETENTION_MS with their attempts, and only those', async () => {
    const webhook = await startOnFreshSchema('webhook_test', (env) => startWebhook(loadWebhookConfig(env)), {
      WEBHOOK_SECRETS_KEY: generateSealingKey(),
      // Nothing sends: the rows below are only for the prune.
      WEBHOOK_DISPATCHER_ENABLED: 'false',
      WEBHOOK_WORKER_ENABLED: 'false',
      WEBHOOK_DELIVERY_RETENTION_MS: String(30 * DAY_MS),
      RETENTION_INTERVAL_MS: '50',
    });
    const pool = webhook.schema.pool();
    try {
      // [status, days since the last change]
      const deliveries: Array<[string, number]> = [
        ['delivered', 31],
        ['failed', 31],
        ['exhausted', 31],
        ['delivered', 29],
        ['pending', 40],
        ['delivering', 40],
      ];
      const ids: string[] = [];
      for (const [status, days] of deliveries) {
        const id = newId('whd');
        ids.push(id);
        // One statement: the prune runs every 50 ms and may take a finished delivery between two.
        await pool.query(
          `WITH delivery AS (
             INSERT INTO deliveries (id, tenant_id, event_id, event_type, transaction_id, url, status,
               next_attempt_at, lease_until, lease_token, payload, created_at, updated_at)
             VALUES ($1, 'ten_retention', $2, 'transaction.completed', $3, 'https://example.test/hook', $4,
               CASE WHEN $4 = 'pending' THEN now() END,
               CASE WHEN $4 = 'delivering' THEN now() + interval '1 minute' END,
               CASE WHEN $4 = 'delivering' THEN 'token' END,
               '\\x7b7d'::bytea, now() - $5::int * interval '1 day', now() - $5::int * interval '1 day')
             RETURNING id
           )
           INSERT INTO delivery_attempts (delivery_id, attempt_number, started_at, succeeded)
           SELECT id, 1, now() - $5::int * interval '1 day', false FROM delivery`,
          [id, randomUUID(), newId('txn'), status, days],
        );
      }
      const kept = ids.slice(3);
      const left = await eventually(async () => {
        const { rows } = await pool.query<{ id: string }>('SELECT id FROM deliveries');
        return rows.length === kept.length ? rows.map((r) => r.id) : undefined;
      });
      expect(left.sort()).toEqual([...kept].sort());
      const attempts = await pool.query<{ delivery_id: string }>('SELECT delivery_id FROM delivery_attempts');
      expect(attempts.rows.map((r) => r.delivery_id).sort()).toEqual([...kept].sort());

      // Usable, whatever the planner picks for a table this small.
      const plan = await withTransaction(pool, async (client) => {
        await client.query('SET LOCAL enable_seqscan = off');
        return client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN ${PRUNE_FINISHED_DELIVERIES.replace('$1', '1000').replace('$2', String(30 * DAY_MS))}`,
        );
      });
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('deliveries_finished_idx');
    } finally {
      await webhook.stop();
    }
  });
});
