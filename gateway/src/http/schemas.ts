// JSON Schemas of the public API: the routes validate with them and the OpenAPI document is built
// from them (one source, so the document cannot drift from what the routes accept and send).

export const ERROR_BODY_SCHEMA = {
  type: 'object',
  required: ['_tag', 'type', 'message', 'docs_url', 'request_id'],
  properties: {
    _tag: { type: 'string', description: 'Error name (see /docs/errors).' },
    type: { type: 'string', description: 'Error name, same as _tag.' },
    message: { type: 'string' },
    docs_url: { type: 'string', format: 'uri', description: 'Where the error is described.' },
    request_id: { type: 'string', format: 'uuid' },
    retryAfter: { type: 'integer', minimum: 1, description: 'RateLimitError only: seconds to wait.' },
  },
  additionalProperties: false,
} as const;

export const REQUEST_ID_SCHEMA = { type: 'string', format: 'uuid' } as const;

export const SCHEME_SCHEMA = {
  type: 'object',
  required: ['id', 'name', 'country', 'currency', 'rail', 'required_payer_fields', 'qr_types', 'description'],
  properties: {
    id: {
      type: 'string',
      description: 'Stable scheme identifier, as `scheme` in an instruction (for example BR.PIX).',
    },
    name: { type: 'string' },
    country: { type: 'string', description: 'ISO 3166-1 alpha-2.' },
    currency: { type: 'string', description: 'ISO 4217 payment currency.' },
    rail: { type: 'string' },
    required_payer_fields: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'description'],
        properties: { field: { type: 'string' }, description: { type: 'string' } },
        additionalProperties: false,
      },
    },
    qr_types: { type: 'array', items: { type: 'string', enum: ['static', 'dynamic'] } },
    description: { type: 'string' },
  },
  additionalProperties: false,
} as const;

export const SCHEMES_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['schemes', 'request_id'],
  properties: { schemes: { type: 'array', items: SCHEME_SCHEMA }, request_id: REQUEST_ID_SCHEMA },
  additionalProperties: false,
} as const;

export const MAX_QR_STRING_LENGTH = 4096;

export const RESOLVE_REQUEST_SCHEMA = {
  type: 'object',
  required: ['qr_string'],
  properties: {
    qr_string: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_QR_STRING_LENGTH,
      description: 'The text decoded from the merchant QR code, exactly as scanned (spec §4.1).',
    },
    wallet_currency: {
      type: 'string',
      pattern: '^[A-Z]{3}$',
      description:
        'ISO 4217 currency the payer pays in; an FX quote is made when it differs from the payment currency.',
    },
    amount: {
      type: 'number',
      exclusiveMinimum: 0,
      description: 'For QR codes that carry no amount: the amount in the payment currency (design §3).',
    },
  },
  additionalProperties: false,
} as const;

export const INSTRUCTION_SCHEMA = {
  type: 'object',
  required: ['id', 'amount', 'currency', 'creditor', 'scheme', 'country', 'confidence'],
  properties: {
    id: { type: 'string', pattern: '^ins_', description: 'Use as instruction_id in POST /v1/execute.' },
    amount: { type: 'number', description: 'Amount in the payment currency, at most its minor-unit digits.' },
    currency: { type: 'string' },
    creditor: {
      type: 'object',
      required: ['name', 'account'],
      properties: { name: { type: 'string' }, account: { type: 'string' } },
    },
    scheme: { type: 'string' },
    country: { type: 'string' },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
} as const;

export const RESOLVE_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['instruction', 'request_id'],
  properties: { instruction: INSTRUCTION_SCHEMA, request_id: REQUEST_ID_SCHEMA },
} as const;

export const HEALTH_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['ok', 'unavailable'] } },
  additionalProperties: false,
} as const;
