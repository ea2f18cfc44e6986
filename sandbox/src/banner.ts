// The text `npm start` prints once the sandbox is up (docs/architecture.md "Deployment": base URL,
// API key, signing secret, operator token). Shown on the developer's own terminal, the one place the
// sandbox's credentials are meant to appear; they never go to the logs. Every command in it runs as
// printed in bash (key included), in the order docs/quick-start.md follows, with the names the docs
// and the client use: QR_PAYOUT_API_KEY, QR_PAYOUT_SIGNING_SECRET, and "operator token".

import { DYNAMIC_PIX_CHARGE, SANDBOX_TEST_QRS, type SandboxTestQr } from '@qr-payout/gateway';
import { defaultExecuteWaitText } from '@qr-payout/platform/execute-wait';

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

/** Where the printed receiver listens (webhook-receiver/examples/receiver.js). */
export const RECEIVER_CALLBACK_URL = 'http://127.0.0.1:9000/hook';

/** An Argentine paying a Brazilian merchant with their CUIT (docs/payer-identity.md). */
export const BANNER_PAYER = {
  payer_name: 'Juan Perez',
  payer_account: '0001-1234567',
  payer_tax_id: '20-12345678-6',
  payer_country: 'AR',
  payer_id_type: 'tax_id',
} as const;

function testQr(id: string): SandboxTestQr & { qr_string: string } {
  const entry = SANDBOX_TEST_QRS.find((qr) => qr.id === id);
  if (!entry?.qr_string) throw new Error(`no static sandbox test QR ${id}`);
  return entry as SandboxTestQr & { qr_string: string };
}

/**
 * The copy-paste commands: the receiver; the API key exported as QR_PAYOUT_API_KEY (the name
 * @qr-payout/client's examples read), then schemes, resolve, pay (with a webhook), the transaction.
 */
export function bannerCommands(info: Pick<BannerInfo, 'baseUrl' | 'apiKey' | 'signingSecret'>): {
  receiver: string;
  apiKey: string;
  schemes: string;
  resolve: string;
  pay: string;
  transaction: string;
} {
  const key = '-H "x-api-key: $QR_PAYOUT_API_KEY"';
  const json = "-H 'content-type: application/json'";
  const payQr = testQr('br-static-amountless');
  const payBody = JSON.stringify({
    qr_string: payQr.qr_string,
    amount: payQr.amount,
    ...BANNER_PAYER,
    callback_url: RECEIVER_CALLBACK_URL,
  });
  return {
    receiver: `QR_PAYOUT_SIGNING_SECRET='${info.signingSecret}' node webhook-receiver/examples/receiver.js`,
    apiKey: `export QR_PAYOUT_API_KEY='${info.apiKey}'`,
    schemes: `curl -s ${info.baseUrl}/v1/schemes ${key}`,
    resolve: `curl -s ${info.baseUrl}/v1/resolve ${key} ${json} -d '${JSON.stringify({ qr_string: testQr('br-static-amount').qr_string })}'`,
    pay: `PAY=$(curl -s ${info.baseUrl}/v1/pay ${key} ${json} -H "idempotency-key: $(node -p 'crypto.randomUUID()')" -d '${payBody}'); echo "$PAY"`,
    transaction: `curl -s ${info.baseUrl}/v1/transactions/$(node -p 'JSON.parse(process.argv[1]).transaction.id' "$PAY") ${key}`,
  };
}

export function formatBanner(info: BannerInfo): string {
  const seconds = (info.startupMs / 1000).toFixed(1);
  const rows: Array<[string, string]> = [
    ['Base URL', info.baseUrl],
    ['API reference', info.docsUrl],
    ['Test QR codes', `${info.baseUrl}/docs/sandbox-test-qrs`],
    ['Dashboard', `${info.baseUrl}/dashboard`],
    ['API key', info.apiKey],
    ['Signing secret', info.signingSecret],
    ['Tenant', info.tenantId],
    ['Admin API', info.adminUrl],
    ['Operator token', info.adminToken],
    ['Operator dashboard', `${info.adminUrl}/dashboard`],
    ['Partner simulator', info.partnerSimUrl],
    ['Data', info.dataDir],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const commands = bannerCommands(info);
  return [
    '',
    `QR Payout sandbox is running (started in ${seconds} s)`,
    '',
    ...rows.map(([label, value]) => `  ${`${label}:`.padEnd(width + 2)}${value}`),
    '',
    'Try it (bash, from the repository root; docs/quick-start.md walks through it).',
    'In a second terminal, a webhook receiver that verifies signatures (prints "paid <id>"):',
    `  ${commands.receiver}`,
    'In a third: the API key, the schemes, a resolve, a pay of a test QR by an Argentine payer, then its transaction:',
    `  ${commands.apiKey}`,
    `  ${commands.schemes}`,
    `  ${commands.resolve}`,
    `  ${commands.pay}`,
    `  ${commands.transaction}`,
    'A dynamic Pix code: create a charge, then pay its qr_string:',
    `  curl -s ${info.partnerSimUrl}/pix/v2/cob -H 'content-type: application/json' -d '${JSON.stringify(DYNAMIC_PIX_CHARGE)}'`,
    'Operators:',
    `  PAYOUT_ADMIN_URL=${info.adminUrl} PAYOUT_ADMIN_TOKEN='${info.adminToken}' npx payoutctl tenant list`,
    '',
    'Webhooks arrive signed within a second; retries run 10,000 times faster than in production (docs/api/webhooks.md).',
    `Amounts ending in 51 or 53 are answered failed (AC03, AM04); 54 makes the pay call wait ${defaultExecuteWaitText()}, then answer`,
    'processing (it completes about 20 s after the pay was sent): give your HTTP client a longer timeout. Test amounts and triggers:',
    `${info.baseUrl}/docs/api/sandbox; every test QR code: the Test QR codes page.`,
    'Press Ctrl-C to stop. Data is kept in the data folder between runs.',
    '',
  ].join('\n');
}
