from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.transaction import Transaction


T = TypeVar("T", bound="TransactionsResponse")


@_attrs_define
class TransactionsResponse:
    """
    Attributes:
        transactions (list[Transaction]): Newest first.
        next_cursor (None | str): Pass as `cursor` for the next page; null on the last page.
        request_id (UUID):
    """

    transactions: list[Transaction]
    next_cursor: None | str
    request_id: UUID

    def to_dict(self) -> dict[str, Any]:
        transactions = []
        for transactions_item_data in self.transactions:
            transactions_item = transactions_item_data.to_dict()
            transactions.append(transactions_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "transactions": transactions,
                "next_cursor": next_cursor,
                "request_id": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.transaction import Transaction

        d = dict(src_dict)
        transactions = []
        _transactions = d.pop("transactions")
        for transactions_item_data in _transactions:
            transactions_item = Transaction.from_dict(transactions_item_data)

            transactions.append(transactions_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        request_id = UUID(d.pop("request_id"))

        transactions_response = cls(
            transactions=transactions,
            next_cursor=next_cursor,
            request_id=request_id,
        )

        return transactions_response
