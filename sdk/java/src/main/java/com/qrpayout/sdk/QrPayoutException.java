package com.qrpayout.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Every non-2xx answer of the API, once retries are spent (README "Errors"). The body is the one of
 * docs/api/errors.md "The error body" ({@code _tag}, {@code message}, {@code docs_url}, {@code
 * request_id}, and {@code retryAfter} / {@code transaction_id} where the error declares them). An
 * answer that is not such a body (a proxy's HTML page) keeps {@link #body()} null and takes {@code
 * HttpError} as its tag. Unchecked, so Kotlin and Java callers alike catch it where they choose.
 */
public final class QrPayoutException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The tag of an answer without an error body. */
  public static final String HTTP_ERROR = "HttpError";

  private final int status;
  private final String tag;
  private final String docsUrl;
  private final String requestId;
  private final Integer retryAfter;
  private final String transactionId;
  private final int attempts;
  private final transient JsonNode body;

  QrPayoutException(int status, JsonNode body, int attempts, String fallbackMessage) {
    super(text(body, "message") != null ? text(body, "message") : fallbackMessage);
    this.status = status;
    this.body = body;
    this.attempts = attempts;
    this.tag = text(body, "_tag") != null ? text(body, "_tag") : HTTP_ERROR;
    this.docsUrl = text(body, "docs_url");
    this.requestId = text(body, "request_id");
    this.retryAfter =
        body != null && body.path("retryAfter").isInt() ? body.get("retryAfter").intValue() : null;
    this.transactionId = text(body, "transaction_id");
  }

  /** The error body in an answer's bytes, or null when they are not one (not JSON, no _tag). */
  static JsonNode errorBodyOf(byte[] content) {
    try {
      JsonNode parsed = JSON.readTree(content);
      if (parsed != null
          && parsed.isObject()
          && parsed.path("_tag").isTextual()
          && parsed.path("message").isTextual()) {
        return parsed;
      }
    } catch (IOException notJson) {
      // Not an error body: the tag is HttpError.
    }
    return null;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The body's {@code _tag} (e.g. {@code ValidationError}), or {@code HttpError}. */
  public String tag() {
    return tag;
  }

  /** Where the error is described; null without an error body. */
  public String docsUrl() {
    return docsUrl;
  }

  /** The answer's request id, to quote to support; null without an error body. */
  public String requestId() {
    return requestId;
  }

  /** Seconds to wait, on a 429 RateLimitError (the body's {@code retryAfter}); null otherwise. */
  public Integer retryAfter() {
    return retryAfter;
  }

  /** The transaction concerned, on InstructionAlreadyExecuted and ChargeAlreadyPaid; else null. */
  public String transactionId() {
    return transactionId;
  }

  /** How many times the request was sent (more than 1 after retries). */
  public int attempts() {
    return attempts;
  }

  /** The error body as received; null when the answer was not one. */
  public JsonNode body() {
    return body;
  }

  @Override
  public String toString() {
    return "QrPayoutException(status=" + status + ", tag=" + tag + ", message=" + getMessage() + ")";
  }

  private static String text(JsonNode body, String field) {
    return body != null && body.path(field).isTextual() ? body.get(field).textValue() : null;
  }
}
