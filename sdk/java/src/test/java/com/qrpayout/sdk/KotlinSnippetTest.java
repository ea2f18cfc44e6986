package com.qrpayout.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.qrpayout.sdk.StubServer.Answer;
import com.qrpayout.sdk.StubServer.Received;
import com.qrpayout.sdk.webhooks.Webhooks;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's "Kotlin" snippet: src/test/kotlin/com/qrpayout/sdk/KotlinUsage.kt holds it verbatim
 * (checked here), the build compiles it, and it runs here against a local stub server.
 */
class KotlinSnippetTest {
  // Relative to sdk/java, surefire's working directory.
  private static final String README = "README.md";
  private static final String KOTLIN_FILE = "src/test/kotlin/com/qrpayout/sdk/KotlinUsage.kt";
  private static final String FROM = "// README \"Kotlin\": from here";
  private static final String TO = "// README \"Kotlin\": to here";
  private static final String SECRET = "whsec_kotlin";
  private static final String EVENT_ID = "6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b";
  private static final String UNAVAILABLE =
      "{\"_tag\":\"ServiceUnavailable\",\"type\":\"ServiceUnavailable\",\"message\":\"try again\","
          + "\"docs_url\":\"https://docs/errors#ServiceUnavailable\","
          + "\"request_id\":\"00000000-0000-4000-8000-000000000004\"}";

  /** The first ```kotlin block of the README, without its fences. */
  private static String readmeBlock(String readme) {
    Matcher block = Pattern.compile("(?m)^```kotlin\\n(.*?)^```$", Pattern.DOTALL).matcher(readme);
    assertTrue(block.find(), "README.md has no ```kotlin block");
    return block.group(1);
  }

  /** The lines of the Kotlin file between the markers, their common indentation removed. */
  private static String kotlinBlock(String source) {
    int from = source.indexOf(FROM);
    int to = source.indexOf(TO);
    assertTrue(from >= 0 && to > from, KOTLIN_FILE + " lacks the markers " + FROM + " / " + TO);
    String lines = source.substring(source.indexOf('\n', from) + 1, source.lastIndexOf('\n', to));
    return lines.stripIndent() + "\n";
  }

  @Test
  void theReadmeSnippetIsKotlinUsageVerbatim() throws Exception {
    String readme = Files.readString(Path.of(README));
    String kotlin = Files.readString(Path.of(KOTLIN_FILE));
    assertEquals(
        readmeBlock(readme),
        kotlinBlock(kotlin),
        "the README's ```kotlin block and " + KOTLIN_FILE + " differ: change both");
  }

  @Test
  void theSnippetPaysRetriesAndReceivesAgainstAStub() throws Exception {
    byte[] ping =
        ("{\"schema_version\":\"1\",\"event_id\":\""
                + EVENT_ID
                + "\",\"event_type\":\"webhook.ping\",\"occurred_at\":\"2026-01-02T03:04:05Z\","
                + "\"data\":{\"endpoint_id\":\"we_1\",\"message\":\"hello\"}}")
            .getBytes(StandardCharsets.UTF_8);
    String signature = Webhooks.signBody(List.of(SECRET), ping, Instant.now().getEpochSecond());
    Map<String, List<String>> headers = Map.of("Service-Signature", List.of(signature));
    Set<String> seen = new HashSet<>();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    try (StubServer server =
        new StubServer(Answer.json(503, UNAVAILABLE), Answer.json(200, "{}"))) {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      KotlinUsageOutcome first;
      KotlinUsageOutcome again;
      try {
        first =
            KotlinUsageKt.kotlinUsage(
                server.baseUrl(), "sk_test", "000201", headers, ping, SECRET, seen);
        again =
            KotlinUsageKt.kotlinUsage(
                server.baseUrl(), "sk_test", "000201", headers, ping, SECRET, seen);
      } finally {
        System.setOut(stdout);
      }
      assertTrue(printed.toString(StandardCharsets.UTF_8).startsWith("retry 1 after PT"));
      List<Received> sent = server.received();
      assertEquals(3, sent.size());
      assertEquals("/v1/pay", sent.get(0).path());
      assertEquals("sk_test", sent.get(0).header("x-api-key"));
      assertTrue(sent.get(0).body().contains("\"payer_name\":\"Jane Doe\""), sent.get(0).body());
      assertTrue(sent.get(0).body().contains("\"amount\":12.34"), sent.get(0).body());
      assertNotNull(first.getPaid());
      assertEquals(200, first.getResult().status());
      assertFalse(first.getResult().duplicate());
      assertEquals(EVENT_ID, first.getResult().event().eventId());
      assertEquals(Set.of(EVENT_ID), seen);
      assertTrue(again.getResult().duplicate());
    }
  }
}
