// JSON Schemas of the public API: the routes validate with them and the OpenAPI document is built
// from them (one source, so the document cannot drift from what the routes accept and send).

import { CURRENCY_CODE_PATTERN } from '@qr-payout/platform/money';
import { PARTNER_STATUSES, RAILS } from '@qr-payout/platform/partner-protocol';
import {
  PAYER_COUNTRY_PATTERN,
  PAYER_ID_TYPES,
  PAYER_TEXT_MAX_LENGTH,
} from '@qr-payout/platform/payer-fields';
import {
  DELIVERY_STATUSES,
  RETRY_STRATEGIES,
  TRANSACTION_STATUSES,
  type WebhookEventType,
} from '@qr-payout/platform/vocabulary';
import { INSTRUCTION_ID_PATTERN, TRANSACTION_ID_PATTERN, WEBHOOK_DELIVERY_ID_PATTERN } from './ids';
import { orNull } from './null-as-absent';

export const ERROR_BODY_SCHEMA = {
  type: 'object',
  required: ['_tag', 'type', 'message', 'docs_url', 'request_id'],
  properties: {
    _tag: { type: 'string', description: 'Error name (see /docs/errors).' },
    type: { type: 'string', description: 'Error name, same as _tag.' },
    message: { type: 'string' },
    docs_url: { type: 'string', format: 'uri', description: 'Where the error is described.' },
    request_id: { type: 'string', format: 'uuid' },
    retryAfter: {
      type: 'integer',
      minimum: 1,
      description: 'On a 429 only: seconds to wait, as in Retry-After.',
    },
    // Only on the errors whose registry entry declares it (`bodyFields`); the OpenAPI document
    // describes it from the registry.
    transaction_id: { type: 'string', pattern: TRANSACTION_ID_PATTERN },
  },
  additionalProperties: false,
} as const;

export const REQUEST_ID_SCHEMA = { type: 'string', format: 'uuid' } as const;

/** A response body of one member, `key`, beside `request_id`. */
function withRequestId<K extends string, S extends object>(key: K, schema: S) {
  return {
    type: 'object',
    required: [key, 'request_id'],
    properties: { [key]: schema, request_id: REQUEST_ID_SCHEMA },
    additionalProperties: false,
  } as const;
}

// Shapes used in more than one resource: the OpenAPI document names each once under
// components.schemas and refers to it wherever it appears (gateway/src/openapi/components.ts).

/** An ISO 4217 alphabetic code; each use says which currency it is. */
export const CURRENCY_CODE_SCHEMA = {
  type: 'string',
  pattern: CURRENCY_CODE_PATTERN,
  description: 'ISO 4217 alphabetic currency code.',
} as const;

const MONEY_DESCRIPTION =
  "JSON number in major units with at most the currency's ISO 4217 minor-unit digits.";

/** An amount of money at the JSON edge; each use says in which currency. */
export const MONEY_SCHEMA = { type: 'number', minimum: 0, description: MONEY_DESCRIPTION } as const;

/** The merchant paid, as the QR named it. */
export const CREDITOR_SCHEMA = {
  type: 'object',
  required: ['name', 'account'],
  properties: { name: { type: 'string' }, account: { type: 'string' } },
  additionalProperties: false,
} as const;

/** How a webhook endpoint's deliveries are retried (docs/api/webhooks.md "Retries"). */
export const RETRY_STRATEGY_SCHEMA = { type: 'string', enum: RETRY_STRATEGIES } as const;

export const SCHEME_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'name',
    'country',
    'currency',
    'rail',
    'qr_types',
    'description',
    'min_amount',
    'max_amount',
  ],
  properties: {
    id: {
      type: 'string',
      description: 'Stable scheme identifier, as `scheme` in an instruction (for example BR.PIX).',
    },
    name: { type: 'string' },
    country: { type: 'string', description: 'ISO 3166-1 alpha-2.' },
    currency: { ...CURRENCY_CODE_SCHEMA, description: 'ISO 4217 payment currency.' },
    rail: { type: 'string' },
    qr_types: { type: 'array', items: { type: 'string', enum: ['static', 'dynamic'] } },
    description: { type: 'string' },
    min_amount: {
      oneOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'null' }],
      description:
        "Smallest amount the scheme's rail accepts, in `currency` with its minor-unit digits; a smaller positive amount is 422 AmountOutOfRange (zero or less is 400 ValidationError). Null only for a rail without configured limits.",
    },
    max_amount: {
      oneOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'null' }],
      description:
        "Largest amount the scheme's rail accepts (inclusive), in `currency`; a larger amount is 422 AmountOutOfRange. Set per partner contract; the sandbox has defaults.",
    },
  },
  additionalProperties: false,
} as const;

