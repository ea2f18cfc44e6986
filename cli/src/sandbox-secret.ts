import path from 'node:path';
import { recordRotatedSigningSecret, SANDBOX_TENANT_ID } from '@qr-payout/sandbox/credentials';

// `secret rotate` of the sandbox's own tenant keeps the sandbox's credentials file true
// (cli/README.md "Rotating the sandbox's secret"). The sandbox hands its stored signing secret to
// the admin API on every start (sandbox/src/credentials.ts), so a secret rotated here but not
// written there would be rotated back at the next `npm start`, and the banner would print it.
// Only a local sandbox has this file; a production gateway has none, and a file whose operator
// token is not the one this call used belongs to another sandbox: both are left alone.

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
export async function recordSandboxSigningSecret(opts: {
  env: NodeJS.ProcessEnv;
  cwd: string;
  tenantId: string;
  adminToken: string;
  signingSecret: string;
}): Promise<string | undefined> {
  if (opts.tenantId !== SANDBOX_TENANT_ID) return undefined;
  return recordRotatedSigningSecret(sandboxDataDir(opts.env, opts.cwd), opts.adminToken, opts.signingSecret);
}
