// Coded errors of ExecuteInstruction and ApplyPartnerCallback (docs/api/errors.md "Error names";
// the gateway maps each tag to its HTTP status: 400 IdempotencyConflict, 409
// InstructionAlreadyExecuted, ChargeAlreadyPaid and QuoteExpired).
import { Code, type ConnectError, serviceError } from '@qr-payout/platform/errors';

export function invalidRequest(field: string, message: string): ConnectError {
  return serviceError('ValidationError', message, { code: Code.InvalidArgument, field });
}

export function idempotencyKeyMissing(): ConnectError {
  return serviceError('IdempotencyKeyMissing', 'An Idempotency-Key is required to execute a payment.', {
    code: Code.InvalidArgument,
    field: 'idempotency_key',
  });
}

// docs/api/idempotency.md "The Idempotency-Key": the same key with a different body. The client
// must use a new key.
export function idempotencyConflict(): ConnectError {
  return serviceError(
    'IdempotencyConflict',
    'This Idempotency-Key was already used with a different request body. Use a new key.',
    { code: Code.InvalidArgument, field: 'idempotency_key' },
  );
}

/**
 * `transactionId`: the transaction that executed the instruction (the same tenant's, as the
 * instruction is), shown to the client as the error body's `transaction_id`
 * (docs/api/idempotency.md "The Idempotency-Key").
 */
export function instructionAlreadyExecuted(instructionId: string, transactionId = ''): ConnectError {
  return serviceError('InstructionAlreadyExecuted', 'The instruction was already executed.', {
    code: Code.AlreadyExists,
    field: 'instruction_id',
    metadata: {
      instruction_id: instructionId,
      ...(transactionId !== '' ? { transaction_id: transactionId } : {}),
    },
  });
}

/**
 * A single-use charge (dynamic Pix) already has a live payment, from another
 * instruction of the same QR. `instructionId`: the caller's instruction, '' for a pay (whose
 * instruction was never stored). `ownTransactionId`: that payment's id, given only when it is the
 * caller's tenant's; another tenant's id is never shown.
 */
export function chargeAlreadyPaid(instructionId: string, ownTransactionId?: string): ConnectError {
  const by = ownTransactionId === undefined ? '' : ` by transaction ${ownTransactionId}`;
  return serviceError(
    'ChargeAlreadyPaid',
    `The dynamic QR's charge was already paid or is being paid${by}: a single-use code is paid once.`,
    {
      code: Code.AlreadyExists,
      field: 'instruction_id',
      metadata: {
        ...(instructionId !== '' ? { instruction_id: instructionId } : {}),
        ...(ownTransactionId === undefined ? {} : { transaction_id: ownTransactionId }),
      },
    },
  );
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
