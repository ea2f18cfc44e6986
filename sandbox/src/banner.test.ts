import { execFileSync } from 'node:child_process';
import { SANDBOX_TEST_QRS } from '@qr-payout/gateway';
import { BANNER_PAYER, type BannerInfo, bannerCommands, formatBanner, RECEIVER_CALLBACK_URL } from './banner';

const info: BannerInfo = {
  baseUrl: 'http://localhost:18080',
  docsUrl: 'http://localhost:18080/docs',
  adminUrl: 'http://localhost:18081',
  partnerSimUrl: 'http://127.0.0.1:4010',
  apiKey: 'qrp_AbCdEfGh_0123456789abcdefghijABCDEFGHIJ',
  signingSecret: 'whsec_secret-value-for-the-test',
  adminToken: 'operator-token-for-the-test',
  tenantId: 'ten_sandbox',
  dataDir: '/tmp/sandbox-data',
  startupMs: 4321,
};

describe('formatBanner', () => {
  const text = formatBanner(info);

  it('shows every URL and credential the developer needs', () => {
    for (const value of [
      info.baseUrl,
      info.docsUrl,
      info.adminUrl,
      info.partnerSimUrl,
      info.apiKey,
      info.signingSecret,
      info.adminToken,
      info.tenantId,
      info.dataDir,
    ]) {
      expect(text).toContain(value);
    }
  });

  it('exports the key as QR_PAYOUT_API_KEY, the name the docs and the client use, and curls with it', () => {
    expect(text).toContain(`  export QR_PAYOUT_API_KEY='${info.apiKey}'\n`);
    expect(text).toContain(`curl -s ${info.baseUrl}/v1/schemes -H "x-api-key: $QR_PAYOUT_API_KEY"`);
  });

  it('links both sides of the dashboard (docs/dashboard.md): the tenant side on the base URL, the operator side on the admin port', () => {
    expect(text).toMatch(new RegExp(`^ {2}Dashboard: +${info.baseUrl}/dashboard$`, 'm'));
    expect(text).toMatch(new RegExp(`^ {2}Operator dashboard: +${info.adminUrl}/dashboard$`, 'm'));
  });

  it('calls the admin credential the operator token, as the README does', () => {
    expect(text).toMatch(/^ {2}Operator token: +operator-token-for-the-test$/m);
    expect(text).not.toContain('Admin token');
  });

  it('prints the schemes, resolve, pay, transaction and receiver commands with the key and secret', () => {
    const commands = bannerCommands(info);
    for (const command of Object.values(commands)) expect(text).toContain(`  ${command}\n`);
    for (const command of [commands.schemes, commands.resolve, commands.pay, commands.transaction]) {
      expect(command).toContain('-H "x-api-key: $QR_PAYOUT_API_KEY"');
      expect(command).toContain(info.baseUrl);
    }
    expect(commands.receiver).toBe(
      `QR_PAYOUT_SIGNING_SECRET='${info.signingSecret}' node webhook-receiver/examples/receiver.js`,
    );
    expect(commands.transaction).toContain(`${info.baseUrl}/v1/transactions/$(`);
  });

  it('pays a catalogue test QR as a foreign payer, with the receiver as callback_url', () => {
    const body = /-d '(\{.*\})'\)/.exec(bannerCommands(info).pay)?.[1];
    const qrStrings = SANDBOX_TEST_QRS.map((qr) => qr.qr_string);
    const sent = JSON.parse(body ?? '{}');
    expect(qrStrings).toContain(sent.qr_string);
    expect(sent).toMatchObject({ ...BANNER_PAYER, callback_url: RECEIVER_CALLBACK_URL });
    expect(sent.payer_country).not.toBe('BR');
  });

  it('prints commands that bash parses as printed', () => {
    for (const command of Object.values(bannerCommands(info))) {
      expect(() => execFileSync('bash', ['-n', '-c', command], { stdio: 'pipe' })).not.toThrow();
    }
  });

  it('gives a payoutctl example against the admin API with the token', () => {
    expect(text).toContain(
      `PAYOUT_ADMIN_URL=${info.adminUrl} PAYOUT_ADMIN_TOKEN='${info.adminToken}' npx payoutctl tenant list`,
    );
  });

  it('states the startup time in seconds', () => {
    expect(text).toContain('started in 4.3 s');
  });

  it('aligns the values in one column', () => {
    const values = [
      info.baseUrl,
      info.docsUrl,
      info.apiKey,
      info.signingSecret,
      info.tenantId,
      info.adminUrl,
      info.partnerSimUrl,
    ];
    const starts = values.map((value) => {
      const line = text.split('\n').find((l) => l.endsWith(`: ${value}`) || l.endsWith(` ${value}`));
      return line?.indexOf(value);
    });
    expect(starts.every((start) => start !== undefined && start > 0)).toBe(true);
    expect(new Set(starts).size).toBe(1);
  });
});
