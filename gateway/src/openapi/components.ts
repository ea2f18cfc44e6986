import {
  PAYER_COUNTRY_PATTERN,
  PAYER_ID_TYPES,
  PAYER_TEXT_MAX_LENGTH,
  type PayerTextField,
} from '@qr-payout/platform/payer-fields';
import { forbiddenCharacterClass } from '@qr-payout/platform/text';
import { ERROR_TAGS } from '../errors/registry';
import {
  CALLBACK_URL_PROPERTY,
  CREDITOR_SCHEMA,
  CURRENCY_CODE_SCHEMA,
  EXECUTE_REQUEST_SCHEMA,
  EXECUTE_RESPONSE_SCHEMA,
  HEALTH_RESPONSE_SCHEMA,
  INSTRUCTION_RESPONSE_SCHEMA,
  INSTRUCTION_SCHEMA,
  MONEY_SCHEMA,
  PARTNER_CALLBACK_RESPONSE_SCHEMA,
  PARTNER_CALLBACK_SCHEMA,
  PAY_REQUEST_SCHEMA,
  PAY_RESPONSE_SCHEMA,
  PAYER_IDENTITY_SCHEMA,
  QUOTE_SCHEMA,
  RESOLVE_REQUEST_SCHEMA,
  RESOLVE_RESPONSE_SCHEMA,
  RETRY_STRATEGY_SCHEMA,
  SCHEME_SCHEMA,
  SCHEMES_RESPONSE_SCHEMA,
  STATUS_CHANGE_SCHEMA,
  TRANSACTION_ERROR_SCHEMA,
  TRANSACTION_QUOTE_SCHEMA,
  TRANSACTION_RESPONSE_SCHEMA,
  TRANSACTION_RESULT_SCHEMA,
  TRANSACTION_SCHEMA,
  TRANSACTION_STATUS_SCHEMA,
  TRANSACTIONS_RESPONSE_SCHEMA,
  WALLET_CURRENCIES_RESPONSE_SCHEMA,
  WALLET_CURRENCY_SCHEMA,
  WEBHOOK_DELIVERIES_RESPONSE_SCHEMA,
  WEBHOOK_DELIVERY_ATTEMPT_SCHEMA,
  WEBHOOK_DELIVERY_REPLAY_REQUEST_SCHEMA,
  WEBHOOK_DELIVERY_REPLAY_RESPONSE_SCHEMA,
  WEBHOOK_DELIVERY_RESPONSE_SCHEMA,
  WEBHOOK_DELIVERY_SCHEMA,
  WEBHOOK_DELIVERY_STATUS_SCHEMA,
  WEBHOOK_DELIVERY_WITH_ATTEMPTS_SCHEMA,
  WEBHOOK_ENDPOINT_SCHEMA,
  WEBHOOK_ENDPOINTS_RESPONSE_SCHEMA,
} from '../http/schemas';
import { WEBHOOK_EVENTS } from '../http/webhook-events';

// components.schemas of the OpenAPI document: every resource and every shape used in more than one
// place, named once. The routes' JSON Schemas (src/http/schemas.ts) write shapes out in full, as the
// routes validate with them; here each nested use of a named shape becomes a `$ref`, so a client
// generator makes one type per shape, not one per place it appears.

/** The error names, one schema for `_tag` and `type`. */
const ERROR_TAG_SCHEMA = {
  type: 'string',
  enum: ERROR_TAGS,
  description: 'Error name; each has an anchor in /docs/errors.',
} as const;

const componentRef = (name: string) => `#/components/schemas/${name}`;

/**
 * Any webhook event: the envelope (docs/api/webhooks.md "The event"), told apart by `event_type`;
 * one entry per event the document lists (http/webhook-events.ts).
 */
const WEBHOOK_EVENT_SCHEMA = {
  description: 'Any event a receiver gets: the envelope of one event type.',
  oneOf: WEBHOOK_EVENTS.map((event) => ({ $ref: componentRef(event.componentName) })),
  discriminator: {
    propertyName: 'event_type',
    mapping: Object.fromEntries(
      WEBHOOK_EVENTS.map((event) => [event.eventType, componentRef(event.componentName)]),
    ),
  },
};

