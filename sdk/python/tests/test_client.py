"""The retry and idempotency layer against a real HTTP server (conftest.py)."""

from __future__ import annotations

import json
import re
import time

import httpx
import pytest
from conftest import Scripted, ScriptedServer, error_body
from examples import example

from qr_payout import QrPayoutClient, QrPayoutError, RetryInfo, RetryPolicy
from qr_payout.models import TransactionStatus

PAY_BODY = {
    "qr_string": "000201...",
    "amount": 25.9,
    "payer_name": "Juan Perez",
    "payer_account": "0001-1234567",
    "payer_tax_id": "20-12345678-6",
}
FAST = RetryPolicy(base_delay=0.005, max_delay=2.0)


def client_for(server: ScriptedServer, **kwargs: object) -> QrPayoutClient:
    kwargs.setdefault("retry", FAST)
    return QrPayoutClient(server.base_url, "key_test_0123456789", **kwargs)  # type: ignore[arg-type]


def test_pay_retries_409_in_progress_429_and_503_with_one_key(server: ScriptedServer) -> None:
    retries: list[RetryInfo] = []
    server.script = [
        Scripted(409, error_body("IdempotencyInProgress")),
        Scripted(429, error_body("RateLimitError", retryAfter=1), {"retry-after": "0"}),
        Scripted(503, error_body("ServiceUnavailable")),
        Scripted(200, example("/v1/pay", "post")),
    ]
    with client_for(server, on_retry=retries.append) as client:
        answer = client.pay(PAY_BODY)
    assert answer.transaction.id == example("/v1/pay", "post")["transaction"]["id"]
    assert [(r.status, r.tag) for r in retries] == [
        (409, "IdempotencyInProgress"),
        (429, "RateLimitError"),
        (503, "ServiceUnavailable"),
    ]
    keys = {s.headers["idempotency-key"] for s in server.seen}
    assert len(server.seen) == 4 and len(keys) == 1
    assert re.fullmatch(r"[0-9a-f-]{36}", keys.pop())
    for seen in server.seen:
        assert (seen.method, seen.path) == ("POST", "/v1/pay")
        assert seen.headers["x-api-key"] == "key_test_0123456789"
        assert json.loads(seen.body) == PAY_BODY


def test_callers_key_is_used_and_a_new_one_per_call_otherwise(server: ScriptedServer) -> None:
    ok = example("/v1/pay", "post")
    server.script = [Scripted(503, error_body("ServiceUnavailable")), Scripted(200, ok), Scripted(200, ok)]
    server.script.append(Scripted(200, ok))
    with client_for(server) as client:
        client.execute(
            {"instruction_id": "ins_x", "payer_name": "a", "payer_account": "b", "payer_tax_id": "c"},
            idempotency_key="order-42",
        )
        client.pay(PAY_BODY)
        client.pay(PAY_BODY)
    keys = [s.headers["idempotency-key"] for s in server.seen]
    assert keys[:2] == ["order-42", "order-42"]
    assert keys[2] != keys[3]
    assert server.seen[0].path == "/v1/execute"


def test_a_dropped_connection_is_retried_for_a_keyed_pay_and_a_get_with_the_same_key(
    server: ScriptedServer,
) -> None:
    retries: list[RetryInfo] = []
    server.script = [
        Scripted(drop=True),
        Scripted(200, example("/v1/pay", "post")),
        Scripted(drop=True),
        Scripted(200, example("/v1/transactions/{id}")),
    ]
    with client_for(server, on_retry=retries.append) as client:
        client.pay(PAY_BODY, idempotency_key="order-43")
        client.get_transaction("txn_01JD8Z5Q9X8C7V6B5N4M3K2J1H")
    assert [s.headers.get("idempotency-key") for s in server.seen] == ["order-43", "order-43", None, None]
    assert [r.status for r in retries] == [None, None]


def test_a_request_not_safe_to_send_twice_is_not_retried_after_a_network_error_or_503(
    server: ScriptedServer,
) -> None:
    server.script = [Scripted(drop=True), Scripted(503, error_body("ServiceUnavailable"))]
    with client_for(server) as client:
        with pytest.raises(httpx.TransportError):
            client.resolve({"qr_string": "x"})
        with pytest.raises(QrPayoutError) as raised:
            client.resolve({"qr_string": "x"})
    assert (raised.value.status, raised.value.attempts) == (503, 1)
    assert len(server.seen) == 2


