// Composition root of the partner simulator process: config, listen, shut down on SIGTERM.
import { createLogger, onShutdown, shutdownTelemetry } from '@qr-payout/platform';
import { loadPartnerSimConfig } from './config';
import { startPartnerSim } from './index';

async function main(): Promise<void> {
  const config = loadPartnerSimConfig(process.env);
  const logger = createLogger({ service: 'partner-sim', level: config.logLevel });
  const sim = await startPartnerSim(process.env, { logger });
  onShutdown({
    logger,
    graceMs: config.shutdownGraceMs,
    steps: [
      { name: 'http', run: () => sim.close() },
      { name: 'telemetry', run: () => shutdownTelemetry() },
    ],
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`partner-sim failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
