import { Code, type ConnectError, readErrorDetail, serviceError } from '@qr-payout/platform/errors';

// The decoder's two coded errors. Both name the field `qr_string`; they differ in whether asking
// again can help: a QR that cannot be decoded never will be, a PSP that did not answer may.

/** INVALID_ARGUMENT, tag QrDecodeError: the QR is not one we can pay; the message says why. */
export function qrDecodeError(message: string, metadata?: Record<string, string>): ConnectError {
  return serviceError('QrDecodeError', message, { code: Code.InvalidArgument, field: 'qr_string', metadata });
}

/**
 * UNAVAILABLE, tag QrLocationUnavailable: the QR is well formed but the payment data it points
 * to (a dynamic Pix location) could not be fetched because the merchant's PSP did not answer.
 * Retryable; the gateway renders it as a 503 of its own, not as a decoder outage.
 */
export function qrLocationUnavailable(message: string, metadata?: Record<string, string>): ConnectError {
  return serviceError('QrLocationUnavailable', message, {
    code: Code.Unavailable,
    field: 'qr_string',
    metadata,
  });
}

/** Whether `err` is one of the decoder's coded errors (either tag above). */
export function isDecoderError(err: unknown): boolean {
  const tag = readErrorDetail(err)?.tag;
  return tag === 'QrDecodeError' || tag === 'QrLocationUnavailable';
}
