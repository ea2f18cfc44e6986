from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookPingEventData")


@_attrs_define
class WebhookPingEventData:
    """
    Attributes:
        endpoint_id (str):
        message (str):
    """

    endpoint_id: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpoint_id": endpoint_id,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        endpoint_id = d.pop("endpoint_id")

        message = d.pop("message")

        webhook_ping_event_data = cls(
            endpoint_id=endpoint_id,
            message=message,
        )

        return webhook_ping_event_data
