package com.qrpayout.sdk;

import java.time.Duration;
import java.util.Objects;

/**
 * How often and how long {@link QrPayoutClient} retries (README "Retries"). {@code new RetryPolicy(1,
 * ...)} or {@link #none()} turns retries off.
 *
 * @param maxAttempts attempts in all, the first included
 * @param baseDelay the first backoff delay; doubled per attempt, with full jitter
 * @param maxDelay the longest wait between attempts; a server asking for longer (Retry-After) gets
 *     its error thrown at once
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay) {
  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
    Objects.requireNonNull(baseDelay, "baseDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (baseDelay.isNegative() || maxDelay.isNegative()) {
      throw new IllegalArgumentException("delays must not be negative");
    }
  }

  /** 4 attempts, 250 ms base delay, 30 s longest wait. */
  public static RetryPolicy defaults() {
    return new RetryPolicy(4, Duration.ofMillis(250), Duration.ofSeconds(30));
  }

  /** One attempt: every error is thrown at once. */
  public static RetryPolicy none() {
    return new RetryPolicy(1, Duration.ZERO, Duration.ZERO);
  }
}
