// Example values of the OpenAPI document: one coherent story (a Pix QR of 100.00 BRL paid from a
// USD wallet at the sandbox's default rates), so "Try it out" sends values the sandbox accepts.
// document.test.ts validates every example against its schema.

import { REASON_TEXT } from '@qr-payout/partner-sim/protocol';

/** A static Pix QR without an amount (the sandbox's, as in the README). */
export const EXAMPLE_QR =
  '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-4266141740005204581253039865802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2EOUT16304DAE0';

export const EXAMPLE_REQUEST_ID = '0b5d8a8e-3f1c-4c55-9a3e-6f0c7a1d2e4b';
export const EXAMPLE_INSTRUCTION_ID = 'ins_01JD8Z5Q2W3E4R5T6Y7V8G9H0P';
export const EXAMPLE_TRANSACTION_ID = 'txn_01JD8Z5Q9X8C7V6B5N4M3K2J1H';
export const EXAMPLE_DELIVERY_ID = 'whd_01JD8Z5R1A2B3C4D5E6F7G8H9J';
export const EXAMPLE_ENDPOINT_ID = 'whe_01JD8Z4M0N1P2Q3R4S5T6V7W8X';
export const EXAMPLE_QUOTE_ID = 'quo_01JD8Z5Q2A3B4C5D6E7F8G9H0J';
export const EXAMPLE_EVENT_ID = '5f0c4b9e-8d2a-4e7b-9c1f-3a6d2e8b7c40';

const CREATED = '2026-11-24T12:00:00.000Z';
const SETTLED = '2026-11-24T12:00:00.180Z';
const EXPIRES = '2026-11-24T12:01:00.000Z';
const CREDITOR = { name: 'PADARIA PAO QUENTE', account: '123e4567-e89b-42d3-a456-426614174000' };

/**
 * 100.00 BRL from USD: mid 5.45 BRL/USD less the default 50 bps spread is 5.42275; the payer pays
 * ceil(100.00 / 5.42275) = 18.45 USD (services/fx/README.md "Quote math and rounding").
 */
export const EXAMPLE_QUOTE = {
  id: EXAMPLE_QUOTE_ID,
  rate: '5.42275',
  source_amount: 18.45,
  source_currency: 'USD',
  target_amount: 100,
  target_currency: 'BRL',
  fee: 0,
  expires_at: EXPIRES,
};

export const EXAMPLE_INSTRUCTION_WITHOUT_FX = {
  id: EXAMPLE_INSTRUCTION_ID,
  amount: 100,
  currency: 'BRL',
  creditor: CREDITOR,
  scheme: 'BR.PIX',
  country: 'BR',
  confidence: 1,
};

export const EXAMPLE_INSTRUCTION = {
  ...EXAMPLE_INSTRUCTION_WITHOUT_FX,
  wallet_currency: 'USD',
  wallet_amount: 18.45,
  quote: EXAMPLE_QUOTE,
};

export const EXAMPLE_TRANSACTION = {
  id: EXAMPLE_TRANSACTION_ID,
  instructionId: EXAMPLE_INSTRUCTION_ID,
  status: 'completed',
  rail: 'pix',
  createdAt: CREATED,
  updatedAt: SETTLED,
  result: { reference: 'E12345678202611241200abcdefghijk', settledAt: SETTLED },
  error: null,
  amount: 100,
  currency: 'BRL',
  creditor: CREDITOR,
  scheme: 'BR.PIX',
  country: 'BR',
  walletAmount: 18.45,
  walletCurrency: 'USD',
  quote: { id: EXAMPLE_QUOTE_ID, rate: '5.42275' },
  // Settled while the pay waited, so never recorded as processing (docs/api/resources.md "State history").
  statusHistory: [
    { status: 'pending', at: CREATED },
    { status: 'completed', at: SETTLED },
  ],
};

export const EXAMPLE_FAILED_TRANSACTION = {
  ...EXAMPLE_TRANSACTION,
  status: 'failed',
  amount: 100.51,
  result: null,
  // …51 is refused AC03 in the sandbox, in the partner simulator's words (docs/api/sandbox.md "Test amounts").
  error: { reason: REASON_TEXT.AC03, code: 'AC03', partnerStatus: 'RJCT' },
  walletAmount: null,
  walletCurrency: null,
  quote: null,
  // Refused at submission: straight from pending to failed.
  statusHistory: [
    { status: 'pending', at: CREATED },
    { status: 'failed', at: SETTLED },
  ],
};

const PAYER = {
  payer_name: 'Maria Silva',
  payer_account: 'wallet-000123',
  payer_tax_id: '52998224725',
  payer_country: 'BR',
  payer_id_type: 'tax_id',
};

export const EXAMPLE_RESOLVE_REQUEST = { qr_string: EXAMPLE_QR, amount: 100, wallet_currency: 'USD' };
/** Not an id of any sandbox: execute takes `instruction.id` from the caller's own POST /v1/resolve. */
export const EXAMPLE_RESOLVED_INSTRUCTION_PLACEHOLDER = 'ins_REPLACE_WITH_RESOLVE_INSTRUCTION_ID';
export const EXAMPLE_EXECUTE_REQUEST = { instruction_id: EXAMPLE_RESOLVED_INSTRUCTION_PLACEHOLDER, ...PAYER };
export const EXAMPLE_PAY_REQUEST = { ...EXAMPLE_RESOLVE_REQUEST, ...PAYER };

export const EXAMPLE_SCHEME = {
  id: 'BR.PIX',
  name: 'Pix',
  country: 'BR',
  currency: 'BRL',
  rail: 'pix',
  qr_types: ['static', 'dynamic'],
  description: 'Brazilian instant payments (EMVCo BR Code).',
  min_amount: 0.01,
  max_amount: 100000,
};

