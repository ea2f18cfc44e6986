from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_delivery_with_attempts import WebhookDeliveryWithAttempts


T = TypeVar("T", bound="WebhookDeliveryResponse")


@_attrs_define
class WebhookDeliveryResponse:
    """
    Attributes:
        delivery (WebhookDeliveryWithAttempts):
        request_id (UUID):
    """

    delivery: WebhookDeliveryWithAttempts
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
        from ..models.webhook_delivery_with_attempts import WebhookDeliveryWithAttempts

        d = dict(src_dict)
        delivery = WebhookDeliveryWithAttempts.from_dict(d.pop("delivery"))

        request_id = UUID(d.pop("request_id"))

        webhook_delivery_response = cls(
            delivery=delivery,
            request_id=request_id,
        )

        return webhook_delivery_response
