// Custom request headers of a registered endpoint (docs/api/webhooks.md "Custom headers"):
// at most 20, at most 8 KiB in total (name and value bytes), reserved names refused whatever
// their case, names that are HTTP tokens, values without CR, LF or other control characters.
// Problems never quote a header value: values are secrets (bearer tokens, API keys).

export const MAX_CUSTOM_HEADERS = 20;
export const MAX_CUSTOM_HEADER_BYTES = 8 * 1024;
// Names the sender writes itself (the body's framing, the signature and the event's ids) and the
// hop-by-hop and framing headers of RFC 9110 §7.6.1 plus Expect: a receiver that gets
// Transfer-Encoding beside Content-Length, or Connection: upgrade, refuses the request, and every
// attempt would fail until the endpoint is disabled. Content-Encoding too: the body is sent as it is,
// and a receiver told it is gzip could not read it.
const RESERVED_HEADER_NAMES: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'service-signature',
  'x-event-id',
  'x-event-type',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/**
 * Whether a custom header may not have this name (any case): the list above, and every Proxy-*.
 * An underscore counts as a hyphen: CGI and WSGI servers, and proxies that rewrite names, read
 * Transfer_Encoding as Transfer-Encoding (both become HTTP_TRANSFER_ENCODING).
 */
export function isReservedHeaderName(name: string): boolean {
  const lower = name.toLowerCase().replaceAll('_', '-');
  return RESERVED_HEADER_NAMES.has(lower) || lower.startsWith('proxy-');
}

// RFC 9110 §5.6.2 token.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 9110 §5.5 field-value restricted to visible ASCII, space and tab; no CR, LF, NUL, DEL.
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;

export type CustomHeader = { name: string; value: string };
export type HeadersProblem = { field: string; problem: string };

/** The first problem with `headers`, or undefined when they are acceptable. */
export function checkCustomHeaders(headers: readonly CustomHeader[]): HeadersProblem | undefined {
  if (headers.length > MAX_CUSTOM_HEADERS) {
    return { field: 'headers', problem: `at most ${MAX_CUSTOM_HEADERS} custom headers are allowed` };
  }
  const seen = new Set<string>();
  let totalBytes = 0;
  for (const [index, { name, value }] of headers.entries()) {
    const lower = name.toLowerCase();
    if (name === '') return { field: `headers[${index}].name`, problem: 'header name is required' };
    if (!TOKEN.test(name)) {
      return { field: `headers[${index}].name`, problem: 'header name must be an HTTP token' };
    }
    if (isReservedHeaderName(name)) {
      return { field: `headers[${index}].name`, problem: `header ${name} is reserved and cannot be set` };
    }
    if (seen.has(lower)) {
      return { field: `headers[${index}].name`, problem: `header ${name} is given more than once` };
    }
    seen.add(lower);
    if (!FIELD_VALUE.test(value)) {
      return {
        field: `headers[${index}].value`,
        problem: `value of header ${name} must be printable ASCII without CR or LF`,
      };
    }
    if (value !== value.trim()) {
      return {
        field: `headers[${index}].value`,
        problem: `value of header ${name} must not start or end with whitespace`,
      };
    }
    totalBytes += Buffer.byteLength(name, 'utf8') + Buffer.byteLength(value, 'utf8');
  }
  if (totalBytes > MAX_CUSTOM_HEADER_BYTES) {
    return {
      field: 'headers',
      problem: `custom headers must total at most ${MAX_CUSTOM_HEADER_BYTES} bytes`,
    };
  }
  return undefined;
}
