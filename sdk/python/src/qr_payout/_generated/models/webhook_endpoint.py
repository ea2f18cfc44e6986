from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.retry_strategy import RetryStrategy

T = TypeVar("T", bound="WebhookEndpoint")


@_attrs_define
class WebhookEndpoint:
    """
    Attributes:
        id (str):
        url (str):
        event_types (list[str]):
        header_names (list[str]):
        retry_strategy (RetryStrategy):
        enabled (bool):
        disabled_reason (None | str):
        created_at (datetime.datetime):
    """

    id: str
    url: str
    event_types: list[str]
    header_names: list[str]
    retry_strategy: RetryStrategy
    enabled: bool
    disabled_reason: None | str
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        event_types = self.event_types

        header_names = self.header_names

        retry_strategy = self.retry_strategy.value

        enabled = self.enabled

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "event_types": event_types,
                "header_names": header_names,
                "retry_strategy": retry_strategy,
                "enabled": enabled,
                "disabled_reason": disabled_reason,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        event_types = cast(list[str], d.pop("event_types"))

        header_names = cast(list[str], d.pop("header_names"))

        retry_strategy = RetryStrategy(d.pop("retry_strategy"))

        enabled = d.pop("enabled")

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        webhook_endpoint = cls(
            id=id,
            url=url,
            event_types=event_types,
            header_names=header_names,
            retry_strategy=retry_strategy,
            enabled=enabled,
            disabled_reason=disabled_reason,
            created_at=created_at,
        )

        return webhook_endpoint
