package com.qrpayout.sdk;

import com.qrpayout.sdk.generated.ApiClient;
import com.qrpayout.sdk.generated.ApiException;
import com.qrpayout.sdk.generated.api.FxApi;
import com.qrpayout.sdk.generated.api.InstructionsApi;
import com.qrpayout.sdk.generated.api.PaymentsApi;
import com.qrpayout.sdk.generated.api.SandboxApi;
import com.qrpayout.sdk.generated.api.SchemesApi;
import com.qrpayout.sdk.generated.api.TransactionsApi;
import com.qrpayout.sdk.generated.api.WebhookDeliveriesApi;
import com.qrpayout.sdk.generated.api.WebhookEndpointsApi;
import com.qrpayout.sdk.generated.model.ExecuteRequest;
import com.qrpayout.sdk.generated.model.ExecuteResponse;
import com.qrpayout.sdk.generated.model.InstructionResponse;
import com.qrpayout.sdk.generated.model.ListSandboxTestQrs200Response;
import com.qrpayout.sdk.generated.model.PayRequest;
import com.qrpayout.sdk.generated.model.PayResponse;
import com.qrpayout.sdk.generated.model.ResolveRequest;
import com.qrpayout.sdk.generated.model.ResolveResponse;
import com.qrpayout.sdk.generated.model.SchemesResponse;
import com.qrpayout.sdk.generated.model.TransactionResponse;
import com.qrpayout.sdk.generated.model.TransactionStatus;
import com.qrpayout.sdk.generated.model.TransactionsResponse;
import com.qrpayout.sdk.generated.model.TriggerSandboxEventRequest;
import com.qrpayout.sdk.generated.model.WalletCurrenciesResponse;
import com.qrpayout.sdk.generated.model.WebhookDeliveriesResponse;
import com.qrpayout.sdk.generated.model.WebhookDeliveryReplayResponse;
import com.qrpayout.sdk.generated.model.WebhookDeliveryResponse;
import com.qrpayout.sdk.generated.model.WebhookDeliveryStatus;
import com.qrpayout.sdk.generated.model.WebhookEndpointsResponse;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The QR Payout API for one API key: one method per public operation over the generated code
 * ({@code com.qrpayout.sdk.generated}, never edited), each returning the 2xx body as the generated
 * model or throwing {@link QrPayoutException} (an error answer) or {@link UncheckedIOException} (a
 * network error), once retries are spent (README "Retries").
 *
 * <p>Pay and execute carry an {@code Idempotency-Key} (docs/api/idempotency.md "The
 * Idempotency-Key"): the caller's, or a new UUID per call; the retrying HttpClient resends the same
 * request, so every retry of one call reuses that key and the payment happens at most once.
 * Thread-safe: share one client.
 */
public final class QrPayoutClient {
  private final ApiClient generated;
  private final SchemesApi schemes;
  private final FxApi fx;
  private final SandboxApi sandbox;
  private final PaymentsApi payments;
  private final InstructionsApi instructions;
  private final TransactionsApi transactions;
  private final WebhookEndpointsApi webhookEndpoints;
  private final WebhookDeliveriesApi webhookDeliveries;

  private QrPayoutClient(Builder builder) {
    HttpClient retrying =
        new RetryingHttpClient(
            builder.httpClient,
            builder.retryPolicy,
            builder.onRetry,
            builder.sleeper,
            builder.nowSeconds);
    this.generated =
        new ApiClient(
            ApiClient.createDefaultHttpClientBuilder(),
            ApiClient.createDefaultObjectMapper(),
            builder.baseUrl) {
          @Override
          public HttpClient getHttpClient() {
            return retrying;
          }
        };
    String apiKey = builder.apiKey;
    generated.setRequestInterceptor(request -> request.setHeader("x-api-key", apiKey));
    generated.setReadTimeout(builder.timeout);
    this.schemes = new SchemesApi(generated);
    this.fx = new FxApi(generated);
    this.sandbox = new SandboxApi(generated);
    this.payments = new PaymentsApi(generated);
    this.instructions = new InstructionsApi(generated);
    this.transactions = new TransactionsApi(generated);
    this.webhookEndpoints = new WebhookEndpointsApi(generated);
    this.webhookDeliveries = new WebhookDeliveriesApi(generated);
  }

  /** A builder: {@code baseUrl} and {@code apiKey} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The generated ApiClient, with the API key, the retries and the errors of this client: give it
   * to any class of {@code com.qrpayout.sdk.generated.api} for an operation this class has no
   * method for.
   */
  public ApiClient generated() {
    return generated;
  }

  public SchemesResponse listSchemes() {
    return call(schemes::listSchemes);
  }

  /** The wallet currencies fx quotes ({@code wallet_currency} of resolve and pay). */
  public WalletCurrenciesResponse listFxCurrencies() {
    return call(fx::listFxCurrencies);
  }

  /** The sandbox's test QR codes and amounts (docs/sandbox-test-qrs.md); no key needed. */
  public ListSandboxTestQrs200Response listSandboxTestQrs() {
    return call(sandbox::listSandboxTestQrs);
  }

  public ResolveResponse resolve(ResolveRequest body) {
    return call(() -> payments.resolve(body));
  }

  /** Execute with a new Idempotency-Key, reused by this call's retries. */
  public ExecuteResponse execute(ExecuteRequest body) {
    return execute(body, newIdempotencyKey());
  }

  /** Execute with your Idempotency-Key (e.g. your order id). */
  public ExecuteResponse execute(ExecuteRequest body, String idempotencyKey) {
    return call(() -> payments.execute(idempotencyKey, body));
  }

  /** Pay with a new Idempotency-Key, reused by this call's retries. */
  public PayResponse pay(PayRequest body) {
    return pay(body, newIdempotencyKey());
  }

  /** Pay with your Idempotency-Key (e.g. your order id). */
  public PayResponse pay(PayRequest body, String idempotencyKey) {
    return call(() -> payments.pay(idempotencyKey, body));
  }

  /**
   * Sandbox only (docs/api/sandbox.md "Triggers"): a real terminal transaction of your tenant and its
   * webhook event, with a new Idempotency-Key reused by this call's retries.
   */
  public ExecuteResponse triggerSandboxEvent(TriggerSandboxEventRequest body) {
    return triggerSandboxEvent(body, newIdempotencyKey());
  }

  /** A sandbox trigger with your Idempotency-Key. */
  public ExecuteResponse triggerSandboxEvent(TriggerSandboxEventRequest body, String idempotencyKey) {
    return call(() -> sandbox.triggerSandboxEvent(idempotencyKey, body));
  }

  public InstructionResponse getInstruction(String id) {
    return call(() -> instructions.getInstruction(id));
  }

  public TransactionResponse getTransaction(String id) {
    return call(() -> transactions.getTransaction(id));
  }

  /** Every parameter may be null (not sent). */
  public TransactionsResponse listTransactions(
      TransactionStatus status,
      OffsetDateTime createdGte,
      OffsetDateTime createdLt,
      Integer limit,
      String cursor) {
    return call(() -> transactions.listTransactions(status, createdGte, createdLt, limit, cursor));
  }

  public WebhookEndpointsResponse listWebhookEndpoints() {
    return call(webhookEndpoints::listWebhookEndpoints);
  }

  /** Every parameter may be null (not sent). */
  public WebhookDeliveriesResponse listWebhookDeliveries(
      String transactionId, WebhookDeliveryStatus status, Integer limit, String cursor) {
    return call(() -> webhookDeliveries.listWebhookDeliveries(transactionId, status, limit, cursor));
  }

  public WebhookDeliveryResponse getWebhookDelivery(String id) {
    return call(() -> webhookDeliveries.getWebhookDelivery(id));
  }

  /** Sends the delivery's event again to its endpoint (the request has no fields). */
  public WebhookDeliveryReplayResponse replayWebhookDelivery(String id) {
    return call(() -> webhookDeliveries.replayWebhookDelivery(id, Map.of()));
  }

  private static String newIdempotencyKey() {
    return UUID.randomUUID().toString();
  }

  /** A generated operation. */
  @FunctionalInterface
  private interface Operation<T> {
    T run() throws ApiException;
  }

  /**
   * Runs a generated operation: QrPayoutException comes through unchanged (the retrying HttpClient
   * throws it); the generated code's ApiException wraps a network or parse error, or without a
   * cause says a required argument is missing (nothing was sent).
   */
  private static <T> T call(Operation<T> operation) {
    try {
      return operation.run();
    } catch (ApiException err) {
      Throwable cause = err.getCause();
      if (cause instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        throw new UncheckedIOException(new InterruptedIOException("interrupted"));
      }
      if (cause instanceof IOException io) {
        throw new UncheckedIOException(io);
      }
      throw new IllegalArgumentException(err.getMessage(), err);
    }
  }

  /** Builds a {@link QrPayoutClient}. */
  public static final class Builder {
    private String baseUrl;
    private String apiKey;
    private RetryPolicy retryPolicy = RetryPolicy.defaults();
    private Consumer<RetryInfo> onRetry;
    private Duration timeout = Duration.ofSeconds(30);
    private HttpClient httpClient;
    private RetryingHttpClient.Sleeper sleeper = RetryingHttpClient.THREAD_SLEEP;
    private LongSupplier nowSeconds = RetryingHttpClient.WALL_CLOCK;

    private Builder() {}

    /** Tests: the wait between attempts and the clock of {@code x-ratelimit-reset}. */
    Builder clock(RetryingHttpClient.Sleeper sleeper, LongSupplier nowSeconds) {
      this.sleeper = sleeper;
      this.nowSeconds = nowSeconds;
      return this;
    }

    /** E.g. {@code http://127.0.0.1:8080} for the sandbox. */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** Your {@code x-api-key}. */
    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /** Default {@link RetryPolicy#defaults()}; {@link RetryPolicy#none()} turns retries off. */
    public Builder retryPolicy(RetryPolicy retryPolicy) {
      this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
      return this;
    }

    /** Told before each retry. */
    public Builder onRetry(Consumer<RetryInfo> onRetry) {
      this.onRetry = onRetry;
      return this;
    }

    /** Per attempt; 30 s by default (the sandbox's pay waits up to 8 s). */
    public Builder timeout(Duration timeout) {
      this.timeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** The HttpClient under the retries (proxy, TLS, executor); by default HTTP/1.1, 10 s connect. */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = httpClient;
      return this;
    }

    public QrPayoutClient build() {
      if (baseUrl == null || baseUrl.isEmpty()) {
        throw new IllegalArgumentException("QrPayoutClient: baseUrl is required");
      }
      if (apiKey == null || apiKey.isEmpty()) {
        throw new IllegalArgumentException("QrPayoutClient: apiKey is required");
      }
      baseUrl = baseUrl.replaceAll("/+$", "");
      if (httpClient == null) {
        httpClient =
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
      }
      return new QrPayoutClient(this);
    }
  }
}
