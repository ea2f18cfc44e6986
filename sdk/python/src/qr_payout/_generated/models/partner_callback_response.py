from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="PartnerCallbackResponse")


@_attrs_define
class PartnerCallbackResponse:
    """
    Attributes:
        received (bool):
        request_id (UUID):
    """

    received: bool
    request_id: UUID

    def to_dict(self) -> dict[str, Any]:
        received = self.received

        request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "received": received,
                "request_id": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        received = d.pop("received")

        request_id = UUID(d.pop("request_id"))

        partner_callback_response = cls(
            received=received,
            request_id=request_id,
        )

        return partner_callback_response
