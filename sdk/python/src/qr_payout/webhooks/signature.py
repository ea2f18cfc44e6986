"""The `Service-Signature` header (docs/api/webhooks.md "The signature"):

    Service-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<raw body>")>

The key is the whole signing secret as UTF-8 text, `whsec_` prefix included. During a rotation the
header carries one v1 per live secret; it verifies when any v1 matches any of the receiver's
secrets. Unknown schemes (a future `v2=`) are ignored. Every case of the repository's shared
vectors (webhook-receiver/signature-vectors.json) passes (tests/test_signature_vectors.py).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

SIGNATURE_HEADER = "service-signature"
"""The header's name (HTTP header names are case-insensitive)."""
DEFAULT_TOLERANCE_SECONDS = 300
"""Largest accepted |now − t| (docs/api/webhooks.md "The signature")."""
MAX_HEADER_LENGTH = 8192
"""A longer header is refused as malformed before any work is done on it."""

SignatureFailureReason = Literal[
    "missing_header", "malformed_header", "timestamp_out_of_tolerance", "no_matching_signature"
]
_T_DIGITS = re.compile(r"[0-9]{1,15}")


@dataclass(frozen=True)
class SignatureCheck:
    """`ok` with the signed `timestamp`, or not `ok` with the `reason`."""

    ok: bool
    timestamp: int | None = None
    reason: SignatureFailureReason | None = None


def verify_webhook_signature(
    header: str | None,
    raw_body: bytes | str,
    secrets: str | Sequence[str],
    *,
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    now: float | None = None,
) -> SignatureCheck:
    """Checks a `Service-Signature` header against the exact raw body bytes.

    Never raises for anything in the header; raises TypeError/ValueError for a misuse (no secret,
    a parsed object instead of the raw body, a negative tolerance). `now`: unix seconds (tests).
    """
    keys = _secrets(secrets)
    body = _raw_body(raw_body)
    if tolerance_seconds < 0:
        raise ValueError("tolerance_seconds must be >= 0")
    if header is None or header == "":
        return SignatureCheck(ok=False, reason="missing_header")
    if not isinstance(header, str):
        return SignatureCheck(ok=False, reason="malformed_header")
    parsed = parse_signature_header(header)
    if parsed is None:
        return SignatureCheck(ok=False, reason="malformed_header")
    t, candidates = parsed
    timestamp = int(t)
    clock = int(time.time()) if now is None else int(now)
    if abs(clock - timestamp) > tolerance_seconds:
        return SignatureCheck(ok=False, reason="timestamp_out_of_tolerance")
    matched = False
    for key in keys:
        # The digits of `t` exactly as sent: they are what the sender signed.
        expected = _hmac_hex(key, t, body)
        # Every candidate is compared (no early exit), so timing tells nothing about which matched.
        for candidate in candidates:
            if hmac.compare_digest(candidate.encode(), expected.encode()):
                matched = True
    if not matched:
        return SignatureCheck(ok=False, reason="no_matching_signature")
    return SignatureCheck(ok=True, timestamp=timestamp)


def sign_webhook_body(secrets: str | Sequence[str], raw_body: bytes | str, timestamp: int) -> str:
    """TEST HELPER: the header the service would send for `raw_body` at `timestamp`, one v1 per secret."""
    keys = _secrets(secrets)
    body = _raw_body(raw_body)
    if isinstance(timestamp, bool) or not isinstance(timestamp, int) or timestamp < 0:
        raise TypeError("timestamp must be a non-negative integer (unix seconds)")
    t = str(timestamp)
    return ",".join([f"t={t}", *(f"v1={_hmac_hex(key, t, body)}" for key in keys)])


def parse_signature_header(header: str) -> tuple[str, list[str]] | None:
    """`t` and the v1 values, or None when malformed: every comma-separated element `key=value`,
    exactly one `t` of decimal digits; unknown keys ignored; no v1 at all is well-formed."""
    if len(header) > MAX_HEADER_LENGTH:
        return None
    t: str | None = None
    v1: list[str] = []
    for element in header.split(","):
        key, sep, value = element.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key == "":
            return None
        if key == "t":
            if t is not None:
                return None
            t = value
        elif key == "v1":
            v1.append(value)
    if t is None or not _T_DIGITS.fullmatch(t):
        return None
    return t, v1


def _hmac_hex(secret: str, t: str, body: bytes) -> str:
    return hmac.new(secret.encode(), t.encode() + b"." + body, hashlib.sha256).hexdigest()


def _secrets(secrets: str | Sequence[str]) -> list[str]:
    keys = [secrets] if isinstance(secrets, str) else list(secrets)
    if not keys or not all(isinstance(key, str) and key for key in keys):
        raise TypeError("secrets must be a signing secret or a non-empty list of non-empty strings")
    return keys


def _raw_body(raw_body: bytes | str) -> bytes:
    if isinstance(raw_body, str):
        return raw_body.encode()
    if isinstance(raw_body, (bytes, bytearray, memoryview)):
        return bytes(raw_body)
    raise TypeError(
        "raw_body must be the raw request body (bytes or str), not a parsed object: "
        "verify the exact bytes received, then parse the JSON"
    )
