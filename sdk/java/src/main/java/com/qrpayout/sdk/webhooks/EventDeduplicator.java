package com.qrpayout.sdk.webhooks;

/**
 * Deduplication by event id. Delivery is at least once (docs/api/webhooks.md "Delivery
 * semantics"): the same event can arrive again, e.g. when your 2xx answer was lost; record {@code
 * event_id} and answer 2xx to duplicates. In production that record is a table with a unique {@code
 * event_id}, written in the same transaction as the processing (README "Deduplication in
 * production").
 */
@FunctionalInterface
public interface EventDeduplicator {
  /** Records {@code eventId}: true the first time, false when already recorded. Must be atomic. */
  boolean firstSeen(String eventId);
}
