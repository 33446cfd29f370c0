// The short flow against the client that openapi-generator's java generator writes with its
// defaults (library okhttp-gson) from the OpenAPI 3.1 document, with only package names: create an
// authorization session, complete its checkout through the sandbox's helper, capture part of it,
// refund part of it, list it with a filter, retrieve it, and read the error code of a second
// capture, status_summary and service_fee as the service sent them.
//
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
// PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
import com.example.payments.client.ApiClient;
import com.example.payments.client.ApiException;
import com.example.payments.client.Configuration;
import com.example.payments.client.api.PaymentSessionsApi;
import com.example.payments.client.api.RefundsApi;
import com.example.payments.client.auth.ApiKeyAuth;
import com.example.payments.client.model.*;
import com.google.gson.GsonBuilder;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

public class Flow {
    static String setting(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }

    public static void main(String[] args) throws Exception {
        String baseUrl = setting("PARTNER_BASE_URL", "http://127.0.0.1:4010").replaceAll("/$", "");
        String apiKey = setting("PARTNER_API_KEY", "sandbox-dev-key");
        String run = setting("PARTNER_RUN", Long.toString(System.currentTimeMillis(), 36));
        String email = run + "@partner.example";

        ApiClient client = Configuration.getDefaultApiClient().setBasePath(baseUrl);
        // The document's apiKey scheme, ServiceApiKey: the client sends it as x-service-api-key.
        ((ApiKeyAuth) client.getAuthentication("ServiceApiKey")).setApiKey(apiKey);
        PaymentSessionsApi sessions = new PaymentSessionsApi(client);
        AmountDetails noCharges = new AmountDetails().totalAdditionalCharges(0L).totalDiscounts(0L);
        PaymentSessionCreateResponse created = sessions.createPaymentSession(new CreatePaymentSessionRequest()
            .kind(PaymentSessionKindInput.AUTHORIZATION)
            .totalAmount(5000L)
            .amountDetails(noCharges)
            .successUrl("https://partner.example/thanks")
            .failureUrl("https://partner.example/failed")
            .customerEmail(email)
            .metadata(run)
            .idempotencyKey(run + "-create")
            .orderItems(Arrays.asList(new OrderItemInput().name("Blood pressure monitor").sku("BPM-200").quantity(1L).price(5000L).amountDetails(noCharges))));
        String id = created.getId().toString();

        // The customer's checkout, played by the sandbox's helper (not in the published document).
        Request complete = new Request.Builder().url(baseUrl + "/sandbox/v1/payment_sessions/" + id + "/complete_checkout")
            .header("x-service-api-key", apiKey).post(RequestBody.create("{}", MediaType.get("application/json"))).build();
        try (Response response = client.getHttpClient().newCall(complete).execute()) {
            if (!response.isSuccessful()) throw new IllegalStateException("complete_checkout answered " + response.code());
        }

        sessions.capturePaymentSession(id, new CapturePaymentSessionRequest().totalAmount(3000L).idempotencyKey(run + "-capture"));
        RefundCreateResponse refund = new RefundsApi(client).createRefund(new CreateRefundRequest()
            .paymentId(id).amount(1000L).reason(RefundReasonInput.CUSTOMER_REQUEST).idempotencyKey(run + "-refund"));
        PaymentSessionList list = sessions.listPaymentSessions(null, null, null, null, null, null, email, null, null, null, null,
            null, null, null, Arrays.asList(PaymentSessionStatusInput.CAPTURED), null, null, null);
        boolean listed = list.getPaymentSessions().stream().anyMatch(item -> id.equals(String.valueOf(item.getId())));
        PaymentSession session = sessions.retrievePaymentSession(id);

        // A second capture answers 400: an ApiException with the body as text, read into the operation's error model.
        String captureError;
        try {
            sessions.capturePaymentSession(id, new CapturePaymentSessionRequest().totalAmount(1000L).idempotencyKey(run + "-capture-2"));
            throw new IllegalStateException("the second capture answered 2xx; a 400 was expected");
        } catch (ApiException e) {
            if (e.getCode() != 400) throw e;
            captureError = PaymentSessionCaptureError.fromJson(e.getResponseBody()).getError().getString();
        }

        // Open enums and ServiceFee are anyOf wrappers: the instance is the value as sent (a String, or a Double for the fee).
        Object fee = session.getServiceFee() == null ? null : session.getServiceFee().getActualInstance();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("session_id", id);
        result.put("captured", session.getCaptureAmount());
        result.put("refund_id", refund.getRefundId());
        result.put("listed", listed);
        result.put("capture_error", captureError);
        result.put("status_summary", session.getStatusSummary().getString());
        result.put("service_fee", fee instanceof Double ? BigDecimal.valueOf((Double) fee).toPlainString() : fee);
        System.out.println("PARTNER_DEFAULTS_RESULT " + new GsonBuilder().serializeNulls().create().toJson(result));
    }
}
