from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_endpoint import WebhookEndpoint


T = TypeVar("T", bound="WebhookEndpointsResponse")


@_attrs_define
class WebhookEndpointsResponse:
    """
    Attributes:
        endpoints (list[WebhookEndpoint]):
        request_id (UUID):
    """

    endpoints: list[WebhookEndpoint]
    request_id: UUID

    def to_dict(self) -> dict[str, Any]:
        endpoints = []
        for endpoints_item_data in self.endpoints:
            endpoints_item = endpoints_item_data.to_dict()
            endpoints.append(endpoints_item)

        request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpoints": endpoints,
                "request_id": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_endpoint import WebhookEndpoint

        d = dict(src_dict)
        endpoints = []
        _endpoints = d.pop("endpoints")
        for endpoints_item_data in _endpoints:
            endpoints_item = WebhookEndpoint.from_dict(endpoints_item_data)

            endpoints.append(endpoints_item)

        request_id = UUID(d.pop("request_id"))

        webhook_endpoints_response = cls(
            endpoints=endpoints,
            request_id=request_id,
        )

        return webhook_endpoints_response
