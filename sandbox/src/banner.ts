// The text `npm start` prints once the sandbox is up (design §8: base URL, API key, signing
// secret, admin token). Shown on the developer's own terminal, the one place the sandbox's
// credentials are meant to appear; they never go to the logs.

export type BannerInfo = {
  baseUrl: string;
  docsUrl: string;
  adminUrl: string;
  partnerSimUrl: string;
  apiKey: string;
  signingSecret: string;
  adminToken: string;
  tenantId: string;
  dataDir: string;
  startupMs: number;
};

export function formatBanner(info: BannerInfo): string {
  const seconds = (info.startupMs / 1000).toFixed(1);
  const rows: Array<[string, string]> = [
    ['Base URL', info.baseUrl],
    ['API reference', info.docsUrl],
    ['API key', info.apiKey],
    ['Signing secret', info.signingSecret],
    ['Tenant', info.tenantId],
    ['Admin API', info.adminUrl],
    ['Admin token', info.adminToken],
    ['Partner simulator', info.partnerSimUrl],
    ['Data', info.dataDir],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    '',
    `QR Payout sandbox is running (started in ${seconds} s)`,
    '',
    ...rows.map(([label, value]) => `  ${`${label}:`.padEnd(width + 2)}${value}`),
    '',
    'Try it:',
    `  curl -s ${info.baseUrl}/v1/schemes -H 'x-api-key: ${info.apiKey}'`,
    `  curl -s ${info.partnerSimUrl}/pix/v2/cob -H 'content-type: application/json' -d '{"valor":"25.90","chave":"+5511999998888","nome":"Padaria"}'`,
    `  PAYOUT_ADMIN_URL=${info.adminUrl} PAYOUT_ADMIN_TOKEN='${info.adminToken}' npx payoutctl tenant list`,
    '',
    'Webhooks: run a receiver, then add "callback_url": "http://127.0.0.1:9000/hook" to a pay (or register',
    `  it: npx payoutctl endpoint create --tenant ${info.tenantId} --url http://127.0.0.1:9000/hook). Events arrive`,
    '  signed within a second; retries run 10,000 times faster than in production (docs/webhooks.md).',
    `  QR_PAYOUT_SIGNING_SECRET='${info.signingSecret}' node webhook-receiver/examples/receiver.js`,
    '',
    'Amounts ending in 51 fail at the partner (AC03); docs/partner-protocol.md "Sandbox outcomes" lists the others.',
    'Press Ctrl-C to stop. Data is kept in the data folder between runs.',
    '',
  ].join('\n');
}
