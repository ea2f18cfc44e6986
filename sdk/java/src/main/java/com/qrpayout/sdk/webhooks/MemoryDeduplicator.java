package com.qrpayout.sdk.webhooks;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * In memory, bounded, thread-safe; lost on restart and not shared between processes: for
 * development, tests and single-process receivers. An id dropped by {@code maxEntries} or {@code
 * ttl} is processed again if redelivered.
 */
public final class MemoryDeduplicator implements EventDeduplicator {
  /** Longer than the retry horizon, about 6.2 days (docs/api/webhooks.md "Retries"). */
  public static final Duration DEFAULT_TTL = Duration.ofDays(7);

  public static final int DEFAULT_MAX_ENTRIES = 100_000;

  private final long ttlNanos;
  private final int maxEntries;
  private final LongSupplier nanoClock;
  // Insertion order is expiry order (one ttl for all): expired ids are always at the front.
  private final LinkedHashMap<String, Long> expiresAt = new LinkedHashMap<>();

  /** 7 days, 100 000 ids. */
  public MemoryDeduplicator() {
    this(DEFAULT_TTL, DEFAULT_MAX_ENTRIES);
  }

  public MemoryDeduplicator(Duration ttl, int maxEntries) {
    this(ttl, maxEntries, System::nanoTime);
  }

  MemoryDeduplicator(Duration ttl, int maxEntries, LongSupplier nanoClock) {
    if (ttl.isZero() || ttl.isNegative()) {
      throw new IllegalArgumentException("ttl must be positive");
    }
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be a positive integer");
    }
    this.ttlNanos = ttl.toNanos();
    this.maxEntries = maxEntries;
    this.nanoClock = nanoClock;
  }

  @Override
  public synchronized boolean firstSeen(String eventId) {
    if (eventId == null || eventId.isEmpty()) {
      throw new IllegalArgumentException("eventId must be a non-empty string");
    }
    long now = nanoClock.getAsLong();
    prune(now);
    if (expiresAt.containsKey(eventId)) {
      return false;
    }
    expiresAt.put(eventId, now + ttlNanos);
    Iterator<String> oldest = expiresAt.keySet().iterator();
    while (expiresAt.size() > maxEntries) {
      oldest.next();
      oldest.remove();
    }
    return true;
  }

  /** Forgets {@code eventId}, so a redelivery is processed: call it when processing failed. */
  public synchronized void forget(String eventId) {
    expiresAt.remove(eventId);
  }

  /** The ids recorded and not expired. */
  public synchronized int size() {
    prune(nanoClock.getAsLong());
    return expiresAt.size();
  }

  private void prune(long now) {
    Iterator<Map.Entry<String, Long>> entries = expiresAt.entrySet().iterator();
    while (entries.hasNext()) {
      if (entries.next().getValue() - now > 0) {
        return;
      }
      entries.remove();
    }
  }
}
