// `npm start`: the composition root of the sandbox. Starts telemetry first when an OTLP endpoint
// is configured (so its instrumentations patch http and pg before the services load them), then
// the sandbox, prints the banner and registers the ordered shutdown.
import { createLogger } from '@qr-payout/platform/log';
import { onShutdown } from '@qr-payout/platform/shutdown';
import { shutdownTelemetry, startTelemetry } from '@qr-payout/platform/telemetry';
import { formatBanner } from './banner';

/**
 * Milliseconds since `npm start`: scripts/sandbox-start sets SANDBOX_LAUNCHED_AT_MS before the
 * steps that run ahead of this process (the webhook receiver's build); run directly, since this
 * process began, module loading included.
 */
function startupMs(): number {
  const launchedAt = Number(process.env.SANDBOX_LAUNCHED_AT_MS);
  return Number.isFinite(launchedAt) && launchedAt > 0 ? Date.now() - launchedAt : performance.now();
}

async function main(): Promise<void> {
  const tracing =
    Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT) && process.env.OTEL_SDK_DISABLED !== 'true';
  if (tracing) startTelemetry({ serviceName: 'sandbox' });

  const logger = createLogger({ service: 'sandbox', level: 'info' });
  // Required only now, after telemetry: loading it loads every service.
  const { startSandbox } = require('./sandbox') as typeof import('./sandbox');
  const sandbox = await startSandbox(process.env, { logger });

  process.stdout.write(
    formatBanner({
      baseUrl: sandbox.baseUrl,
      docsUrl: sandbox.docsUrl,
      adminUrl: sandbox.adminUrl,
      partnerSimUrl: sandbox.partnerSimUrl,
      apiKey: sandbox.apiKey,
      signingSecret: sandbox.signingSecret,
      adminToken: sandbox.adminToken,
      tenantId: sandbox.tenantId,
      dataDir: sandbox.dataDir,
      startupMs: startupMs(),
    }),
  );

  onShutdown({
    logger,
    graceMs: 20_000,
    steps: [...sandbox.shutdownSteps, ...(tracing ? [{ name: 'telemetry', run: shutdownTelemetry }] : [])],
  });
}

main().catch((err: unknown) => {
  const reason = err instanceof Error ? err.message : String(err);
  process.stderr.write(`sandbox failed to start: ${reason}\n`);
  if (/EADDRINUSE/.test(reason)) {
    process.stderr.write(
      'A port is taken: set PORT and ADMIN_PORT to free ones (e.g. PORT=9080 ADMIN_PORT=9081).\n',
    );
  }
  process.exit(1);
});