def test_raises_qr_payout_error_with_the_error_body_once_attempts_are_spent(server: ScriptedServer) -> None:
    last = error_body("ServiceUnavailable")
    server.script = [
        Scripted(503, error_body("ServiceUnavailable")),
        Scripted(503, error_body("ServiceUnavailable")),
        Scripted(503, last),
    ]
    with client_for(server, retry=RetryPolicy(max_attempts=3, base_delay=0.005)) as client:
        with pytest.raises(QrPayoutError) as raised:
            client.get_transaction("txn_01JD8Z5Q9X8C7V6B5N4M3K2J1H")
    err = raised.value
    assert (err.status, err.tag, err.message, err.attempts) == (503, "ServiceUnavailable", last["message"], 3)
    assert (err.docs_url, err.request_id, err.body) == (last["docs_url"], last["request_id"], last)
    assert server.seen[0].path == "/v1/transactions/txn_01JD8Z5Q9X8C7V6B5N4M3K2J1H"
    assert len(server.seen) == 3


def test_does_not_retry_what_the_api_does_not_say_to_retry(server: ScriptedServer) -> None:
    txn = "txn_01JD8Z5Q9X8C7V6B5N4M3K2J1H"
    server.script = [
        Scripted(409, error_body("InstructionAlreadyExecuted", transaction_id=txn)),
        Scripted(400, error_body("ValidationError")),
        Scripted(502, raw=b"<html>bad gateway</html>"),
        Scripted(429, error_body("RateLimitError", retryAfter=3600), {"retry-after": "3600"}),
    ]
    with client_for(server) as client:
        with pytest.raises(QrPayoutError) as executed:
            client.pay(PAY_BODY)
        with pytest.raises(QrPayoutError) as invalid:
            client.resolve({"qr_string": "x"})
        with pytest.raises(QrPayoutError) as proxy:
            client.list_schemes()
        with pytest.raises(QrPayoutError) as limited:
            client.list_schemes()  # asked to wait longer than max_delay: raised at once
    assert (executed.value.tag, executed.value.transaction_id, executed.value.attempts) == (
        "InstructionAlreadyExecuted",
        txn,
        1,
    )
    assert (invalid.value.status, invalid.value.tag) == (400, "ValidationError")
    assert (proxy.value.status, proxy.value.tag, proxy.value.body) == (502, "HttpError", None)
    assert (limited.value.status, limited.value.retry_after, limited.value.attempts) == (429, 3600, 1)
    assert len(server.seen) == 4


def test_429_waits_until_x_ratelimit_reset_without_retry_after(server: ScriptedServer) -> None:
    delays: list[float] = []
    # Three seconds ahead in whole seconds: more than two away whatever the fraction now, so a slow
    # machine's delay before the answer still leaves a wait to take.
    reset_at = int(time.time()) + 3
    server.script = [
        Scripted(429, error_body("RateLimitError"), {"x-ratelimit-reset": str(reset_at)}),
        Scripted(200, example("/v1/schemes")),
    ]
    slow_cap = RetryPolicy(base_delay=0.005, max_delay=5.0)
    with client_for(server, retry=slow_cap, on_retry=lambda info: delays.append(info.delay)) as client:
        client.list_schemes()
    assert 0 < delays[0] <= 3
    # What matters: the retry went out no earlier than the reset the server named.
    assert time.time() >= reset_at - 0.01


def test_sends_query_parameters_and_paths_as_the_document_says(server: ScriptedServer) -> None:
    server.script = [Scripted(200, example("/v1/transactions"))]
    with client_for(server) as client:
        page = client.list_transactions(status=TransactionStatus.COMPLETED, limit=5)
    assert server.seen[0].path == "/v1/transactions?status=completed&limit=5"
    assert page.transactions[0].status == TransactionStatus.COMPLETED
    history = page.transactions[0].status_history
    assert [change.status for change in history] == [TransactionStatus.PENDING, TransactionStatus.COMPLETED]
    assert history[0].at == page.transactions[0].created_at
