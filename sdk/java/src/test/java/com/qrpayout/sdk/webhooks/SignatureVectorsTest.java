package com.qrpayout.sdk.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of the shared vectors (webhook-receiver/signature-vectors.json, the path given by the
 * pom), which every signer and verifier of the {@code t=…,v1=…} scheme in the repository runs.
 */
class SignatureVectorsTest {
  private static JsonNode vectors() throws IOException {
    return new ObjectMapper()
        .readTree(Path.of(System.getProperty("qrpayout.signatureVectors")).toFile());
  }

  private static Stream<JsonNode> cases() throws IOException {
    return StreamSupport.stream(vectors().get("cases").spliterator(), false);
  }

  @TestFactory
  Stream<DynamicTest> everyVector() throws IOException {
    Duration tolerance = Duration.ofSeconds(vectors().get("tolerance_seconds").longValue());
    return cases().map(c -> dynamicTest(c.get("name").textValue(), () -> check(c, tolerance)));
  }

  private static void check(JsonNode c, Duration tolerance) {
    byte[] body = c.get("body").textValue().getBytes(StandardCharsets.UTF_8);
    SignatureCheck check =
        Webhooks.verifySignature(
            c.get("header").textValue(),
            body,
            List.of(c.get("secret").textValue()),
            tolerance,
            Instant.ofEpochSecond(c.get("now").longValue()));
    JsonNode expected = c.get("expected");
    assertEquals(expected.get("ok").booleanValue(), check.ok());
    assertEquals(expected.path("reason").textValue(), check.reason());
    if (check.ok()) {
      assertEquals(c.get("t").longValue(), check.timestamp());
    }
    if (c.has("signing_secrets")) {
      List<String> secrets = new ArrayList<>();
      c.get("signing_secrets").forEach(secret -> secrets.add(secret.textValue()));
      assertEquals(
          c.get("header").textValue(), Webhooks.signBody(secrets, body, c.get("t").longValue()));
    }
  }

  @Test
  void theVectorsCoverEveryOutcome() throws IOException {
    Set<String> outcomes = new HashSet<>();
    cases().forEach(c -> outcomes.add(c.get("expected").path("reason").asText("ok")));
    assertEquals(Set.of("ok", "no_matching_signature", "timestamp_out_of_tolerance"), outcomes);
  }
}
