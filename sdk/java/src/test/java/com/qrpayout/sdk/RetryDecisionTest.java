package com.qrpayout.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryDecisionTest {
  private static HttpRequest request(String method, boolean keyed) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1/v1/x"))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (keyed) {
      builder.header("Idempotency-Key", "k");
    }
    return builder.build();
  }

  @Test
  void resendableIsAGetOrAKeyedRequest() {
    assertTrue(RetryDecision.isResendable(request("GET", false)));
    assertTrue(RetryDecision.isResendable(request("POST", true)));
    assertFalse(RetryDecision.isResendable(request("POST", false)));
  }

  @Test
  void retryableAnswers() {
    assertTrue(RetryDecision.isRetryable(429, null, false));
    assertFalse(RetryDecision.isRetryable(503, "ServiceUnavailable", false));
    assertTrue(RetryDecision.isRetryable(503, null, true));
    assertTrue(RetryDecision.isRetryable(409, "IdempotencyInProgress", true));
    assertFalse(RetryDecision.isRetryable(409, "IdempotencyKeyReused", true));
    assertFalse(RetryDecision.isRetryable(500, "InternalError", true));
  }

  @Test
  void backoffDoublesUpToMaxDelay() {
    RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(250), Duration.ofSeconds(1));
    assertEquals(Duration.ofMillis(250), RetryDecision.backoff(1, policy, () -> 1.0));
    assertEquals(Duration.ofMillis(500), RetryDecision.backoff(2, policy, () -> 1.0));
    assertEquals(Duration.ofSeconds(1), RetryDecision.backoff(5, policy, () -> 1.0));
    assertEquals(Duration.ZERO, RetryDecision.backoff(3, policy, () -> 0.0));
  }
}
