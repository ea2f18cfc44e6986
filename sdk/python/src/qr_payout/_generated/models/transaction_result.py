from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="TransactionResult")


@_attrs_define
class TransactionResult:
    """
    Attributes:
        reference (str): The rail's own reference (for Pix, the end-to-end id).
        settled_at (datetime.datetime | None):
    """

    reference: str
    settled_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        reference = self.reference

        settled_at: None | str
        if isinstance(self.settled_at, datetime.datetime):
            settled_at = self.settled_at.isoformat()
        else:
            settled_at = self.settled_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reference": reference,
                "settledAt": settled_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reference = d.pop("reference")

        def _parse_settled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                settled_at_type_0 = datetime.datetime.fromisoformat(data)

                return settled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        settled_at = _parse_settled_at(d.pop("settledAt"))

        transaction_result = cls(
            reference=reference,
            settled_at=settled_at,
        )

        return transaction_result