/** The payer rules GET /v1/schemes shows once, for every scheme (payout's ListPayerIdentityRules). */
export const PAYER_IDENTITY_SCHEMA = {
  type: 'object',
  description:
    "What execute and pay accept as the payer's identity (docs/payer-identity.md), the same for every " +
    "scheme: a payer whose payer_country is a scheme's country is sent to the partner as a resident of " +
    'it; any other payer, or one who declares no country, as a non-resident.',
  required: ['fields', 'documents', 'passport_format'],
  properties: {
    fields: {
      type: 'array',
      description: 'Every payer field, required ones first.',
      items: {
        type: 'object',
        required: ['field', 'required', 'description'],
        properties: {
          field: { type: 'string' },
          required: { type: 'boolean' },
          description: { type: 'string' },
        },
        additionalProperties: false,
      },
    },
    documents: {
      type: 'array',
      description:
        'The documents whose format (and check digits, where they have them) is checked, by issuing country ' +
        'and payer_id_type. Another country, or a type not listed for a country, is accepted unchecked.',
      items: {
        type: 'object',
        required: ['country', 'id_type', 'name', 'format'],
        properties: {
          country: { type: 'string', description: 'ISO 3166-1 alpha-2 of the issuing country.' },
          id_type: { type: 'string', enum: ['tax_id', 'national_id'] },
          name: { type: 'string', description: 'The document’s own name (CPF/CNPJ, CUIT/CUIL, ...).' },
          format: { type: 'string' },
        },
        additionalProperties: false,
      },
    },
    passport_format: {
      type: 'string',
      description: 'The format a passport number of any country must have.',
    },
  },
  additionalProperties: false,
} as const;

export const SCHEMES_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['schemes', 'payer_identity', 'request_id'],
  properties: {
    schemes: { type: 'array', items: SCHEME_SCHEMA },
    payer_identity: PAYER_IDENTITY_SCHEMA,
    request_id: REQUEST_ID_SCHEMA,
  },
  additionalProperties: false,
} as const;

export const MAX_QR_STRING_LENGTH = 4096;

/** 9×10^16: in minor units of a two-decimal currency still below 2^63. */
export const MAX_REQUEST_AMOUNT = 90_000_000_000_000_000;

export const RESOLVE_REQUEST_SCHEMA = {
  type: 'object',
  required: ['qr_string'],
  properties: {
    qr_string: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_QR_STRING_LENGTH,
      description: 'The text decoded from the merchant QR code, exactly as scanned.',
    },
    wallet_currency: orNull({
      ...CURRENCY_CODE_SCHEMA,
      examples: ['USD'],
      description:
        'ISO 4217 currency the payer pays in (upper case, one of the currencies fx quotes: GET /v1/fx/currencies); an FX quote is made when it differs from the payment currency. Null: not sent.',
    } as const),
    amount: orNull({
      type: 'number',
      exclusiveMinimum: 0,
      // What our minor units (int64) hold for every currency we pay in (two decimals): beyond
      // it the request is malformed, 400. Below it, an amount above the rail's maximum is 422
      // AmountOutOfRange (payout owns the limits; /v1/schemes shows them), so 1e15 is the rail's
      // to refuse; http/money.ts refuses what a JSON number cannot hold exactly.
      maximum: MAX_REQUEST_AMOUNT,
      description:
        "For QR codes that carry no amount: the amount in the payment currency. Zero or negative is 400 ValidationError; a positive amount outside the scheme's min_amount..max_amount is 422 AmountOutOfRange. Null: not sent.",
    } as const),
  },
  additionalProperties: false,
} as const;

