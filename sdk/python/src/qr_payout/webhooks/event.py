"""The event envelope (docs/api/webhooks.md "The event"). Parse only a verified body."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

KNOWN_EVENT_TYPES = frozenset({"transaction.completed", "transaction.failed", "webhook.ping"})
ParseFailureReason = Literal["invalid_json", "invalid_envelope", "unsupported_schema_version", "unknown_event_type"]
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
_ISO_UTC = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z")


@dataclass(frozen=True)
class WebhookEvent:
    """A verified event: `event_id` (deduplicate on it), `event_type`, `occurred_at` (ISO 8601 UTC),
    `data` as sent (transaction.* events: `transaction_id`, `instruction_id`, `status`, `result`,
    `error`; webhook.ping: `endpoint_id`, `message`)."""

    event_id: str
    event_type: str
    occurred_at: str
    data: dict[str, Any]
    schema_version: str = "1"


@dataclass(frozen=True)
class ParseResult:
    """`event` when ok; else `reason`, `detail` (never body values) and, for an unknown event type,
    `event_id` / `event_type` (acknowledge it: a `["*"]` subscription receives future types)."""

    ok: bool
    event: WebhookEvent | None = None
    reason: ParseFailureReason | None = None
    detail: str = ""
    event_id: str | None = None
    event_type: str | None = None


class _Invalid(ValueError):
    pass


def parse_webhook_event(raw_body: bytes | str) -> ParseResult:
    """Parses a verified body and checks the envelope and the `data` of the known event types."""
    try:
        envelope = json.loads(raw_body)
    except (ValueError, UnicodeDecodeError):
        return ParseResult(ok=False, reason="invalid_json", detail="body is not JSON")
    try:
        envelope = _object(envelope, "body")
        if envelope.get("schema_version") != "1":
            return ParseResult(ok=False, reason="unsupported_schema_version", detail='schema_version is not "1"')
        event_id = _string(envelope, "event_id")
        if not _UUID.fullmatch(event_id):
            raise _Invalid("event_id is not a UUID")
        event_type = _string(envelope, "event_type")
        occurred_at = _string(envelope, "occurred_at")
        if not _ISO_UTC.fullmatch(occurred_at):
            raise _Invalid("occurred_at is not an ISO 8601 UTC timestamp")
        data = _object(envelope.get("data"), "data")
        if event_type not in KNOWN_EVENT_TYPES:
            return ParseResult(
                ok=False,
                reason="unknown_event_type",
                detail=f"event_type {event_type!r} is not known to this version",
                event_id=event_id,
                event_type=event_type,
            )
        _check_data(event_type, data)
    except _Invalid as err:
        return ParseResult(ok=False, reason="invalid_envelope", detail=str(err))
    return ParseResult(ok=True, event=WebhookEvent(event_id, event_type, occurred_at, data))


def _check_data(event_type: str, data: dict[str, Any]) -> None:
    if event_type == "webhook.ping":
        _string(data, "endpoint_id", "data.")
        if not isinstance(data.get("message"), str):
            raise _Invalid("data.message is not a string")
        return
    status = event_type.removeprefix("transaction.")
    _string(data, "transaction_id", "data.")
    _string(data, "instruction_id", "data.")
    if data.get("status") != status:
        raise _Invalid(f'data.status is not "{status}"')
    present, absent = ("result", "error") if status == "completed" else ("error", "result")
    if not isinstance(data.get(present), dict):
        raise _Invalid(f"data.{present} is not an object in a {event_type} event")
    if data.get(absent) is not None:
        raise _Invalid(f"data.{absent} is set in a {event_type} event")


def _object(value: Any, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Invalid(f"{name} is not an object")
    return value


def _string(source: dict[str, Any], key: str, prefix: str = "") -> str:
    value = source.get(key)
    if not isinstance(value, str) or not value:
        raise _Invalid(f"{prefix}{key} is not a non-empty string")
    return value
