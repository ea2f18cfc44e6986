from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookDeliveryAttempt")


@_attrs_define
class WebhookDeliveryAttempt:
    """
    Attributes:
        attempt_number (int): 1-based within its series; a replay starts a new series at 1.
        trigger (str): `scheduled` (the retry schedule), `replay` (the first attempt after a replay) or `ping`.
        started_at (datetime.datetime):
        duration_ms (int):
        response_status (int | None): HTTP status answered; null when no answer arrived.
        error_class (None | str): Why it failed: `http_status` for a non-2xx answer, or the failure without an answer
            (`timeout`, `connection_refused`, `dns`, `refused_target`, ...); null on success.
        error (None | str): The failure in words; null on success.
        resolved_address (None | str): The IP address connected to; null when none was.
        response_excerpt (None | str): The first bytes of the response body (at most 1 KiB); null when empty.
        succeeded (bool): True when the receiver answered 2xx.
    """

    attempt_number: int
    trigger: str
    started_at: datetime.datetime
    duration_ms: int
    response_status: int | None
    error_class: None | str
    error: None | str
    resolved_address: None | str
    response_excerpt: None | str
    succeeded: bool

    def to_dict(self) -> dict[str, Any]:
        attempt_number = self.attempt_number

        trigger = self.trigger

        started_at = self.started_at.isoformat()

        duration_ms = self.duration_ms

        response_status: int | None
        response_status = self.response_status

        error_class: None | str
        error_class = self.error_class

        error: None | str
        error = self.error

        resolved_address: None | str
        resolved_address = self.resolved_address

        response_excerpt: None | str
        response_excerpt = self.response_excerpt

        succeeded = self.succeeded

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt_number": attempt_number,
                "trigger": trigger,
                "started_at": started_at,
                "duration_ms": duration_ms,
                "response_status": response_status,
                "error_class": error_class,
                "error": error,
                "resolved_address": resolved_address,
                "response_excerpt": response_excerpt,
                "succeeded": succeeded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempt_number = d.pop("attempt_number")

        trigger = d.pop("trigger")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        duration_ms = d.pop("duration_ms")

        def _parse_response_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_status = _parse_response_status(d.pop("response_status"))

        def _parse_error_class(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_class = _parse_error_class(d.pop("error_class"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_resolved_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        resolved_address = _parse_resolved_address(d.pop("resolved_address"))

        def _parse_response_excerpt(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_excerpt = _parse_response_excerpt(d.pop("response_excerpt"))

        succeeded = d.pop("succeeded")

        webhook_delivery_attempt = cls(
            attempt_number=attempt_number,
            trigger=trigger,
            started_at=started_at,
            duration_ms=duration_ms,
            response_status=response_status,
            error_class=error_class,
            error=error,
            resolved_address=resolved_address,
            response_excerpt=response_excerpt,
            succeeded=succeeded,
        )

        return webhook_delivery_attempt