// The FX quote an instruction carries when the payer pays from another currency; its fields:
// docs/api/fx-and-confidence.md "FX quotes".
export const QUOTE_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'rate',
    'source_amount',
    'source_currency',
    'target_amount',
    'target_currency',
    'fee',
    'expires_at',
  ],
  properties: {
    id: { type: 'string', pattern: '^quo_', description: 'Quote id; consumed once, at execute.' },
    rate: {
      type: 'string',
      pattern: '^[0-9]+(\\.[0-9]+)?$',
      description:
        'Units of target_currency per one unit of source_currency, as an exact decimal string: the mid rate less ' +
        'the spread, mid × (10000 − FX_SPREAD_BPS) / 10000 (50 bps by default; docs/api/fx-and-confidence.md).',
    },
    source_amount: {
      ...MONEY_SCHEMA,
      description:
        'What the conversion costs in source_currency (the wallet currency): the smallest amount in its minor units ' +
        `worth at least target_amount at rate (rounded up, so the merchant is never short). ${MONEY_DESCRIPTION}`,
    },
    source_currency: { ...CURRENCY_CODE_SCHEMA, description: 'ISO 4217: the wallet currency.' },
    target_amount: {
      ...MONEY_SCHEMA,
      description: `What the merchant receives: the instruction amount. ${MONEY_DESCRIPTION}`,
    },
    target_currency: { ...CURRENCY_CODE_SCHEMA, description: 'ISO 4217: the payment currency.' },
    fee: {
      ...MONEY_SCHEMA,
      description: `Fee charged on top of source_amount, in source_currency (0 when none). ${MONEY_DESCRIPTION}`,
    },
    expires_at: {
      type: 'string',
      format: 'date-time',
      description:
        'ISO 8601 UTC with milliseconds, FX_QUOTE_TTL_MS (60 s by default) after the quote was made; execute after this answers 409 QuoteExpired (resolve again).',
    },
  },
  additionalProperties: false,
} as const;

// The instruction's fields, plus wallet_currency / wallet_amount / quote when the request carried
// wallet_currency (docs/api/resources.md "Instructions (resolve)").
export const INSTRUCTION_SCHEMA = {
  type: 'object',
  required: ['id', 'amount', 'currency', 'creditor', 'scheme', 'country', 'confidence'],
  properties: {
    id: { type: 'string', pattern: '^ins_', description: 'Use as instruction_id in POST /v1/execute.' },
    amount: {
      ...MONEY_SCHEMA,
      description: `What the merchant receives, in the payment currency. ${MONEY_DESCRIPTION}`,
    },
    currency: { ...CURRENCY_CODE_SCHEMA, description: "ISO 4217 payment currency (the merchant country's)." },
    creditor: CREDITOR_SCHEMA,
    scheme: { type: 'string', description: 'Scheme identifier, as listed by GET /v1/schemes.' },
    country: { type: 'string', description: 'ISO 3166-1 alpha-2 country of the merchant.' },
    confidence: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description:
        'Decode confidence in [0, 1]: the sum of the weights of the checks the QR passed (CRC 0.20, mandatory tags 0.15, ' +
        'identifiers valid 0.20, known identifier 0.15, country and currency consistent 0.15, account in clear 0.15). ' +
        'A valid static Pix code scores 1.0; docs/api/fx-and-confidence.md "Confidence".',
    },
    wallet_currency: {
      ...CURRENCY_CODE_SCHEMA,
      description: 'Only when the request had wallet_currency: the currency the user pays in.',
    },
    wallet_amount: {
      ...MONEY_SCHEMA,
      description:
        "Only when the request had wallet_currency: what the user pays in wallet_currency, the quote's " +
        `source_amount plus its fee (equal to amount when wallet_currency is the payment currency). ${MONEY_DESCRIPTION}`,
    },
    quote: {
      description:
        'Only when the request had wallet_currency: the FX quote, or null when wallet_currency is the payment currency.',
      oneOf: [QUOTE_SCHEMA, { type: 'null' }],
    },
  },
  additionalProperties: false,
} as const;

export const RESOLVE_RESPONSE_SCHEMA = withRequestId('instruction', INSTRUCTION_SCHEMA);

export const HEALTH_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['ok', 'unavailable'] } },
  additionalProperties: false,
} as const;

const ISO_TIMESTAMP = { type: 'string', format: 'date-time' } as const;

export const TRANSACTION_STATUS_SCHEMA = {
  type: 'string',
  enum: TRANSACTION_STATUSES,
} as const;

/**
 * A completed transaction's `result` (docs/api/resources.md "Transactions"), also `data.result` of
 * transaction.completed.
 */
export const TRANSACTION_RESULT_SCHEMA = {
  type: 'object',
  required: ['reference', 'settledAt'],
  properties: {
    reference: {
      type: 'string',
      description: "The rail's own reference (for Pix, the end-to-end id).",
    },
    settledAt: { oneOf: [ISO_TIMESTAMP, { type: 'null' }] },
  },
  additionalProperties: false,
} as const;

/**
 * A failed transaction's `error` (docs/api/resources.md "Transactions"), also `data.error` of
 * transaction.failed.
 */
export const TRANSACTION_ERROR_SCHEMA = {
  type: 'object',
  required: ['reason', 'code', 'partnerStatus'],
  properties: {
    reason: { type: 'string' },
    code: { type: 'string', description: 'ISO 20022 reason code (for example `AC03`).' },
    partnerStatus: { type: 'string' },
  },
  additionalProperties: false,
} as const;

