package com.qrpayout.sdk.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.qrpayout.sdk.generated.ApiClient;
import java.io.IOException;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The event envelope (docs/api/webhooks.md "The event"), the same checks as the Python and Go
 * SDKs'; then the generated model of the event's type, read through the document's {@code
 * WebhookEvent} oneOf. Parse only a verified body.
 */
final class EventParser {
  static final Set<String> KNOWN_EVENT_TYPES =
      Set.of("transaction.completed", "transaction.failed", "webhook.ping");

  private static final ObjectMapper JSON = ApiClient.createDefaultObjectMapper();
  private static final Pattern UUID =
      Pattern.compile(
          "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", Pattern.CASE_INSENSITIVE);
  private static final Pattern ISO_UTC =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z");

  private EventParser() {}

  /** An envelope that breaks a rule; its message names the rule, never a value. */
  private static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;

    Invalid(String message) {
      super(message, null, false, false);
    }
  }

  static ParseResult parse(byte[] rawBody) {
    JsonNode envelope;
    try {
      envelope = JSON.readTree(rawBody);
    } catch (IOException err) {
      return ParseResult.failed("invalid_json", "body is not JSON");
    }
    if (envelope == null) {
      return ParseResult.failed("invalid_json", "body is not JSON");
    }
    try {
      object(envelope, "body");
      if (!"1".equals(envelope.path("schema_version").textValue())) {
        return ParseResult.failed("unsupported_schema_version", "schema_version is not \"1\"");
      }
      String eventId = string(envelope, "event_id", "");
      if (!UUID.matcher(eventId).matches()) {
        throw new Invalid("event_id is not a UUID");
      }
      String eventType = string(envelope, "event_type", "");
      String occurredAt = string(envelope, "occurred_at", "");
      if (!ISO_UTC.matcher(occurredAt).matches()) {
        throw new Invalid("occurred_at is not an ISO 8601 UTC timestamp");
      }
      JsonNode data = object(envelope.get("data"), "data");
      if (!KNOWN_EVENT_TYPES.contains(eventType)) {
        return new ParseResult(
            false,
            null,
            "unknown_event_type",
            "event_type is not known to this version",
            eventId,
            eventType);
      }
      checkData(eventType, data);
      Object generated = generated(envelope);
      return ParseResult.parsed(new WebhookEvent(eventId, eventType, occurredAt, data, generated));
    } catch (Invalid err) {
      return ParseResult.failed("invalid_envelope", err.getMessage());
    }
  }

  /** The generated model of the event, through the document's WebhookEvent oneOf. */
  private static Object generated(JsonNode envelope) throws Invalid {
    try {
      return JSON.treeToValue(envelope, com.qrpayout.sdk.generated.model.WebhookEvent.class)
          .getActualInstance();
    } catch (IOException | IllegalArgumentException err) {
      throw new Invalid("body does not match the document's WebhookEvent");
    }
  }

  private static void checkData(String eventType, JsonNode data) throws Invalid {
    if (eventType.equals("webhook.ping")) {
      string(data, "endpoint_id", "data.");
      if (!data.path("message").isTextual()) {
        throw new Invalid("data.message is not a string");
      }
      return;
    }
    String status = eventType.substring("transaction.".length());
    string(data, "transaction_id", "data.");
    string(data, "instruction_id", "data.");
    if (!status.equals(data.path("status").textValue())) {
      throw new Invalid("data.status is not \"" + status + "\"");
    }
    String present = status.equals("completed") ? "result" : "error";
    String absent = status.equals("completed") ? "error" : "result";
    if (!data.path(present).isObject()) {
      throw new Invalid("data." + present + " is not an object in a " + eventType + " event");
    }
    if (data.hasNonNull(absent)) {
      throw new Invalid("data." + absent + " is set in a " + eventType + " event");
    }
  }

  private static JsonNode object(JsonNode value, String name) throws Invalid {
    if (value == null || !value.isObject()) {
      throw new Invalid(name + " is not an object");
    }
    return value;
  }

  private static String string(JsonNode source, String key, String prefix) throws Invalid {
    JsonNode value = source.get(key);
    if (value == null || !value.isTextual() || value.textValue().isEmpty()) {
      throw new Invalid(prefix + key + " is not a non-empty string");
    }
    return value.textValue();
  }
}
