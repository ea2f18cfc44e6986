// Composition root of the fx process: `node src/main.ts` serves, `node src/main.ts migrate`
// applies the migrations of schema fx and exits (the chart's Job hook).
import { createLogger, onShutdown, shutdownTelemetry } from '@qr-payout/platform';
import { loadFxConfig } from './config';
import { createDeps } from './deps';
import { startFx } from './index';

async function migrateAndExit(): Promise<void> {
  const deps = createDeps(loadFxConfig(process.env));
  try {
    await deps.migrate();
  } finally {
    await deps.close();
    await shutdownTelemetry();
  }
}

async function serve(): Promise<void> {
  const config = loadFxConfig(process.env);
  const logger = createLogger({ service: 'fx', level: config.logLevel });
  const fx = await startFx(process.env);
  onShutdown({
    logger,
    graceMs: config.shutdownGraceMs,
    steps: [
      { name: 'grpc and pool', run: () => fx.close() },
      { name: 'telemetry', run: () => shutdownTelemetry() },
    ],
  });
}

(process.argv[2] === 'migrate' ? migrateAndExit() : serve()).catch((err: unknown) => {
  process.stderr.write(`fx failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
