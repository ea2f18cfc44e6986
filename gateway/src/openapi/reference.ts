import { isErrorTag } from '../errors/registry';

// What the OpenAPI document says beyond the shapes: the tags operations are grouped by, the FX and
// confidence rules (from services/fx and services/decoder, as docs/api/fx-and-confidence.md
// explains them), and the links from each operation to the error catalogue entries it can return.

/**
 * Operation groups, by resource, in the order the reference page shows them: the integrators'
 * first, then Partners and Operations, which integrators do not call.
 */
export const TAGS = [
  {
    name: 'Payments',
    description:
      'Resolve a QR code into an instruction, execute it, or do both in one call (POST /v1/pay). ' +
      'Execute and pay take an `Idempotency-Key` (docs/api/idempotency.md).',
  },
  {
    name: 'Transactions',
    description: 'The payments of your tenant and their states (docs/api/resources.md).',
  },
  { name: 'Instructions', description: 'Instructions as POST /v1/resolve stored them.' },
  {
    name: 'Schemes',
    description: 'The QR schemes the API pays: country, currency, rail, amount limits and payer rules.',
  },
  {
    name: 'FX',
    description:
      'The wallet currencies fx quotes from, and how a quote is priced (docs/api/fx-and-confidence.md).',
  },
  {
    name: 'Webhook endpoints',
    description: 'Where your events are sent; registered by the operator at onboarding.',
  },
  {
    name: 'Webhook deliveries',
    description: 'Every event sent to you, its attempts, and replay (docs/api/webhooks.md).',
  },
  {
    name: 'Sandbox',
    description:
      'Test data for the sandbox: QR codes per country and scenario with the result each gives there. Public, no API key, served by every gateway like any documentation.',
  },
  { name: 'Service', description: 'This document and the reference pages.' },
  {
    name: 'Webhook events',
    description:
      'What your receiver gets (the `webhooks` of this document): the signed event envelope per type.',
  },
  // Last, apart from the integrators' operations: routes other parties call.
  {
    name: 'Partners',
    description: "Not for API clients: the callbacks the rails' partners send (docs/partner-callbacks.md).",
  },
  {
    name: 'Operations',
    description: 'Not for API clients: the liveness and readiness probes of orchestrators and operators.',
  },
] as const;

export type TagName = (typeof TAGS)[number]['name'];

/** The groups API clients do not call: the documentation itself, partner callbacks and probes. */
const NOT_FOR_API_CLIENTS: ReadonlySet<TagName> = new Set(['Service', 'Partners', 'Operations']);

/** Whether an operation is one an API client calls (and so has samples, docs/api/README.md "Samples"). */
export function isForApiClients(tags: readonly TagName[]): boolean {
  return !tags.some((tag) => NOT_FOR_API_CLIENTS.has(tag));
}

/** How fx prices a quote (services/fx/README.md "Quote math and rounding"). */
export const FX_DESCRIPTION =
  "FX: the mid rate is the rate table's (a cross rate through USD: `per_usd(payment) / per_usd(wallet)`); " +
  'the quoted `rate` is the mid less the spread, `mid × (10000 − FX_SPREAD_BPS) / 10000` (50 bps by default, ' +
  'one spread for every currency), in payment-currency units per wallet-currency unit, exact. The merchant ' +
  "receives `amount` exactly; the payer pays the smallest amount in the wallet currency's minor units worth " +
  "at least that at the quoted rate (rounded up, never in the merchant's disfavour: 100.00 BRL at 5.42275 costs " +
  '18.45 USD, not 18.44), plus a fee of `ceil(source × FX_FEE_BPS / 10000)` minor units (0 by default). ' +
  'A quote can be executed until `expires_at`, 60 s after it was made by default (FX_QUOTE_TTL_MS); later ' +
  'execute answers 409 `QuoteExpired`: resolve again. The wallet currencies and their decimals are listed by ' +
  'GET /v1/fx/currencies.';

/** How the decoder scores a QR (services/decoder/README.md "Confidence"). */
export const CONFIDENCE_DESCRIPTION =
  'Decode confidence in [0, 1]: the sum of the weights of the checks the QR passed, rounded to 2 decimals. ' +
  'CRC valid 0.20 (always, on a decoded QR: a bad CRC is refused); mandatory EMVCo tags present 0.15; ' +
  'identifiers valid 0.20 (key format, CPF/CNPJ or CUIT check digits, CBU/CVU, Bre-B key, Yape token shape); ' +
  'a known network or identifier 0.15; country and currency consistent 0.15; the account in clear in the QR ' +
  '0.15 (not for merchant ids and tokens the rail resolves). A valid static Pix code scores 1.0; a Yape or ' +
  'acquirer QR at most 0.85. A low score is information, not a refusal: what cannot be paid is 422 ' +
  '`QrDecodeError`.';

type Operation = {
  description?: string;
  responses: Record<string, unknown>;
};

/** The error tags an operation can answer: its error responses' example names (document.ts). */
export function errorTagsOf(operation: Operation, sharedResponses: Record<string, unknown>): string[] {
  const tags = new Set<string>();
  for (const response of Object.values(operation.responses)) {
    const ref = (response as { $ref?: string }).$ref;
    const resolved = ref ? sharedResponses[ref.replace('#/components/responses/', '')] : response;
    const examples = (resolved as { content?: Record<string, { examples?: object }> }).content?.[
      'application/json'
    ]?.examples;
    for (const name of Object.keys(examples ?? {})) if (isErrorTag(name)) tags.add(name);
  }
  return [...tags];
}

/** Appends to each operation's description the catalogue links of the errors it can return. */
export function withErrorLinks<P extends Record<string, Record<string, Operation>>>(
  paths: P,
  sharedResponses: Record<string, unknown>,
): P {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const tags = errorTagsOf(operation, sharedResponses);
      if (tags.length === 0) continue;
      const links = tags.map((tag) => `[\`${tag}\`](/docs/errors#${tag})`).join(', ');
      operation.description = `${operation.description ?? ''}\n\nErrors it can return: ${links}.`.trim();
    }
  }
  return paths;
}
