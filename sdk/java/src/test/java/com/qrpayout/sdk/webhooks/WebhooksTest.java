package com.qrpayout.sdk.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.qrpayout.sdk.generated.model.TransactionStatus;
import com.qrpayout.sdk.generated.model.WebhookPingEvent;
import com.qrpayout.sdk.generated.model.WebhookTransactionCompletedEvent;
import com.qrpayout.sdk.generated.model.WebhookTransactionFailedEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Signature, event, receive and deduplication. */
class WebhooksTest {
  private static final List<String> SECRETS = List.of("whsec_current");
  private static final Instant NOW = Instant.ofEpochSecond(1_700_000_000L);
  private static final String EVENT_ID = "0b7f4c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e";
  private static final String TXN = "txn_01ARZ3NDEKTSV4RRFFQ69G5FAV";
  private static final String INS = "ins_01ARZ3NDEKTSV4RRFFQ69G5FAV";

  static String completed() {
    return "{\"schema_version\":\"1\",\"event_id\":\""
        + EVENT_ID
        + "\",\"event_type\":\"transaction.completed\","
        + "\"occurred_at\":\"2026-01-02T03:04:05.678Z\",\"data\":{\"transaction_id\":\""
        + TXN
        + "\",\"instruction_id\":\""
        + INS
        + "\",\"status\":\"completed\",\"result\":{\"reference\":\"E123\","
        + "\"settledAt\":null},\"error\":null}}";
  }

  private static String failed() {
    return "{\"schema_version\":\"1\",\"event_id\":\""
        + EVENT_ID
        + "\",\"event_type\":\"transaction.failed\",\"occurred_at\":\"2026-01-02T03:04:05Z\","
        + "\"data\":{\"transaction_id\":\""
        + TXN
        + "\",\"instruction_id\":\""
        + INS
        + "\",\"status\":\"failed\",\"result\":null,"
        + "\"error\":{\"reason\":\"rejected\",\"code\":\"AC03\",\"partnerStatus\":\"RJCT\"}}}";
  }

  private static byte[] bytes(String body) {
    return body.getBytes(StandardCharsets.UTF_8);
  }

  private static ReceiveResult receive(String body, EventDeduplicator dedupe) {
    String header = Webhooks.signBody(SECRETS, bytes(body), NOW.getEpochSecond());
    return Webhooks.receive(
        Map.of("Service-Signature", List.of(header)),
        bytes(body),
        SECRETS,
        dedupe,
        Webhooks.DEFAULT_TOLERANCE,
        NOW);
  }

  @Test
  void aSignedCompletedEventIsReceivedOnceThenADuplicate() {
    MemoryDeduplicator dedupe = new MemoryDeduplicator();
    ReceiveResult first = receive(completed(), dedupe);
    assertEquals(200, first.status());
    assertFalse(first.duplicate());
    assertEquals(EVENT_ID, first.event().eventId());
    assertEquals("transaction.completed", first.event().eventType());
    assertEquals(TXN, first.event().transactionId());
    WebhookTransactionCompletedEvent model =
        assertInstanceOf(WebhookTransactionCompletedEvent.class, first.event().generated());
    assertEquals("E123", model.getData().getResult().getReference());
    assertTrue(receive(completed(), dedupe).duplicate());
  }

  @Test
  void aFailedEventReadsAsTheGeneratedFailedModel() {
    ReceiveResult result = receive(failed(), null);
    assertEquals(200, result.status());
    WebhookTransactionFailedEvent model =
        assertInstanceOf(WebhookTransactionFailedEvent.class, result.event().generated());
    assertEquals("AC03", model.getData().getError().getCode());
    assertNull(model.getData().getResult());
  }

  @Test
  void aPingHasNoTransaction() {
    String ping =
        "{\"schema_version\":\"1\",\"event_id\":\""
            + EVENT_ID
            + "\",\"event_type\":\"webhook.ping\",\"occurred_at\":\"2026-01-02T03:04:05Z\","
            + "\"data\":{\"endpoint_id\":\"we_1\",\"message\":\"hello\"}}";
    ReceiveResult result = receive(ping, null);
    assertInstanceOf(WebhookPingEvent.class, result.event().generated());
    assertNull(result.event().transactionId());
  }

