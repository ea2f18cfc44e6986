from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.retry_strategy import RetryStrategy
from ..models.webhook_delivery_status import WebhookDeliveryStatus

if TYPE_CHECKING:
    from ..models.webhook_delivery_attempt import WebhookDeliveryAttempt


T = TypeVar("T", bound="WebhookDeliveryWithAttempts")


@_attrs_define
class WebhookDeliveryWithAttempts:
    """
    Attributes:
        id (str):
        event_id (UUID): The event envelope's event_id (deduplicate on it).
        event_type (str): `transaction.completed`, `transaction.failed` or `webhook.ping` (an operator test event).
        transaction_id (None | str): The transaction the event is about; null for `webhook.ping`.
        endpoint_id (None | str): The registered endpoint; null for the ad-hoc `callback_url` path.
        url (str): Where the event is sent.
        status (WebhookDeliveryStatus):
        attempts (int): Attempts made in the current series (a replay resets it to 0).
        max_attempts (int): Attempts the retry strategy allows (16 standard, 17 extended).
        retry_strategy (RetryStrategy):
        next_attempt_at (datetime.datetime | None): When the next attempt is due; null when none is (delivered, failed,
            exhausted).
        last_attempt_at (datetime.datetime | None): When the last attempt started; null before the first.
        last_response_status (int | None): HTTP status of the last attempt; null when none answered.
        last_error (None | str): The last failure in words; null when none.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        attempt_log (list[WebhookDeliveryAttempt]): The attempts, oldest first, across replays: every attempt of the
            current series and the latest 100 of earlier ones.
        earlier_attempts (int): Attempts of earlier series no longer in attempt_log (the oldest ones), 0 when none.
    """

    id: str
    event_id: UUID
    event_type: str
    transaction_id: None | str
    endpoint_id: None | str
    url: str
    status: WebhookDeliveryStatus
    attempts: int
    max_attempts: int
    retry_strategy: RetryStrategy
    next_attempt_at: datetime.datetime | None
    last_attempt_at: datetime.datetime | None
    last_response_status: int | None
    last_error: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    attempt_log: list[WebhookDeliveryAttempt]
    earlier_attempts: int

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event_id = str(self.event_id)

        event_type = self.event_type

        transaction_id: None | str
        transaction_id = self.transaction_id

        endpoint_id: None | str
        endpoint_id = self.endpoint_id

        url = self.url

        status = self.status.value

        attempts = self.attempts

        max_attempts = self.max_attempts

        retry_strategy = self.retry_strategy.value

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        last_attempt_at: None | str
        if isinstance(self.last_attempt_at, datetime.datetime):
            last_attempt_at = self.last_attempt_at.isoformat()
        else:
            last_attempt_at = self.last_attempt_at

        last_response_status: int | None
        last_response_status = self.last_response_status

        last_error: None | str
        last_error = self.last_error

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        attempt_log = []
        for attempt_log_item_data in self.attempt_log:
            attempt_log_item = attempt_log_item_data.to_dict()
            attempt_log.append(attempt_log_item)

        earlier_attempts = self.earlier_attempts

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "event_id": event_id,
                "event_type": event_type,
                "transaction_id": transaction_id,
                "endpoint_id": endpoint_id,
                "url": url,
                "status": status,
                "attempts": attempts,
                "max_attempts": max_attempts,
                "retry_strategy": retry_strategy,
                "next_attempt_at": next_attempt_at,
                "last_attempt_at": last_attempt_at,
                "last_response_status": last_response_status,
                "last_error": last_error,
                "created_at": created_at,
                "updated_at": updated_at,
                "attempt_log": attempt_log,
                "earlier_attempts": earlier_attempts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_delivery_attempt import WebhookDeliveryAttempt

        d = dict(src_dict)
        id = d.pop("id")

        event_id = UUID(d.pop("event_id"))

        event_type = d.pop("event_type")

        def _parse_transaction_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        transaction_id = _parse_transaction_id(d.pop("transaction_id"))

        def _parse_endpoint_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        endpoint_id = _parse_endpoint_id(d.pop("endpoint_id"))

        url = d.pop("url")

        status = WebhookDeliveryStatus(d.pop("status"))

        attempts = d.pop("attempts")

        max_attempts = d.pop("max_attempts")

        retry_strategy = RetryStrategy(d.pop("retry_strategy"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        def _parse_last_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("last_attempt_at"))

        def _parse_last_response_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_response_status = _parse_last_response_status(
            d.pop("last_response_status")
        )

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        attempt_log = []
        _attempt_log = d.pop("attempt_log")
        for attempt_log_item_data in _attempt_log:
            attempt_log_item = WebhookDeliveryAttempt.from_dict(attempt_log_item_data)

            attempt_log.append(attempt_log_item)

        earlier_attempts = d.pop("earlier_attempts")

        webhook_delivery_with_attempts = cls(
            id=id,
            event_id=event_id,
            event_type=event_type,
            transaction_id=transaction_id,
            endpoint_id=endpoint_id,
            url=url,
            status=status,
            attempts=attempts,
            max_attempts=max_attempts,
            retry_strategy=retry_strategy,
            next_attempt_at=next_attempt_at,
            last_attempt_at=last_attempt_at,
            last_response_status=last_response_status,
            last_error=last_error,
            created_at=created_at,
            updated_at=updated_at,
            attempt_log=attempt_log,
            earlier_attempts=earlier_attempts,
        )

        return webhook_delivery_with_attempts
