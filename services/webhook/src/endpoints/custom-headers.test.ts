import {
  type CustomHeader,
  checkCustomHeaders,
  MAX_CUSTOM_HEADER_BYTES,
  MAX_CUSTOM_HEADERS,
} from './custom-headers';

function headers(count: number): CustomHeader[] {
  return Array.from({ length: count }, (_, index) => ({ name: `X-Header-${index}`, value: `v${index}` }));
}

// One header whose name and value total exactly `bytes` bytes.
function headerOfBytes(bytes: number): CustomHeader {
  return { name: 'X-Big', value: 'a'.repeat(bytes - 'X-Big'.length) };
}

describe('checkCustomHeaders', () => {
  it.each([
    ['no headers', []],
    ['a bearer token', [{ name: 'Authorization', value: 'Bearer abc.def-ghi' }]],
    ['basic auth', [{ name: 'Authorization', value: 'Basic dXNlcjpwYXNz' }]],
    ['an API-key header with any name', [{ name: 'X-Partner-Key', value: 'k_123' }]],
    ['token characters in the name', [{ name: "X!#$%&'*+-.^_`|~9", value: 'v' }]],
    ['an empty value', [{ name: 'X-Empty', value: '' }]],
    ['a tab inside the value', [{ name: 'X-Tab', value: 'a\tb' }]],
    ['exactly 20 headers', headers(MAX_CUSTOM_HEADERS)],
    ['exactly 8 KiB', [headerOfBytes(MAX_CUSTOM_HEADER_BYTES)]],
  ])('accepts %s', (_, given) => {
    expect(checkCustomHeaders(given)).toBeUndefined();
  });

  it.each([
    ['21 headers', headers(MAX_CUSTOM_HEADERS + 1), 'headers', 'at most 20 custom headers are allowed'],
    [
      '8 KiB + 1 byte',
      [headerOfBytes(MAX_CUSTOM_HEADER_BYTES + 1)],
      'headers',
      'custom headers must total at most 8192 bytes',
    ],
    [
      '8 KiB + 1 byte across two headers',
      [headerOfBytes(4096), headerOfBytes(4097)].map((h, i) => ({
        ...h,
        name: `${h.name}${i}`,
        value: h.value.slice(1),
      })),
      'headers',
      'custom headers must total at most 8192 bytes',
    ],
    ['an empty name', [{ name: '', value: 'v' }], 'headers[0].name', 'header name is required'],
    [
      'a space in the name',
      [{ name: 'X Key', value: 'v' }],
      'headers[0].name',
      'header name must be an HTTP token',
    ],
    [
      'a colon in the name',
      [{ name: 'X-Key:', value: 'v' }],
      'headers[0].name',
      'header name must be an HTTP token',
    ],
    [
      'CRLF in the name',
      [{ name: 'X-A\r\nX-B', value: 'v' }],
      'headers[0].name',
      'header name must be an HTTP token',
    ],
    [
      'a non-ASCII name',
      [{ name: 'X-Clé', value: 'v' }],
      'headers[0].name',
      'header name must be an HTTP token',
    ],
    [
      'the same name twice in another case',
      [
        { name: 'X-Key', value: 'a' },
        { name: 'x-key', value: 'b' },
      ],
      'headers[1].name',
      'header x-key is given more than once',
    ],
    [
      'CR in the value',
      [{ name: 'X-A', value: 'a\rb' }],
      'headers[0].value',
      'value of header X-A must be printable ASCII without CR or LF',
    ],
    [
      'LF in the value',
      [{ name: 'X-A', value: 'a\nInjected: 1' }],
      'headers[0].value',
      'value of header X-A must be printable ASCII without CR or LF',
    ],
    [
      'NUL in the value',
      [{ name: 'X-A', value: 'a\u0000' }],
      'headers[0].value',
      'value of header X-A must be printable ASCII without CR or LF',
    ],
    [
      'non-ASCII in the value',
      [{ name: 'X-A', value: 'señal' }],
      'headers[0].value',
      'value of header X-A must be printable ASCII without CR or LF',
    ],
    [
      'leading space in the value',
      [{ name: 'X-A', value: ' v' }],
      'headers[0].value',
      'value of header X-A must not start or end with whitespace',
    ],
  ])('refuses %s', (_, given, field, problem) => {
    expect(checkCustomHeaders(given)).toEqual({ field, problem });
  });

  it.each([
    'Host',
    'host',
    'HOST',
    'hOsT',
    'Content-Length',
    'content-length',
    'CONTENT-LENGTH',
    'Content-length',
    'Content-Type',
    'content-type',
    'CONTENT-TYPE',
    'cOnTeNt-TyPe',
    'Service-Signature',
    'service-signature',
    'SERVICE-SIGNATURE',
    'Service-signature',
    'X-Event-Id',
    'x-event-type',
    'Transfer-Encoding',
    'Connection',
    'Keep-Alive',
    'TE',
    'Trailer',
    'Upgrade',
    'Expect',
    'Proxy-Authorization',
    'proxy-connection',
    'Content-Encoding',
    // An underscore counts as a hyphen (CGI/WSGI read both as HTTP_TRANSFER_ENCODING).
    'Transfer_Encoding',
    'content_length',
    'Proxy_Authorization',
    'X_Event_Id',
  ])('refuses the reserved name %s', (name) => {
    expect(
      checkCustomHeaders([
        { name: 'X-Ok', value: 'v' },
        { name, value: 'v' },
      ]),
    ).toEqual({
      field: 'headers[1].name',
      problem: `header ${name} is reserved and cannot be set`,
    });
  });

  it('never quotes a header value in a problem', () => {
    const secret = 'Bearer sk_live_should_not_leak\n';
    const problem = checkCustomHeaders([{ name: 'Authorization', value: secret }]);
    expect(problem?.problem).not.toContain('sk_live');
  });
});
