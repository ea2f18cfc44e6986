package com.qrpayout.sdk.webhooks;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A verified event (docs/api/webhooks.md "The event").
 *
 * @param eventId deduplicate on it
 * @param eventType {@code transaction.completed}, {@code transaction.failed} or {@code webhook.ping}
 * @param occurredAt ISO 8601 UTC, as sent
 * @param data the {@code data} object as sent (transaction events: {@code transaction_id}, {@code
 *     instruction_id}, {@code status}, {@code result}, {@code error}; webhook.ping: {@code
 *     endpoint_id}, {@code message})
 * @param generated the same event as the generated model of its type: {@code
 *     WebhookTransactionCompletedEvent}, {@code WebhookTransactionFailedEvent} or {@code
 *     WebhookPingEvent} of {@code com.qrpayout.sdk.generated.model}
 */
public record WebhookEvent(
    String eventId, String eventType, String occurredAt, JsonNode data, Object generated) {
  /** The transaction of a {@code transaction.*} event; null for {@code webhook.ping}. */
  public String transactionId() {
    JsonNode id = data.get("transaction_id");
    return id != null && id.isTextual() ? id.textValue() : null;
  }
}
