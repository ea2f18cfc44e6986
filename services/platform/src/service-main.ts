import { createLogger, type LOG_LEVELS, type Logger } from './logger';
import { onShutdown, type ShutdownStep } from './shutdown';
import { shutdownTelemetry } from './telemetry/start';

type ServiceMainOptions<R extends { close(): Promise<void> }> = {
  /** Service name, in logs and in the failure message. */
  service: string;
  /** The service's own config loader (it fails fast, naming the bad variable). */
  loadConfig: (env: NodeJS.ProcessEnv) => { logLevel: (typeof LOG_LEVELS)[number]; shutdownGraceMs: number };
  /** Starts serving; resolves once listening. */
  start: (env: NodeJS.ProcessEnv, logger: Logger) => Promise<R>;
  /**
   * Shutdown steps before telemetry, in order (conventions: stop taking work, finish in-flight,
   * close clients, pools). Default: one step that calls `close()`.
   */
  shutdownSteps?: (running: R) => ShutdownStep[];
  /** `main.js migrate` (the chart's Job hook): applies the migrations and exits. Absent: nothing to do. */
  migrate?: (env: NodeJS.ProcessEnv, logger: Logger) => Promise<void>;
};

/**
 * The composition root every deployable shares: `node main.js` serves until SIGTERM/SIGINT and
 * then shuts down in order; `node main.js migrate` applies the service's migrations and exits.
 * A start failure prints one line and exits 1, so the orchestrator restarts the pod.
 */
export function runServiceMain<R extends { close(): Promise<void> }>(opts: ServiceMainOptions<R>): void {
  const run = async (): Promise<void> => {
    const config = opts.loadConfig(process.env);
    const logger = createLogger({ service: opts.service, level: config.logLevel });
    if (process.argv[2] === 'migrate') {
      try {
        if (opts.migrate) await opts.migrate(process.env, logger);
        else logger.info(`${opts.service} has no database: nothing to migrate`);
      } finally {
        await shutdownTelemetry();
      }
      return;
    }
    const running = await opts.start(process.env, logger);
    onShutdown({
      logger,
      graceMs: config.shutdownGraceMs,
      steps: [
        ...(opts.shutdownSteps?.(running) ?? [{ name: opts.service, run: () => running.close() }]),
        { name: 'telemetry', run: () => shutdownTelemetry() },
      ],
    });
  };
  run().catch((err: unknown) => {
    process.stderr.write(`${opts.service} failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
