from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_delivery import WebhookDelivery


T = TypeVar("T", bound="WebhookDeliveriesResponse")


@_attrs_define
class WebhookDeliveriesResponse:
    """
    Attributes:
        deliveries (list[WebhookDelivery]): Newest first.
        next_cursor (None | str): Pass as `cursor` for the next page; null on the last page.
        request_id (UUID):
    """

    deliveries: list[WebhookDelivery]
    next_cursor: None | str
    request_id: UUID

    def to_dict(self) -> dict[str, Any]:
        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "deliveries": deliveries,
                "next_cursor": next_cursor,
                "request_id": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_delivery import WebhookDelivery

        d = dict(src_dict)
        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = WebhookDelivery.from_dict(deliveries_item_data)

            deliveries.append(deliveries_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        request_id = UUID(d.pop("request_id"))

        webhook_deliveries_response = cls(
            deliveries=deliveries,
            next_cursor=next_cursor,
            request_id=request_id,
        )

        return webhook_deliveries_response
