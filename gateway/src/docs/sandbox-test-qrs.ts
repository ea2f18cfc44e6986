// The sandbox test-QR catalogue (docs/sandbox-test-qrs.md): merchant codes per country and scenario,
// each with what the sandbox answers. The one owner of this data: the gateway serves it as JSON
// (GET /v1/sandbox/test-qrs) and as the page /docs/sandbox-test-qrs, the sandbox banner and
// docs/quick-start.md copy from it, and test-e2e/sandbox-test-qrs.e2e.test.ts pays every entry.
// It lives in the gateway because the gateway serves it and must not load the decoder's code to
// do so: the strings are plain data here, generated with the decoder's encoder (lengths and CRC)
// by test-e2e/support/generate-sandbox-test-qrs.ts, which the e2e test compares them with.

import { defaultExecuteWaitText } from '@qr-payout/platform/execute-wait';

/** What a test QR exercises. */
export type SandboxTestQrScenario =
  | 'static_amount'
  | 'static_amountless'
  | 'dynamic'
  | 'outcome'
  | 'bad_crc'
  | 'low_confidence';

/** What the sandbox answers for the entry's request. */
export interface SandboxTestQrExpected {
  /** HTTP status of the POST. */
  http_status: number;
  /** The error body's `_tag` when the POST is refused. */
  error?: string;
  /** The transaction's status once terminal (GET /v1/transactions/{id}). */
  transaction_status?: 'completed' | 'failed';
  /** The status in the POST answer when it differs from the terminal one. */
  answered_status?: 'processing';
  /** The transaction's `error.code` when it failed. */
  error_code?: string;
  /** The instruction's `confidence` (POST /v1/resolve). */
  confidence?: number;
}

export interface SandboxTestQr {
  id: string;
  country: 'AR' | 'BO' | 'BR' | 'CO' | 'PE';
  scenario: SandboxTestQrScenario;
  description: string;
  /** null for a dynamic Pix code: `how_to_get` makes one. */
  qr_string: string | null;
  how_to_get?: string;
  /** The request to send it with. */
  operation: 'pay' | 'resolve';
  /** The `amount` to send (major units); absent when the QR carries it. */
  amount?: number;
  expected: SandboxTestQrExpected;
}

/** docs/partner-protocol.md "Sandbox outcomes": the last two digits of the amount in minor units. */
export interface SandboxTestAmount {
  ends_in: string;
  example: number;
  transaction_status: 'completed' | 'failed';
  error_code?: string;
  description: string;
}

export const SANDBOX_TEST_AMOUNTS: readonly SandboxTestAmount[] = [
  {
    ends_in: '51',
    example: 20.51,
    transaction_status: 'failed',
    error_code: 'AC03',
    description:
      'Refused by the partner at once (invalid creditor account); the pay answer is already failed.',
  },
  {
    ends_in: '52',
    example: 20.52,
    transaction_status: 'completed',
    description: 'Accepted, settled after about 150 ms without a partner callback: found by polling.',
  },
  {
    ends_in: '53',
    example: 20.53,
    transaction_status: 'failed',
    error_code: 'AM04',
    description: 'Accepted, then refused (insufficient funds) after about 150 ms, found by polling.',
  },
  {
    ends_in: '54',
    example: 20.54,
    transaction_status: 'completed',
    description: `Slow: the pay call waits the full ${defaultExecuteWaitText()} (\`EXECUTE_WAIT_MS\`), then answers \`processing\`; the payment completes about 20 s after the pay was sent (partner callback).`,
  },
  {
    ends_in: 'anything else',
    example: 25.9,
    transaction_status: 'completed',
    description: 'Settled after about 150 ms; the pay answer is completed.',
  },
];

const COMPLETED: SandboxTestQrExpected = { http_status: 200, transaction_status: 'completed' };

/** Body of the partner simulator's charge API that makes a dynamic Pix code (partner-sim/README.md). */
export const DYNAMIC_PIX_CHARGE = { valor: '25.90', chave: '+5511999998888', nome: 'Padaria' } as const;

