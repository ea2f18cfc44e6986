package com.qrpayout.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.qrpayout.sdk.StubServer.Answer;
import com.qrpayout.sdk.StubServer.Received;
import com.qrpayout.sdk.generated.model.PayRequest;
import com.qrpayout.sdk.generated.model.ResolveRequest;
import com.qrpayout.sdk.generated.model.TriggerSandboxEventRequest;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Retries, Idempotency-Key and errors of QrPayoutClient against a local stub server. */
class QrPayoutClientTest {
  private static final String IN_PROGRESS =
      "{\"_tag\":\"IdempotencyInProgress\",\"type\":\"IdempotencyInProgress\",\"message\":\"in"
          + " progress\",\"docs_url\":\"https://docs/errors#IdempotencyInProgress\","
          + "\"request_id\":\"00000000-0000-4000-8000-000000000001\"}";
  private static final String UNAVAILABLE =
      "{\"_tag\":\"ServiceUnavailable\",\"type\":\"ServiceUnavailable\",\"message\":\"try again\","
          + "\"docs_url\":\"https://docs/errors#ServiceUnavailable\","
          + "\"request_id\":\"00000000-0000-4000-8000-000000000002\"}";
  private static final String RATE_LIMITED =
      "{\"_tag\":\"RateLimitError\",\"type\":\"RateLimitError\",\"message\":\"slow down\","
          + "\"docs_url\":\"https://docs/errors#RateLimitError\","
          + "\"request_id\":\"00000000-0000-4000-8000-000000000003\",\"retryAfter\":2}";

  private final List<Duration> waits = new ArrayList<>();
  private final List<RetryInfo> retries = new ArrayList<>();

  private QrPayoutClient client(StubServer server, RetryPolicy policy) {
    return QrPayoutClient.builder()
        .baseUrl(server.baseUrl() + "/")
        .apiKey("sk_test")
        .retryPolicy(policy)
        .onRetry(retries::add)
        .clock(waits::add, () -> 1_700_000_000L)
        .build();
  }

  private QrPayoutClient client(StubServer server) {
    return client(server, RetryPolicy.defaults());
  }

  private static PayRequest payRequest() {
    return new PayRequest()
        .qrString("000201")
        .amount(new BigDecimal("12.34"))
        .payerName("Jane Doe")
        .payerAccount("US-0001-1234567")
        .payerTaxId("X12345678");
  }

  @Test
  void payResendsTheSameKeyAfter409InProgressAnd503() throws Exception {
    try (StubServer server =
        new StubServer(
            Answer.json(409, IN_PROGRESS), Answer.json(503, UNAVAILABLE), Answer.json(200, "{}"))) {
      assertNotNull(client(server).pay(payRequest()));
      List<Received> sent = server.received();
      assertEquals(3, sent.size());
      String key = sent.get(0).header("idempotency-key");
      assertNotNull(key);
      sent.forEach(request -> assertEquals(key, request.header("idempotency-key")));
      sent.forEach(request -> assertEquals("sk_test", request.header("x-api-key")));
      assertEquals("/v1/pay", sent.get(0).path());
      assertEquals(sent.get(0).body(), sent.get(2).body());
      assertEquals(List.of(409, 503), retries.stream().map(RetryInfo::status).toList());
      assertEquals("IdempotencyInProgress", retries.get(0).tag());
    }
  }

  @Test
  void eachPayCallMakesItsOwnKeyUnlessGivenOne() throws Exception {
    try (StubServer server = new StubServer(Answer.json(200, "{}"))) {
      QrPayoutClient client = client(server);
      client.pay(payRequest());
      client.pay(payRequest());
      client.pay(payRequest(), "order-42");
      List<Received> sent = server.received();
      assertNotEquals(sent.get(0).header("idempotency-key"), sent.get(1).header("idempotency-key"));
      assertEquals("order-42", sent.get(2).header("idempotency-key"));
    }
  }

  @Test
  void triggerSandboxEventResendsItsKeyAfter503() throws Exception {
    try (StubServer server =
        new StubServer(Answer.json(503, UNAVAILABLE), Answer.json(201, "{}"))) {
      assertNotNull(
          client(server)
              .triggerSandboxEvent(
                  new TriggerSandboxEventRequest()
                      .event(TriggerSandboxEventRequest.EventEnum.TRANSACTION_FAILED)));
      List<Received> sent = server.received();
      assertEquals(2, sent.size());
      assertEquals("/v1/sandbox/triggers", sent.get(0).path());
      assertNotNull(sent.get(0).header("idempotency-key"));
      assertEquals(sent.get(0).header("idempotency-key"), sent.get(1).header("idempotency-key"));
    }
  }

  @Test
  void resolveIsRetriedOn429ButNotOn503() throws Exception {
    try (StubServer server =
        new StubServer(Answer.json(429, RATE_LIMITED), Answer.json(503, UNAVAILABLE))) {
      QrPayoutException error =
          assertThrows(
              QrPayoutException.class,
              () -> client(server).resolve(new ResolveRequest().qrString("000201")));
      assertEquals(503, error.status());
      assertEquals(2, error.attempts());
      assertEquals(2, server.received().size());
    }
  }

  @Test
  void retryAfterIsHonoured() throws Exception {
    Answer limited = new Answer(429, Map.of("retry-after", "3"), RATE_LIMITED);
    try (StubServer server = new StubServer(limited, Answer.json(200, "{}"))) {
      client(server).listSchemes();
      assertEquals(List.of(Duration.ofSeconds(3)), waits);
    }
  }

