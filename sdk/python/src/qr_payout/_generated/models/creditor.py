from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Creditor")


@_attrs_define
class Creditor:
    """
    Attributes:
        name (str):
        account (str):
    """

    name: str
    account: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        account = self.account

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "account": account,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        account = d.pop("account")

        creditor = cls(
            name=name,
            account=account,
        )

        return creditor
