package com.qrpayout.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.qrpayout.sdk.generated.ApiClient;
import com.qrpayout.sdk.generated.model.PayRequest;
import com.qrpayout.sdk.generated.model.Scheme;
import com.qrpayout.sdk.generated.model.Transaction;
import com.qrpayout.sdk.generated.model.TransactionStatus;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * The generator's output reads and writes the document's shapes: OpenAPI 3.1 nullable fields
 * ({@code oneOf} with {@code null}, {@code type} lists), enums, money as exact decimals.
 */
class GeneratedModelsTest {
  private static final ObjectMapper JSON = ApiClient.createDefaultObjectMapper();

  @Test
  void aTransactionWithNullsAndAResult() throws Exception {
    String body =
        "{\"id\":\"txn_01ARZ3NDEKTSV4RRFFQ69G5FAV\",\"instructionId\":\"ins_01ARZ3NDEKTSV4RRFFQ69G5FAV\","
            + "\"status\":\"completed\",\"rail\":\"pix\",\"createdAt\":\"2026-01-02T03:04:05.678Z\","
            + "\"updatedAt\":\"2026-01-02T03:04:06.000Z\",\"result\":{\"reference\":\"E1\","
            + "\"settledAt\":null},\"error\":null,\"amount\":12.34,\"currency\":\"BRL\","
            + "\"creditor\":{\"name\":\"Loja\",\"city\":\"Sao Paulo\"},\"scheme\":\"br-pix\","
            + "\"country\":\"BR\",\"walletAmount\":null,\"walletCurrency\":null,\"quote\":null,"
            + "\"statusHistory\":[{\"status\":\"pending\",\"at\":\"2026-01-02T03:04:05.678Z\"},"
            + "{\"status\":\"completed\",\"at\":\"2026-01-02T03:04:06.000Z\"}]}";
    Transaction transaction = JSON.readValue(body, Transaction.class);
    assertEquals(TransactionStatus.COMPLETED, transaction.getStatus());
    assertEquals(new BigDecimal("12.34"), transaction.getAmount());
    assertEquals("E1", transaction.getResult().getReference());
    assertNull(transaction.getResult().getSettledAt());
    assertNull(transaction.getError());
    assertNull(transaction.getWalletAmount());
    assertNull(transaction.getQuote());
    assertEquals(2, transaction.getStatusHistory().size());
    assertEquals(TransactionStatus.PENDING, transaction.getStatusHistory().get(0).getStatus());
    assertEquals(TransactionStatus.COMPLETED, transaction.getStatusHistory().get(1).getStatus());
    assertEquals(
        java.time.OffsetDateTime.parse("2026-01-02T03:04:06.000Z"),
        transaction.getStatusHistory().get(1).getAt());
  }

  @Test
  void aSchemeWithoutLimits() throws Exception {
    Scheme scheme =
        JSON.readValue(
            "{\"id\":\"br-pix\",\"qr_types\":[\"static\",\"dynamic\"],\"min_amount\":null,"
                + "\"max_amount\":5000}",
            Scheme.class);
    assertNull(scheme.getMinAmount());
    assertEquals(new BigDecimal("5000"), scheme.getMaxAmount());
    assertEquals("dynamic", scheme.getQrTypes().get(1).getValue());
  }

  @Test
  void aPayRequestSendsItsEnumAndLeavesOutUnsetFields() throws Exception {
    PayRequest pay =
        new PayRequest()
            .qrString("000201")
            .amount(new BigDecimal("0.10"))
            .payerIdType(PayRequest.PayerIdTypeEnum.PASSPORT);
    String text = JSON.writeValueAsString(pay);
    JsonNode sent = JSON.readTree(text);
    assertEquals("passport", sent.get("payer_id_type").textValue());
    assertTrue(text.contains("\"amount\":0.10"), text);
    assertFalse(sent.has("callback_url"));
    assertTrue(sent.has("qr_string"));
    PayRequest read = JSON.readValue("{\"payer_id_type\":null}", PayRequest.class);
    assertNull(read.getPayerIdType());
  }
}