/** The FX quote a transaction was converted with, as the transaction shows it. */
export const TRANSACTION_QUOTE_SCHEMA = {
  type: 'object',
  required: ['id', 'rate'],
  properties: {
    id: { type: 'string', pattern: '^quo_' },
    rate: {
      type: 'string',
      pattern: '^[0-9]+(\\.[0-9]+)?$',
      description: 'Units of `currency` per one unit of `walletCurrency`, as an exact decimal string.',
    },
  },
  additionalProperties: false,
} as const;

/** One entry of a transaction's `statusHistory` (docs/api/resources.md "State history"). */
export const STATUS_CHANGE_SCHEMA = {
  type: 'object',
  required: ['status', 'at'],
  properties: {
    status: TRANSACTION_STATUS_SCHEMA,
    at: { ...ISO_TIMESTAMP, description: 'When the transaction entered `status`.' },
  },
  additionalProperties: false,
} as const;

/**
 * docs/api/resources.md "Transactions"; camelCase, as the API has always shown it. `result` and
 * `error` are always present, null until set. The money additions (docs/api/resources.md
 * "Transactions") follow the same camelCase; `walletAmount`, `walletCurrency`
 * and `quote` are null when no FX applied.
 */
export const TRANSACTION_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'instructionId',
    'status',
    'rail',
    'createdAt',
    'updatedAt',
    'result',
    'error',
    'amount',
    'currency',
    'creditor',
    'scheme',
    'country',
    'walletAmount',
    'walletCurrency',
    'quote',
    'statusHistory',
  ],
  properties: {
    id: { type: 'string', pattern: TRANSACTION_ID_PATTERN },
    instructionId: { type: 'string', pattern: INSTRUCTION_ID_PATTERN },
    status: TRANSACTION_STATUS_SCHEMA,
    rail: { type: 'string', description: 'Name of the rail that carries the payout (for example `pix`).' },
    createdAt: ISO_TIMESTAMP,
    updatedAt: ISO_TIMESTAMP,
    result: {
      description: 'Set when the transaction completed.',
      oneOf: [TRANSACTION_RESULT_SCHEMA, { type: 'null' }],
    },
    error: {
      description: 'Set when the transaction failed.',
      oneOf: [TRANSACTION_ERROR_SCHEMA, { type: 'null' }],
    },
    amount: {
      ...MONEY_SCHEMA,
      description: `What the merchant receives, in \`currency\`. ${MONEY_DESCRIPTION}`,
    },
    currency: { ...CURRENCY_CODE_SCHEMA, description: "ISO 4217 payment currency (the merchant country's)." },
    creditor: { ...CREDITOR_SCHEMA, description: 'The merchant paid, as its instruction resolved it.' },
    scheme: { type: 'string', description: 'Scheme identifier, as listed by GET /v1/schemes.' },
    country: { type: 'string', description: 'ISO 3166-1 alpha-2 country of the merchant.' },
    walletAmount: {
      oneOf: [MONEY_SCHEMA, { type: 'null' }],
      description:
        "What the payer paid in `walletCurrency` (the quote's source amount plus its fee); null when no FX applied. " +
        MONEY_DESCRIPTION,
    },
    walletCurrency: {
      oneOf: [CURRENCY_CODE_SCHEMA, { type: 'null' }],
      description: 'ISO 4217 currency the payer paid in; null when no FX applied.',
    },
    quote: {
      description: 'The FX quote the payment was converted with; null when no FX applied.',
      oneOf: [TRANSACTION_QUOTE_SCHEMA, { type: 'null' }],
    },
    statusHistory: {
      type: 'array',
      minItems: 1,
      items: STATUS_CHANGE_SCHEMA,
      description:
        'Every state the transaction entered, oldest first, with when it entered it (UTC, milliseconds); the ' +
        'last is `status`. It starts with `pending` at `createdAt`, and a completed or failed transaction ' +
        'ends with its outcome at `updatedAt`; `processing` appears only when the outcome had not come ' +
        "by the first status check (1 s after the partner accepted, by default) or the end of the pay's wait.",
    },
  },
  additionalProperties: false,
} as const;

export const TRANSACTION_RESPONSE_SCHEMA = withRequestId('transaction', TRANSACTION_SCHEMA);

