package com.qrpayout.sdk.webhooks;

/**
 * The outcome of {@link Webhooks#parseEvent}: {@code event} when ok; else {@code reason} ({@code
 * invalid_json}, {@code invalid_envelope}, {@code unsupported_schema_version}, {@code
 * unknown_event_type}), {@code detail} (never body values) and, for an unknown event type, {@code
 * eventId} / {@code eventType} (acknowledge it: a {@code ["*"]} subscription receives future
 * types).
 */
public record ParseResult(
    boolean ok,
    WebhookEvent event,
    String reason,
    String detail,
    String eventId,
    String eventType) {
  static ParseResult parsed(WebhookEvent event) {
    return new ParseResult(true, event, null, "", null, null);
  }

  static ParseResult failed(String reason, String detail) {
    return new ParseResult(false, null, reason, detail, null, null);
  }
}