export const SANDBOX_TEST_QRS: readonly SandboxTestQr[] = [
  {
    id: 'br-static-amount',
    country: 'BR',
    scenario: 'static_amount',
    description: 'Brazil, static Pix with a random key and an amount (BRL 12.34).',
    qr_string:
      '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-426614174000520458125303986540512.345802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2E00016304960A',
    operation: 'pay',
    expected: COMPLETED,
  },
  {
    id: 'br-static-amountless',
    country: 'BR',
    scenario: 'static_amountless',
    description: 'Brazil, static Pix without an amount: send `amount` (without it: 422 AmountRequired).',
    qr_string:
      '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-4266141740005204581253039865802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2EOUT16304DAE0',
    operation: 'pay',
    amount: 25.9,
    expected: COMPLETED,
  },
  {
    id: 'br-dynamic',
    country: 'BR',
    scenario: 'dynamic',
    description:
      'Brazil, dynamic Pix: a charge made at the partner simulator; the decoder fetches and verifies its signed payload (amount BRL 25.90 from the charge).',
    qr_string: null,
    how_to_get: `POST {partner_simulator}/pix/v2/cob with ${JSON.stringify(DYNAMIC_PIX_CHARGE)} (content-type: application/json); pay the answer's qr_string. npm start prints the simulator's URL and this command.`,
    operation: 'pay',
    expected: COMPLETED,
  },
  {
    id: 'ar-static-amount',
    country: 'AR',
    scenario: 'static_amount',
    description: 'Argentina, transfer to a CBU with an amount (ARS 1500.00).',
    qr_string:
      '0002010102115017001330-62017749-751260022000006800000000222295652045812530303254071500.005802AR5917PARRILLA DON JUAN6012BUENOS AIRES62110507E2E0001630445F1',
    operation: 'pay',
    expected: COMPLETED,
  },
  {
    id: 'ar-static-amountless',
    country: 'AR',
    scenario: 'static_amountless',
    description: 'Argentina, transfer to a CBU without an amount: send `amount`.',
    qr_string:
      '0002010102115017001330-62017749-75126002200000680000000022229565204581253030325802AR5917PARRILLA DON JUAN6012BUENOS AIRES62110507E2E0001630404A9',
    operation: 'pay',
    amount: 2500,
    expected: COMPLETED,
  },
  {
    id: 'bo-static-amount',
    country: 'BO',
    scenario: 'static_amount',
    description: 'Bolivia, interoperable QR of an ATC merchant with an amount (BOB 100.00).',
    qr_string:
      '00020101021132300010bo.com.atc01120428511603035204581253030685406100.005802BO5910HUGO CUSSI6006LA PAZ62110507E2E000163043DC4',
    operation: 'pay',
    expected: COMPLETED,
  },
  {
    id: 'bo-static-amountless',
    country: 'BO',
    scenario: 'static_amountless',
    description: 'Bolivia, interoperable QR of an ATC merchant without an amount: send `amount`.',
    qr_string:
      '00020101021132300010bo.com.atc01120428511603035204581253030685802BO5910HUGO CUSSI6006LA PAZ62110507E2E00016304010D',
    operation: 'pay',
    amount: 50,
    expected: COMPLETED,
  },
  {
    id: 'co-static-amount',
    country: 'CO',
    scenario: 'static_amount',
    description: 'Colombia, Bre-B mobile key with an amount (COP 50000.00).',
    qr_string:
      '00020101021126320014CO.COM.RBM.LLA0210300123456749250014CO.COM.RBM.RED0103RBM520458125303170540850000.005802CO5917TIENDA LA ESQUINA6006BOGOTA62110507E2E00016304D19A',
    operation: 'pay',
    expected: COMPLETED,
  },
  {
    id: 'co-static-amountless',
    country: 'CO',
    scenario: 'static_amountless',
    description: 'Colombia, Bre-B mobile key without an amount: send `amount`.',
    qr_string:
      '00020101021126320014CO.COM.RBM.LLA0210300123456749250014CO.COM.RBM.RED0103RBM5204581253031705802CO5917TIENDA LA ESQUINA6006BOGOTA62110507E2E00016304FC77',
    operation: 'pay',
    amount: 20000,
    expected: COMPLETED,
  },
  {
    id: 'pe-static-amount',
    country: 'PE',
    scenario: 'static_amount',
    description: 'Peru, Yape with an amount (PEN 35.00).',
    qr_string:
      '000201010211393203f92874015c5c6e81301afca0f637ae520456115303604540535.005802PE5906YAPERO6004Lima62110507E2E0001630404B5',
    operation: 'pay',
    expected: COMPLETED,
  },
  {
    id: 'pe-static-amountless',
    country: 'PE',
    scenario: 'static_amountless',
    description: 'Peru, Yape without an amount: send `amount`.',
    qr_string:
      '000201010211393203f92874015c5c6e81301afca0f637ae5204561153036045802PE5906YAPERO6004Lima62110507E2E000163041FFA',
    operation: 'pay',
    amount: 12.5,
    expected: COMPLETED,
  },
  {
    id: 'br-outcome-51',
    country: 'BR',
    scenario: 'outcome',
    description: 'Brazil, static Pix of BRL 20.51: refused by the partner at once.',
    qr_string:
      '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-426614174000520458125303986540520.515802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2E0001630494E2',
    operation: 'pay',
    expected: { http_status: 200, transaction_status: 'failed', error_code: 'AC03' },
  },
  {
    id: 'br-outcome-52',
    country: 'BR',
    scenario: 'outcome',
    description: 'Brazil, static Pix of BRL 20.52: completed, found by polling (no partner callback).',
    qr_string:
      '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-426614174000520458125303986540520.525802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2E000163047E32',
    operation: 'pay',
    expected: COMPLETED,
  },
  {
    id: 'br-outcome-53',
    country: 'BR',
    scenario: 'outcome',
    description: 'Brazil, static Pix of BRL 20.53: accepted, then refused (found by polling).',
    qr_string:
      '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-426614174000520458125303986540520.535802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2E000163042782',
    operation: 'pay',
    expected: { http_status: 200, transaction_status: 'failed', error_code: 'AM04' },
  },
  {
    id: 'br-outcome-54',
    country: 'BR',
    scenario: 'outcome',
    description: `Brazil, static Pix of BRL 20.54: slow; answered processing after the pay's full ${defaultExecuteWaitText()} wait, completed about 20 s after the pay was sent.`,
    qr_string:
      '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-426614174000520458125303986540520.545802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2E00016304BBB3',
    operation: 'pay',
    expected: { http_status: 200, answered_status: 'processing', transaction_status: 'completed' },
  },
  {
    id: 'br-bad-crc',
    country: 'BR',
    scenario: 'bad_crc',
    description: 'br-static-amount with a wrong CRC (0000 instead of 960A): refused, nothing is paid.',
    qr_string:
      '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-426614174000520458125303986540512.345802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2E000163040000',
    operation: 'pay',
    expected: { http_status: 422, error: 'QrDecodeError' },
  },
  {
    id: 'pe-low-confidence',
    country: 'PE',
    scenario: 'low_confidence',
    description:
      'Peru, QR of an acquirer the decoder does not know and without a merchant city: decoded with confidence 0.55; show the creditor to the payer before paying.',
    qr_string:
      '00020101021126280014PE.COM.UNKNOWN0106123456520458125303604540530.005802PE5915BODEGA SAN JUAN62110507E2E000163049E2B',
    operation: 'resolve',
    expected: { http_status: 200, confidence: 0.55 },
  },
];

/** A payer foreign to every merchant country above: a US passport (docs/payer-identity.md). */
export const SANDBOX_TEST_PAYER = {
  payer_name: 'Jane Doe',
  payer_account: 'US-0001-1234567',
  payer_tax_id: 'X12345678',
  payer_country: 'US',
  payer_id_type: 'passport',
} as const;

/** The JSON of GET /v1/sandbox/test-qrs. */
export function sandboxTestQrsDocument() {
  return {
    test_amounts: SANDBOX_TEST_AMOUNTS,
    payer: SANDBOX_TEST_PAYER,
    test_qrs: SANDBOX_TEST_QRS,
  };
}
