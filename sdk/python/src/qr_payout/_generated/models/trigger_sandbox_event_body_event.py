from enum import StrEnum


class TriggerSandboxEventBodyEvent(StrEnum):
    TRANSACTION_COMPLETED = "transaction.completed"
    TRANSACTION_FAILED = "transaction.failed"

    def __str__(self) -> str:
        return str(self.value)
