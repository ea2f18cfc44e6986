import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AdminClient } from '@qr-payout/test-kit/admin';
import { REPO_ROOT } from './processes';

export { type AdminClient, createAdminClient } from '@qr-payout/test-kit/admin';

export interface TestTenant {
  tenantId: string;
  apiKey: string;
  signingSecret: string;
}

export async function createTenantViaApi(
  admin: AdminClient,
  name: string,
  rateLimitPerMinute = 0,
): Promise<TestTenant> {
  const res = await admin.createTenant({ name, rateLimitPerMinute });
  if (!res.tenant) throw new Error('CreateTenant answered without a tenant');
  return { tenantId: res.tenant.id, apiKey: res.apiKey, signingSecret: res.signingSecret };
}

const execFileAsync = promisify(execFile);

/**
 * Runs `payoutctl` as an operator would (its own process) and parses the JSON it prints. The token
 * goes through PAYOUT_ADMIN_TOKEN, as the CLI recommends (flags show in `ps`).
 */
export async function runPayoutctl(
  args: string[],
  adminUrl: string,
  adminToken: string,
): Promise<Record<string, unknown>> {
  const bin = path.join(REPO_ROOT, 'cli/bin/payoutctl.js');
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PAYOUT_ADMIN_TOKEN: adminToken };
  try {
    const { stdout } = await execFileAsync(process.execPath, [bin, ...args, '--admin-url', adminUrl], {
      cwd: REPO_ROOT,
      env,
      timeout: 60_000,
    });
    return JSON.parse(stdout) as Record<string, unknown>;
  } catch (err) {
    // stdout stays out of the failure: it may hold a printed key.
    const detail = err as { code?: number | string; stderr?: string };
    throw new Error(`payoutctl ${args.join(' ')} failed (exit ${detail.code}):\n${detail.stderr ?? ''}`);
  }
}

export async function createTenantViaCli(
  adminUrl: string,
  adminToken: string,
  name: string,
  rateLimitPerMinute?: number,
): Promise<TestTenant> {
  const args = ['tenant', 'create', '--name', name];
  if (rateLimitPerMinute !== undefined) args.push('--rate-limit', String(rateLimitPerMinute));
  const out = await runPayoutctl(args, adminUrl, adminToken);
  const { tenant, api_key, signing_secret } = out as { tenant?: { id?: unknown }; [k: string]: unknown };
  const tenantId = tenant?.id;
  if (typeof tenantId !== 'string' || typeof api_key !== 'string' || typeof signing_secret !== 'string') {
    throw new Error(`payoutctl tenant create printed an unexpected shape: ${Object.keys(out).join(', ')}`);
  }
  return { tenantId, apiKey: api_key, signingSecret: signing_secret };
}