  @Test
  void withoutRetryAfterA429WaitsUntilTheRateLimitReset() throws Exception {
    Answer limited = new Answer(429, Map.of("x-ratelimit-reset", "1700000005"), "{}");
    try (StubServer server = new StubServer(limited, Answer.json(200, "{}"))) {
      client(server).listSchemes();
      assertEquals(List.of(Duration.ofSeconds(5)), waits);
    }
  }

  @Test
  void aWaitLongerThanMaxDelayThrowsAtOnce() throws Exception {
    Answer limited = new Answer(429, Map.of("retry-after", "120"), RATE_LIMITED);
    try (StubServer server = new StubServer(limited)) {
      QrPayoutException error =
          assertThrows(QrPayoutException.class, () -> client(server).listSchemes());
      assertEquals(1, error.attempts());
      assertEquals(Integer.valueOf(2), error.retryAfter());
      assertEquals(List.of(), waits);
    }
  }

  @Test
  void aGetIsRetriedAfterADroppedConnection() throws Exception {
    // The JDK's HttpClient itself sends a GET once more on a connection closed before any answer:
    // two drops make one network error.
    try (StubServer server =
        new StubServer(Answer.drop(), Answer.drop(), Answer.json(200, "{}"))) {
      assertNotNull(client(server).getTransaction("txn_1"));
      assertEquals(3, server.received().size());
      assertEquals(List.of(0), retries.stream().map(RetryInfo::status).toList());
      assertEquals("/v1/transactions/txn_1", server.received().get(0).path());
    }
  }

  @Test
  void attemptsAreSpentThenTheLastErrorIsThrown() throws Exception {
    try (StubServer server = new StubServer(Answer.json(503, UNAVAILABLE))) {
      QrPayoutException error =
          assertThrows(QrPayoutException.class, () -> client(server).getTransaction("txn_1"));
      assertEquals(4, error.attempts());
      assertEquals(4, server.received().size());
      assertEquals("ServiceUnavailable", error.tag());
    }
  }

  @Test
  void resolveGetsANetworkErrorBackAtOnce() throws Exception {
    try (StubServer server = new StubServer(Answer.drop())) {
      assertThrows(
          UncheckedIOException.class,
          () -> client(server).resolve(new ResolveRequest().qrString("000201")));
      assertEquals(1, server.received().size());
    }
  }

  @Test
  void noRetriesWithRetryPolicyNone() throws Exception {
    try (StubServer server = new StubServer(Answer.json(429, RATE_LIMITED))) {
      QrPayoutException error =
          assertThrows(
              QrPayoutException.class, () -> client(server, RetryPolicy.none()).listSchemes());
      assertEquals(1, error.attempts());
    }
  }

  @Test
  void theErrorCarriesTheErrorBody() throws Exception {
    String conflict =
        "{\"_tag\":\"InstructionAlreadyExecuted\",\"type\":\"InstructionAlreadyExecuted\","
            + "\"message\":\"already executed\",\"docs_url\":\"https://docs/e#x\","
            + "\"request_id\":\"00000000-0000-4000-8000-000000000004\","
            + "\"transaction_id\":\"txn_01ARZ3NDEKTSV4RRFFQ69G5FAV\"}";
    try (StubServer server = new StubServer(Answer.json(409, conflict))) {
      QrPayoutException error =
          assertThrows(QrPayoutException.class, () -> client(server).getInstruction("ins_1"));
      assertEquals(409, error.status());
      assertEquals("InstructionAlreadyExecuted", error.tag());
      assertEquals("already executed", error.getMessage());
      assertEquals("https://docs/e#x", error.docsUrl());
      assertEquals("00000000-0000-4000-8000-000000000004", error.requestId());
      assertEquals("txn_01ARZ3NDEKTSV4RRFFQ69G5FAV", error.transactionId());
      assertNull(error.retryAfter());
      assertEquals("already executed", error.body().get("message").textValue());
    }
  }

  @Test
  void anAnswerWithoutAnErrorBodyIsAnHttpError() throws Exception {
    Answer html = new Answer(502, Map.of("content-type", "text/html"), "<html>bad gateway</html>");
    try (StubServer server = new StubServer(html)) {
      QrPayoutException error =
          assertThrows(QrPayoutException.class, () -> client(server).listWebhookEndpoints());
      assertEquals(502, error.status());
      assertEquals(QrPayoutException.HTTP_ERROR, error.tag());
      assertEquals("HTTP 502 from GET /v1/webhook-endpoints", error.getMessage());
      assertNull(error.body());
      assertNull(error.requestId());
    }
  }

  @Test
  void aMissingBodyIsRefusedBeforeAnythingIsSent() throws Exception {
    try (StubServer server = new StubServer(Answer.json(200, "{}"))) {
      assertThrows(IllegalArgumentException.class, () -> client(server).pay(null));
      assertEquals(List.of(), server.received());
    }
  }

  @Test
  void theBuilderRequiresABaseUrlAndAKey() {
    assertThrows(
        IllegalArgumentException.class, () -> QrPayoutClient.builder().apiKey("k").build());
    assertThrows(
        IllegalArgumentException.class,
        () -> QrPayoutClient.builder().baseUrl("http://127.0.0.1:1").build());
  }
}
