from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.transaction_status import TransactionStatus

T = TypeVar("T", bound="StatusChange")


@_attrs_define
class StatusChange:
    """
    Attributes:
        status (TransactionStatus):
        at (datetime.datetime): When the transaction entered `status`.
    """

    status: TransactionStatus
    at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = TransactionStatus(d.pop("status"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        status_change = cls(
            status=status,
            at=at,
        )

        return status_change
