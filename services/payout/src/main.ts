// Composition root of the payout process: `node src/main.ts` serves, `node src/main.ts migrate`
// applies the migrations of schema payout and exits (the chart's Job hook).
import { createLogger, onShutdown, shutdownTelemetry } from '@qr-payout/platform';
import { loadPayoutConfig } from './config';
import { createDeps } from './deps';
import { startPayout } from './index';

async function migrateAndExit(): Promise<void> {
  const deps = createDeps(loadPayoutConfig(process.env));
  try {
    await deps.migrate();
  } finally {
    await deps.close();
    await shutdownTelemetry();
  }
}

async function serve(): Promise<void> {
  const config = loadPayoutConfig(process.env);
  const logger = createLogger({ service: 'payout', level: config.logLevel });
  const payout = await startPayout(process.env);
  onShutdown({
    logger,
    graceMs: config.shutdownGraceMs,
    steps: [
      { name: 'grpc, bus and pool', run: () => payout.close() },
      { name: 'telemetry', run: () => shutdownTelemetry() },
    ],
  });
}

(process.argv[2] === 'migrate' ? migrateAndExit() : serve()).catch((err: unknown) => {
  process.stderr.write(`payout failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
