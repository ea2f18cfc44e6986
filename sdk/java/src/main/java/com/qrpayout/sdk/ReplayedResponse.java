package com.qrpayout.sdk;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Flow;
import javax.net.ssl.SSLSession;

/**
 * A 2xx answer read whole by {@link RetryingHttpClient} (it reads every answer to decide on a
 * retry), given to the caller's body handler as if it had just arrived.
 */
final class ReplayedResponse<T> implements HttpResponse<T> {
  private final HttpResponse<byte[]> received;
  private final T body;

  private ReplayedResponse(HttpResponse<byte[]> received, T body) {
    this.received = received;
    this.body = body;
  }

  static <T> HttpResponse<T> of(HttpResponse<byte[]> received, BodyHandler<T> handler) {
    ResponseInfo info =
        new ResponseInfo() {
          @Override
          public int statusCode() {
            return received.statusCode();
          }

          @Override
          public HttpHeaders headers() {
            return received.headers();
          }

          @Override
          public HttpClient.Version version() {
            return received.version();
          }
        };
    BodySubscriber<T> subscriber = handler.apply(info);
    byte[] bytes = received.body() == null ? new byte[0] : received.body();
    subscriber.onSubscribe(new Replay(subscriber, bytes));
    return new ReplayedResponse<>(received, subscriber.getBody().toCompletableFuture().join());
  }

  /** Hands the bytes over on the first request, then completes. */
  private static final class Replay implements Flow.Subscription {
    private final BodySubscriber<?> subscriber;
    private final byte[] bytes;
    private boolean done;

    Replay(BodySubscriber<?> subscriber, byte[] bytes) {
      this.subscriber = subscriber;
      this.bytes = bytes;
    }

    @Override
    public synchronized void request(long n) {
      if (done) {
        return;
      }
      done = true;
      if (bytes.length > 0) {
        subscriber.onNext(List.of(ByteBuffer.wrap(bytes)));
      }
      subscriber.onComplete();
    }

    @Override
    public synchronized void cancel() {
      done = true;
    }
  }

  @Override
  public int statusCode() {
    return received.statusCode();
  }

  @Override
  public HttpRequest request() {
    return received.request();
  }

  @Override
  public Optional<HttpResponse<T>> previousResponse() {
    return Optional.empty();
  }

  @Override
  public HttpHeaders headers() {
    return received.headers();
  }

  @Override
  public T body() {
    return body;
  }

  @Override
  public Optional<SSLSession> sslSession() {
    return received.sslSession();
  }

  @Override
  public URI uri() {
    return received.uri();
  }

  @Override
  public HttpClient.Version version() {
    return received.version();
  }
}
