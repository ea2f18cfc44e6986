from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.transaction import Transaction


T = TypeVar("T", bound="TransactionResponse")


@_attrs_define
class TransactionResponse:
    """
    Attributes:
        transaction (Transaction):
        request_id (UUID):
    """

    transaction: Transaction
    request_id: UUID

    def to_dict(self) -> dict[str, Any]:
        transaction = self.transaction.to_dict()

        request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "transaction": transaction,
                "request_id": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.transaction import Transaction

        d = dict(src_dict)
        transaction = Transaction.from_dict(d.pop("transaction"))

        request_id = UUID(d.pop("request_id"))

        transaction_response = cls(
            transaction=transaction,
            request_id=request_id,
        )

        return transaction_response
