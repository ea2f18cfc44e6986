import { Code, type ConnectError, readErrorDetail, serviceError } from '@qr-payout/platform';

/** The decoder's one error: INVALID_ARGUMENT, tag QrDecodeError, a message that says what is wrong. */
export function qrDecodeError(message: string, metadata?: Record<string, string>): ConnectError {
  return serviceError('QrDecodeError', message, { code: Code.InvalidArgument, field: 'qr_string', metadata });
}

export function isQrDecodeError(err: unknown): boolean {
  return readErrorDetail(err)?.tag === 'QrDecodeError';
}
