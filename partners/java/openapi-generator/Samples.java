// The Java samples of the reference: every operation of the contract, called once through the
// client openapi-generator generates (java, library native: java.net.http and Jackson), in an order
// that works on the sandbox. Each call stands between `// sample: <operationId>` and
// `// end sample`; the reference quotes that region, dedented, as the operation's Java sample.
// What plays the customer, the clinician or the card network (the sandbox's helpers under
// /sandbox/v1/, plain HTTP) stays outside the markers.
//
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010), PARTNER_API_KEY (default
// sandbox-dev-key) and PARTNER_RUN (default: the time in base 36; it keeps the idempotency keys,
// emails and skus of one run apart from another's), and ends on the line
// `PARTNER_SAMPLES {"<operationId>": <HTTP status>, …}`. See NOTES.md, "Samples".
import com.example.payments.client.ApiClient;
import com.example.payments.client.ApiException;
import com.example.payments.client.api.DisputesApi;
import com.example.payments.client.api.EligibilityApi;
import com.example.payments.client.api.PaymentSessionsApi;
import com.example.payments.client.api.PaymentSessionsApi.APIListPaymentSessionsRequest;
import com.example.payments.client.api.PaymentTokensApi;
import com.example.payments.client.api.PaymentTokensApi.APIListPaymentTokensRequest;
import com.example.payments.client.api.ProductCatalogApi;
import com.example.payments.client.api.ProductCatalogApi.APIListCatalogItemsRequest;
import com.example.payments.client.api.RefundsApi;
import com.example.payments.client.model.AmountDetails;
import com.example.payments.client.model.CapturePaymentSessionRequest;
import com.example.payments.client.model.CaptureResponse;
import com.example.payments.client.model.CatalogEligibility;
import com.example.payments.client.model.CatalogItem;
import com.example.payments.client.model.CatalogItemDetailRequest;
import com.example.payments.client.model.CatalogItemList;
import com.example.payments.client.model.CreateCatalogItemRequest;
import com.example.payments.client.model.CreatePaymentSessionRequest;
import com.example.payments.client.model.CreatePaymentTokenRequest;
import com.example.payments.client.model.CreateRefundRequest;
import com.example.payments.client.model.Dispute;
import com.example.payments.client.model.DisputeRecord;
import com.example.payments.client.model.DisputeRecordList;
import com.example.payments.client.model.EligibilityResponse;
import com.example.payments.client.model.EligibilityStatus;
import com.example.payments.client.model.OrderItemInput;
import com.example.payments.client.model.PaymentSession;
import com.example.payments.client.model.PaymentSessionCancelResponse;
import com.example.payments.client.model.PaymentSessionCaptureError;
import com.example.payments.client.model.PaymentSessionCreateResponse;
import com.example.payments.client.model.PaymentSessionKindInput;
import com.example.payments.client.model.PaymentSessionList;
import com.example.payments.client.model.PaymentSessionListItem;
import com.example.payments.client.model.PaymentToken;
import com.example.payments.client.model.PaymentTokenCreateResponse;
import com.example.payments.client.model.PaymentTokenList;
import com.example.payments.client.model.PaymentTokenUpdateResponse;
import com.example.payments.client.model.ProvisionTokenRequest;
import com.example.payments.client.model.RefundCreateResponse;
import com.example.payments.client.model.RefundReasonInput;
import com.example.payments.client.model.UpdateCatalogItemRequest;
import com.example.payments.client.model.UpdatePaymentTokenRequest;
import com.example.payments.client.model.VoidPaymentSessionRequest;
import com.example.payments.client.model.VoidResponse;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

public class Samples {
  /** What the program reads from its environment, checked: a wrong value stops it with one line. */
  record Settings(String baseUrl, String apiKey, String run) {
    static final Pattern RUN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
    static final Pattern KEY = Pattern.compile("[\\x21-\\x7e]{1,256}");

    static Settings fromEnvironment() {
      String baseUrl = variable("PARTNER_BASE_URL", "http://127.0.0.1:4010").replaceAll("/+$", "");
      String apiKey = variable("PARTNER_API_KEY", "sandbox-dev-key");
      String run = variable("PARTNER_RUN", Long.toString(System.currentTimeMillis(), 36));
      URI uri;
      try {
        uri = new URI(baseUrl);
      } catch (Exception e) {
        uri = null;
      }
      if (uri == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
        throw new IllegalArgumentException("PARTNER_BASE_URL=" + baseUrl + " is not an http(s) URL");
      }
      if (!KEY.matcher(apiKey).matches()) throw new IllegalArgumentException("PARTNER_API_KEY=" + apiKey + " is not an API key: printable ASCII without spaces");
      if (!RUN.matcher(run).matches()) throw new IllegalArgumentException("PARTNER_RUN=" + run + " is not 1 to 64 letters, digits, - or _ (it goes into idempotency keys, emails and skus)");
      return new Settings(baseUrl, apiKey, run);
    }

    /** An unset or empty variable takes its default. */
    private static String variable(String name, String fallback) {
      String value = System.getenv(name);
      return value == null || value.isEmpty() ? fallback : value;
    }
  }

  /** The HTTP status of the client's last answer (its response interceptor sets it). */
  private static int lastStatus;
  private static final Map<String, Integer> statuses = new LinkedHashMap<>();

  public static void main(String[] args) {
    Settings settings = null;
    try {
      settings = Settings.fromEnvironment();
    } catch (IllegalArgumentException e) {
      fail(2, e.getMessage());
    }
    try {
      callEveryOperation(settings);
    } catch (ApiException e) {
      // A refused key or no service at the address is a wrong setting (exit 2); any other answer
      // that is not 2xx stops the program (exit 1). Either way, on one line.
      if (e.getCode() == 401) fail(2, "PARTNER_API_KEY was refused (401): " + e.getResponseBody());
      if (e.getCause() instanceof ConnectException) fail(2, nothingAnswers(settings, e.getCause()));
      fail(1, e.getMessage().replaceAll("\\s*\\n\\s*", " "));
    } catch (ConnectException e) {
      fail(2, nothingAnswers(settings, e));
    } catch (Exception e) {
      fail(1, "samples stopped: " + e);
    }
  }

  private static String nothingAnswers(Settings settings, Throwable cause) {
    return "Nothing answers at PARTNER_BASE_URL=" + settings.baseUrl() + " (" + cause + "): is the sandbox running (npm start)?";
  }

  /** Ends the program on one line. */
  private static void fail(int status, String message) {
    System.err.println(message);
    System.exit(status);
  }

  static void callEveryOperation(Settings settings) throws Exception {
    String run = settings.run();
    String email = run + "@partner.example";

    // The native library does not apply the document's apiKey scheme itself: a request interceptor
    // adds the header to every call. The response interceptor notes each answer's status for the
    // program's last line.
    ApiClient client = new ApiClient();
    client.updateBaseUri(settings.baseUrl());
    client.setRequestInterceptor(request -> request.header("x-service-api-key", settings.apiKey()));
    client.setResponseInterceptor(response -> lastStatus = response.statusCode());
    // A required open enum that may be null (eligibility_status): Jackson leaves it null instead of
    // calling the wrapper's deserializer, which refuses a JSON null (see NOTES.md, "Noticed").
    client.getObjectMapper().configOverride(EligibilityStatus.class).setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.SKIP));
    client.getObjectMapper().configOverride(CatalogEligibility.class).setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.SKIP));
    PaymentSessionsApi sessions = new PaymentSessionsApi(client);
    RefundsApi refunds = new RefundsApi(client);
    PaymentTokensApi tokens = new PaymentTokensApi(client);
    EligibilityApi eligibility = new EligibilityApi(client);
    ProductCatalogApi catalog = new ProductCatalogApi(client);
    DisputesApi disputes = new DisputesApi(client);
    Helpers sandbox = new Helpers(client, settings);

    // sample: createPaymentSession
    AmountDetails noCharges = new AmountDetails().totalAdditionalCharges(0L).totalDiscounts(0L);
    CreatePaymentSessionRequest request = new CreatePaymentSessionRequest()
        .kind(PaymentSessionKindInput.AUTHORIZATION)
        .totalAmount(5000L)
        .amountDetails(noCharges)
        .successUrl("https://partner.example/orders/{{payment_session_id}}/thanks")
        .failureUrl("https://partner.example/orders/{{payment_session_id}}/failed")
        .customerEmail(email)
        .idempotencyKey(run + "-create")
        .orderItems(List.of(new OrderItemInput()
            .name("Blood pressure monitor").sku("BPM-200")
            .quantity(1L).price(5000L).amountDetails(noCharges)));
    PaymentSessionCreateResponse created = sessions.createPaymentSession(request);
    String sessionId = created.getId().toString();
    System.out.println("send the customer to " + created.getRedirectUrl());
    // end sample
    record("createPaymentSession");

    // The customer finishes the hosted checkout: the hold is placed.
    sandbox.post("/sandbox/v1/payment_sessions/" + sessionId + "/complete_checkout", "{}");

    // sample: retrievePaymentSession
    PaymentSession session = sessions.retrievePaymentSession(sessionId);
    // status is an open enum: a documented value is a generated enum constant, a later one a String.
    System.out.println("status " + session.getStatus().getActualInstance()
        + ", authorized " + session.getAuthorizeAmount() + " cents");
    // end sample
    record("retrievePaymentSession");

    // sample: listPaymentSessions
    // 18 optional query parameters: the request's builder names the ones you use.
    PaymentSessionList page = sessions.listPaymentSessions(APIListPaymentSessionsRequest.newBuilder()
        .search(email)
        .pageSize(10L)
        .build());
    for (PaymentSessionListItem item : page.getPaymentSessions()) {
      System.out.println(item.getId() + " " + item.getStatus().getActualInstance());
    }
    System.out.println(page.getPagination().getCount() + " sessions match");
    // end sample
    record("listPaymentSessions");

    // sample: capturePaymentSession
    try {
      CaptureResponse capture = sessions.capturePaymentSession(sessionId,
          new CapturePaymentSessionRequest().totalAmount(3000L).idempotencyKey(run + "-capture"));
      System.out.println("captured 3000 cents: " + capture.getId());
    } catch (ApiException e) {
      if (e.getCode() != 400) throw e;
      // Any answer but a 2xx throws ApiException, with the body as text: read its error model.
      PaymentSessionCaptureError refusal = client.getObjectMapper()
          .readValue(e.getResponseBody(), PaymentSessionCaptureError.class);
      System.out.println("capture refused: " + refusal.getError().getActualInstance()
          + " (" + refusal.getMessage() + ")");
    }
    // end sample
    record("capturePaymentSession");

    // sample: createRefund
    RefundCreateResponse refund = refunds.createRefund(new CreateRefundRequest()
        .paymentId(sessionId)
        .amount(1000L)
        .reason(RefundReasonInput.CUSTOMER_REQUEST)
        .idempotencyKey(run + "-refund"));
    System.out.println("refund " + refund.getRefundId());
    // end sample
    record("createRefund");

    // Two more sessions, the same request with new keys: one the customer leaves pending, one
    // whose hold is placed.
    String pendingSessionId = sessions.createPaymentSession(request.idempotencyKey(run + "-to-cancel")).getId().toString();
    String authorizedSessionId = sessions.createPaymentSession(request.idempotencyKey(run + "-to-void")).getId().toString();
    sandbox.post("/sandbox/v1/payment_sessions/" + authorizedSessionId + "/complete_checkout", "{}");

    // sample: cancelPaymentSession
    PaymentSessionCancelResponse canceled = sessions.cancelPaymentSession(pendingSessionId, Map.of());
    System.out.println("canceled: " + canceled.getStatus().getActualInstance());
    // end sample
    record("cancelPaymentSession");

    // sample: voidPaymentSession
    VoidResponse voided = sessions.voidPaymentSession(authorizedSessionId,
        new VoidPaymentSessionRequest().idempotencyKey(run + "-void"));
    System.out.println("hold released: " + voided.getId());
    // end sample
    record("voidPaymentSession");

    String tokenEmail = "tokens-" + run + "@partner.example";
    // sample: createPaymentToken
    PaymentTokenCreateResponse setup = tokens.createPaymentToken(new CreatePaymentTokenRequest()
        .customerEmail(tokenEmail)
        .customerName("Pat Lee")
        .successUrl("https://partner.example/plan/ready")
        .failureUrl("https://partner.example/plan/failed")
        .idempotencyKey(run + "-token"));
    String provisionRequestId = setup.getProvisionTokenRequestId().toString();
    System.out.println("send the customer to " + setup.getRedirectUrl());
    // end sample
    record("createPaymentToken");

    // The customer takes the survey and enters a card; the clinician approves the letter.
    sandbox.post("/sandbox/v1/provision_requests/" + provisionRequestId + "/complete", "{\"letter\": \"approved\"}");

    // sample: retrieveProvisionTokenRequest
    ProvisionTokenRequest provision = tokens.retrieveProvisionTokenRequest(provisionRequestId);
    // payment_token is null until the customer has finished the setup page.
    String paymentToken = provision.getPaymentToken();
    System.out.println(paymentToken == null ? "no token yet" : "payment token " + paymentToken);
    // end sample
    record("retrieveProvisionTokenRequest");
    if (paymentToken == null) throw new IllegalStateException("the provision request issued no payment token");

    // sample: retrieveProvisionRequestEligibility
    EligibilityResponse answer = eligibility.retrieveProvisionRequestEligibility(provisionRequestId);
    // eligibility_status is an open enum, or null.
    if (answer.getEligibilityStatus() != null) {
      System.out.println("eligibility " + answer.getEligibilityStatus().getActualInstance());
    }
    System.out.println("items " + answer.getItems() + ", letter valid until " + answer.getLmnExpiresAt());
    // end sample
    record("retrieveProvisionRequestEligibility");

    // sample: listPaymentTokens
    PaymentTokenList found = tokens.listPaymentTokens(APIListPaymentTokensRequest.newBuilder()
        .email(tokenEmail)
        .build());
    for (PaymentToken token : found.getPaymentTokens()) {
      System.out.println(token.getPaymentToken() + " " + token.getCustomerEmail());
    }
    // end sample
    record("listPaymentTokens");

    // sample: retrievePaymentToken
    PaymentToken token = tokens.retrievePaymentToken(paymentToken);
    System.out.println(token.getCustomerEmail() + ", letter valid until " + token.getLmnExpiresAt());
    // end sample
    record("retrievePaymentToken");

    // sample: updatePaymentToken
    OrderItemInput vitamins = new OrderItemInput()
        .name("Vitamin D3 2000 IU").sku("VITD-2000").quantity(1L).price(1500L)
        .amountDetails(new AmountDetails().totalAdditionalCharges(0L).totalDiscounts(0L));
    PaymentTokenUpdateResponse updated = tokens.updatePaymentToken(paymentToken,
        new UpdatePaymentTokenRequest().updateCardInfo(false).orderItems(List.of(vitamins)));
    // next_action None: nothing for the customer to do; otherwise send them to redirect_url.
    System.out.println("next action: " + updated.getNextAction().getActualInstance());
    // end sample
    record("updatePaymentToken");

    // sample: deletePaymentToken
    tokens.deletePaymentToken(paymentToken);
    System.out.println("payment token " + paymentToken + " deleted");
    // end sample
    record("deletePaymentToken");

    // sample: createCatalogItem
    String sku = "SAMPLE-" + run;
    // The answer's shape is not documented: the client reads it as a map.
    Map<String, Object> item = catalog.createCatalogItem(new CreateCatalogItemRequest()
        .sku(sku)
        .name("Cold pack")
        .description("Reusable cold pack")
        .imageUrls(List.of()));
    System.out.println("created " + item.get("sku"));
    // end sample
    record("createCatalogItem");

    // sample: updateCatalogItem
    catalog.updateCatalogItem(new UpdateCatalogItemRequest()
        .sku(sku)
        .name("Cold pack XL")
        .description("Reusable cold pack, large")
        .imageUrls(List.of())
        .url("https://partner.example/products/cold-pack"));
    System.out.println("updated " + sku);
    // end sample
    record("updateCatalogItem");

    // sample: retrieveCatalogItem
    CatalogItem detail = catalog.retrieveCatalogItem(new CatalogItemDetailRequest().sku(sku));
    // eligibility stays null until the service has reviewed the item.
    if (detail.getEligibility() == null) System.out.println(detail.getName() + " is not reviewed yet");
    else System.out.println(detail.getName() + " is " + detail.getEligibility().getActualInstance());
    // end sample
    record("retrieveCatalogItem");

    // sample: listCatalogItems
    CatalogItemList items = catalog.listCatalogItems(APIListCatalogItemsRequest.newBuilder()
        .pageSize(100L)
        .build());
    for (CatalogItem each : items.getData()) {
      System.out.println(each.getSku() + " " + each.getName());
    }
    // end sample
    record("listCatalogItems");

    // sample: retrieveCheckoutMethod
    // Neither its request nor its answer is documented: a map each way.
    Map<String, Object> method = catalog.retrieveCheckoutMethod(Map.of());
    System.out.println("checkout method: " + method);
    // end sample
    record("retrieveCheckoutMethod");

    // The card network opens a chargeback on the captured session.
    String disputeId = sandbox.post("/sandbox/v1/payment_sessions/" + sessionId + "/disputes", "{}").get("dispute_id").asText();

    // sample: retrieveDispute
    Dispute dispute = disputes.retrieveDispute(UUID.fromString(disputeId));
    System.out.println("dispute " + dispute.getDisputeId() + ": " + dispute.getState().getActualInstance());
    System.out.println(dispute.getAmount() + " cents, respond by " + dispute.getDueBy());
    // end sample
    record("retrieveDispute");

    // sample: listDisputes
    DisputeRecordList records = disputes.listDisputes();
    for (DisputeRecord each : records.getData()) {
      System.out.println(each.getId() + " " + each.getState() + " " + each.getAmount());
    }
    // end sample
    record("listDisputes");

    // sample: retrieveDisputeRecord
    DisputeRecord disputeRecord = disputes.retrieveDisputeRecord(disputeId);
    System.out.println(disputeRecord.getChargeId() + ": " + disputeRecord.getReason()
        + ", " + disputeRecord.getState());
    // end sample
    record("retrieveDisputeRecord");

    // sample: acceptDispute
    disputes.acceptDispute(disputeId, Map.of());
    System.out.println("dispute " + disputeId + " accepted");
    // end sample
    record("acceptDispute");

    System.out.println("PARTNER_SAMPLES " + client.getObjectMapper().writeValueAsString(statuses));
  }

  /** Notes the status the client's last answer had, under the operation's id. */
  private static void record(String operationId) {
    statuses.put(operationId, lastStatus);
  }

  /** The sandbox's test helpers: plain HTTP on the client's HttpClient, with its key. */
  record Helpers(ApiClient client, Settings settings) {
    JsonNode post(String path, String json) throws IOException, InterruptedException {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(settings.baseUrl() + path))
          .header("content-type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(json));
      client.getRequestInterceptor().accept(request);
      HttpResponse<String> response = client.getHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) throw new IllegalStateException("the sandbox helper " + path + " answered " + response.statusCode() + ": " + response.body());
      return client.getObjectMapper().readTree(response.body());
    }
  }
}