export const EXAMPLE_PAYER_IDENTITY = {
  fields: [
    { field: 'payer_name', required: true, description: 'Full name of the payer.' },
    { field: 'payer_tax_id', required: true, description: "The payer's own identifier." },
    { field: 'payer_country', required: false, description: 'Country that issued payer_tax_id.' },
  ],
  documents: [{ country: 'BR', id_type: 'tax_id', name: 'CPF/CNPJ', format: '11 or 14 digits' }],
  passport_format: '6 to 20 letters and digits',
};

export const EXAMPLE_ENDPOINT = {
  id: EXAMPLE_ENDPOINT_ID,
  url: 'https://example.com/hooks/qr-payout',
  event_types: ['transaction.completed', 'transaction.failed'],
  header_names: ['Authorization'],
  retry_strategy: 'standard',
  enabled: true,
  disabled_reason: null,
  created_at: CREATED,
};

export const EXAMPLE_DELIVERY = {
  id: EXAMPLE_DELIVERY_ID,
  event_id: EXAMPLE_EVENT_ID,
  event_type: 'transaction.completed',
  transaction_id: EXAMPLE_TRANSACTION_ID,
  endpoint_id: EXAMPLE_ENDPOINT_ID,
  url: 'https://example.com/hooks/qr-payout',
  status: 'delivered',
  attempts: 1,
  max_attempts: 16,
  retry_strategy: 'standard',
  next_attempt_at: null,
  last_attempt_at: '2026-11-24T12:00:00.250Z',
  last_response_status: 200,
  last_error: null,
  created_at: SETTLED,
  updated_at: '2026-11-24T12:00:00.300Z',
};

export const EXAMPLE_DELIVERY_WITH_ATTEMPTS = {
  ...EXAMPLE_DELIVERY,
  attempt_log: [
    {
      attempt_number: 1,
      trigger: 'scheduled',
      started_at: '2026-11-24T12:00:00.250Z',
      duration_ms: 48,
      response_status: 200,
      error_class: null,
      error: null,
      resolved_address: '93.184.215.14',
      response_excerpt: 'ok',
      succeeded: true,
    },
  ],
  earlier_attempts: 0,
};

export const EXAMPLE_REPLAYED_DELIVERY = {
  ...EXAMPLE_DELIVERY,
  status: 'pending',
  attempts: 0,
  next_attempt_at: '2026-11-24T12:05:00.000Z',
  updated_at: '2026-11-24T12:05:00.000Z',
};

export const EXAMPLE_WALLET_CURRENCIES = [
  { code: 'ARS', minor_units: 2 },
  { code: 'BOB', minor_units: 2 },
  { code: 'BRL', minor_units: 2 },
  { code: 'COP', minor_units: 2 },
  { code: 'EUR', minor_units: 2 },
  { code: 'PEN', minor_units: 2 },
  { code: 'USD', minor_units: 2 },
];

export const EXAMPLE_PARTNER_CALLBACK = {
  id: 'po_8f14e45fceea167a',
  idempotency_key: EXAMPLE_TRANSACTION_ID,
  rail: 'pix',
  amount: { currency: 'BRL', amount_minor: '10000' },
  status: 'ACSC',
  reason_code: null,
  reason: null,
  reference: 'E12345678202611241200abcdefghijk',
  created_at: CREATED,
  settled_at: SETTLED,
};

const envelope = (eventType: string, data: object) => ({
  schema_version: '1',
  event_id: EXAMPLE_EVENT_ID,
  event_type: eventType,
  occurred_at: SETTLED,
  data,
});

export const EXAMPLE_EVENTS = {
  'transaction.completed': envelope('transaction.completed', {
    transaction_id: EXAMPLE_TRANSACTION_ID,
    instruction_id: EXAMPLE_INSTRUCTION_ID,
    status: 'completed',
    result: EXAMPLE_TRANSACTION.result,
    error: null,
  }),
  'transaction.failed': envelope('transaction.failed', {
    transaction_id: EXAMPLE_TRANSACTION_ID,
    instruction_id: EXAMPLE_INSTRUCTION_ID,
    status: 'failed',
    result: null,
    error: EXAMPLE_FAILED_TRANSACTION.error,
  }),
  'webhook.ping': envelope('webhook.ping', {
    endpoint_id: EXAMPLE_ENDPOINT_ID,
    message: 'Test event from the operator.',
  }),
};

/** The sandbox test QR catalogue, abridged: one test amount and one code (GET /v1/sandbox/test-qrs). */
export const EXAMPLE_SANDBOX_TEST_QRS = {
  test_amounts: [
    {
      ends_in: '51',
      example: 20.51,
      transaction_status: 'failed',
      error_code: 'AC03',
      description: 'Refused by the partner at once.',
    },
  ],
  payer: {
    payer_name: 'Jane Doe',
    payer_account: 'US-0001-1234567',
    payer_tax_id: 'X12345678',
    payer_country: 'US',
    payer_id_type: 'passport',
  },
  test_qrs: [
    {
      id: 'br-bad-crc',
      country: 'BR',
      scenario: 'bad_crc',
      description: 'A static Pix code with a wrong CRC.',
      qr_string:
        '00020101021126580014br.gov.bcb.pix0136123e4567-e89b-42d3-a456-426614174000520458125303986540512.345802BR5918PADARIA PAO QUENTE6009SAO PAULO62110507E2E000163040000',
      operation: 'pay',
      expected: { http_status: 422, error: 'QrDecodeError' },
    },
  ],
};
