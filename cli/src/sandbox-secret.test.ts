import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
// The sandbox's own reader: the test checks the file as the sandbox's next start sees it.
import { credentialsFile, loadSandboxCredentials } from '@qr-payout/sandbox/credentials';
import type { AdminClient } from './commands';
import { EXIT_OK, runPayoutctl } from './run';
import { recordSandboxSigningSecret } from './sandbox-secret';

let cwd: string;
const io = { stdout: () => undefined, stderr: () => undefined };

beforeEach(async () => {
  cwd = await mkdtemp(path.join(os.tmpdir(), 'payoutctl-sandbox-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const rotating = (secret: string) =>
  (() => ({ rotateSigningSecret: async () => ({ signingSecret: secret }) })) as unknown as () => AdminClient;

describe('secret rotate of the sandbox tenant', () => {
  it("writes the new secret to the sandbox's sandbox.json, which the next start reads", async () => {
    const dataDir = path.join(cwd, '.data');
    const before = await loadSandboxCredentials(dataDir, {});
    const env = { PAYOUT_ADMIN_TOKEN: before.adminToken };
    const argv = ['secret', 'rotate', '--tenant', 'ten_sandbox'];
    expect(await runPayoutctl(argv, env, io, rotating('whsec_rotated_by_payoutctl'), cwd)).toBe(EXIT_OK);

    const after = await loadSandboxCredentials(dataDir, {});
    expect(after).toEqual({ ...before, signingSecret: 'whsec_rotated_by_payoutctl' });
    expect((await stat(credentialsFile(dataDir))).mode & 0o777).toBe(0o600);
  });

  it('follows SANDBOX_DATA_DIR as the sandbox does', async () => {
    const dataDir = path.join(cwd, 'elsewhere');
    const before = await loadSandboxCredentials(dataDir, {});
    const env = { PAYOUT_ADMIN_TOKEN: before.adminToken, SANDBOX_DATA_DIR: 'elsewhere' };
    await runPayoutctl(
      ['secret', 'rotate', '--tenant', 'ten_sandbox'],
      env,
      io,
      rotating('whsec_x_1234567890'),
      cwd,
    );
    expect((await loadSandboxCredentials(dataDir, {})).signingSecret).toBe('whsec_x_1234567890');
  });

  it("leaves the file alone for another tenant or another sandbox's token", async () => {
    const dataDir = path.join(cwd, '.data');
    const before = await loadSandboxCredentials(dataDir, {});
    const stored = await readFile(credentialsFile(dataDir), 'utf8');
    const own = { PAYOUT_ADMIN_TOKEN: before.adminToken };
    await runPayoutctl(
      ['secret', 'rotate', '--tenant', 'ten_other'],
      own,
      io,
      rotating('whsec_a_1234567890'),
      cwd,
    );
    const foreign = { PAYOUT_ADMIN_TOKEN: 'another-sandbox-token' };
    const argv = ['secret', 'rotate', '--tenant', 'ten_sandbox'];
    await runPayoutctl(argv, foreign, io, rotating('whsec_b_1234567890'), cwd);
    expect(await readFile(credentialsFile(dataDir), 'utf8')).toBe(stored);
  });

  it('writes nothing where there is no sandbox (a production operator machine)', async () => {
    const argv = ['secret', 'rotate', '--tenant', 'ten_sandbox'];
    expect(
      await runPayoutctl(argv, { PAYOUT_ADMIN_TOKEN: 't' }, io, rotating('whsec_c_1234567890'), cwd),
    ).toBe(EXIT_OK);
    await expect(stat(path.join(cwd, '.data'))).rejects.toThrow(/ENOENT/);
  });

  it('needs no sandbox package installed (the production image ships none)', async () => {
    const missing = () =>
      Promise.reject(
        Object.assign(new Error("Cannot find module '@qr-payout/sandbox/credentials'"), {
          code: 'MODULE_NOT_FOUND',
        }),
      );
    const opts = {
      env: {},
      cwd,
      tenantId: 'ten_sandbox',
      adminToken: 't',
      signingSecret: 'whsec_d_1234567890',
    };
    await expect(recordSandboxSigningSecret(opts, missing)).resolves.toBeUndefined();
    // Any other failure of the sandbox module is not swallowed.
    await expect(
      recordSandboxSigningSecret(opts, () => Promise.reject(new Error('disk full'))),
    ).rejects.toThrow('disk full');
  });
});
