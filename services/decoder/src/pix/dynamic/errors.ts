import type { ConnectError } from '@qr-payout/platform/errors';
import { qrDecodeError, qrLocationUnavailable } from '../../emv/errors';

// Every dynamic Pix failure has a message saying what went wrong and a `reason` in the metadata,
// the stable, machine-readable part. An outage of the merchant's PSP (no connection, no answer in
// time, a 5xx or 429) is QrLocationUnavailable (UNAVAILABLE: retry); every other failure is an
// answer that asking again will not change (not found, unsigned, expired, ...): QrDecodeError.

export type DynamicPixFailure =
  | 'location_invalid'
  | 'location_host_unknown'
  | 'location_unreachable'
  | 'location_timeout'
  | 'location_not_found'
  | 'location_http_status'
  | 'response_too_large'
  | 'jws_malformed'
  | 'jws_unsupported'
  | 'jku_not_allowed'
  | 'jwks_unavailable'
  | 'jwks_invalid'
  | 'key_not_found'
  | 'bad_signature'
  | 'payload_malformed'
  | 'not_active'
  | 'expired';

// Always outages. jwks_unavailable is raised only for an unreachable, silent or 5xx/429 JWKS
// (jwks_invalid covers the rest).
const OUTAGES: ReadonlySet<DynamicPixFailure> = new Set([
  'location_unreachable',
  'location_timeout',
  'jwks_unavailable',
]);

/** Whether an HTTP status from the PSP means "not now" rather than an answer: 5xx and 429. */
export function isRetryableHttpStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

/** Whether the failure is an outage of the merchant's PSP, which may be over on a retry. */
export function isPspOutage(reason: DynamicPixFailure, httpStatus?: number): boolean {
  if (OUTAGES.has(reason)) return true;
  return reason === 'location_http_status' && httpStatus !== undefined && isRetryableHttpStatus(httpStatus);
}

export function dynamicPixError(
  reason: DynamicPixFailure,
  message: string,
  metadata: Record<string, string> = {},
): ConnectError {
  const status = metadata.http_status === undefined ? undefined : Number(metadata.http_status);
  const raise = isPspOutage(reason, status) ? qrLocationUnavailable : qrDecodeError;
  return raise(message, { ...metadata, reason });
}
