// Coded errors of ExecuteInstruction and ApplyPartnerCallback (design §6; the gateway maps each
// tag to its HTTP status: 400 IdempotencyConflict, 409 InstructionAlreadyExecuted and QuoteExpired).
import { Code, type ConnectError, serviceError } from '@qr-payout/platform';

export function invalidRequest(field: string, message: string): ConnectError {
  return serviceError('ValidationError', message, { code: Code.InvalidArgument, field });
}

export function idempotencyKeyMissing(): ConnectError {
  return serviceError('IdempotencyKeyMissing', 'An Idempotency-Key is required to execute a payment.', {
    code: Code.InvalidArgument,
    field: 'idempotency_key',
  });
}

// spec §8: the same key with a different body. The client must use a new key.
export function idempotencyConflict(): ConnectError {
  return serviceError(
    'IdempotencyConflict',
    'This Idempotency-Key was already used with a different request body. Use a new key.',
    { code: Code.InvalidArgument, field: 'idempotency_key' },
  );
}

export function instructionAlreadyExecuted(instructionId: string): ConnectError {
  return serviceError('InstructionAlreadyExecuted', 'The instruction was already executed.', {
    code: Code.AlreadyExists,
    field: 'instruction_id',
    metadata: { instruction_id: instructionId },
  });
}

export function quoteExpired(instructionId: string): ConnectError {
  return serviceError('QuoteExpired', "The instruction's FX quote has expired. Resolve the QR code again.", {
    code: Code.FailedPrecondition,
    field: 'instruction_id',
    metadata: { instruction_id: instructionId },
  });
}

// Safe to retry with the same key: nothing reached the partner, or a retry answers what did.
export function dependencyUnavailable(what: string): ConnectError {
  return serviceError('ServiceUnavailable', `${what} is unavailable; retry with the same Idempotency-Key.`, {
    code: Code.Unavailable,
  });
}
