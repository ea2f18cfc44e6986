import { createLogger, createPgPool, onShutdown, shutdownTelemetry } from '@qr-payout/platform';
import { loadGatewayConfig } from './config';
import { startGateway } from './index';
import { migrateGateway } from './migrations';

// Composition root: `node src/main.ts migrate` applies the migrations and exits; otherwise the
// gateway starts and shuts down in order on SIGTERM/SIGINT.
async function main(): Promise<void> {
  const config = loadGatewayConfig(process.env);
  const logger = createLogger({ service: 'gateway', level: config.logLevel });

  if (process.argv[2] === 'migrate') {
    const pool = createPgPool({ connectionString: config.databaseUrl, schema: config.dbSchema, max: 1 });
    try {
      const applied = await migrateGateway(pool, config.dbSchema, logger);
      logger.info({ applied }, 'gateway migrations applied');
    } finally {
      await pool.end();
    }
    return;
  }

  const gateway = await startGateway(process.env, { logger });
  onShutdown({
    logger,
    graceMs: config.shutdownGraceMs,
    steps: [
      { name: 'readiness', run: () => gateway.beginShutdown() },
      { name: 'servers, clients, pool, redis', run: () => gateway.close() },
      { name: 'telemetry', run: () => shutdownTelemetry() },
    ],
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`gateway failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
