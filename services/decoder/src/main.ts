// Composition root of the decoder process: `node src/main.ts` serves, `node src/main.ts migrate`
// exits at once (the decoder has no database; the command exists so every service's chart Job
// hook has the same shape).
import { createLogger, onShutdown, shutdownTelemetry } from '@qr-payout/platform';
import { loadDecoderConfig } from './config';
import { startDecoder } from './index';

async function main(): Promise<void> {
  const config = loadDecoderConfig(process.env);
  const logger = createLogger({ service: 'decoder', level: config.logLevel });
  if (process.argv[2] === 'migrate') {
    logger.info('decoder has no database: nothing to migrate');
    await shutdownTelemetry();
    return;
  }
  const decoder = await startDecoder(process.env);
  onShutdown({
    logger,
    graceMs: config.shutdownGraceMs,
    steps: [
      { name: 'grpc', run: () => decoder.close() },
      { name: 'telemetry', run: () => shutdownTelemetry() },
    ],
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`decoder failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
