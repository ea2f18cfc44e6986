/** A response read whole, so assertions can look at status, headers and body together. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, otherwise undefined. */
  json: Record<string, unknown> | undefined;
}

export interface CallOptions {
  method?: string;
  /** Sent as x-api-key when defined (an empty string is sent as an empty header). */
  apiKey?: string;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export async function call(baseUrl: string, path: string, opts: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.apiKey !== undefined) headers['x-api-key'] = opts.apiKey;
  if (opts.contentType !== undefined) headers['content-type'] = opts.contentType;
  const res = await fetch(new URL(path, baseUrl), {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    headers,
    body: opts.body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** RFC 9562 UUID (any version), lowercase or uppercase hex. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A well-formed transaction id no transaction has: the gateway asks payout, which answers NOT_FOUND. */
export const UNKNOWN_TRANSACTION = `txn_${'0'.repeat(26)}`;

/**
 * The two client errors the metrics tests cause and check: an unknown transaction (404 on the
 * route, NOT_FOUND at both ends of GetTransaction) and a body the schema refuses (400 on /v1/pay).
 */
export async function causeClientErrors(gatewayUrl: string, apiKey: string): Promise<void> {
  const unknown = await call(gatewayUrl, `/v1/transactions/${UNKNOWN_TRANSACTION}`, { apiKey });
  if (unknown.status !== 404) throw new Error(`unknown transaction answered ${unknown.status}, not 404`);
  const refused = await call(gatewayUrl, '/v1/pay', { apiKey, body: '{}', contentType: 'application/json' });
  if (refused.status !== 400) throw new Error(`an empty pay body answered ${refused.status}, not 400`);
}
