"""The transport's pure rules: what is retried, how long to wait."""

from __future__ import annotations

import httpx

from qr_payout.transport import RetryPolicy, backoff_delay, is_resendable, is_retryable, server_delay


def test_only_gets_and_keyed_requests_are_resendable() -> None:
    assert is_resendable(httpx.Request("GET", "http://x/v1/schemes"))
    assert is_resendable(httpx.Request("POST", "http://x/v1/pay", headers={"Idempotency-Key": "k"}))
    assert not is_resendable(httpx.Request("POST", "http://x/v1/resolve"))


def test_429_is_retried_for_any_request_503_and_in_progress_only_for_resendable_ones() -> None:
    assert is_retryable(429, "RateLimitError", resendable=False)
    assert not is_retryable(503, "ServiceUnavailable", resendable=False)
    assert is_retryable(503, None, resendable=True)
    assert is_retryable(409, "IdempotencyInProgress", resendable=True)
    assert not is_retryable(409, "InstructionAlreadyExecuted", resendable=True)
    assert not is_retryable(500, "InternalError", resendable=True)


def test_server_delay_reads_retry_after_then_the_rate_limit_reset_on_429_only() -> None:
    assert server_delay(503, httpx.Headers({"retry-after": "7"}), now=100.0) == 7.0
    assert server_delay(429, httpx.Headers({"x-ratelimit-reset": "130"}), now=100.0) == 30.0
    assert server_delay(429, httpx.Headers({"x-ratelimit-reset": "90"}), now=100.0) == 0.0
    assert server_delay(503, httpx.Headers({"x-ratelimit-reset": "130"}), now=100.0) is None
    assert server_delay(503, httpx.Headers({"retry-after": "soon"}), now=100.0) is None


def test_backoff_is_full_jitter_under_a_doubling_capped_ceiling() -> None:
    policy = RetryPolicy(base_delay=0.25, max_delay=1.0)
    assert [backoff_delay(n, policy, rand=lambda: 1.0) for n in (1, 2, 3, 4)] == [0.25, 0.5, 1.0, 1.0]
    assert backoff_delay(3, policy, rand=lambda: 0.0) == 0.0
