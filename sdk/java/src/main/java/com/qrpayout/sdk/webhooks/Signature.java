package com.qrpayout.sdk.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Service-Signature} header (docs/api/webhooks.md "The signature"):
 *
 * <pre>Service-Signature: t=&lt;unix seconds&gt;,v1=&lt;lowercase hex HMAC-SHA256(secret, "&lt;t&gt;.&lt;raw body&gt;")&gt;</pre>
 *
 * <p>The key is the whole signing secret as UTF-8 text, {@code whsec_} prefix included. During a
 * rotation the header carries one v1 per live secret; it verifies when any v1 matches any of the
 * receiver's secrets. Unknown schemes (a future {@code v2=}) are ignored. Every case of the
 * repository's shared vectors (webhook-receiver/signature-vectors.json) passes
 * (SignatureVectorsTest).
 */
final class Signature {
  /** A longer header is refused as malformed before any work is done on it. */
  static final int MAX_HEADER_LENGTH = 8192;

  private static final Pattern T_DIGITS = Pattern.compile("[0-9]{1,15}");

  private Signature() {}

  /** {@code t} exactly as sent and the v1 values; null when malformed. */
  record Parsed(String t, List<String> v1) {}

  static SignatureCheck verify(
      String header, byte[] rawBody, List<String> secrets, Duration tolerance, Instant now) {
    checkSecrets(secrets);
    if (rawBody == null) {
      throw new IllegalArgumentException("rawBody must be the raw request body bytes");
    }
    if (tolerance.isNegative()) {
      throw new IllegalArgumentException("tolerance must not be negative");
    }
    if (header == null || header.isEmpty()) {
      return SignatureCheck.failed("missing_header");
    }
    Parsed parsed = parse(header);
    if (parsed == null) {
      return SignatureCheck.failed("malformed_header");
    }
    long timestamp = Long.parseLong(parsed.t());
    if (Math.abs(now.getEpochSecond() - timestamp) > tolerance.getSeconds()) {
      return SignatureCheck.failed("timestamp_out_of_tolerance");
    }
    boolean matched = false;
    for (String secret : secrets) {
      // The digits of t exactly as sent: they are what the sender signed.
      byte[] expected = hmacHex(secret, parsed.t(), rawBody).getBytes(StandardCharsets.UTF_8);
      // Every candidate is compared (no early exit), so timing tells nothing about which matched.
      for (String candidate : parsed.v1()) {
        matched |= MessageDigest.isEqual(candidate.getBytes(StandardCharsets.UTF_8), expected);
      }
    }
    return matched
        ? SignatureCheck.verified(timestamp)
        : SignatureCheck.failed("no_matching_signature");
  }

  static String sign(List<String> secrets, byte[] rawBody, long timestamp) {
    checkSecrets(secrets);
    if (timestamp < 0) {
      throw new IllegalArgumentException("timestamp must be non-negative (unix seconds)");
    }
    String t = Long.toString(timestamp);
    StringBuilder header = new StringBuilder("t=").append(t);
    for (String secret : secrets) {
      header.append(",v1=").append(hmacHex(secret, t, rawBody));
    }
    return header.toString();
  }

  /**
   * Every comma-separated element {@code key=value}, exactly one {@code t} of decimal digits;
   * unknown keys ignored; no v1 at all is well-formed.
   */
  static Parsed parse(String header) {
    if (header.length() > MAX_HEADER_LENGTH) {
      return null;
    }
    String t = null;
    List<String> v1 = new ArrayList<>();
    for (String element : header.split(",", -1)) {
      int eq = element.indexOf('=');
      if (eq < 0) {
        return null;
      }
      String key = element.substring(0, eq).strip();
      String value = element.substring(eq + 1).strip();
      if (key.isEmpty()) {
        return null;
      }
      if (key.equals("t")) {
        if (t != null) {
          return null;
        }
        t = value;
      } else if (key.equals("v1")) {
        v1.add(value);
      }
    }
    if (t == null || !T_DIGITS.matcher(t).matches()) {
      return null;
    }
    return new Parsed(t, v1);
  }

  private static String hmacHex(String secret, String t, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(mac.doFinal(body));
    } catch (NoSuchAlgorithmException | InvalidKeyException err) {
      throw new IllegalStateException("HmacSHA256 is not available", err);
    }
  }

  private static void checkSecrets(List<String> secrets) {
    if (secrets == null
        || secrets.isEmpty()
        || secrets.stream().anyMatch(secret -> secret == null || secret.isEmpty())) {
      throw new IllegalArgumentException("secrets must be a non-empty list of non-empty strings");
    }
  }
}
