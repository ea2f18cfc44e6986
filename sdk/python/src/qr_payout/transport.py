"""The httpx transport under every generated operation: retries with backoff, and QrPayoutError.

Sent again, unchanged (so an `Idempotency-Key` is the same on every attempt,
docs/api/idempotency.md "The Idempotency-Key"):

- 429 (docs/api/rate-limits.md "Per key"): refused before anything ran, any request;
- 409 `IdempotencyInProgress`, 503 (docs/api/errors.md "The error body") and network errors
  (connect, read, timeout): only a request that is safe to send twice, a GET or one carrying an
  `Idempotency-Key` (pay, execute), since a 503 or a lost answer may come after the work was done.

Any other non-2xx answer, or the last one, is raised as QrPayoutError; the generated code only
ever sees 2xx answers.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from .errors import QrPayoutError, error_body_of

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry. `RetryPolicy(max_attempts=1)` turns retries off."""

    max_attempts: int = 4
    """Attempts in all, the first included."""
    base_delay: float = 0.25
    """First backoff delay in seconds; doubled per attempt, with full jitter."""
    max_delay: float = 30.0
    """Longest wait between attempts; a server asking for longer (Retry-After) gets its error raised at once."""


@dataclass(frozen=True)
class RetryInfo:
    """What `on_retry` is told before each retry."""

    attempt: int
    status: int | None
    """The HTTP status, None after a network error."""
    tag: str
    """The error body's `_tag`, `HttpError` without one, the exception's class name after a network error."""
    delay: float
    """Seconds until the next attempt."""
    url: str


def is_resendable(request: httpx.Request) -> bool:
    """Whether sending the request twice does it at most once: a GET, or a keyed pay or execute."""
    return request.method in SAFE_METHODS or "idempotency-key" in request.headers


def is_retryable(status: int, tag: str | None, resendable: bool) -> bool:
    """Whether an answer is one to send again (module docstring)."""
    if status == 429:
        return True
    if not resendable:
        return False
    return status == 503 or (status == 409 and tag == "IdempotencyInProgress")


def server_delay(status: int, headers: httpx.Headers, now: float) -> float | None:
    """Seconds the server asks to wait: `retry-after`, else on 429 until `x-ratelimit-reset`, else None."""
    retry_after = headers.get("retry-after", "").strip()
    if retry_after.isdigit():
        return float(retry_after)
    reset = headers.get("x-ratelimit-reset", "").strip()
    if status == 429 and reset.isdigit():
        return max(0.0, float(reset) - now)
    return None


def backoff_delay(attempt: int, policy: RetryPolicy, rand: Callable[[], float] = random.random) -> float:
    """Exponential backoff with full jitter: a random delay in [0, base·2^(attempt−1)], capped."""
    return rand() * min(policy.max_delay, policy.base_delay * 2 ** (attempt - 1))


class RetryingTransport(httpx.BaseTransport):
    """Wraps a transport (default httpx.HTTPTransport): retries, then raises QrPayoutError for non-2xx."""

    def __init__(
        self,
        inner: httpx.BaseTransport | None = None,
        policy: RetryPolicy | None = None,
        on_retry: Callable[[RetryInfo], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._inner = inner or httpx.HTTPTransport()
        self._policy = policy or RetryPolicy()
        self._on_retry = on_retry
        self._sleep = sleep
        self._clock = clock

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        resendable = is_resendable(request)
        max_attempts = max(1, self._policy.max_attempts)
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self._inner.handle_request(request)
            except httpx.TransportError as err:
                if not resendable or attempt >= max_attempts:
                    raise
                self._wait(RetryInfo(attempt, None, type(err).__name__, self._backoff(attempt), str(request.url)))
                continue
            if 200 <= response.status_code < 300:
                return response
            tag, delay = self._retry_delay(request, response, attempt, max_attempts, resendable)
            self._wait(RetryInfo(attempt, response.status_code, tag, delay, str(request.url)))

    def close(self) -> None:
        self._inner.close()

    def _retry_delay(
        self, request: httpx.Request, response: httpx.Response, attempt: int, max_attempts: int, resendable: bool
    ) -> tuple[str, float]:
        """The answer's tag and the wait before sending it again; raises QrPayoutError when not to retry."""
        content = response.read()
        response.close()
        body = error_body_of(content)
        status = response.status_code
        error = QrPayoutError(status, body, attempt, f"HTTP {status} from {request.method} {request.url.path}")
        if attempt >= max_attempts or not is_retryable(status, error.tag if body else None, resendable):
            raise error
        asked = server_delay(status, response.headers, self._clock())
        if asked is not None and asked > self._policy.max_delay:
            raise error
        return error.tag, asked if asked is not None else self._backoff(attempt)

    def _backoff(self, attempt: int) -> float:
        return backoff_delay(attempt, self._policy)

    def _wait(self, info: RetryInfo) -> None:
        if self._on_retry:
            self._on_retry(info)
        self._sleep(info.delay)
