// The short flow against the client that openapi-generator's kotlin generator writes with its
// defaults (library jvm-okhttp4: OkHttp and Moshi) from the OpenAPI 3.0 companion, with only a
// package name: create an authorization session, complete its checkout through the sandbox's
// helper, capture part of it, refund part of it, list it with a filter, retrieve it, and read the
// error code of a second capture, status_summary and service_fee as the service sent them.
//
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
// PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
@file:JvmName("Flow")

import com.example.payments.client.apis.PaymentSessionsApi
import com.example.payments.client.apis.RefundsApi
import com.example.payments.client.infrastructure.ApiClient
import com.example.payments.client.infrastructure.ClientError
import com.example.payments.client.infrastructure.ClientException
import com.example.payments.client.infrastructure.Serializer
import com.example.payments.client.models.AmountDetails
import com.example.payments.client.models.CapturePaymentSessionRequest
import com.example.payments.client.models.CreatePaymentSessionRequest
import com.example.payments.client.models.CreateRefundRequest
import com.example.payments.client.models.OrderItemInput
import com.example.payments.client.models.PaymentSessionCaptureError
import com.example.payments.client.models.PaymentSessionKindInput
import com.example.payments.client.models.PaymentSessionStatusInput
import com.example.payments.client.models.RefundReasonInput
import com.squareup.moshi.Types
import java.math.BigDecimal
import okhttp3.MediaType.Companion.toMediaType
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody

fun main() {
    val baseUrl = (System.getenv("PARTNER_BASE_URL")?.takeIf { it.isNotEmpty() } ?: "http://127.0.0.1:4010").removeSuffix("/")
    val apiKey = System.getenv("PARTNER_API_KEY")?.takeIf { it.isNotEmpty() } ?: "sandbox-dev-key"
    val run = System.getenv("PARTNER_RUN")?.takeIf { it.isNotEmpty() } ?: System.currentTimeMillis().toString(36)
    val email = "$run@partner.example"

    // The client applies the document's apiKey scheme (x-service-api-key) from this map to every call.
    ApiClient.apiKey["x-service-api-key"] = apiKey
    val sessions = PaymentSessionsApi(baseUrl)
    val noCharges = AmountDetails(totalAdditionalCharges = 0, totalDiscounts = 0)
    val created = sessions.createPaymentSession(
        CreatePaymentSessionRequest(
            kind = PaymentSessionKindInput.authorization,
            totalAmount = 5000,
            amountDetails = noCharges,
            successUrl = "https://partner.example/thanks",
            failureUrl = "https://partner.example/failed",
            customerEmail = email,
            metadata = run,
            idempotencyKey = "$run-create",
            orderItems = listOf(OrderItemInput(name = "Blood pressure monitor", sku = "BPM-200", quantity = 1, price = 5000, amountDetails = noCharges)),
        ),
    )
    val id = created.id.toString()

    // The customer's checkout, played by the sandbox's helper (not in the published document).
    val complete = Request.Builder().url("$baseUrl/sandbox/v1/payment_sessions/$id/complete_checkout")
        .header("x-service-api-key", apiKey).post("{}".toRequestBody("application/json".toMediaType())).build()
    ApiClient.defaultClient.newCall(complete).execute().use { check(it.isSuccessful) { "complete_checkout answered ${it.code}" } }

    sessions.capturePaymentSession(id, CapturePaymentSessionRequest(totalAmount = 3000, idempotencyKey = "$run-capture"))
    val refund = RefundsApi(baseUrl).createRefund(
        CreateRefundRequest(paymentId = id, amount = 1000, reason = RefundReasonInput.customer_request, idempotencyKey = "$run-refund"),
    )
    val listed = sessions.listPaymentSessions(search = email, status = listOf(PaymentSessionStatusInput.captured)).paymentSessions.any { it.id == created.id }
    val session = sessions.retrievePaymentSession(id)

    // A second capture answers 400: ClientException, whose ClientError holds the body as text.
    val captureError = try {
        sessions.capturePaymentSession(id, CapturePaymentSessionRequest(totalAmount = 1000, idempotencyKey = "$run-capture-2"))
        error("the second capture answered 2xx; a 400 was expected")
    } catch (e: ClientException) {
        if (e.statusCode != 400) throw e
        Serializer.moshi.adapter(PaymentSessionCaptureError::class.java).fromJson((e.response as ClientError<*>).body as String)!!
    }

    // The companion states no type for service_fee (a string or a number): Moshi gives a String or a Double.
    val serviceFee = when (val fee = session.serviceFee) {
        is Number -> BigDecimal(fee.toString()).toPlainString()
        else -> fee?.toString()
    }
    val result = linkedMapOf<String, Any?>(
        "session_id" to id,
        "captured" to session.captureAmount,
        "refund_id" to refund.refundId,
        "listed" to listed,
        "capture_error" to captureError.error,
        "status_summary" to session.statusSummary,
        "service_fee" to serviceFee,
    )
    val json = Serializer.moshi.adapter<Map<String, Any?>>(Types.newParameterizedType(Map::class.java, String::class.java, Any::class.java))
    println("PARTNER_DEFAULTS_RESULT ${json.serializeNulls().toJson(result)}")
}
