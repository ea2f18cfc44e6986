// The gateway process: `node main.js migrate` applies the migrations and exits; otherwise the gateway
// serves until SIGTERM/SIGINT, then first fails readiness, then closes in order.
import { createPgPool } from '@qr-payout/platform/db';
import { runServiceMain } from '@qr-payout/platform/service-main';
import { loadGatewayConfig, loadGatewayMigrateConfig } from './config';
import { migrateGateway } from './migrations';
import { startGateway } from './start';

runServiceMain({
  service: 'gateway',
  loadConfig: loadGatewayConfig,
  start: (config, logger) => startGateway(config, { logger }),
  shutdownSteps: (gateway) => [
    { name: 'readiness', run: () => gateway.beginShutdown() },
    { name: 'servers, clients, pool, redis', run: () => gateway.stop() },
  ],
  loadMigrateConfig: loadGatewayMigrateConfig,
  migrate: async (config, logger) => {
    const pool = createPgPool({ connectionString: config.databaseUrl, schema: config.dbSchema, max: 1 });
    try {
      const applied = await migrateGateway(pool, config.dbSchema, logger);
      logger.info({ applied }, 'gateway migrations applied');
    } finally {
      await pool.end();
    }
  },
});