/** A page of a newest-first list: the items under `key`, `next_cursor`, `request_id`. */
function pagedListSchema<K extends string, S extends object>(key: K, items: S) {
  return {
    type: 'object',
    required: [key, 'next_cursor', 'request_id'],
    properties: {
      [key]: { type: 'array', items, description: 'Newest first.' },
      next_cursor: {
        oneOf: [{ type: 'string', minLength: 1 }, { type: 'null' }],
        description: 'Pass as `cursor` for the next page; null on the last page.',
      },
      request_id: REQUEST_ID_SCHEMA,
    },
    additionalProperties: false,
  } as const;
}

export const TRANSACTIONS_RESPONSE_SCHEMA = pagedListSchema('transactions', TRANSACTION_SCHEMA);

/** GET /v1/instructions/{id}: the instruction as resolve shows it. */
export const INSTRUCTION_RESPONSE_SCHEMA = { ...RESOLVE_RESPONSE_SCHEMA } as const;

/** Custom header names are shown, their values never (docs/api/webhooks.md "Custom headers"). */
export const WEBHOOK_ENDPOINT_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'url',
    'event_types',
    'header_names',
    'retry_strategy',
    'enabled',
    'disabled_reason',
    'created_at',
  ],
  properties: {
    id: { type: 'string', pattern: '^whe_' },
    url: { type: 'string', format: 'uri' },
    event_types: { type: 'array', items: { type: 'string' } },
    header_names: { type: 'array', items: { type: 'string' } },
    retry_strategy: RETRY_STRATEGY_SCHEMA,
    enabled: { type: 'boolean' },
    disabled_reason: { oneOf: [{ type: 'string' }, { type: 'null' }] },
    created_at: ISO_TIMESTAMP,
  },
  additionalProperties: false,
} as const;

export const WEBHOOK_ENDPOINTS_RESPONSE_SCHEMA = withRequestId('endpoints', {
  type: 'array',
  items: WEBHOOK_ENDPOINT_SCHEMA,
} as const);

