"""Deduplication by event id. Delivery is at least once (docs/api/webhooks.md "Delivery semantics"):
the same event can arrive again, e.g. when your 2xx answer was lost; record `event_id` and answer
2xx to duplicates. In production that record is a table with a unique `event_id`, written in the
same transaction as the processing (webhook-receiver README "Deduplication in production").
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

DEFAULT_DEDUPE_TTL_SECONDS = 7 * 24 * 60 * 60
"""Longer than the retry horizon, about 6.2 days (docs/api/webhooks.md "Retries")."""
DEFAULT_DEDUPE_MAX_ENTRIES = 100_000


class EventDeduplicator(Protocol):
    def first_seen(self, event_id: str) -> bool:
        """Records `event_id`: True the first time, False when already recorded. Must be atomic."""
        ...


class MemoryDeduplicator:
    """In memory, bounded, thread-safe; lost on restart and not shared between processes: for
    development, tests and single-process receivers. An id dropped by `max_entries` or `ttl_seconds`
    is processed again if redelivered."""

    def __init__(
        self,
        ttl_seconds: float = DEFAULT_DEDUPE_TTL_SECONDS,
        max_entries: int = DEFAULT_DEDUPE_MAX_ENTRIES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be positive")
        if max_entries < 1:
            raise ValueError("max_entries must be a positive integer")
        self._ttl = ttl_seconds
        self._max = max_entries
        self._clock = clock
        # Insertion order is expiry order (one ttl for all): expired ids are always at the front.
        self._expires_at: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def first_seen(self, event_id: str) -> bool:
        if not isinstance(event_id, str) or not event_id:
            raise TypeError("event_id must be a non-empty string")
        with self._lock:
            at = self._clock()
            self._prune(at)
            if event_id in self._expires_at:
                return False
            self._expires_at[event_id] = at + self._ttl
            while len(self._expires_at) > self._max:
                self._expires_at.popitem(last=False)
            return True

    def forget(self, event_id: str) -> None:
        """Forgets `event_id`, so a redelivery is processed: call it when processing failed and you answer 5xx."""
        with self._lock:
            self._expires_at.pop(event_id, None)

    def __len__(self) -> int:
        with self._lock:
            self._prune(self._clock())
            return len(self._expires_at)

    def _prune(self, at: float) -> None:
        while self._expires_at:
            oldest, expiry = next(iter(self._expires_at.items()))
            if expiry > at:
                return
            del self._expires_at[oldest]
