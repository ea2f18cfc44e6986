from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TransactionQuote")


@_attrs_define
class TransactionQuote:
    """
    Attributes:
        id (str):
        rate (str): Units of `currency` per one unit of `walletCurrency`, as an exact decimal string.
    """

    id: str
    rate: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        rate = self.rate

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "rate": rate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        rate = d.pop("rate")

        transaction_quote = cls(
            id=id,
            rate=rate,
        )

        return transaction_quote
