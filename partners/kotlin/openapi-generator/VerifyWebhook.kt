// Verifies a signed webhook with javax.crypto: x-service-signature is `t=<unix>,v0=<hex>[,v0=<hex>…]`,
// each hex an HMAC-SHA256 of `<t>.<raw body>` under the endpoint's secret. The timestamp must be
// at most 300 s old and not in the future (beyond the same tolerance for clock skew); any one v0
// entry may match (a secret rotation signs with two). Exit 0 and print the event type when it
// verifies; exit 1 otherwise. No dependency but the JDK and Kotlin's standard library:
//   java -cp <classes>:<kotlin-stdlib> VerifyWebhook <body file> <x-service-signature> <secret>
@file:JvmName("VerifyWebhook")

import java.io.File
import java.security.MessageDigest
import javax.crypto.Mac
import javax.crypto.spec.SecretKeySpec
import kotlin.system.exitProcess

const val TOLERANCE_SECONDS = 300L

/** The contract's webhooks (their event_type values). Any other type verifies, and is then ignored. */
val KNOWN_EVENT_TYPES = setOf(
    "payment_session_complete",
    "payment_token_updated",
    "payment_token.updated",
    "product_catalog.item.eligibility_updated",
    "dispute.created",
    "dispute.updated",
    "dispute.closed",
    "dispute.evidence_submitted",
)

/** Whether one of the header's v0 signatures is the HMAC of `<t>.<rawBody>`, with t within the tolerance. */
fun verify(rawBody: ByteArray, header: String, secret: String, nowSeconds: Long = System.currentTimeMillis() / 1000): Boolean {
    var t: String? = null
    val signatures = mutableListOf<String>()
    for (part in header.split(',')) {
        val entry = part.trim().split('=', limit = 2)
        if (entry.size != 2) continue
        when (entry[0]) {
            "t" -> t = entry[1]
            "v0" -> signatures += entry[1]
        }
    }
    if (t == null || !Regex("\\d{1,18}").matches(t) || signatures.isEmpty()) return false
    val age = nowSeconds - t.toLong()
    if (age > TOLERANCE_SECONDS || age < -TOLERANCE_SECONDS) return false // too old, or from the future

    val mac = Mac.getInstance("HmacSHA256")
    mac.init(SecretKeySpec(secret.toByteArray(Charsets.UTF_8), "HmacSHA256"))
    mac.update("$t.".toByteArray(Charsets.UTF_8))
    val expected = mac.doFinal(rawBody)
    return signatures.any { hex ->
        val given = hex.hexToBytesOrNull() ?: return@any false
        MessageDigest.isEqual(given, expected) // constant time for equal lengths
    }
}

private fun String.hexToBytesOrNull(): ByteArray? {
    if (length % 2 != 0 || !all { it in '0'..'9' || it in 'a'..'f' || it in 'A'..'F' }) return null
    return ByteArray(length / 2) { i -> substring(2 * i, 2 * i + 2).toInt(16).toByte() }
}

fun main(args: Array<String>) {
    val body = File(args[0]).readBytes()
    if (!verify(body, args.getOrElse(1) { "" }, args.getOrElse(2) { "" })) {
        System.err.println("signature does not verify")
        exitProcess(1)
    }
    // Only now is the body trusted: a real handler parses it with Moshi into the generated event models.
    val eventType = Regex("\"event_type\"\\s*:\\s*\"([^\"]*)\"").find(String(body, Charsets.UTF_8))?.groupValues?.get(1) ?: "event"
    println("verified $eventType")
    if (eventType !in KNOWN_EVENT_TYPES) {
        // A type added after this client's contract: acknowledge it (204) and move on.
        println("ignored unknown event type $eventType")
    }
}
