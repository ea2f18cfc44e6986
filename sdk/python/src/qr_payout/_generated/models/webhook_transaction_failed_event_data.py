from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.transaction_error import TransactionError


T = TypeVar("T", bound="WebhookTransactionFailedEventData")


@_attrs_define
class WebhookTransactionFailedEventData:
    """
    Attributes:
        transaction_id (str):
        instruction_id (str):
        status (Literal['failed']):
        result (None):
        error (TransactionError):
    """

    transaction_id: str
    instruction_id: str
    status: Literal["failed"]
    result: None
    error: TransactionError

    def to_dict(self) -> dict[str, Any]:
        transaction_id = self.transaction_id

        instruction_id = self.instruction_id

        status = self.status

        result = self.result

        error = self.error.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "transaction_id": transaction_id,
                "instruction_id": instruction_id,
                "status": status,
                "result": result,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.transaction_error import TransactionError

        d = dict(src_dict)
        transaction_id = d.pop("transaction_id")

        instruction_id = d.pop("instruction_id")

        status = cast(Literal["failed"], d.pop("status"))
        if status != "failed":
            raise ValueError(f"status must match const 'failed', got '{status}'")

        result = d.pop("result")

        error = TransactionError.from_dict(d.pop("error"))

        webhook_transaction_failed_event_data = cls(
            transaction_id=transaction_id,
            instruction_id=instruction_id,
            status=status,
            result=result,
            error=error,
        )

        return webhook_transaction_failed_event_data