/** Each event's envelope, under its component name. */
const WEBHOOK_EVENT_SCHEMAS = Object.fromEntries(
  WEBHOOK_EVENTS.map((event) => [event.componentName, event.payload]),
);

/**
 * What payout checks of a payment request beyond the route's schema, stated in the document only:
 * the route leaves these rules to their owner so a refusal is worded once (docs/payer-identity.md).
 * Payer texts are not blank, within their lengths and carry no control or bidirectional formatting
 * character (@qr-payout/platform/text and payer-fields); payer_id_type is one of its types and
 * payer_country is written as a code;
 * callback_url is an absolute http(s) URL (http only where private targets are allowed, the sandbox;
 * docs/api/webhooks.md "Where we send").
 */
const FORBIDDEN = forbiddenCharacterClass();
const PAYER_TEXT_PATTERN = `^[^${FORBIDDEN}]*[^\\s${FORBIDDEN}][^${FORBIDDEN}]*$`;

/** A payment request (execute, pay) with payout's rules on its fields as documented. */
function documentedPaymentRequest<S extends { properties: Record<string, object> }>(schema: S): S {
  const { payer_name, payer_account, payer_tax_id, payer_country, payer_id_type } = schema.properties;
  const text = (field: PayerTextField) => ({
    minLength: 1,
    maxLength: PAYER_TEXT_MAX_LENGTH[field],
    pattern: PAYER_TEXT_PATTERN,
  });
  return {
    ...schema,
    properties: {
      ...schema.properties,
      payer_name: { ...payer_name, ...text('payer_name') },
      payer_account: { ...payer_account, ...text('payer_account') },
      payer_tax_id: { ...payer_tax_id, ...text('payer_tax_id') },
      payer_country: { ...payer_country, pattern: PAYER_COUNTRY_PATTERN },
      // One enum and null, as the document writes every nullable shape (`quote`), so generators make
      // an optional enum rather than an enum with a null member.
      payer_id_type: {
        description: (payer_id_type as { description?: string }).description,
        oneOf: [{ type: 'string', enum: PAYER_ID_TYPES }, { type: 'null' }],
      },
      callback_url: { ...CALLBACK_URL_PROPERTY, format: 'uri', pattern: '^https?://' },
    },
  };
}

