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
    from ..models.transaction_result import TransactionResult


T = TypeVar("T", bound="WebhookTransactionCompletedEventData")


@_attrs_define
class WebhookTransactionCompletedEventData:
    """
    Attributes:
        transaction_id (str):
        instruction_id (str):
        status (Literal['completed']):
        result (TransactionResult):
        error (None):
    """

    transaction_id: str
    instruction_id: str
    status: Literal["completed"]
    result: TransactionResult
    error: None

    def to_dict(self) -> dict[str, Any]:
        transaction_id = self.transaction_id

        instruction_id = self.instruction_id

        status = self.status

        result = self.result.to_dict()

        error = self.error

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
        from ..models.transaction_result import TransactionResult

        d = dict(src_dict)
        transaction_id = d.pop("transaction_id")

        instruction_id = d.pop("instruction_id")

        status = cast(Literal["completed"], d.pop("status"))
        if status != "completed":
            raise ValueError(f"status must match const 'completed', got '{status}'")

        result = TransactionResult.from_dict(d.pop("result"))

        error = d.pop("error")

        webhook_transaction_completed_event_data = cls(
            transaction_id=transaction_id,
            instruction_id=instruction_id,
            status=status,
            result=result,
            error=error,
        )

        return webhook_transaction_completed_event_data
