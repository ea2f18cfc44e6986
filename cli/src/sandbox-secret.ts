import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

// `secret rotate` of the sandbox's own tenant keeps the sandbox's credentials file true
// (cli/README.md "Rotating the sandbox's secret"). The sandbox hands its stored signing secret to
// the admin API on every start (sandbox/src/credentials.ts), so a secret rotated here but not
// written there would be rotated back at the next `npm start`, and the banner would print it.
// Only a local sandbox has this file; a production gateway has none, and a file whose operator
// token is not the one this call used belongs to another sandbox: both are left alone.

/** The tenant the sandbox makes (sandbox/src/sandbox-tenant.ts). */
export const SANDBOX_TENANT_ID = 'ten_sandbox';
const DEFAULT_SANDBOX_DATA_DIR = '.data';
const FILE_NAME = 'sandbox.json';

export function sandboxCredentialsFile(env: NodeJS.ProcessEnv, cwd: string): string {
  return path.resolve(cwd, env['SANDBOX_DATA_DIR'] || DEFAULT_SANDBOX_DATA_DIR, FILE_NAME);
}

/**
 * Writes `signingSecret` into the sandbox's credentials file when this rotation was of that
 * sandbox's tenant, made with its operator token. Returns the file written, or undefined.
 */
export async function recordSandboxSigningSecret(opts: {
  env: NodeJS.ProcessEnv;
  cwd: string;
  tenantId: string;
  adminToken: string;
  signingSecret: string;
}): Promise<string | undefined> {
  if (opts.tenantId !== SANDBOX_TENANT_ID || !opts.signingSecret) return undefined;
  const file = sandboxCredentialsFile(opts.env, opts.cwd);
  let stored: unknown;
  try {
    stored = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (!stored || typeof stored !== 'object') return undefined;
  if ((stored as { adminToken?: unknown }).adminToken !== opts.adminToken) return undefined;
  const temporary = `${file}.${process.pid}.tmp`;
  const updated = { ...(stored as Record<string, unknown>), signingSecret: opts.signingSecret };
  await writeFile(temporary, `${JSON.stringify(updated, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
  return file;
}
