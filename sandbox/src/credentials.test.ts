import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { credentialsFile, loadSandboxCredentials } from './credentials';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sandbox-credentials-'));
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('loadSandboxCredentials', () => {
  it('generates credentials in the shapes operators hand out, and stores them 0600', async () => {
    const creds = await loadSandboxCredentials(dataDir, {});
    expect(creds.apiKey).toMatch(/^qrp_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
    expect(creds.signingSecret).toMatch(/^whsec_[0-9A-Za-z_-]{43}$/);
    expect(creds.adminToken).toMatch(/^[0-9A-Za-z_-]{43}$/);
    expect(Buffer.from(creds.webhookSecretsKey, 'base64')).toHaveLength(32);

    const file = credentialsFile(dataDir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(creds);
  });

  it('returns the same credentials on the next start', async () => {
    const first = await loadSandboxCredentials(dataDir, {});
    const second = await loadSandboxCredentials(dataDir, {});
    expect(second).toEqual(first);
  });

  it('generates different credentials in another data dir', async () => {
    const other = await mkdtemp(path.join(os.tmpdir(), 'sandbox-credentials-'));
    try {
      const a = await loadSandboxCredentials(dataDir, {});
      const b = await loadSandboxCredentials(other, {});
      expect(b.apiKey).not.toBe(a.apiKey);
      expect(b.signingSecret).not.toBe(a.signingSecret);
      expect(b.adminToken).not.toBe(a.adminToken);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('lets env override each value without writing it to the file', async () => {
    const env = {
      SANDBOX_API_KEY: 'my-own-sandbox-key-0001',
      SANDBOX_SIGNING_SECRET: 'whsec_my-own-secret-0001',
      PAYOUT_ADMIN_TOKEN: 'operator-token-0001',
    };
    const creds = await loadSandboxCredentials(dataDir, env);
    expect(creds).toMatchObject({
      apiKey: env.SANDBOX_API_KEY,
      signingSecret: env.SANDBOX_SIGNING_SECRET,
      adminToken: env.PAYOUT_ADMIN_TOKEN,
    });
    const stored = await readFile(credentialsFile(dataDir), 'utf8');
    for (const value of Object.values(env)) expect(stored).not.toContain(value);

    // Without the overrides, the stored (generated) values come back.
    const plain = await loadSandboxCredentials(dataDir, { SANDBOX_API_KEY: '' });
    expect(plain.apiKey).toMatch(/^qrp_/);
    expect(plain.webhookSecretsKey).toBe(creds.webhookSecretsKey);
  });

  it('completes a file that lacks a value and keeps the others', async () => {
    await writeFile(credentialsFile(dataDir), JSON.stringify({ apiKey: 'qrp_kept0000_value' }), {
      mode: 0o644,
    });
    const creds = await loadSandboxCredentials(dataDir, {});
    expect(creds.apiKey).toBe('qrp_kept0000_value');
    expect(creds.signingSecret).toMatch(/^whsec_/);
    expect((await stat(credentialsFile(dataDir))).mode & 0o777).toBe(0o600);
  });

  it('tightens a complete file to 0600', async () => {
    const creds = await loadSandboxCredentials(dataDir, {});
    await writeFile(credentialsFile(dataDir), JSON.stringify(creds), { mode: 0o644 });
    await chmod(credentialsFile(dataDir), 0o644);
    await loadSandboxCredentials(dataDir, {});
    expect((await stat(credentialsFile(dataDir))).mode & 0o777).toBe(0o600);
  });

  it('refuses a file that is not JSON, naming it', async () => {
    await writeFile(credentialsFile(dataDir), 'not json');
    await expect(loadSandboxCredentials(dataDir, {})).rejects.toThrow(
      `${credentialsFile(dataDir)} is not valid JSON`,
    );
  });
});
