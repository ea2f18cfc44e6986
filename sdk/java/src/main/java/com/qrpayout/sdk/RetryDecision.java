package com.qrpayout.sdk;

import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * Which answers are sent again and after how long (README "Retries"), the same rules as the Python
 * and Go SDKs':
 *
 * <ul>
 *   <li>429 (docs/api/rate-limits.md "Per key"): refused before anything ran, any request;
 *   <li>409 {@code IdempotencyInProgress}, 503 (docs/api/errors.md "The error body") and network
 *       errors: only a request that is safe to send twice, a GET or one carrying an {@code
 *       Idempotency-Key} (pay, execute), since a 503 or a lost answer may come after the work was
 *       done.
 * </ul>
 */
final class RetryDecision {
  private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

  private RetryDecision() {}

  /** Whether sending the request twice does it at most once: a GET, or a keyed pay or execute. */
  static boolean isResendable(HttpRequest request) {
    return SAFE_METHODS.contains(request.method())
        || request.headers().firstValue("idempotency-key").isPresent();
  }

  /** Whether an error answer is one to send again; {@code tag} null when it had no error body. */
  static boolean isRetryable(int status, String tag, boolean resendable) {
    if (status == 429) {
      return true;
    }
    if (!resendable) {
      return false;
    }
    return status == 503 || (status == 409 && "IdempotencyInProgress".equals(tag));
  }

  /**
   * The wait the server asks for: {@code retry-after} seconds, else on 429 until {@code
   * x-ratelimit-reset} (unix seconds), else empty.
   */
  static Optional<Duration> serverDelay(int status, HttpHeaders headers, long nowSeconds) {
    Optional<Long> retryAfter = digits(headers, "retry-after");
    if (retryAfter.isPresent()) {
      return Optional.of(Duration.ofSeconds(retryAfter.get()));
    }
    Optional<Long> reset = digits(headers, "x-ratelimit-reset");
    if (status == 429 && reset.isPresent()) {
      return Optional.of(Duration.ofSeconds(Math.max(0, reset.get() - nowSeconds)));
    }
    return Optional.empty();
  }

  /** Exponential backoff with full jitter: a random delay in [0, base·2^(attempt−1)], capped. */
  static Duration backoff(int attempt, RetryPolicy policy, DoubleSupplier random) {
    double ceiling =
        Math.min(
            policy.maxDelay().toNanos(),
            policy.baseDelay().toNanos() * Math.pow(2, Math.min(attempt - 1, 62)));
    return Duration.ofNanos((long) (random.getAsDouble() * ceiling));
  }

  private static Optional<Long> digits(HttpHeaders headers, String name) {
    return headers
        .firstValue(name)
        .map(String::trim)
        .filter(value -> value.matches("[0-9]{1,15}"))
        .map(Long::parseLong);
  }
}
