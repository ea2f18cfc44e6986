import type { ConnectError } from '@qr-payout/platform';
import { qrDecodeError } from '../../emv/errors';

// Every dynamic Pix failure is a QrDecodeError (INVALID_ARGUMENT) whose message says what went
// wrong; `reason` in the metadata is the stable, machine-readable part.

export type DynamicPixFailure =
  | 'location_invalid'
  | 'location_unreachable'
  | 'location_timeout'
  | 'location_not_found'
  | 'location_http_status'
  | 'response_too_large'
  | 'jws_malformed'
  | 'jws_unsupported'
  | 'jku_not_allowed'
  | 'jwks_unavailable'
  | 'key_not_found'
  | 'bad_signature'
  | 'payload_malformed'
  | 'not_active'
  | 'expired';

export function dynamicPixError(
  reason: DynamicPixFailure,
  message: string,
  metadata: Record<string, string> = {},
): ConnectError {
  return qrDecodeError(message, { ...metadata, reason });
}
