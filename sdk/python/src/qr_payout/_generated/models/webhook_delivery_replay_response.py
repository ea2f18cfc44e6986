from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_delivery import WebhookDelivery


T = TypeVar("T", bound="WebhookDeliveryReplayResponse")


@_attrs_define
class WebhookDeliveryReplayResponse:
    """
    Attributes:
        delivery (WebhookDelivery):
        request_id (UUID):
    """

    delivery: WebhookDelivery
    request_id: UUID

    def to_dict(self) -> dict[str, Any]:
        delivery = self.delivery.to_dict()

        request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "delivery": delivery,
                "request_id": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_delivery import WebhookDelivery

        d = dict(src_dict)
        delivery = WebhookDelivery.from_dict(d.pop("delivery"))

        request_id = UUID(d.pop("request_id"))

        webhook_delivery_replay_response = cls(
            delivery=delivery,
            request_id=request_id,
        )

        return webhook_delivery_replay_response
