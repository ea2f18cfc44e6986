import path from 'node:path';

// `secret rotate` of the sandbox's own tenant keeps the sandbox's credentials file true
// (cli/README.md "Rotating the sandbox's secret"). The sandbox hands its stored signing secret to
// the admin API on every start (sandbox/src/credentials.ts), so a secret rotated here but not
// written there would be rotated back at the next `npm start`, and the banner would print it.
// Only a local sandbox has this file; a production gateway has none, and a file whose operator
// token is not the one this call used belongs to another sandbox: both are left alone. The
// sandbox's module is loaded only here, when a rotation happens: the production image ships no
// sandbox package, and payoutctl must not need one to start.

const DEFAULT_SANDBOX_DATA_DIR = '.data';

/** The sandbox's data folder as npm start from `cwd` uses it (SANDBOX_DATA_DIR, else .data). */
function sandboxDataDir(env: NodeJS.ProcessEnv, cwd: string): string {
  return path.resolve(cwd, env['SANDBOX_DATA_DIR'] || DEFAULT_SANDBOX_DATA_DIR);
}

/**
 * Writes `signingSecret` into the sandbox's credentials file when this rotation was of that
 * sandbox's tenant, made with its operator token (the sandbox's credentials module decides and
 * writes). Returns the file written, or undefined.
 */
export async function recordSandboxSigningSecret(
  opts: {
    env: NodeJS.ProcessEnv;
    cwd: string;
    tenantId: string;
    adminToken: string;
    signingSecret: string;
  },
  loadSandbox: () => Promise<SandboxCredentialsModule> = () => import('@qr-payout/sandbox/credentials'),
): Promise<string | undefined> {
  let sandbox: SandboxCredentialsModule;
  try {
    sandbox = await loadSandbox();
  } catch (err) {
    // Installed without the sandbox (the production image): there is no sandbox to keep true.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw err;
  }
  if (opts.tenantId !== sandbox.SANDBOX_TENANT_ID) return undefined;
  return sandbox.recordRotatedSigningSecret(
    sandboxDataDir(opts.env, opts.cwd),
    opts.adminToken,
    opts.signingSecret,
  );
}

type SandboxCredentialsModule = Pick<
  typeof import('@qr-payout/sandbox/credentials'),
  'SANDBOX_TENANT_ID' | 'recordRotatedSigningSecret'
>;
