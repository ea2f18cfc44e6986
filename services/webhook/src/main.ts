// The webhook process: `node main.js` serves until SIGTERM/SIGINT; `node main.js migrate` applies
// the migrations of schema webhook and exits (the chart's Job hook).
import { createPgPool, migrate } from '@qr-payout/platform/db';
import { runServiceMain } from '@qr-payout/platform/service-main';
import { loadDatabaseConfig, loadWebhookConfig } from './config';
import { MIGRATIONS_DIR } from './deps';
import { startWebhook } from './start';

runServiceMain({
  service: 'webhook',
  loadConfig: loadWebhookConfig,
  start: (config) => startWebhook(config),
  // Only the database settings: migrating must not need the secrets key the service needs to run.
  loadMigrateConfig: loadDatabaseConfig,
  migrate: async (config, logger) => {
    const pool = createPgPool({ connectionString: config.databaseUrl, schema: config.dbSchema, max: 1 });
    try {
      const { applied } = await migrate(pool, { schema: config.dbSchema, dir: MIGRATIONS_DIR, logger });
      logger.info({ schema: config.dbSchema, applied: applied.length }, 'migrations done');
    } finally {
      await pool.end();
    }
  },
});
