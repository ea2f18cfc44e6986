// Composition root of the webhook process: `node src/main.ts migrate` applies the migrations of
// schema webhook and exits (the chart's Job hook); otherwise it serves until SIGTERM.
import { createLogger, createPgPool, migrate, onShutdown, shutdownTelemetry } from '@qr-payout/platform';
import { loadDatabaseConfig, loadWebhookConfig } from './config';
import { MIGRATIONS_DIR } from './deps';
import { startWebhook } from './index';

async function runMigrations(): Promise<void> {
  const config = loadDatabaseConfig(process.env);
  const logger = createLogger({ service: 'webhook', level: config.logLevel });
  const pool = createPgPool({ connectionString: config.databaseUrl, schema: config.dbSchema, max: 1 });
  try {
    const { applied } = await migrate(pool, { schema: config.dbSchema, dir: MIGRATIONS_DIR, logger });
    logger.info({ schema: config.dbSchema, applied: applied.length }, 'migrations done');
  } finally {
    await pool.end();
    await shutdownTelemetry();
  }
}

async function serve(): Promise<void> {
  const config = loadWebhookConfig(process.env);
  const logger = createLogger({ service: 'webhook', level: config.logLevel });
  const webhook = await startWebhook(process.env);
  onShutdown({
    logger,
    graceMs: config.shutdownGraceMs,
    steps: [
      { name: 'grpc and pools', run: () => webhook.close() },
      { name: 'telemetry', run: () => shutdownTelemetry() },
    ],
  });
}

(process.argv[2] === 'migrate' ? runMigrations() : serve()).catch((err: unknown) => {
  process.stderr.write(`webhook failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
