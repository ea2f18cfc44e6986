// The sandbox (`sandbox/src/main.ts`) as the e2e tests start it: its own process, launched as `npm
// start` launches it (scripts/sandbox-start), on two free ports and a fresh data folder, with only a
// shell's variables (baseEnv: PATH, HOME, …, and QR_PAYOUT_TOOLS, where the first start finds the
// initdb cluster instead of running initdb, sandbox/README.md "Limits"). Ready once the banner's last
// line is printed: the sandbox tenant (the key and secret) exists by then.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { credentialsFile } from '@qr-payout/sandbox/credentials';
import { baseEnv, type RunningChild, spawnTs } from '../../sandbox/test/child-process';
import { freePorts } from '../harness';

export interface SandboxCredentials {
  apiKey: string;
  signingSecret: string;
  adminToken: string;
}

export interface SandboxProcessOptions {
  /**
   * Given to the sandbox as SANDBOX_API_KEY, SANDBOX_SIGNING_SECRET and PAYOUT_ADMIN_TOKEN, each one
   * missing made here. `'own'`: none given, so the sandbox makes its own and keeps them in
   * `<dataDir>/sandbox.json`, as on a newcomer's first `npm start`; they are read from there.
   */
  credentials?: Partial<SandboxCredentials> | 'own';
  /** More variables (e.g. WEBHOOK_RETRY_SCALE, LOG_LEVEL). */
  env?: NodeJS.ProcessEnv;
  /** How long the banner may take (default 150 s: a busy machine's first start). */
  startTimeoutMs?: number;
}

export interface SandboxProcess extends SandboxCredentials {
  baseUrl: string;
  adminUrl: string;
  /** SANDBOX_DATA_DIR, removed by stop(). */
  dataDir: string;
  /** The process, with everything it printed (output()). */
  child: RunningChild;
  /** Stops the process (SIGTERM, SIGKILL after 20 s) and removes the data folder. */
  stop(): Promise<void>;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

function credentialsEnv(given: Partial<SandboxCredentials>): NodeJS.ProcessEnv {
  return {
    SANDBOX_API_KEY: given.apiKey ?? `sk_sandbox_${hex(12)}`,
    SANDBOX_SIGNING_SECRET: given.signingSecret ?? `whsec_${hex(24)}`,
    PAYOUT_ADMIN_TOKEN: given.adminToken ?? hex(24),
  };
}

export async function startSandboxProcess(opts: SandboxProcessOptions = {}): Promise<SandboxProcess> {
  const [port, adminPort] = await freePorts(2);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'qr-payout-sandbox-'));
  const given = opts.credentials === 'own' ? {} : credentialsEnv(opts.credentials ?? {});
  const child = spawnTs('sandbox/src/main.ts', {
    ...baseEnv(),
    SANDBOX_DATA_DIR: dataDir,
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    ...given,
    ...opts.env,
  });
  const stop = async () => {
    await child.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await child.waitForLine(/Press Ctrl-C to stop/, opts.startTimeoutMs ?? 150_000);
  } catch (err) {
    await stop();
    throw err;
  }
  const stored = JSON.parse(readFileSync(credentialsFile(dataDir), 'utf8')) as SandboxCredentials;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    apiKey: given.SANDBOX_API_KEY ?? stored.apiKey,
    signingSecret: given.SANDBOX_SIGNING_SECRET ?? stored.signingSecret,
    adminToken: given.PAYOUT_ADMIN_TOKEN ?? stored.adminToken,
    dataDir,
    child,
    stop,
  };
}
