import { Code, ConnectError, readErrorDetail } from '@qr-payout/platform/errors';
import { type DynamicPixFailure, dynamicPixError, isPspOutage } from './errors';

// Which dynamic Pix failures are a retryable outage of the merchant's PSP (503 QrLocationUnavailable
// at the API) and which are a permanent answer (422 QrDecodeError).

const OUTAGES: Array<[DynamicPixFailure, string | undefined]> = [
  ['location_unreachable', undefined],
  ['location_timeout', undefined],
  ['jwks_unavailable', undefined],
  ['location_http_status', '500'],
  ['location_http_status', '502'],
  ['location_http_status', '503'],
  ['location_http_status', '504'],
  ['location_http_status', '429'],
];

const PERMANENT: Array<[DynamicPixFailure, string | undefined]> = [
  ['location_invalid', undefined],
  ['location_host_unknown', undefined],
  ['location_not_found', '404'],
  ['location_not_found', '410'],
  ['location_http_status', '301'],
  ['location_http_status', '400'],
  ['location_http_status', '401'],
  ['location_http_status', '403'],
  ['response_too_large', undefined],
  ['jws_malformed', undefined],
  ['jws_unsupported', undefined],
  ['jku_not_allowed', undefined],
  ['jwks_invalid', undefined],
  ['key_not_found', undefined],
  ['bad_signature', undefined],
  ['payload_malformed', undefined],
  ['not_active', undefined],
  ['expired', undefined],
];

const metadataOf = (httpStatus: string | undefined) => ({
  location_host: 'pix.psp.example',
  ...(httpStatus === undefined ? {} : { http_status: httpStatus }),
});

describe('dynamic Pix failures', () => {
  it.each(OUTAGES)('%s (HTTP %s) is QrLocationUnavailable, UNAVAILABLE', (reason, httpStatus) => {
    const error = dynamicPixError(reason, 'The PSP did not answer.', metadataOf(httpStatus));
    expect(error).toBeInstanceOf(ConnectError);
    expect(error.code).toBe(Code.Unavailable);
    expect(readErrorDetail(error)).toEqual({
      tag: 'QrLocationUnavailable',
      message: 'The PSP did not answer.',
      field: 'qr_string',
      metadata: { ...metadataOf(httpStatus), reason },
      code: Code.Unavailable,
    });
  });

  it.each(PERMANENT)('%s (HTTP %s) is QrDecodeError, INVALID_ARGUMENT', (reason, httpStatus) => {
    const error = dynamicPixError(reason, 'No such charge.', metadataOf(httpStatus));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(readErrorDetail(error)).toMatchObject({
      tag: 'QrDecodeError',
      field: 'qr_string',
      metadata: { reason },
    });
  });

  it('classifies every reason (the compiler holds this list to the union)', () => {
    const every: Record<DynamicPixFailure, true> = {
      location_invalid: true,
      location_host_unknown: true,
      location_unreachable: true,
      location_timeout: true,
      location_not_found: true,
      location_http_status: true,
      response_too_large: true,
      jws_malformed: true,
      jws_unsupported: true,
      jku_not_allowed: true,
      jwks_unavailable: true,
      jwks_invalid: true,
      key_not_found: true,
      bad_signature: true,
      payload_malformed: true,
      not_active: true,
      expired: true,
    };
    const tabled = new Set([...OUTAGES, ...PERMANENT].map(([reason]) => reason));
    expect([...tabled].sort()).toEqual(Object.keys(every).sort());
    // A status-dependent reason without a status is not an outage.
    expect(isPspOutage('location_http_status')).toBe(false);
  });
});
