import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

// The sandbox's credentials (docs/architecture.md "Deployment"): taken from env when set, otherwise
// generated on the first start and kept in `<dataDir>/sandbox.json` (mode 0600), so a restart
// prints the same key, secret and token and the data made with them stays usable.
// `payoutctl secret rotate
// --tenant ten_sandbox` writes the new signing secret into this file (cli/README.md "Rotating the
// sandbox's secret"), so the next start hands the rotated secret to the admin API and prints it
// instead of rotating back to a stale copy.

export type SandboxCredentials = {
  /** x-api-key of the sandbox tenant (SANDBOX_API_KEY). */
  apiKey: string;
  /** The sandbox tenant's webhook signing secret (SANDBOX_SIGNING_SECRET). */
  signingSecret: string;
  /** Bearer token of the admin API (PAYOUT_ADMIN_TOKEN). */
  adminToken: string;
  /** Key that seals secrets at rest in the webhook service (WEBHOOK_SECRETS_KEY). */
  webhookSecretsKey: string;
};

type Field = keyof SandboxCredentials;

const FILE_NAME = 'sandbox.json';

const ENV_NAMES: Record<Field, string> = {
  apiKey: 'SANDBOX_API_KEY',
  signingSecret: 'SANDBOX_SIGNING_SECRET',
  adminToken: 'PAYOUT_ADMIN_TOKEN',
  webhookSecretsKey: 'WEBHOOK_SECRETS_KEY',
};

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 248 = 4 * 62: larger bytes are skipped so every character is equally likely.
const UNBIASED_BYTE_LIMIT = 248;

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_BYTE_LIMIT) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

// Same shapes as the gateway's and the webhook service's own generated values, so sandbox
// credentials look like the ones an operator hands out.
const GENERATORS: Record<Field, () => string> = {
  apiKey: () => `qrp_${randomBase62(8)}_${randomBase62(32)}`,
  signingSecret: () => `whsec_${randomBytes(32).toString('base64url')}`,
  adminToken: () => randomBytes(32).toString('base64url'),
  webhookSecretsKey: () => randomBytes(32).toString('base64'),
};

const FIELDS = Object.keys(ENV_NAMES) as Field[];

/** The tenant npm start makes for itself (sandbox-tenant.ts provisions it). */
export const SANDBOX_TENANT_ID = 'ten_sandbox';

export function credentialsFile(dataDir: string): string {
  return path.join(dataDir, FILE_NAME);
}

async function readStored(file: string): Promise<Partial<SandboxCredentials>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON; fix it or delete it to generate new credentials`);
  }
  const stored: Partial<SandboxCredentials> = {};
  if (parsed && typeof parsed === 'object') {
    for (const field of FIELDS) {
      const value = (parsed as Record<string, unknown>)[field];
      if (typeof value === 'string' && value.length > 0) stored[field] = value;
    }
  }
  return stored;
}

async function writeStored(file: string, values: SandboxCredentials): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/**
 * The credentials to run with: each from its env variable when set, else the stored one, else a
 * new one (then stored). Env values are used as given and never written to the file.
 */
export async function loadSandboxCredentials(
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<SandboxCredentials> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = credentialsFile(dataDir);
  const stored = await readStored(file);
  const generated = { ...stored } as SandboxCredentials;
  let changed = false;
  for (const field of FIELDS) {
    if (!generated[field]) {
      generated[field] = GENERATORS[field]();
      changed = true;
    }
  }
  if (changed) await writeStored(file, generated);
  else await chmod(file, 0o600);

  const result = {} as SandboxCredentials;
  for (const field of FIELDS) {
    const fromEnv = env[ENV_NAMES[field]];
    result[field] = fromEnv !== undefined && fromEnv !== '' ? fromEnv : generated[field];
  }
  return result;
}

/**
 * After `payoutctl secret rotate` of the sandbox's tenant (cli/README.md "Rotating the sandbox's
 * secret"): stores the new signing secret, so the next start hands the admin API this one instead
 * of rotating back to the old. Only when the file exists and was made with `adminToken` (another
 * sandbox's file, or none, is left alone); resolves with the file written, or undefined.
 */
export async function recordRotatedSigningSecret(
  dataDir: string,
  adminToken: string,
  signingSecret: string,
): Promise<string | undefined> {
  const file = credentialsFile(dataDir);
  let stored: Partial<SandboxCredentials>;
  try {
    stored = await readStored(file);
  } catch {
    return undefined;
  }
  if (!signingSecret || stored.adminToken !== adminToken) return undefined;
  await writeStored(file, { ...stored, signingSecret } as SandboxCredentials);
  return file;
}
