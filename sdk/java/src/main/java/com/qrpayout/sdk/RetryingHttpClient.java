package com.qrpayout.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The HttpClient under every generated operation: sends a request again, unchanged (so its {@code
 * Idempotency-Key} is the same on every attempt, docs/api/idempotency.md "The Idempotency-Key"),
 * when {@link RetryDecision} says so, and throws {@link QrPayoutException} for any other non-2xx
 * answer or the last one: the generated code only ever sees 2xx answers. A network error, once
 * retries are spent, is thrown as the {@link IOException} it was.
 */
final class RetryingHttpClient extends HttpClient {
  /** Waits between attempts (tests replace it). */
  interface Sleeper {
    void sleep(Duration delay) throws InterruptedException;
  }

  private final HttpClient inner;
  private final RetryPolicy policy;
  private final Consumer<RetryInfo> onRetry;
  private final Sleeper sleeper;
  private final LongSupplier nowSeconds;
  private final DoubleSupplier random;

  /** Waits for real. */
  static final Sleeper THREAD_SLEEP = delay -> Thread.sleep(delay.toMillis());

  /** Unix seconds, for {@code x-ratelimit-reset}. */
  static final LongSupplier WALL_CLOCK = () -> System.currentTimeMillis() / 1000;

  RetryingHttpClient(
      HttpClient inner,
      RetryPolicy policy,
      Consumer<RetryInfo> onRetry,
      Sleeper sleeper,
      LongSupplier nowSeconds) {
    this(inner, policy, onRetry, sleeper, nowSeconds, () -> ThreadLocalRandom.current().nextDouble());
  }

  RetryingHttpClient(
      HttpClient inner,
      RetryPolicy policy,
      Consumer<RetryInfo> onRetry,
      Sleeper sleeper,
      LongSupplier nowSeconds,
      DoubleSupplier random) {
    this.inner = inner;
    this.policy = policy;
    this.onRetry = onRetry;
    this.sleeper = sleeper;
    this.nowSeconds = nowSeconds;
    this.random = random;
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    boolean resendable = RetryDecision.isResendable(request);
    for (int attempt = 1; ; attempt++) {
      HttpResponse<byte[]> response;
      try {
        response = inner.send(request, HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException err) {
        if (!resendable || attempt >= policy.maxAttempts()) {
          throw err;
        }
        Duration delay = RetryDecision.backoff(attempt, policy, random);
        pause(new RetryInfo(attempt, 0, err.getClass().getSimpleName(), delay, request.uri()));
        continue;
      }
      if (response.statusCode() / 100 == 2) {
        return ReplayedResponse.of(response, handler);
      }
      pause(retryAfterError(request, response, attempt, resendable));
    }
  }

  /** The retry to make after an error answer; throws QrPayoutException when not to retry. */
  private RetryInfo retryAfterError(
      HttpRequest request, HttpResponse<byte[]> response, int attempt, boolean resendable) {
    int status = response.statusCode();
    JsonNode body = QrPayoutException.errorBodyOf(response.body());
    QrPayoutException error =
        new QrPayoutException(
            status,
            body,
            attempt,
            "HTTP " + status + " from " + request.method() + " " + request.uri().getPath());
    if (attempt >= policy.maxAttempts()
        || !RetryDecision.isRetryable(status, body == null ? null : error.tag(), resendable)) {
      throw error;
    }
    Optional<Duration> asked =
        RetryDecision.serverDelay(status, response.headers(), nowSeconds.getAsLong());
    if (asked.isPresent() && asked.get().compareTo(policy.maxDelay()) > 0) {
      throw error;
    }
    Duration delay = asked.orElseGet(() -> RetryDecision.backoff(attempt, policy, random));
    return new RetryInfo(attempt, status, error.tag(), delay, request.uri());
  }

  private void pause(RetryInfo info) throws InterruptedException {
    if (onRetry != null) {
      onRetry.accept(info);
    }
    sleeper.sleep(info.delay());
  }

  /** Not used by the generated code (synchronous): sent once, without retries. */
  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    return inner.sendAsync(request, handler);
  }

  /** Not used by the generated code (synchronous): sent once, without retries. */
  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request,
      HttpResponse.BodyHandler<T> handler,
      HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
    return inner.sendAsync(request, handler, pushPromiseHandler);
  }

  @Override
  public Optional<CookieHandler> cookieHandler() {
    return inner.cookieHandler();
  }

  @Override
  public Optional<Duration> connectTimeout() {
    return inner.connectTimeout();
  }

  @Override
  public Redirect followRedirects() {
    return inner.followRedirects();
  }

  @Override
  public Optional<ProxySelector> proxy() {
    return inner.proxy();
  }

  @Override
  public SSLContext sslContext() {
    return inner.sslContext();
  }

  @Override
  public SSLParameters sslParameters() {
    return inner.sslParameters();
  }

  @Override
  public Optional<Authenticator> authenticator() {
    return inner.authenticator();
  }

  @Override
  public Version version() {
    return inner.version();
  }

  @Override
  public Optional<Executor> executor() {
    return inner.executor();
  }
}
