package com.qrpayout.sdk.webhooks;

/**
 * The outcome of {@link Webhooks#receive}: {@code status} to answer (401 bad signature, 400 bad
 * body, 200 otherwise). Process {@code event} when it is set and not {@code duplicate}; a verified
 * event of an unknown type has no {@code event} (reason {@code unknown_event_type}, {@code
 * eventId}, {@code eventType}): acknowledge it.
 */
public record ReceiveResult(
    int status,
    WebhookEvent event,
    boolean duplicate,
    String reason,
    String detail,
    String eventId,
    String eventType) {}
