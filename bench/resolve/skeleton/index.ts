// Starts the resolve skeleton (./process.ts) as three processes beside the system, in the run's
// database, and says where its front answers.
import { freePorts, type ManagedProcess, spawnTsProcess, waitUntilReady } from '../../../test-e2e/harness';

export interface Skeleton {
  url: string;
  processes: ManagedProcess[];
  stop(): Promise<void>;
}

const SCRIPT = 'bench/resolve/skeleton/process.ts';
const READY_TIMEOUT_MS = 30_000;

export async function startSkeleton(opts: { databaseUrl: string; logDir: string }): Promise<Skeleton> {
  const [frontPort, decoderPort, storePort] = (await freePorts(3)) as [number, number, number];
  // The telemetry preload the harness adds then loads nothing, as in the system under the bench.
  const env = { PATH: process.env.PATH, DATABASE_URL: opts.databaseUrl, OTEL_SDK_DISABLED: 'true' };
  const spawn = (role: string, ports: number[]) =>
    spawnTsProcess({
      name: `skeleton-${role}`,
      script: SCRIPT,
      args: [role, ...ports.map(String)],
      env,
      logDir: opts.logDir,
    });
  const processes = [
    spawn('decoder', [decoderPort]),
    spawn('store', [storePort]),
    spawn('front', [frontPort, decoderPort, storePort]),
  ];
  const url = `http://127.0.0.1:${frontPort}`;
  const stop = async () => {
    await Promise.all(processes.map((proc) => proc.stop()));
  };
  try {
    // Ready when a whole resolve goes through: front, both gRPC servers and the table.
    await waitUntilReady(
      processes[2]!,
      'a resolve through the skeleton',
      async () => {
        const res = await fetch(`${url}/v1/resolve`, { method: 'POST', body: '{"qr_string":"x"}' });
        await res.text();
        return res.status === 200;
      },
      READY_TIMEOUT_MS,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, processes, stop };
}
