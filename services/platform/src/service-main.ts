import { createLogger, type LOG_LEVELS, type Logger } from './logger';
import { shutdownMetrics, startMetrics } from './metrics/start';
import { onShutdown, type ShutdownStep } from './shutdown';
import { shutdownTelemetry } from './telemetry/start';

type ServiceConfig = {
  logLevel: (typeof LOG_LEVELS)[number];
  shutdownGraceMs: number;
  /** metricsSettings() (METRICS_ENABLED, METRICS_PORT) and HOST: where /metrics is served; absent: no metrics. */
  metricsEnabled?: boolean;
  metricsPort?: number;
  host?: string;
};

type ServiceMainOptions<
  C extends ServiceConfig,
  R extends { stop(): Promise<void> },
  M extends Pick<ServiceConfig, 'logLevel'> = C,
> = {
  /** Service name, in logs and in the failure message. */
  service: string;
  /** The service's own config loader (it fails fast, naming the bad variable); called once. */
  loadConfig: (env: NodeJS.ProcessEnv) => C;
  /** Starts serving (the service's `start.ts`); resolves once listening. */
  start: (config: C, logger: Logger) => Promise<R>;
  /**
   * Shutdown steps before telemetry, in order (conventions: stop taking work, finish in-flight,
   * close clients, pools). Default: one step that calls `stop()`.
   */
  shutdownSteps?: (running: R) => ShutdownStep[];
  /** `main.js migrate` (the chart's Job hook): applies the migrations and exits. Absent: nothing to do. */
  migrate?: (config: M, logger: Logger) => Promise<void>;
  /** What `migrate` loads instead of the whole config (e.g. the database only, so the Job needs no secrets). */
  loadMigrateConfig?: (env: NodeJS.ProcessEnv) => M;
};

/**
 * The composition root every deployable shares: `node main.js` serves until SIGTERM/SIGINT and
 * then shuts down in order; `node main.js migrate` applies the service's migrations and exits.
 * A start failure prints one line and exits 1, so the orchestrator restarts the pod.
 */
export function runServiceMain<
  C extends ServiceConfig,
  R extends { stop(): Promise<void> },
  M extends Pick<ServiceConfig, 'logLevel'> = C,
>(opts: ServiceMainOptions<C, R, M>): void {
  const run = async (): Promise<void> => {
    if (process.argv[2] === 'migrate') {
      // Without loadMigrateConfig, M is C (its default): migrate gets the whole config.
      const loadMigrateConfig =
        opts.loadMigrateConfig ?? (opts.loadConfig as unknown as (env: NodeJS.ProcessEnv) => M);
      const config = loadMigrateConfig(process.env);
      const logger = createLogger({ service: opts.service, level: config.logLevel });
      try {
        if (opts.migrate) await opts.migrate(config, logger);
        else logger.info(`${opts.service} has no database: nothing to migrate`);
      } finally {
        await shutdownTelemetry();
      }
      return;
    }
    const config = opts.loadConfig(process.env);
    const logger = createLogger({ service: opts.service, level: config.logLevel });
    // Before start: the service makes its instruments as it starts (docs/runbooks.md "Metrics").
    if (config.metricsEnabled) {
      const { url } = await startMetrics({
        port: config.metricsPort ?? 9464,
        host: config.host ?? '0.0.0.0',
      });
      logger.debug({ url }, 'metrics served');
    }
    const running = await opts.start(config, logger);
    onShutdown({
      logger,
      graceMs: config.shutdownGraceMs,
      steps: [
        ...(opts.shutdownSteps?.(running) ?? [{ name: opts.service, run: () => running.stop() }]),
        { name: 'metrics', run: () => shutdownMetrics() },
        { name: 'telemetry', run: () => shutdownTelemetry() },
      ],
    });
  };
  run().catch((err: unknown) => {
    process.stderr.write(`${opts.service} failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
