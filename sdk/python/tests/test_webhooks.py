"""receive_webhook, the header parser's edge cases and the in-memory deduplicator."""

from __future__ import annotations

import json
import uuid
from email.message import Message

import pytest

from qr_payout.webhooks import MemoryDeduplicator, receive_webhook, sign_webhook_body, verify_webhook_signature

SECRET = "whsec_test_secret_one"
NOW = 1_700_000_000


def event_body(event_type: str = "transaction.completed", **overrides: object) -> bytes:
    data = {
        "transaction_id": "txn_01JD8Z5Q9X8C7V6B5N4M3K2J1H",
        "instruction_id": "ins_01JD8Z5Q2W3E4R5T6Y7V8G9H0P",
        "status": "completed",
        "result": {"reference": "E1234", "settledAt": "2026-11-24T12:00:00.180Z"},
        "error": None,
    }
    envelope = {
        "schema_version": "1",
        "event_id": str(uuid.uuid4()),
        "event_type": event_type,
        "occurred_at": "2026-11-24T12:00:00.180Z",
        "data": data,
        **overrides,
    }
    return json.dumps(envelope).encode()


def signed(body: bytes, secret: str = SECRET, t: int = NOW) -> dict[str, str]:
    return {"Service-Signature": sign_webhook_body(secret, body, t)}


def test_a_new_event_then_its_redelivery_as_a_duplicate() -> None:
    dedupe = MemoryDeduplicator()
    body = event_body()
    first = receive_webhook(signed(body), body, SECRET, dedupe=dedupe, now=NOW)
    again = receive_webhook(signed(body), body, SECRET, dedupe=dedupe, now=NOW + 60)
    assert (first.status, first.duplicate) == (200, False)
    assert first.event is not None and first.event.event_type == "transaction.completed"
    assert first.event.data["result"]["reference"] == "E1234"
    assert (again.status, again.duplicate, again.event) == (200, True, first.event)


def test_refuses_with_401_what_does_not_verify() -> None:
    body = event_body()
    cases = {
        "missing_header": {},
        "malformed_header": {"service-signature": "v1=abc"},
        "no_matching_signature": signed(body, secret="whsec_other"),
        "timestamp_out_of_tolerance": signed(body, t=NOW - 301),
    }
    for reason, headers in cases.items():
        result = receive_webhook(headers, body, SECRET, now=NOW)
        assert (result.status, result.reason, result.event) == (401, reason, None)


def test_a_verified_body_that_is_not_an_event_is_400_an_unknown_type_is_acknowledged() -> None:
    for body, reason in [
        (b"not json", "invalid_json"),
        (event_body(schema_version="2"), "unsupported_schema_version"),
        (event_body(event_id="evt_1"), "invalid_envelope"),
        (event_body("transaction.failed"), "invalid_envelope"),  # data.status is "completed"
    ]:
        result = receive_webhook(signed(body), body, SECRET, now=NOW)
        assert (result.status, result.reason) == (400, reason)
    dedupe = MemoryDeduplicator()
    future = event_body("payout.reversed")
    result = receive_webhook(signed(future), future, SECRET, dedupe=dedupe, now=NOW)
    assert (result.status, result.reason, result.event_type) == (200, "unknown_event_type", "payout.reversed")
    assert len(dedupe) == 0


def test_reads_http_server_headers_and_refuses_a_repeated_signature_header() -> None:
    body = event_body()
    message = Message()
    message["SERVICE-SIGNATURE"] = sign_webhook_body(SECRET, body, NOW)
    assert receive_webhook(message, body, SECRET, now=NOW).status == 200
    message["Service-Signature"] = sign_webhook_body(SECRET, body, NOW)
    assert receive_webhook(message, body, SECRET, now=NOW).reason == "malformed_header"


def test_header_parsing_edge_cases() -> None:
    body = b"{}"
    header = sign_webhook_body([SECRET], body, NOW)
    ok = [f"{header},v2=future", f" {header.replace(',', ' , ')} "]
    for value in ok:
        assert verify_webhook_signature(value, body, SECRET, now=NOW).ok, value
    for value in [f"t={NOW},t={NOW}", f"t=1e9,{header[13:]}", "t", "x" * 8193]:
        assert verify_webhook_signature(value, body, SECRET, now=NOW).reason == "malformed_header", value
    assert verify_webhook_signature(f"t={NOW}", body, SECRET, now=NOW).reason == "no_matching_signature"
    assert verify_webhook_signature(header, body, [SECRET, "whsec_next"], now=NOW).ok


def test_misuse_raises() -> None:
    with pytest.raises(TypeError):
        verify_webhook_signature("t=1,v1=a", {"parsed": "object"}, SECRET)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        verify_webhook_signature("t=1,v1=a", b"{}", [])
    with pytest.raises(ValueError):
        verify_webhook_signature("t=1,v1=a", b"{}", SECRET, tolerance_seconds=-1)


def test_memory_deduplicator_expires_bounds_and_forgets() -> None:
    clock = [0.0]
    dedupe = MemoryDeduplicator(ttl_seconds=10, max_entries=2, clock=lambda: clock[0])
    assert [dedupe.first_seen(i) for i in ("a", "a", "b")] == [True, False, True]
    dedupe.first_seen("c")  # drops "a", the oldest
    assert len(dedupe) == 2 and dedupe.first_seen("a")
    dedupe.forget("a")
    assert dedupe.first_seen("a")
    clock[0] = 11.0
    assert len(dedupe) == 0 and dedupe.first_seen("b")
