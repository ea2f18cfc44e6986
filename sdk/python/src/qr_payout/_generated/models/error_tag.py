from enum import StrEnum


class ErrorTag(StrEnum):
    AMOUNTMISMATCH = "AmountMismatch"
    AMOUNTOUTOFRANGE = "AmountOutOfRange"
    AMOUNTREQUIRED = "AmountRequired"
    AUTHERROR = "AuthError"
    CHARGEALREADYPAID = "ChargeAlreadyPaid"
    DELIVERYINFLIGHT = "DeliveryInFlight"
    DELIVERYREPLAYTOOSOON = "DeliveryReplayTooSoon"
    IDEMPOTENCYCONFLICT = "IdempotencyConflict"
    IDEMPOTENCYINPROGRESS = "IdempotencyInProgress"
    IDEMPOTENCYKEYMISSING = "IdempotencyKeyMissing"
    INSTRUCTIONALREADYEXECUTED = "InstructionAlreadyExecuted"
    INTERNALERROR = "InternalError"
    METHODNOTALLOWED = "MethodNotAllowed"
    NOTFOUNDERROR = "NotFoundError"
    PAYLOADTOOLARGE = "PayloadTooLarge"
    QRDECODEERROR = "QrDecodeError"
    QRLOCATIONUNAVAILABLE = "QrLocationUnavailable"
    QUOTEEXPIRED = "QuoteExpired"
    RATELIMITERROR = "RateLimitError"
    SANDBOXONLY = "SandboxOnly"
    SERVICEUNAVAILABLE = "ServiceUnavailable"
    UNSUPPORTEDMEDIATYPE = "UnsupportedMediaType"
    VALIDATIONERROR = "ValidationError"

    def __str__(self) -> str:
        return str(self.value)
