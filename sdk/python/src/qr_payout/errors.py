"""QrPayoutError: every non-2xx answer of the API, once retries are spent.

The body is the one of docs/api/errors.md "The error body" (`_tag`, `message`, `docs_url`,
`request_id`, and `retryAfter` / `transaction_id` where the error declares them). An answer that
is not such a body (a proxy's HTML page) keeps `body` None and takes `HttpError` as its tag.
"""

from __future__ import annotations

import json
from typing import Any


class QrPayoutError(Exception):
    """An error answer of the API: its HTTP status and the fields of its error body."""

    status: int
    """The HTTP status."""
    tag: str
    """The body's `_tag` (e.g. `ValidationError`), or `HttpError` when the answer was not an error body."""
    message: str
    docs_url: str | None
    request_id: str | None
    retry_after: int | None
    """Seconds to wait, on 429 RateLimitError (the body's `retryAfter`)."""
    transaction_id: str | None
    """The transaction concerned, on the errors that name one (InstructionAlreadyExecuted, ChargeAlreadyPaid)."""
    attempts: int
    """Attempts made before giving up (more than 1 after retries)."""
    body: dict[str, Any] | None
    """The error body as received (a dict), None when the answer was not one."""

    def __init__(self, status: int, body: dict[str, Any] | None, attempts: int, fallback_message: str) -> None:
        self.status = status
        self.body = body
        self.attempts = attempts
        self.tag = _str(body, "_tag") or "HttpError"
        self.message = _str(body, "message") or fallback_message
        self.docs_url = _str(body, "docs_url")
        self.request_id = _str(body, "request_id")
        retry_after = body.get("retryAfter") if body else None
        self.retry_after = retry_after if isinstance(retry_after, int) else None
        self.transaction_id = _str(body, "transaction_id")
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"QrPayoutError(status={self.status}, tag={self.tag!r}, message={self.message!r})"


def error_body_of(content: bytes) -> dict[str, Any] | None:
    """The error body in an answer's bytes, or None when they are not one (not JSON, no `_tag`)."""
    try:
        parsed = json.loads(content)
    except ValueError:
        return None
    if not isinstance(parsed, dict):
        return None
    if not isinstance(parsed.get("_tag"), str) or not isinstance(parsed.get("message"), str):
        return None
    return parsed


def _str(body: dict[str, Any] | None, key: str) -> str | None:
    value = body.get(key) if body else None
    return value if isinstance(value, str) else None
