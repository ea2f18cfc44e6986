from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_transaction_failed_event_data import (
        WebhookTransactionFailedEventData,
    )


T = TypeVar("T", bound="WebhookTransactionFailedEvent")


@_attrs_define
class WebhookTransactionFailedEvent:
    """
    Attributes:
        schema_version (Literal['1']):
        event_id (UUID): Unique per event (delivery is at least once): store it uniquely and ignore repeats.
        event_type (Literal['transaction.failed']):
        occurred_at (datetime.datetime): ISO 8601 UTC with milliseconds.
        data (WebhookTransactionFailedEventData):
    """

    schema_version: Literal["1"]
    event_id: UUID
    event_type: Literal["transaction.failed"]
    occurred_at: datetime.datetime
    data: WebhookTransactionFailedEventData

    def to_dict(self) -> dict[str, Any]:
        schema_version = self.schema_version

        event_id = str(self.event_id)

        event_type = self.event_type

        occurred_at = self.occurred_at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schema_version": schema_version,
                "event_id": event_id,
                "event_type": event_type,
                "occurred_at": occurred_at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_transaction_failed_event_data import (
            WebhookTransactionFailedEventData,
        )

        d = dict(src_dict)
        schema_version = cast(Literal["1"], d.pop("schema_version"))
        if schema_version != "1":
            raise ValueError(
                f"schema_version must match const '1', got '{schema_version}'"
            )

        event_id = UUID(d.pop("event_id"))

        event_type = cast(Literal["transaction.failed"], d.pop("event_type"))
        if event_type != "transaction.failed":
            raise ValueError(
                f"event_type must match const 'transaction.failed', got '{event_type}'"
            )

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        data = WebhookTransactionFailedEventData.from_dict(d.pop("data"))

        webhook_transaction_failed_event = cls(
            schema_version=schema_version,
            event_id=event_id,
            event_type=event_type,
            occurred_at=occurred_at,
            data=data,
        )

        return webhook_transaction_failed_event
