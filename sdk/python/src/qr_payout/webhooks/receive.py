"""receive_webhook: one call for a webhook handler: verify, parse, deduplicate, say what to answer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .dedupe import EventDeduplicator
from .event import WebhookEvent, parse_webhook_event
from .signature import DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, verify_webhook_signature


@dataclass(frozen=True)
class ReceiveResult:
    """`status` to answer: 401 bad signature, 400 bad body, 200 otherwise. Process `event` when it is
    set and not `duplicate`; a verified event of an unknown type has no `event` (reason
    `unknown_event_type`, `event_id`, `event_type`): acknowledge it."""

    status: int
    event: WebhookEvent | None = None
    duplicate: bool = False
    reason: str | None = None
    detail: str = ""
    event_id: str | None = None
    event_type: str | None = None


def receive_webhook(
    headers: Mapping[str, Any],
    raw_body: bytes | str,
    secrets: str | Sequence[str],
    *,
    dedupe: EventDeduplicator | None = None,
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    now: float | None = None,
) -> ReceiveResult:
    """`headers`: any mapping (a dict, http.server's message, Flask/Django/Starlette headers), looked
    up case-insensitively. The `x-event-id` / `x-event-type` headers are not signed and not used:
    the signed body is. Without `dedupe` every verified event reads as new."""
    check = verify_webhook_signature(
        _header(headers, SIGNATURE_HEADER), raw_body, secrets, tolerance_seconds=tolerance_seconds, now=now
    )
    if not check.ok:
        return ReceiveResult(status=401, reason=check.reason)
    parsed = parse_webhook_event(raw_body)
    if parsed.reason == "unknown_event_type":
        # Not recorded: after an upgrade that knows the type, a replay is processed.
        return ReceiveResult(status=200, reason=parsed.reason, event_id=parsed.event_id, event_type=parsed.event_type)
    if parsed.event is None:
        return ReceiveResult(status=400, reason=parsed.reason, detail=parsed.detail)
    duplicate = dedupe is not None and not dedupe.first_seen(parsed.event.event_id)
    return ReceiveResult(status=200, event=parsed.event, duplicate=duplicate)


def _header(headers: Mapping[str, Any], name: str) -> str | None:
    get_all = getattr(headers, "get_all", None)  # email.message.Message (http.server) keeps repeats
    if callable(get_all):
        values = get_all(name) or []
        # The service sends exactly one: a repeated header cannot verify.
        return None if not values else values[0] if len(values) == 1 else "\0"
    for key, value in headers.items():
        if key.lower() == name:
            return value if isinstance(value, str) else "\0"
    return None