// Payer identity (docs/api/idempotency.md "Execute and pay"): types only. Presence, lengths,
// characters and the payer's document are checked by payout alone (docs/payer-identity.md
// "Fields"), so no limit is restated here: a second check would refuse with another message.
const PAYER_PROPERTIES = {
  payer_name: {
    type: 'string',
    description: `Full name of the payer as on their identity document (1 to ${PAYER_TEXT_MAX_LENGTH.payer_name} characters, checked by payout).`,
  },
  payer_account: {
    type: 'string',
    description: `Account of the payer at the sending wallet or bank (1 to ${PAYER_TEXT_MAX_LENGTH.payer_account} characters, checked by payout). Never logged in clear.`,
  },
  // What an id may be depends on payer_country and payer_id_type; `examples` only illustrates.
  payer_tax_id: {
    type: 'string',
    description:
      `The payer's own identifier in their own country: tax id, national id or passport number (1 to ${PAYER_TEXT_MAX_LENGTH.payer_tax_id} ` +
      'characters). Checked against the documents of payer_country when given (GET /v1/schemes ' +
      'payer_identity); otherwise sent to the partner as an undeclared foreign identifier. Never logged in clear.',
  },
  payer_country: orNull({
    type: 'string',
    examples: ['AR', 'BR', 'CO'],
    description:
      `Optional: an assigned ISO 3166-1 alpha-2 code, two upper-case letters (\`${PAYER_COUNTRY_PATTERN}\`; not EU, UK, XK, ZZ), ` +
      "of the country that issued payer_tax_id, checked by payout. The payer is a resident of the merchant's " +
      'country when this is that country. Null: not sent.',
  } as const),
  payer_id_type: orNull({
    type: 'string',
    examples: [...PAYER_ID_TYPES],
    description:
      `Optional: what payer_tax_id is, one of ${PAYER_ID_TYPES.map((t) => `\`${t}\``).join(', ')} (checked by payout); requires ` +
      'payer_country. Without it, the type is inferred from the one document of the country the id fits; an id ' +
      'that fits two (a Colombian NIT without its dash is also a CC) is 400 ValidationError naming payer_id_type. ' +
      'Null: not sent.',
  } as const),
} as const;

export const MAX_CALLBACK_URL_LENGTH = 2048;

export const CALLBACK_URL_PROPERTY = orNull({
  type: 'string',
  minLength: 1,
  maxLength: MAX_CALLBACK_URL_LENGTH,
  description:
    'Optional ad-hoc webhook target: receives the transaction.completed or transaction.failed event, ' +
    "signed with the tenant's signing secret. An https URL that is not a loopback, private, " +
    'link-local or metadata address (same rules as registered endpoints); the sandbox, whose services run with ' +
    'WEBHOOK_ALLOW_PRIVATE_TARGETS=true, also takes http and those addresses (http://127.0.0.1:9000/hook). ' +
    'Null: not sent.',
} as const);

export const EXECUTE_REQUEST_SCHEMA = {
  type: 'object',
  required: ['instruction_id', 'payer_name', 'payer_account', 'payer_tax_id'],
  properties: {
    instruction_id: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'The `instruction.id` (`ins_…`) of a POST /v1/resolve answer, yours.',
    },
    ...PAYER_PROPERTIES,
    callback_url: CALLBACK_URL_PROPERTY,
  },
  additionalProperties: false,
} as const;

export const PAY_REQUEST_SCHEMA = {
  type: 'object',
  required: ['qr_string', 'payer_name', 'payer_account', 'payer_tax_id'],
  properties: {
    ...RESOLVE_REQUEST_SCHEMA.properties,
    ...PAYER_PROPERTIES,
    callback_url: CALLBACK_URL_PROPERTY,
  },
  additionalProperties: false,
} as const;

export const EXECUTE_RESPONSE_SCHEMA = withRequestId('transaction', TRANSACTION_SCHEMA);

export const PAY_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['transaction', 'instruction', 'request_id'],
  properties: {
    transaction: TRANSACTION_SCHEMA,
    instruction: {
      ...INSTRUCTION_SCHEMA,
      description:
        'The instruction the QR resolved to, as POST /v1/resolve shows it (with wallet_amount and quote when wallet_currency was sent).',
    },
    request_id: REQUEST_ID_SCHEMA,
  },
  additionalProperties: false,
} as const;

// The partner protocol's payout resource as partners POST it back (docs/partner-protocol.md), for
// the OpenAPI document only: the gateway forwards the signed bytes and payout parses them
// (`parsePayoutResource` in @qr-payout/platform/partner-protocol, whose required fields these are).
// Unknown fields are accepted: a partner adding one must not make us refuse callbacks.
export const PARTNER_CALLBACK_SCHEMA = {
  type: 'object',
  required: ['id', 'idempotency_key', 'rail', 'amount', 'status', 'created_at'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 128, description: "The partner's payout id." },
    idempotency_key: {
      type: 'string',
      pattern: TRANSACTION_ID_PATTERN,
      description: 'Our transaction id, sent as Idempotency-Key when the payout was submitted.',
    },
    rail: { type: 'string', enum: [...RAILS] },
    amount: {
      type: 'object',
      required: ['currency', 'amount_minor'],
      properties: {
        currency: { ...CURRENCY_CODE_SCHEMA, description: 'ISO 4217 code of the rail currency.' },
        amount_minor: {
          type: 'string',
          pattern: '^[1-9][0-9]{0,17}$',
          description: 'Integer minor units (docs/partner-protocol.md).',
        },
      },
    },
    status: { type: 'string', enum: [...PARTNER_STATUSES], description: 'ISO 20022 status.' },
    reason_code: { oneOf: [{ type: 'string', maxLength: 16 }, { type: 'null' }] },
    reason: { oneOf: [{ type: 'string', maxLength: 500 }, { type: 'null' }] },
    reference: { oneOf: [{ type: 'string', maxLength: 128 }, { type: 'null' }] },
    created_at: { type: 'string', format: 'date-time' },
    settled_at: { oneOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
  },
} as const;

export const PARTNER_CALLBACK_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['received', 'request_id'],
  properties: { received: { type: 'boolean', const: true }, request_id: REQUEST_ID_SCHEMA },
  additionalProperties: false,
} as const;

const NULLABLE_TIMESTAMP = { oneOf: [ISO_TIMESTAMP, { type: 'null' }] } as const;

export const WEBHOOK_DELIVERY_STATUS_SCHEMA = {
  type: 'string',
  enum: DELIVERY_STATUSES,
} as const;

/** A webhook delivery (docs/api/webhooks.md "Webhook deliveries", "Delivery states"). */
export const WEBHOOK_DELIVERY_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'event_id',
    'event_type',
    'transaction_id',
    'endpoint_id',
    'url',
    'status',
    'attempts',
    'max_attempts',
    'retry_strategy',
    'next_attempt_at',
    'last_attempt_at',
    'last_response_status',
    'last_error',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string', pattern: WEBHOOK_DELIVERY_ID_PATTERN },
    event_id: {
      type: 'string',
      format: 'uuid',
      description: "The event envelope's event_id (deduplicate on it).",
    },
    event_type: {
      type: 'string',
      description:
        '`transaction.completed`, `transaction.failed` or `webhook.ping` (an operator test event).',
    },
    transaction_id: {
      oneOf: [{ type: 'string', pattern: TRANSACTION_ID_PATTERN }, { type: 'null' }],
      description: 'The transaction the event is about; null for `webhook.ping`.',
    },
    endpoint_id: {
      oneOf: [{ type: 'string', pattern: '^whe_' }, { type: 'null' }],
      description: 'The registered endpoint; null for the ad-hoc `callback_url` path.',
    },
    url: { type: 'string', format: 'uri', description: 'Where the event is sent.' },
    status: {
      ...WEBHOOK_DELIVERY_STATUS_SCHEMA,
      description:
        '`pending` waits for its next attempt, `delivering` has one in flight, `delivered` got a 2xx, ' +
        '`failed` ended without retry (for example a refused target), `exhausted` used every attempt.',
    },
    attempts: {
      type: 'integer',
      minimum: 0,
      description: 'Attempts made in the current series (a replay resets it to 0).',
    },
    max_attempts: {
      type: 'integer',
      minimum: 1,
      description: 'Attempts the retry strategy allows (16 standard, 17 extended).',
    },
    retry_strategy: RETRY_STRATEGY_SCHEMA,
    next_attempt_at: {
      ...NULLABLE_TIMESTAMP,
      description: 'When the next attempt is due; null when none is (delivered, failed, exhausted).',
    },
    last_attempt_at: {
      ...NULLABLE_TIMESTAMP,
      description: 'When the last attempt started; null before the first.',
    },
    last_response_status: {
      oneOf: [{ type: 'integer', minimum: 100, maximum: 599 }, { type: 'null' }],
      description: 'HTTP status of the last attempt; null when none answered.',
    },
    last_error: {
      oneOf: [{ type: 'string' }, { type: 'null' }],
      description: 'The last failure in words; null when none.',
    },
    created_at: ISO_TIMESTAMP,
    updated_at: ISO_TIMESTAMP,
  },
  additionalProperties: false,
} as const;

/** One HTTP attempt of a delivery (GET /v1/webhook-deliveries/{id} `attempt_log`). */
export const WEBHOOK_DELIVERY_ATTEMPT_SCHEMA = {
  type: 'object',
  required: [
    'attempt_number',
    'trigger',
    'started_at',
    'duration_ms',
    'response_status',
    'error_class',
    'error',
    'resolved_address',
    'response_excerpt',
    'succeeded',
  ],
  properties: {
    attempt_number: {
      type: 'integer',
      minimum: 1,
      description: '1-based within its series; a replay starts a new series at 1.',
    },
    trigger: {
      type: 'string',
      description: '`scheduled` (the retry schedule), `replay` (the first attempt after a replay) or `ping`.',
    },
    started_at: ISO_TIMESTAMP,
    duration_ms: { type: 'integer', minimum: 0 },
    response_status: {
      oneOf: [{ type: 'integer', minimum: 100, maximum: 599 }, { type: 'null' }],
      description: 'HTTP status answered; null when no answer arrived.',
    },
    error_class: {
      oneOf: [{ type: 'string' }, { type: 'null' }],
      description:
        'Why it failed: `http_status` for a non-2xx answer, or the failure without an answer (`timeout`, ' +
        '`connection_refused`, `dns`, `refused_target`, ...); null on success.',
    },
    error: {
      oneOf: [{ type: 'string' }, { type: 'null' }],
      description: 'The failure in words; null on success.',
    },
    resolved_address: {
      oneOf: [{ type: 'string' }, { type: 'null' }],
      description: 'The IP address connected to; null when none was.',
    },
    response_excerpt: {
      oneOf: [{ type: 'string' }, { type: 'null' }],
      description: 'The first bytes of the response body (at most 1 KiB); null when empty.',
    },
    succeeded: { type: 'boolean', description: 'True when the receiver answered 2xx.' },
  },
  additionalProperties: false,
} as const;

export const WEBHOOK_DELIVERY_WITH_ATTEMPTS_SCHEMA = {
  ...WEBHOOK_DELIVERY_SCHEMA,
  required: [...WEBHOOK_DELIVERY_SCHEMA.required, 'attempt_log', 'earlier_attempts'],
  properties: {
    ...WEBHOOK_DELIVERY_SCHEMA.properties,
    attempt_log: {
      type: 'array',
      items: WEBHOOK_DELIVERY_ATTEMPT_SCHEMA,
      description:
        'The attempts, oldest first, across replays: every attempt of the current series and the latest 100 of earlier ones.',
    },
    earlier_attempts: {
      type: 'integer',
      minimum: 0,
      description: 'Attempts of earlier series no longer in attempt_log (the oldest ones), 0 when none.',
    },
  },
} as const;

export const WEBHOOK_DELIVERIES_RESPONSE_SCHEMA = pagedListSchema('deliveries', WEBHOOK_DELIVERY_SCHEMA);

export const WEBHOOK_DELIVERY_RESPONSE_SCHEMA = withRequestId(
  'delivery',
  WEBHOOK_DELIVERY_WITH_ATTEMPTS_SCHEMA,
);

export const WEBHOOK_DELIVERY_REPLAY_RESPONSE_SCHEMA = withRequestId('delivery', WEBHOOK_DELIVERY_SCHEMA);

/** The replay takes no body (docs/api/webhooks.md "Webhook deliveries"); none or `{}` is accepted. */
export const WEBHOOK_DELIVERY_REPLAY_REQUEST_SCHEMA = {
  type: 'object',
  properties: {},
  additionalProperties: false,
} as const;

/** The event envelope around `data` (docs/api/webhooks.md "The event"). */
function webhookEventSchema(eventType: WebhookEventType, data: object) {
  return {
    type: 'object',
    required: ['schema_version', 'event_id', 'event_type', 'occurred_at', 'data'],
    properties: {
      schema_version: { type: 'string', const: '1' },
      event_id: {
        type: 'string',
        format: 'uuid',
        description: 'Unique per event (delivery is at least once): store it uniquely and ignore repeats.',
      },
      event_type: { type: 'string', const: eventType },
      occurred_at: { ...ISO_TIMESTAMP, description: 'ISO 8601 UTC with milliseconds.' },
      data,
    },
    additionalProperties: false,
  } as const;
}

/**
 * docs/api/webhooks.md "The event": `result` is set on `transaction.completed`, `error` on
 * `transaction.failed`, each as GET /v1/transactions/{id} shows it (the same presenter makes both).
 */
function webhookTransactionEventDataSchema(status: 'completed' | 'failed') {
  return {
    type: 'object',
    required: ['transaction_id', 'instruction_id', 'status', 'result', 'error'],
    properties: {
      transaction_id: { type: 'string', pattern: TRANSACTION_ID_PATTERN },
      instruction_id: { type: 'string', pattern: INSTRUCTION_ID_PATTERN },
      status: { type: 'string', const: status },
      result: status === 'completed' ? TRANSACTION_RESULT_SCHEMA : { type: 'null' },
      error: status === 'failed' ? TRANSACTION_ERROR_SCHEMA : { type: 'null' },
    },
    additionalProperties: false,
  } as const;
}

export const WEBHOOK_PING_EVENT_DATA_SCHEMA = {
  type: 'object',
  required: ['endpoint_id', 'message'],
  properties: {
    endpoint_id: { type: 'string', pattern: '^whe_' },
    message: { type: 'string' },
  },
  additionalProperties: false,
} as const;

export const WEBHOOK_TRANSACTION_COMPLETED_EVENT_SCHEMA = webhookEventSchema(
  'transaction.completed',
  webhookTransactionEventDataSchema('completed'),
);
export const WEBHOOK_TRANSACTION_FAILED_EVENT_SCHEMA = webhookEventSchema(
  'transaction.failed',
  webhookTransactionEventDataSchema('failed'),
);
export const WEBHOOK_PING_EVENT_SCHEMA = webhookEventSchema('webhook.ping', WEBHOOK_PING_EVENT_DATA_SCHEMA);

/** GET /v1/fx/currencies: a currency fx quotes (fx `ListCurrencies`), for `wallet_currency`. */
export const WALLET_CURRENCY_SCHEMA = {
  type: 'object',
  required: ['code', 'minor_units'],
  properties: {
    code: {
      ...CURRENCY_CODE_SCHEMA,
      description: 'ISO 4217 alphabetic code: a value `wallet_currency` accepts.',
    },
    minor_units: {
      type: 'integer',
      enum: [0, 2, 3],
      description:
        'ISO 4217 minor-unit digits: the decimals a `wallet_amount` or quote `source_amount` in this currency has, ' +
        'and the unit the payer amount is rounded up to.',
    },
  },
  additionalProperties: false,
} as const;

export const WALLET_CURRENCIES_RESPONSE_SCHEMA = withRequestId('currencies', {
  type: 'array',
  items: WALLET_CURRENCY_SCHEMA,
  description: 'Sorted by code.',
} as const);
