import { type BannerInfo, formatBanner } from './banner';

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

  it('gives a curl example against the schemes endpoint with the key', () => {
    expect(text).toContain(`curl -s ${info.baseUrl}/v1/schemes -H 'x-api-key: ${info.apiKey}'`);
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