  @Test
  void aBadSignatureIs401() {
    byte[] body = bytes(completed());
    String header = Webhooks.signBody(List.of("whsec_other"), body, NOW.getEpochSecond());
    ReceiveResult result =
        Webhooks.receive(
            Map.of("service-signature", List.of(header)),
            body,
            SECRETS,
            null,
            Webhooks.DEFAULT_TOLERANCE,
            NOW);
    assertEquals(401, result.status());
    assertEquals("no_matching_signature", result.reason());
    assertEquals(
        "missing_header", Webhooks.receive(Map.of(), body, SECRETS, null).reason());
  }

  @Test
  void aRepeatedSignatureHeaderIsMalformed() {
    byte[] body = bytes(completed());
    String header = Webhooks.signBody(SECRETS, body, NOW.getEpochSecond());
    ReceiveResult result =
        Webhooks.receive(
            Map.of("Service-Signature", List.of(header, header)),
            body,
            SECRETS,
            null,
            Webhooks.DEFAULT_TOLERANCE,
            NOW);
    assertEquals("malformed_header", result.reason());
  }

  @Test
  void anUnknownEventTypeIsAcknowledgedWithoutAnEvent() {
    String future = completed().replace("transaction.completed", "transaction.refunded");
    ReceiveResult result = receive(future, new MemoryDeduplicator());
    assertEquals(200, result.status());
    assertNull(result.event());
    assertEquals("unknown_event_type", result.reason());
    assertEquals("transaction.refunded", result.eventType());
    assertEquals(EVENT_ID, result.eventId());
  }

  @Test
  void aSignedBodyThatIsNotAnEventIs400() {
    assertEquals("invalid_json", receive("not json", null).reason());
    assertEquals(400, receive("[]", null).status());
    assertEquals(
        "unsupported_schema_version",
        receive(completed().replace("\"schema_version\":\"1\"", "\"schema_version\":\"2\""), null)
            .reason());
    ReceiveResult both = receive(completed().replace("\"error\":null", "\"error\":{}"), null);
    assertEquals("invalid_envelope", both.reason());
    assertEquals("data.error is set in a transaction.completed event", both.detail());
    assertEquals(
        "event_id is not a UUID", receive(completed().replace(EVENT_ID, "evt_1"), null).detail());
  }

  @Test
  void signatureHeaderRules() {
    byte[] body = bytes("{}");
    String good = Webhooks.signBody(SECRETS, body, NOW.getEpochSecond());
    Duration tolerance = Webhooks.DEFAULT_TOLERANCE;
    assertTrue(Webhooks.verifySignature(good + ",v2=abc", body, SECRETS, tolerance, NOW).ok());
    for (String malformed :
        List.of("v1=abc", "t=abc,v1=00", "t=1,t=2,v1=00", "t=1,,v1=00", "=1,t=1", "x".repeat(9000))) {
      assertEquals(
          "malformed_header",
          Webhooks.verifySignature(malformed, body, SECRETS, tolerance, NOW).reason(),
          malformed);
    }
    List<String> rotating = List.of("whsec_new", "whsec_current");
    assertTrue(Webhooks.verifySignature(good, body, rotating, tolerance, NOW).ok());
    assertThrows(
        IllegalArgumentException.class,
        () -> Webhooks.verifySignature(good, body, List.of(), tolerance, NOW));
  }

  @Test
  void theMemoryDeduplicatorForgetsAfterTtlAndBeyondMaxEntries() {
    AtomicLong nanos = new AtomicLong();
    MemoryDeduplicator dedupe = new MemoryDeduplicator(Duration.ofSeconds(10), 2, nanos::get);
    assertTrue(dedupe.firstSeen("a"));
    assertFalse(dedupe.firstSeen("a"));
    nanos.addAndGet(Duration.ofSeconds(11).toNanos());
    assertTrue(dedupe.firstSeen("a"));
    assertTrue(dedupe.firstSeen("b"));
    assertTrue(dedupe.firstSeen("c"));
    assertEquals(2, dedupe.size());
    assertTrue(dedupe.firstSeen("a"));
    dedupe.forget("c");
    assertTrue(dedupe.firstSeen("c"));
  }

  @Test
  void theGeneratedEnumsReadTheDocumentsValues() {
    assertEquals(TransactionStatus.COMPLETED, TransactionStatus.fromValue("completed"));
  }
}
