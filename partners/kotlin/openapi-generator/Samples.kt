// The Kotlin samples of the reference: every operation of the contract, called once through the
// client openapi-generator generates (kotlin, library jvm-okhttp4: OkHttp and Moshi), in an order
// that works on the sandbox. Each call stands between `// sample: <operationId>` and
// `// end sample`; the reference quotes that region, dedented, as the operation's Kotlin sample.
// What plays the customer, the clinician or the card network (the sandbox's helpers under
// /sandbox/v1/, plain HTTP) stays outside the markers.
//
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010), PARTNER_API_KEY (default
// sandbox-dev-key) and PARTNER_RUN (default: the time in base 36; it keeps the idempotency keys,
// emails and skus of one run apart from another's), and ends on the line
// `PARTNER_SAMPLES {"<operationId>": <HTTP status>, …}`. See NOTES.md, "Samples".
// Its own package, so that its main() is not Flow.kt's: `java … samples.Samples`.
@file:JvmName("Samples")

package samples

import com.example.payments.client.apis.DisputesApi
import com.example.payments.client.apis.EligibilityApi
import com.example.payments.client.apis.PaymentSessionsApi
import com.example.payments.client.apis.PaymentTokensApi
import com.example.payments.client.apis.ProductCatalogApi
import com.example.payments.client.apis.RefundsApi
import com.example.payments.client.infrastructure.ApiClient
import com.example.payments.client.infrastructure.ClientError
import com.example.payments.client.infrastructure.ClientException
import com.example.payments.client.infrastructure.Serializer
import com.example.payments.client.infrastructure.ServerError
import com.example.payments.client.infrastructure.ServerException
import com.example.payments.client.models.AmountDetails
import com.example.payments.client.models.CapturePaymentSessionRequest
import com.example.payments.client.models.CatalogItemDetailRequest
import com.example.payments.client.models.CreateCatalogItemRequest
import com.example.payments.client.models.CreatePaymentSessionRequest
import com.example.payments.client.models.CreatePaymentTokenRequest
import com.example.payments.client.models.CreateRefundRequest
import com.example.payments.client.models.OrderItemInput
import com.example.payments.client.models.PaymentSessionCaptureError
import com.example.payments.client.models.PaymentSessionKindInput
import com.example.payments.client.models.PaymentTokenUpdateResponseNextActionKnownValue
import com.example.payments.client.models.RefundReasonInput
import com.example.payments.client.models.UpdateCatalogItemRequest
import com.example.payments.client.models.UpdatePaymentTokenRequest
import com.example.payments.client.models.VoidPaymentSessionRequest
import com.squareup.moshi.Types
import java.net.ConnectException
import java.net.URI
import java.util.UUID
import kotlin.system.exitProcess
import okhttp3.MediaType.Companion.toMediaType
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody

/** What the program reads from its environment, checked: a wrong value stops it with one line. */
private class Settings(val baseUrl: String, val apiKey: String, val run: String) {
    companion object {
        /** An unset or empty variable takes its default. */
        private fun variable(name: String, fallback: String) = System.getenv(name)?.takeIf { it.isNotEmpty() } ?: fallback

        fun fromEnvironment(): Settings {
            val baseUrl = variable("PARTNER_BASE_URL", "http://127.0.0.1:4010").trimEnd('/')
            val apiKey = variable("PARTNER_API_KEY", "sandbox-dev-key")
            val run = variable("PARTNER_RUN", System.currentTimeMillis().toString(36))
            val uri = runCatching { URI(baseUrl) }.getOrNull()
            require(uri != null && uri.scheme in setOf("http", "https") && uri.host != null) {
                "PARTNER_BASE_URL=$baseUrl is not an http(s) URL"
            }
            require(Regex("[\\x21-\\x7e]{1,256}").matches(apiKey)) {
                "PARTNER_API_KEY=$apiKey is not an API key: printable ASCII without spaces"
            }
            require(Regex("[A-Za-z0-9][A-Za-z0-9_-]{0,63}").matches(run)) {
                "PARTNER_RUN=$run is not 1 to 64 letters, digits, - or _ (it goes into idempotency keys, emails and skus)"
            }
            return Settings(baseUrl, apiKey, run)
        }
    }
}

/** The HTTP status of the client's last answer (the OkHttp interceptor sets it). */
private var lastStatus = 0
private val statuses = linkedMapOf<String, Int>()

/** Notes the status the client's last answer had, under the operation's id. */
private fun record(operationId: String) {
    statuses[operationId] = lastStatus
}

/** Ends the program on one line. */
private fun fail(status: Int, message: String): Nothing {
    System.err.println(message)
    exitProcess(status)
}

fun main() {
    val settings = try {
        Settings.fromEnvironment()
    } catch (e: IllegalArgumentException) {
        fail(2, e.message.orEmpty())
    }
    // A refused key or no service at the address is a wrong setting (exit 2); any other answer that
    // is not 2xx stops the program (exit 1). Either way, on one line.
    try {
        callEveryOperation(settings)
    } catch (e: ClientException) {
        val body = (e.response as? ClientError<*>)?.body
        if (e.statusCode == 401) fail(2, "PARTNER_API_KEY was refused (401): $body")
        fail(1, "the service answered ${e.statusCode}: $body")
    } catch (e: ServerException) {
        fail(1, "the service answered ${e.statusCode}: ${(e.response as? ServerError<*>)?.body}")
    } catch (e: ConnectException) {
        fail(2, "Nothing answers at PARTNER_BASE_URL=${settings.baseUrl} ($e): is the sandbox running (npm start)?")
    } catch (e: Exception) {
        fail(1, "samples stopped: $e")
    }
}

private fun callEveryOperation(settings: Settings) {
    val run = settings.run
    val email = "$run@partner.example"

    // The client applies the document's apiKey scheme (x-service-api-key) from this map to every
    // call. Each API takes the OkHttp client it calls through: this one notes each answer's status
    // for the program's last line.
    ApiClient.apiKey["x-service-api-key"] = settings.apiKey
    val http = OkHttpClient.Builder()
        .addInterceptor { chain -> chain.proceed(chain.request()).also { lastStatus = it.code } }
        .build()
    val sessions = PaymentSessionsApi(settings.baseUrl, http)
    val refunds = RefundsApi(settings.baseUrl, http)
    val tokens = PaymentTokensApi(settings.baseUrl, http)
    val eligibility = EligibilityApi(settings.baseUrl, http)
    val catalog = ProductCatalogApi(settings.baseUrl, http)
    val disputes = DisputesApi(settings.baseUrl, http)
    val sandbox = Helpers(http, settings)

    // sample: createPaymentSession
    val noCharges = AmountDetails(totalAdditionalCharges = 0, totalDiscounts = 0)
    val request = CreatePaymentSessionRequest(
        kind = PaymentSessionKindInput.authorization,
        totalAmount = 5000,
        amountDetails = noCharges,
        successUrl = "https://partner.example/orders/{{payment_session_id}}/thanks",
        failureUrl = "https://partner.example/orders/{{payment_session_id}}/failed",
        customerEmail = email,
        idempotencyKey = "$run-create",
        orderItems = listOf(
            OrderItemInput(
                name = "Blood pressure monitor", sku = "BPM-200", quantity = 1, price = 5000,
                amountDetails = noCharges,
            ),
        ),
    )
    val created = sessions.createPaymentSession(request)
    val sessionId = created.id.toString()
    println("send the customer to ${created.redirectUrl}")
    // end sample
    record("createPaymentSession")

    // The customer finishes the hosted checkout: the hold is placed.
    sandbox.post("/sandbox/v1/payment_sessions/$sessionId/complete_checkout", "{}")

    // sample: retrievePaymentSession
    val session = sessions.retrievePaymentSession(sessionId)
    // status is an open enum: a String that holds any value; PaymentSessionStatusKnownValue lists the known ones.
    println("status ${session.status}, authorized ${session.authorizeAmount} cents")
    // end sample
    record("retrievePaymentSession")

    // sample: listPaymentSessions
    // 18 optional query parameters: name the ones you use.
    val page = sessions.listPaymentSessions(search = email, pageSize = 10)
    for (item in page.paymentSessions) println("${item.id} ${item.status} ${item.totalAmount}")
    println("${page.pagination.count} sessions match")
    // end sample
    record("listPaymentSessions")

    // sample: capturePaymentSession
    try {
        val captureRequest = CapturePaymentSessionRequest(totalAmount = 3000, idempotencyKey = "$run-capture")
        val capture = sessions.capturePaymentSession(sessionId, captureRequest)
        println("captured 3000 cents: ${capture.id}")
    } catch (e: ClientException) {
        if (e.statusCode != 400) throw e
        // A 4xx throws ClientException, with the body as text: read the operation's error model.
        val body = (e.response as ClientError<*>).body as String
        val refusal = Serializer.moshi.adapter(PaymentSessionCaptureError::class.java).fromJson(body)!!
        println("capture refused: ${refusal.error} (${refusal.message})")
    }
    // end sample
    record("capturePaymentSession")

    // sample: createRefund
    val refund = refunds.createRefund(
        CreateRefundRequest(
            paymentId = sessionId,
            amount = 1000,
            reason = RefundReasonInput.customer_request,
            idempotencyKey = "$run-refund",
        ),
    )
    println("refund ${refund.refundId}")
    // end sample
    record("createRefund")

    // Two more sessions, the same request with new keys: one the customer leaves pending, one whose
    // hold is placed.
    val pendingSessionId = sessions.createPaymentSession(request.copy(idempotencyKey = "$run-to-cancel")).id.toString()
    val authorizedSessionId = sessions.createPaymentSession(request.copy(idempotencyKey = "$run-to-void")).id.toString()
    sandbox.post("/sandbox/v1/payment_sessions/$authorizedSessionId/complete_checkout", "{}")

    // sample: cancelPaymentSession
    val canceled = sessions.cancelPaymentSession(pendingSessionId)
    println("session ${canceled.id} is ${canceled.status}")
    // end sample
    record("cancelPaymentSession")

    // sample: voidPaymentSession
    val voidRequest = VoidPaymentSessionRequest(idempotencyKey = "$run-void")
    val voided = sessions.voidPaymentSession(authorizedSessionId, voidRequest)
    println("hold released: ${voided.id}")
    // end sample
    record("voidPaymentSession")

    val tokenEmail = "tokens-$run@partner.example"
    // sample: createPaymentToken
    val setup = tokens.createPaymentToken(
        CreatePaymentTokenRequest(
            customerEmail = tokenEmail,
            customerName = "Pat Lee",
            successUrl = "https://partner.example/plan/ready",
            failureUrl = "https://partner.example/plan/failed",
            idempotencyKey = "$run-token",
        ),
    )
    val provisionRequestId = setup.provisionTokenRequestId.toString()
    println("send the customer to ${setup.redirectUrl}")
    // end sample
    record("createPaymentToken")

    // The customer takes the survey and enters a card; the clinician approves the letter.
    sandbox.post("/sandbox/v1/provision_requests/$provisionRequestId/complete", """{"letter": "approved"}""")

    // sample: retrieveProvisionTokenRequest
    val provision = tokens.retrieveProvisionTokenRequest(provisionRequestId)
    // paymentToken is null until the customer has finished the setup page.
    val paymentToken = provision.paymentToken
    println(if (paymentToken == null) "no token yet" else "payment token $paymentToken")
    // end sample
    record("retrieveProvisionTokenRequest")
    checkNotNull(paymentToken) { "the provision request issued no payment token" }

    // sample: retrieveProvisionRequestEligibility
    val answer = eligibility.retrieveProvisionRequestEligibility(provisionRequestId)
    // eligibilityStatus is an open enum, or null.
    println("eligibility ${answer.eligibilityStatus} for ${answer.items}")
    println("letter valid until ${answer.lmnExpiresAt}")
    // end sample
    record("retrieveProvisionRequestEligibility")

    // sample: listPaymentTokens
    val found = tokens.listPaymentTokens(email = tokenEmail)
    for (token in found.paymentTokens) println("${token.paymentToken} ${token.customerEmail}")
    // end sample
    record("listPaymentTokens")

    // sample: retrievePaymentToken
    val token = tokens.retrievePaymentToken(paymentToken)
    println("${token.customerEmail}: letter of medical necessity until ${token.lmnExpiresAt}")
    // end sample
    record("retrievePaymentToken")

    // sample: updatePaymentToken
    val vitamins = OrderItemInput(
        name = "Vitamin D3 2000 IU", sku = "VITD-2000", quantity = 1, price = 1500,
        amountDetails = AmountDetails(totalAdditionalCharges = 0, totalDiscounts = 0),
    )
    val update = UpdatePaymentTokenRequest(updateCardInfo = false, orderItems = listOf(vitamins))
    val updated = tokens.updatePaymentToken(paymentToken, update)
    // None: nothing for the customer to do; otherwise send them to redirectUrl.
    if (updated.nextAction == PaymentTokenUpdateResponseNextActionKnownValue.None.value) println("token updated")
    else println("next action ${updated.nextAction}: send the customer to ${updated.redirectUrl}")
    // end sample
    record("updatePaymentToken")

    // sample: deletePaymentToken
    tokens.deletePaymentToken(paymentToken)
    println("payment token $paymentToken deleted")
    // end sample
    record("deletePaymentToken")

    // sample: createCatalogItem
    val sku = "SAMPLE-$run"
    // The answer's shape is not documented: the client reads it as a map.
    val item = catalog.createCatalogItem(
        CreateCatalogItemRequest(
            sku = sku,
            name = "Cold pack",
            description = "Reusable cold pack",
            imageUrls = listOf(),
        ),
    )
    println("created ${item["sku"]}")
    // end sample
    record("createCatalogItem")

    // sample: updateCatalogItem
    catalog.updateCatalogItem(
        UpdateCatalogItemRequest(
            sku = sku,
            name = "Cold pack XL",
            description = "Reusable cold pack, large",
            imageUrls = listOf(),
            url = "https://partner.example/products/cold-pack",
        ),
    )
    println("updated $sku")
    // end sample
    record("updateCatalogItem")

    // sample: retrieveCatalogItem
    val detail = catalog.retrieveCatalogItem(CatalogItemDetailRequest(sku = sku))
    // eligibility stays null until the service has reviewed the item.
    println("${detail.sku} ${detail.name}, eligibility ${detail.eligibility}")
    // end sample
    record("retrieveCatalogItem")

    // sample: listCatalogItems
    val items = catalog.listCatalogItems(pageSize = 100)
    for (each in items.data) println("${each.sku} ${each.name}")
    // end sample
    record("listCatalogItems")

    // sample: retrieveCheckoutMethod
    // Neither its request nor its answer is documented: a map each way.
    val method = catalog.retrieveCheckoutMethod(mapOf())
    println("checkout method: $method")
    // end sample
    record("retrieveCheckoutMethod")

    // The card network opens a chargeback on the captured session.
    val disputeId = sandbox.post("/sandbox/v1/payment_sessions/$sessionId/disputes", "{}")["dispute_id"] as String

    // sample: retrieveDispute
    val dispute = disputes.retrieveDispute(UUID.fromString(disputeId))
    println("dispute ${dispute.disputeId}: ${dispute.state}")
    println("${dispute.amount} cents, respond by ${dispute.dueBy}")
    // end sample
    record("retrieveDispute")

    // sample: listDisputes
    val records = disputes.listDisputes()
    for (each in records.data) println("${each.id} ${each.state} ${each.amount}")
    // end sample
    record("listDisputes")

    // sample: retrieveDisputeRecord
    val disputeRecord = disputes.retrieveDisputeRecord(disputeId)
    println("${disputeRecord.chargeId}: ${disputeRecord.reason}, ${disputeRecord.state}")
    // end sample
    record("retrieveDisputeRecord")

    // sample: acceptDispute
    disputes.acceptDispute(disputeId, mapOf())
    println("dispute $disputeId accepted")
    // end sample
    record("acceptDispute")

    val json = Serializer.moshi.adapter<Map<String, Int>>(Types.newParameterizedType(Map::class.java, String::class.java, Integer::class.java))
    println("PARTNER_SAMPLES ${json.toJson(statuses)}")
}

/** The sandbox's test helpers: plain HTTP on the same OkHttp client, with the key. */
private class Helpers(private val http: OkHttpClient, private val settings: Settings) {
    private val json = Serializer.moshi.adapter<Map<String, Any?>>(Types.newParameterizedType(Map::class.java, String::class.java, Any::class.java))

    fun post(path: String, body: String): Map<String, Any?> {
        val request = Request.Builder()
            .url(settings.baseUrl + path)
            .header("x-service-api-key", settings.apiKey)
            .post(body.toRequestBody("application/json".toMediaType()))
            .build()
        http.newCall(request).execute().use { response ->
            val text = response.body.string()
            check(response.isSuccessful) { "the sandbox helper $path answered ${response.code}: $text" }
            return json.fromJson(text)!!
        }
    }
}
