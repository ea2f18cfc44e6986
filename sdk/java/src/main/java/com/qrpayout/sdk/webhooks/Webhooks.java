package com.qrpayout.sdk.webhooks;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Receiving QR Payout webhooks (docs/api/webhooks.md): verify the signature over the exact raw
 * body bytes, parse, deduplicate. {@link #receive} does all three for a handler.
 */
public final class Webhooks {
  /** The signature header's name (HTTP header names are case-insensitive). */
  public static final String SIGNATURE_HEADER = "service-signature";

  /** Largest accepted |now − t| (docs/api/webhooks.md "The signature"). */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);

  private Webhooks() {}

  /**
   * Checks a {@code Service-Signature} header against the exact raw body bytes, with {@code
   * secrets} (current first while you rotate yours). Never throws for anything in the header;
   * throws IllegalArgumentException for a misuse (no secret, a negative tolerance).
   */
  public static SignatureCheck verifySignature(
      String header, byte[] rawBody, List<String> secrets, Duration tolerance, Instant now) {
    return Signature.verify(header, rawBody, secrets, tolerance, now);
  }

  /** {@link #verifySignature} with the default tolerance, now. */
  public static SignatureCheck verifySignature(
      String header, byte[] rawBody, List<String> secrets) {
    return verifySignature(header, rawBody, secrets, DEFAULT_TOLERANCE, Instant.now());
  }

  /** TEST HELPER: the header the service would send for {@code rawBody} at {@code timestamp}. */
  public static String signBody(List<String> secrets, byte[] rawBody, long timestamp) {
    return Signature.sign(secrets, rawBody, timestamp);
  }

  /** Parses a verified body and checks the envelope and the data of the known event types. */
  public static ParseResult parseEvent(byte[] rawBody) {
    return EventParser.parse(rawBody);
  }

  /** {@link #receive(Map, byte[], List, EventDeduplicator, Duration, Instant)}, default tolerance. */
  public static ReceiveResult receive(
      Map<String, List<String>> headers,
      byte[] rawBody,
      List<String> secrets,
      EventDeduplicator dedupe) {
    return receive(headers, rawBody, secrets, dedupe, DEFAULT_TOLERANCE, Instant.now());
  }

  /**
   * Verify, parse, deduplicate, and say what to answer. {@code headers}: any map of names to values
   * (com.sun.net.httpserver's, java.net.http's {@code map()}, a servlet's collected), looked up
   * case-insensitively. The {@code x-event-id} / {@code x-event-type} headers are not signed and
   * not used: the signed body is. Without {@code dedupe} (null) every verified event reads as new.
   */
  public static ReceiveResult receive(
      Map<String, List<String>> headers,
      byte[] rawBody,
      List<String> secrets,
      EventDeduplicator dedupe,
      Duration tolerance,
      Instant now) {
    SignatureCheck check =
        verifySignature(signatureHeader(headers), rawBody, secrets, tolerance, now);
    if (!check.ok()) {
      return new ReceiveResult(401, null, false, check.reason(), "", null, null);
    }
    ParseResult parsed = parseEvent(rawBody);
    if ("unknown_event_type".equals(parsed.reason())) {
      // Not recorded: after an upgrade that knows the type, a replay is processed.
      return new ReceiveResult(
          200, null, false, parsed.reason(), parsed.detail(), parsed.eventId(), parsed.eventType());
    }
    if (parsed.event() == null) {
      return new ReceiveResult(400, null, false, parsed.reason(), parsed.detail(), null, null);
    }
    boolean duplicate = dedupe != null && !dedupe.firstSeen(parsed.event().eventId());
    return new ReceiveResult(200, parsed.event(), duplicate, null, "", null, null);
  }

  /** The one signature header; a repeated one cannot verify (the service sends exactly one). */
  private static String signatureHeader(Map<String, List<String>> headers) {
    for (Map.Entry<String, List<String>> entry : headers.entrySet()) {
      if (entry.getKey() != null && entry.getKey().equalsIgnoreCase(SIGNATURE_HEADER)) {
        List<String> values = entry.getValue();
        return values == null || values.isEmpty() ? null : values.size() == 1 ? values.get(0) : "\0";
      }
    }
    return null;
  }
}
