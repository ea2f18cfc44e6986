import { Code, type ConnectError, serviceError } from '@qr-payout/platform/errors';
import { minorUnitsText } from '@qr-payout/platform/money';
import type { Money } from '@qr-payout/proto/payout/common/v1/common_pb';

// docs/api/errors.md "Error names": 404 NotFoundError for an unknown id and for another tenant's id
// alike, so a caller cannot probe which ids exist.
export function instructionNotFound(): ConnectError {
  return serviceError('NotFoundError', 'instruction not found', {
    code: Code.NotFound,
    field: 'instruction_id',
  });
}

/** A CreateInstruction request the gateway should never send: a bug upstream, not a user error. */
export function invalidInstruction(field: string, message: string): ConnectError {
  return serviceError('ValidationError', message, { code: Code.InvalidArgument, field });
}

// docs/api/resources.md "Instructions (resolve)": a QR that carries an amount cannot be paid with
// another one. The message names the QR's amount, so the caller can send it (or none).
export function amountMismatch(qrAmount: Money): ConnectError {
  const fixed = `${minorUnitsText(qrAmount.amountMinor, qrAmount.currency)} ${qrAmount.currency}`;
  return serviceError(
    'AmountMismatch',
    `The amount differs from the amount in the QR code: the QR code fixes ${fixed}; send that amount or none.`,
    { code: Code.InvalidArgument, field: 'amount' },
  );
}

// docs/api/resources.md "Instructions (resolve)": a QR without an amount is paid the request's
// amount, which must then be given.
export function amountRequired(): ConnectError {
  return serviceError('AmountRequired', 'This QR code carries no amount: send the amount to pay.', {
    code: Code.InvalidArgument,
    field: 'amount',
  });
}
