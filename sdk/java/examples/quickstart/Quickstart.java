// The README's quick start as a program (sdk/java/README.md "Quick start"): it lists the sandbox's
// test QR codes, pays one with the test payer, waits for the transaction's webhook on its own HTTP
// server (the pay's callback_url), verified with the signing secret, and reads the transaction
// back. Exit 0 once the transaction is completed and its webhook verified. scripts/sdk-java runs it
// against a sandbox (docs/testing.md "The Java SDK").
package quickstart;

import com.qrpayout.sdk.QrPayoutClient;
import com.qrpayout.sdk.QrPayoutException;
import com.qrpayout.sdk.generated.model.ListSandboxTestQrs200Response;
import com.qrpayout.sdk.generated.model.ListSandboxTestQrs200ResponseTestQrsInner;
import com.qrpayout.sdk.generated.model.PayRequest;
import com.qrpayout.sdk.generated.model.PayResponse;
import com.qrpayout.sdk.generated.model.TransactionResponse;
import com.qrpayout.sdk.generated.model.TransactionStatus;
import com.qrpayout.sdk.webhooks.MemoryDeduplicator;
import com.qrpayout.sdk.webhooks.ReceiveResult;
import com.qrpayout.sdk.webhooks.WebhookEvent;
import com.qrpayout.sdk.webhooks.Webhooks;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

public final class Quickstart {
  /** A static Pix code with an amount, completed by the sandbox partner (docs/sandbox-test-qrs.md). */
  private static final String TEST_QR_ID = "br-static-amount";

  private Quickstart() {}

  public static void main(String[] args) throws Exception {
    String apiKey = System.getenv("QR_PAYOUT_API_KEY");
    String secret = System.getenv("QR_PAYOUT_SIGNING_SECRET");
    if (apiKey == null || secret == null) {
      System.err.println("set QR_PAYOUT_API_KEY and QR_PAYOUT_SIGNING_SECRET (npm start prints both)");
      System.exit(2);
    }
    String baseUrl = System.getenv().getOrDefault("QR_PAYOUT_BASE_URL", "http://127.0.0.1:8080");
    try {
      run(baseUrl, apiKey, secret);
    } catch (QrPayoutException e) {
      System.err.printf(
          "quickstart: %d %s: %s (%s, request %s)%n",
          e.status(), e.tag(), e.getMessage(), e.docsUrl(), e.requestId());
      System.exit(1);
    }
  }

  private static void run(String baseUrl, String apiKey, String secret) throws Exception {
    // 1. A receiver for the webhook: verified, parsed and deduplicated by the SDK.
    BlockingQueue<WebhookEvent> events = new LinkedBlockingQueue<>();
    MemoryDeduplicator dedupe = new MemoryDeduplicator();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/hook",
        exchange -> {
          byte[] rawBody = exchange.getRequestBody().readAllBytes(); // the exact bytes received
          ReceiveResult result =
              Webhooks.receive(exchange.getRequestHeaders(), rawBody, List.of(secret), dedupe);
          if (result.event() != null && !result.duplicate()) {
            events.add(result.event());
          }
          exchange.sendResponseHeaders(result.status(), -1);
          exchange.close();
        });
    server.start();
    String callbackUrl = "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    try {
      // 2. The client, and the sandbox's test QR codes.
      QrPayoutClient client = QrPayoutClient.builder().baseUrl(baseUrl).apiKey(apiKey).build();
      ListSandboxTestQrs200Response catalogue = client.listSandboxTestQrs();
      System.out.printf("%d sandbox test QR codes%n", catalogue.getTestQrs().size());
      ListSandboxTestQrs200ResponseTestQrsInner qr =
          catalogue.getTestQrs().stream()
              .filter(q -> TEST_QR_ID.equals(q.getId()) && q.getQrString() != null)
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("no test QR " + TEST_QR_ID));

      // 3. Pay it as the catalogue's test payer, the webhook going to our receiver.
      PayRequest pay =
          client
              .generated()
              .getObjectMapper()
              .convertValue(catalogue.getPayer(), PayRequest.class)
              .qrString(qr.getQrString())
              .amount(qr.getAmount())
              .callbackUrl(URI.create(callbackUrl));
      PayResponse paid = client.pay(pay); // an Idempotency-Key is made for this call
      String transactionId = paid.getTransaction().getId();
      System.out.printf(
          "paid %s: %s %s, transaction %s %s%n",
          TEST_QR_ID,
          paid.getInstruction().getAmount(),
          paid.getInstruction().getCurrency(),
          transactionId,
          paid.getTransaction().getStatus());

      // 4. Its webhook, verified by the receiver.
      WebhookEvent event = awaitEvent(events, transactionId);
      System.out.printf("webhook %s %s: signature verified%n", event.eventType(), event.eventId());

      // 5. The transaction, read back.
      TransactionResponse read = client.getTransaction(transactionId);
      String reference =
          read.getTransaction().getResult() == null
              ? ""
              : read.getTransaction().getResult().getReference();
      System.out.printf(
          "transaction %s: %s, reference %s%n",
          transactionId, read.getTransaction().getStatus(), reference);
      if (read.getTransaction().getStatus() != TransactionStatus.COMPLETED) {
        throw new IllegalStateException("the transaction ended " + read.getTransaction().getStatus());
      }
    } finally {
      server.stop(0);
    }
  }

  /** The first verified event of the transaction, within two minutes. */
  private static WebhookEvent awaitEvent(BlockingQueue<WebhookEvent> events, String transactionId)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (System.nanoTime() < deadline) {
      WebhookEvent event = events.poll(1, TimeUnit.SECONDS);
      if (event != null && transactionId.equals(event.transactionId())) {
        return event;
      }
    }
    throw new IllegalStateException("no verified webhook for the transaction in time");
  }
}
