import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { Health, HealthCheckResponse_ServingStatus } from '@qr-payout/proto/grpc/health/v1/health_pb';

const ROOT = path.resolve(__dirname, '../../..');

function runMain(args: string[]): ChildProcess {
  return spawn(
    process.execPath,
    [
      '--conditions=development',
      '--import',
      'tsx',
      '--require',
      './services/platform/src/telemetry/preload.ts',
      'services/decoder/src/main.ts',
      ...args,
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        GRPC_PORT: '0',
        METRICS_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        OTEL_SDK_DISABLED: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

// The port the process logged in its "grpc server listening" line.
async function listeningPort(child: ChildProcess): Promise<number> {
  for await (const line of createInterface({ input: child.stdout! })) {
    const entry = JSON.parse(line) as { msg?: string; port?: number };
    if (entry.msg === 'grpc server listening' && entry.port) return entry.port;
  }
  throw new Error('decoder exited before listening');
}

describe('decoder main.ts', () => {
  afterAll(() => closeGrpcClients());

  it('serves until SIGTERM, then shuts down cleanly', async () => {
    const child = runMain([]);
    try {
      const port = await listeningPort(child);
      const health = createGrpcClient(Health, { baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 2_000 });
      expect((await health.check({ service: '' })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
      await closeGrpcClients();
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 30_000);

  it('`migrate` exits at once with success (the decoder has no database)', async () => {
    const child = runMain(['migrate']);
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }, 30_000);
});
