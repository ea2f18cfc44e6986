// Composition root: `node main.js migrate` applies the migrations and exits; otherwise the gateway
// starts, and on SIGTERM first fails readiness, then closes in order.
import { createPgPool } from '@qr-payout/platform/db';
import { runServiceMain } from '@qr-payout/platform/service-main';
import { loadGatewayConfig } from './config';
import { startGateway } from './index';
import { migrateGateway } from './migrations';

runServiceMain({
  service: 'gateway',
  loadConfig: loadGatewayConfig,
  start: (env, logger) => startGateway(env, { logger }),
  shutdownSteps: (gateway) => [
    { name: 'readiness', run: () => gateway.beginShutdown() },
    { name: 'servers, clients, pool, redis', run: () => gateway.close() },
  ],
  migrate: async (env, logger) => {
    const config = loadGatewayConfig(env);
    const pool = createPgPool({ connectionString: config.databaseUrl, schema: config.dbSchema, max: 1 });
    try {
      const applied = await migrateGateway(pool, config.dbSchema, logger);
      logger.info({ applied }, 'gateway migrations applied');
    } finally {
      await pool.end();
    }
  },
});
