package com.qrpayout.sdk

import com.qrpayout.sdk.generated.model.PayRequest
import com.qrpayout.sdk.generated.model.PayResponse
import com.qrpayout.sdk.webhooks.ReceiveResult
import com.qrpayout.sdk.webhooks.Webhooks
import java.math.BigDecimal

/** What the README's Kotlin snippet gives back, for KotlinSnippetTest. */
class KotlinUsageOutcome(val paid: PayResponse, val result: ReceiveResult)

/**
 * The README's "Kotlin" snippet, verbatim between the two marker comments: KotlinSnippetTest checks
 * that, then runs this function. The parameters are what the snippet leaves to its reader
 * (docs/testing.md "The Java SDK").
 */
fun kotlinUsage(
    baseUrl: String,
    apiKey: String,
    qr: String,
    headers: Map<String, List<String>>,
    rawBody: ByteArray,
    secret: String,
    seen: MutableSet<String>,
): KotlinUsageOutcome {
    // README "Kotlin": from here
    val client = QrPayoutClient.builder().baseUrl(baseUrl).apiKey(apiKey)
        .onRetry { info -> println("retry ${info.attempt()} after ${info.delay()}") }
        .build()
    val paid = client.pay(PayRequest().qrString(qr).amount(BigDecimal("12.34")).payerName("Jane Doe")
        .payerAccount("US-0001-1234567").payerTaxId("X12345678"))
    val result = Webhooks.receive(headers, rawBody, listOf(secret)) { eventId -> seen.add(eventId) }
    // README "Kotlin": to here
    return KotlinUsageOutcome(paid, result)
}