/** The named schemas, each as the routes define it; `sharedSchemas` turns nested uses into refs. */
export function componentSchemas<E extends object>(errorBody: E) {
  return {
    ErrorTag: ERROR_TAG_SCHEMA,
    ErrorBody: errorBody,
    Currency: CURRENCY_CODE_SCHEMA,
    Money: MONEY_SCHEMA,
    Creditor: CREDITOR_SCHEMA,
    Scheme: SCHEME_SCHEMA,
    PayerIdentity: PAYER_IDENTITY_SCHEMA,
    SchemesResponse: SCHEMES_RESPONSE_SCHEMA,
    ResolveRequest: RESOLVE_REQUEST_SCHEMA,
    Quote: QUOTE_SCHEMA,
    Instruction: INSTRUCTION_SCHEMA,
    ResolveResponse: RESOLVE_RESPONSE_SCHEMA,
    InstructionResponse: INSTRUCTION_RESPONSE_SCHEMA,
    ExecuteRequest: documentedPaymentRequest(EXECUTE_REQUEST_SCHEMA),
    ExecuteResponse: EXECUTE_RESPONSE_SCHEMA,
    PayRequest: documentedPaymentRequest(PAY_REQUEST_SCHEMA),
    PayResponse: PAY_RESPONSE_SCHEMA,
    PartnerPayout: PARTNER_CALLBACK_SCHEMA,
    PartnerCallbackResponse: PARTNER_CALLBACK_RESPONSE_SCHEMA,
    Health: HEALTH_RESPONSE_SCHEMA,
    TransactionStatus: TRANSACTION_STATUS_SCHEMA,
    TransactionResult: TRANSACTION_RESULT_SCHEMA,
    TransactionError: TRANSACTION_ERROR_SCHEMA,
    TransactionQuote: TRANSACTION_QUOTE_SCHEMA,
    StatusChange: STATUS_CHANGE_SCHEMA,
    Transaction: TRANSACTION_SCHEMA,
    TransactionResponse: TRANSACTION_RESPONSE_SCHEMA,
    TransactionsResponse: TRANSACTIONS_RESPONSE_SCHEMA,
    RetryStrategy: RETRY_STRATEGY_SCHEMA,
    WebhookEndpoint: WEBHOOK_ENDPOINT_SCHEMA,
    WebhookEndpointsResponse: WEBHOOK_ENDPOINTS_RESPONSE_SCHEMA,
    WebhookDeliveryStatus: WEBHOOK_DELIVERY_STATUS_SCHEMA,
    WebhookDelivery: WEBHOOK_DELIVERY_SCHEMA,
    WebhookDeliveryAttempt: WEBHOOK_DELIVERY_ATTEMPT_SCHEMA,
    WebhookDeliveryWithAttempts: WEBHOOK_DELIVERY_WITH_ATTEMPTS_SCHEMA,
    WebhookDeliveriesResponse: WEBHOOK_DELIVERIES_RESPONSE_SCHEMA,
    WebhookDeliveryResponse: WEBHOOK_DELIVERY_RESPONSE_SCHEMA,
    WebhookDeliveryReplayRequest: WEBHOOK_DELIVERY_REPLAY_REQUEST_SCHEMA,
    WebhookDeliveryReplayResponse: WEBHOOK_DELIVERY_REPLAY_RESPONSE_SCHEMA,
    WebhookEvent: WEBHOOK_EVENT_SCHEMA,
    ...WEBHOOK_EVENT_SCHEMAS,
    WalletCurrency: WALLET_CURRENCY_SCHEMA,
    WalletCurrenciesResponse: WALLET_CURRENCIES_RESPONSE_SCHEMA,
  };
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The same value: one object, or equal primitives, or arrays of equal primitives (enums, required). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return (
    Array.isArray(a) &&
    Array.isArray(b) &&
    a.length === b.length &&
    a.every((item, i) => typeof item !== 'object' && item === b[i])
  );
}

/**
 * `schema` is `named` but for its description (a use that says what the shape is there). A named
 * schema that is only a `type` says nothing a plain field does not, so nothing is taken for a use
 * of it (every id and cursor would otherwise read as that name).
 */
function isUseOf(schema: Json, named: Json): boolean {
  const keys = Object.keys(schema).filter((k) => k !== 'description');
  const namedKeys = Object.keys(named).filter((k) => k !== 'description');
  if (namedKeys.length === 1 && namedKeys[0] === 'type') return false;
  return (
    keys.length === namedKeys.length && namedKeys.every((k) => k in schema && sameValue(schema[k], named[k]))
  );
}

/** Keywords whose values are data, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'enum', 'const', 'default', 'required']);

/**
 * A copy of `value` (a schema or any part of the document) where every nested use of a named
 * schema is a `$ref` to it, keeping the use's own description beside the ref. `root` is the named
 * schema being written out, which stays itself at the top.
 */
export function refNamedSchemas<T>(value: T, named: Record<string, object>, root?: object): T {
  return refNamed(value, named, root) as T;
}

function refNamed(value: unknown, named: Record<string, object>, root?: object): unknown {
  if (Array.isArray(value)) return value.map((item) => refNamed(item, named));
  if (!isObject(value)) return value;
  if (value !== root) {
    for (const [name, schema] of Object.entries(named)) {
      if (!isUseOf(value, schema as Json)) continue;
      const ref = { $ref: `#/components/schemas/${name}` };
      const description = value.description;
      return description !== undefined && description !== (schema as Json).description
        ? { ...ref, description }
        : ref;
    }
  }
  const copy: Json = {};
  for (const [key, item] of Object.entries(value))
    copy[key] = DATA_KEYWORDS.has(key) ? item : refNamed(item, named);
  return copy;
}

/** components.schemas: each named schema written once, its nested named shapes as refs. */
export function sharedSchemas<T extends Record<string, object>>(named: T): T {
  return Object.fromEntries(
    Object.entries(named).map(([name, schema]) => [name, refNamed(schema, named, schema)]),
  ) as T;
}
