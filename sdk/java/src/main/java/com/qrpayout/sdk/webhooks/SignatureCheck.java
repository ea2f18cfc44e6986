package com.qrpayout.sdk.webhooks;

/**
 * The outcome of {@link Webhooks#verifySignature}: {@code ok} with the signed {@code timestamp}
 * (unix seconds), or not {@code ok} with the {@code reason}: {@code missing_header}, {@code
 * malformed_header}, {@code timestamp_out_of_tolerance} or {@code no_matching_signature}.
 */
public record SignatureCheck(boolean ok, Long timestamp, String reason) {
  static SignatureCheck verified(long timestamp) {
    return new SignatureCheck(true, timestamp, null);
  }

  static SignatureCheck failed(String reason) {
    return new SignatureCheck(false, null, reason);
  }
}
