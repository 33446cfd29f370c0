// Every operation of the contract, once, through the client openapi-generator made (csharp, library
// httpclient), built on Mono. Each call stands between `// sample: <operationId>` and
// `// end sample`: the API reference shows that region as the operation's C# sample. What the
// customer, the clinician and the card network do is played by the sandbox's helpers
// (/sandbox/v1/…), outside the regions.
//   mono bin/Samples.exe
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010), PARTNER_API_KEY (default
// sandbox-dev-key) and PARTNER_RUN (default: the time in base 36; it makes keys, emails and skus
// unique), and ends on `PARTNER_SAMPLES {"<operationId>": <HTTP status>, …}`.
using System;
using System.Collections.Generic;
using System.Net.Http;
using System.Runtime.Serialization;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Partner.Payments.Api;
using Partner.Payments.Client;
using Partner.Payments.Model;

public static class Samples
{
    public static int Main()
    {
        string baseUrl = Setting("PARTNER_BASE_URL", "http://127.0.0.1:4010", @"^https?://[^\s/?#]+(/[^\s?#]*)?$", "an http(s) URL");
        string apiKey = Setting("PARTNER_API_KEY", "sandbox-dev-key", @"^[\x21-\x7e]+$", "an API key (printable characters, no spaces)");
        string run = Setting("PARTNER_RUN", Base36(DateTimeOffset.UtcNow.ToUnixTimeSeconds()), @"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", "a run name (letters, digits, \".\", \"_\" or \"-\", at most 64)");
        if (baseUrl == null || apiKey == null || run == null) return 2;
        try
        {
            Run(baseUrl.TrimEnd('/'), apiKey, run);
            return 0;
        }
        catch (Exception e)
        {
            // A failure is one line, not a stack trace: an answer's status and body, or what went wrong.
            var api = e as ApiException;
            Console.Error.WriteLine("Samples: " + (api != null && api.ErrorCode > 0 ? "HTTP " + api.ErrorCode + ": " + api.ErrorContent : e.GetBaseException().Message + " (" + baseUrl + ")"));
            return 1;
        }
    }

    private static void Run(string baseUrl, string apiKey, string run)
    {
        // The status of each operation's answer, as the HTTP client saw it.
        var recorder = new StatusRecorder { InnerHandler = new HttpClientHandler() };
        var statuses = new JObject();
        Action<string> answered = operationId =>
        {
            statuses[operationId] = recorder.Take(operationId);
        };

        var http = new HttpClient(recorder);
        // The document's apiKey scheme (x-service-api-key) is applied by every generated operation
        // from the configuration's ApiKey dictionary.
        var configuration = new Configuration { BasePath = baseUrl };
        configuration.ApiKey["x-service-api-key"] = apiKey;
        var paymentSessions = new PaymentSessionsApi(http, configuration);
        var refunds = new RefundsApi(http, configuration);
        var paymentTokens = new PaymentTokensApi(http, configuration);
        var eligibility = new EligibilityApi(http, configuration);
        var catalog = new ProductCatalogApi(http, configuration);
        var disputes = new DisputesApi(http, configuration);

        var helpers = new Helpers(baseUrl, apiKey);
        string email = "samples-" + run + "@partner.example";
        // An authorization hold of $20 on a thermometer, as the create sample makes one.
        Func<string, string> authorization = key => paymentSessions.CreatePaymentSession(new CreatePaymentSessionRequest(
            kind: PaymentSessionKindInput.Authorization,
            totalAmount: 2000,
            amountDetails: new AmountDetails(totalAdditionalCharges: 0, totalDiscounts: 0),
            successUrl: "https://shop.example/orders/{{payment_session_id}}/paid",
            failureUrl: "https://shop.example/orders/{{payment_session_id}}/failed",
            customerEmail: email,
            idempotencyKey: key,
            orderItems: new List<OrderItemInput> { new OrderItemInput(name: "Digital thermometer", sku: "TH-10", quantity: 1, price: 2000, amountDetails: new AmountDetails(totalAdditionalCharges: 0, totalDiscounts: 0)) })).Id.ToString();

        // sample: createPaymentSession
        var noCharges = new AmountDetails(totalAdditionalCharges: 0, totalDiscounts: 0);
        PaymentSessionCreateResponse created = paymentSessions.CreatePaymentSession(new CreatePaymentSessionRequest(
            kind: PaymentSessionKindInput.Authorization,
            totalAmount: 5000,
            amountDetails: noCharges,
            successUrl: "https://shop.example/orders/{{payment_session_id}}/paid",
            failureUrl: "https://shop.example/orders/{{payment_session_id}}/failed",
            customerEmail: email,
            idempotencyKey: "order-1001-" + run,
            orderItems: new List<OrderItemInput>
            {
                new OrderItemInput(name: "Blood pressure monitor", sku: "BPM-200", quantity: 1, price: 5000, amountDetails: noCharges),
            }));
        string sessionId = created.Id.ToString();
        Console.WriteLine("send the customer to " + created.RedirectUrl);
        // end sample
        answered("createPaymentSession");

        // The customer completes the hosted checkout: the hold is placed.
        helpers.Post("/sandbox/v1/payment_sessions/" + sessionId + "/complete_checkout", new JObject());

        // sample: retrievePaymentSession
        PaymentSession session = paymentSessions.RetrievePaymentSession(sessionId);
        Console.WriteLine("session " + session.Id + ": " + session.Status + " (" + session.StatusSummary + ")");
        // end sample
        answered("retrievePaymentSession");

        // sample: listPaymentSessions
        PaymentSessionList page = paymentSessions.ListPaymentSessions(pageSize: 10, search: email);
        foreach (PaymentSessionListItem item in page.PaymentSessions)
            Console.WriteLine(item.Id + " " + item.Status + " " + item.TotalAmount);
        Console.WriteLine(page.Pagination.Count + " sessions");
        // end sample
        answered("listPaymentSessions");

        // sample: capturePaymentSession
        try
        {
            CaptureResponse capture = paymentSessions.CapturePaymentSession(sessionId, new CapturePaymentSessionRequest(
                totalAmount: 3000,
                idempotencyKey: "capture-1001-" + run));
            Console.WriteLine("captured: " + capture.Id);
        }
        catch (ApiException e) when (e.ErrorCode == 400)
        {
            // A 400's body is the operation's error model; its `error` says why (SessionExpired, …).
            var refusal = JsonConvert.DeserializeObject<PaymentSessionCaptureError>((string)e.ErrorContent);
            Console.WriteLine("capture refused: " + refusal.Error);
        }
        // end sample
        answered("capturePaymentSession");

        // sample: createRefund
        RefundCreateResponse refund = refunds.CreateRefund(new CreateRefundRequest(
            paymentId: sessionId,
            amount: 1000,
            reason: RefundReasonInput.CustomerRequest,
            idempotencyKey: "refund-1001-" + run));
        Console.WriteLine("refund " + refund.RefundId);
        // end sample
        answered("createRefund");

        // A second session, which the customer abandons.
        string abandonedId = authorization("order-1002-" + run);

        // sample: cancelPaymentSession
        PaymentSessionCancelResponse canceled = paymentSessions.CancelPaymentSession(abandonedId);
        Console.WriteLine("session " + canceled.Id + " is " + canceled.Status);
        // end sample
        answered("cancelPaymentSession");

        // A third session, authorized, whose order is then called off.
        string heldId = authorization("order-1003-" + run);
        helpers.Post("/sandbox/v1/payment_sessions/" + heldId + "/complete_checkout", new JObject());

        // sample: voidPaymentSession
        VoidResponse voided = paymentSessions.VoidPaymentSession(heldId, new VoidPaymentSessionRequest(idempotencyKey: "void-1003-" + run));
        Console.WriteLine("hold released: " + voided.Id);
        // end sample
        answered("voidPaymentSession");

        // sample: createPaymentToken
        PaymentTokenCreateResponse setup = paymentTokens.CreatePaymentToken(new CreatePaymentTokenRequest(
            successUrl: "https://shop.example/plan/ready",
            failureUrl: "https://shop.example/plan/failed",
            customerEmail: "plan-" + run + "@partner.example",
            idempotencyKey: "plan-" + run));
        string provisionRequestId = setup.ProvisionTokenRequestId.ToString();
        Console.WriteLine("send the customer to " + setup.RedirectUrl);
        // end sample
        answered("createPaymentToken");

        // The customer finishes the setup page, and the clinician approves the letter.
        helpers.Post("/sandbox/v1/provision_requests/" + provisionRequestId + "/complete", new JObject { ["letter"] = "approved" });

        // sample: retrieveProvisionTokenRequest
        ProvisionTokenRequest provisionRequest = paymentTokens.RetrieveProvisionTokenRequest(provisionRequestId);
        string paymentToken = provisionRequest.PaymentToken; // null until the token is issued
        Console.WriteLine("payment token: " + paymentToken);
        // end sample
        answered("retrieveProvisionTokenRequest");

        // sample: retrieveProvisionRequestEligibility
        EligibilityResponse answer = eligibility.RetrieveProvisionRequestEligibility(provisionRequestId);
        Console.WriteLine("eligibility " + answer.EligibilityStatus + ", letter valid through " + answer.LmnExpiresAt?.ToString("yyyy-MM-dd"));
        Console.WriteLine("chargeable items: " + string.Join(", ", answer.Items));
        // end sample
        answered("retrieveProvisionRequestEligibility");

        // sample: listPaymentTokens
        PaymentTokenList tokens = paymentTokens.ListPaymentTokens(pageSize: 10, email: "plan-" + run + "@partner.example");
        foreach (PaymentToken listed in tokens.PaymentTokens)
            Console.WriteLine(listed.VarPaymentToken + " " + listed.CustomerEmail);
        // end sample
        answered("listPaymentTokens");

        // sample: retrievePaymentToken
        PaymentToken token = paymentTokens.RetrievePaymentToken(paymentToken);
        foreach (PaymentMethod card in token.PaymentMethods)
            Console.WriteLine("card ending " + card.Last4 + ", expires " + card.ExpMonth + "/" + card.ExpYear);
        // end sample
        answered("retrievePaymentToken");

        // sample: updatePaymentToken
        PaymentTokenUpdateResponse update = paymentTokens.UpdatePaymentToken(paymentToken, new UpdatePaymentTokenRequest(
            updateCardInfo: false,
            orderItems: new List<OrderItemInput>
            {
                new OrderItemInput(name: "Blood pressure monitor", sku: "BPM-200", quantity: 1, price: 5000, amountDetails: new AmountDetails(totalAdditionalCharges: 0, totalDiscounts: 0)),
            }));
        if (update.NextAction != Wire(PaymentTokenUpdateResponseNextActionKnownValue.None))
            Console.WriteLine("the customer must act (" + update.NextAction + "): " + update.RedirectUrl);
        // end sample
        answered("updatePaymentToken");

        // sample: deletePaymentToken
        paymentTokens.DeletePaymentToken(paymentToken);
        Console.WriteLine("token deleted");
        // end sample
        answered("deletePaymentToken");

        // sample: createCatalogItem
        string sku = "COLD-PACK-" + run;
        catalog.CreateCatalogItem(new CreateCatalogItemRequest(sku: sku, name: "Cold pack", description: "Reusable cold pack", imageUrls: new List<string>()));
        Console.WriteLine("item " + sku + " created, awaiting review");
        // end sample
        answered("createCatalogItem");

        // sample: updateCatalogItem
        catalog.UpdateCatalogItem(new UpdateCatalogItemRequest(
            sku: sku,
            name: "Cold pack XL",
            description: "Reusable cold pack, large",
            imageUrls: new List<string>(),
            url: "https://shop.example/products/cold-pack-xl"));
        // end sample
        answered("updateCatalogItem");

        // The service reviews the item.
        helpers.Post("/sandbox/v1/catalog/items/review", new JObject { ["sku"] = sku, ["eligibility"] = "eligible" });

        // sample: retrieveCatalogItem
        CatalogItem catalogItem = catalog.RetrieveCatalogItem(new CatalogItemDetailRequest(sku: sku));
        Console.WriteLine(catalogItem.Sku + " " + catalogItem.Name + ": " + (catalogItem.Eligibility ?? "awaiting review"));
        // end sample
        answered("retrieveCatalogItem");

        // sample: listCatalogItems
        CatalogItemList items = catalog.ListCatalogItems(pageSize: 50, eligibility: "eligible");
        foreach (CatalogItem entry in items.Data)
            Console.WriteLine(entry.Sku + " " + entry.Name);
        // end sample
        answered("listCatalogItems");

        // sample: retrieveCheckoutMethod
        Dictionary<string, object> method = catalog.RetrieveCheckoutMethod(); // its fields are not documented
        Console.WriteLine("checkout method: " + JsonConvert.SerializeObject(method));
        // end sample
        answered("retrieveCheckoutMethod");

        // The card network opens a dispute on the captured session.
        string disputeId = (string)helpers.Post("/sandbox/v1/payment_sessions/" + sessionId + "/disputes", new JObject { ["reason"] = "product_not_received" })["dispute_id"];

        // sample: retrieveDispute
        Dispute dispute = disputes.RetrieveDispute(Guid.Parse(disputeId));
        Console.WriteLine("dispute " + dispute.DisputeId + ": " + dispute.State + ", " + dispute.Amount + " cents, respond by " + dispute.DueBy.ToString("yyyy-MM-dd"));
        // end sample
        answered("retrieveDispute");

        // sample: listDisputes
        DisputeRecordList list = disputes.ListDisputes();
        foreach (DisputeRecord listedRecord in list.Data)
            Console.WriteLine(listedRecord.Id + " " + listedRecord.State + " on " + listedRecord.ChargeId);
        // end sample
        answered("listDisputes");

        // sample: retrieveDisputeRecord
        DisputeRecord record = disputes.RetrieveDisputeRecord(disputeId);
        Console.WriteLine("dispute " + record.Id + ": " + record.State + ", " + record.Reason);
        // end sample
        answered("retrieveDisputeRecord");

        // sample: acceptDispute
        disputes.AcceptDispute(disputeId);
        Console.WriteLine("dispute accepted: the amount goes back to the customer");
        // end sample
        answered("acceptDispute");

        Console.WriteLine("PARTNER_SAMPLES " + statuses.ToString(Formatting.None));
    }

    /// <summary>
    /// The value on the wire of a constant of a generated …KnownValue enum (its EnumMember): the 3.0
    /// companion's list of an open enum's known values, which no field refers to.
    /// </summary>
    private static string Wire(Enum known)
    {
        var field = known.GetType().GetField(known.ToString());
        return ((EnumMemberAttribute)field.GetCustomAttributes(typeof(EnumMemberAttribute), false)[0]).Value;
    }

    /// <summary>A variable of the environment, or its default; a wrong value is one line (and null).</summary>
    private static string Setting(string name, string fallback, string pattern, string expected)
    {
        string value = Environment.GetEnvironmentVariable(name);
        if (string.IsNullOrEmpty(value)) value = fallback;
        if (Regex.IsMatch(value, pattern)) return value;
        Console.Error.WriteLine(name + "=" + value + " is not " + expected);
        return null;
    }

    private static string Base36(long n)
    {
        const string digits = "0123456789abcdefghijklmnopqrstuvwxyz";
        var text = new StringBuilder();
        do { text.Insert(0, digits[(int)(n % 36)]); n /= 36; } while (n > 0);
        return text.ToString();
    }

    /// <summary>Remembers the status of the last answer, which the program takes after each sample.</summary>
    private sealed class StatusRecorder : DelegatingHandler
    {
        private int? last;

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            HttpResponseMessage response = await base.SendAsync(request, cancellationToken).ConfigureAwait(false);
            last = (int)response.StatusCode;
            return response;
        }

        public int Take(string operationId)
        {
            if (last == null) throw new InvalidOperationException("the sample of " + operationId + " sent no request");
            int status = last.Value;
            last = null;
            return status;
        }
    }

    /// <summary>The sandbox's helpers play the customer, the clinician and the card network: plain HTTP.</summary>
    private sealed class Helpers
    {
        private readonly HttpClient http = new HttpClient();
        private readonly string baseUrl;

        public Helpers(string baseUrl, string apiKey)
        {
            this.baseUrl = baseUrl;
            http.DefaultRequestHeaders.Add("x-service-api-key", apiKey);
        }

        public JObject Post(string path, JObject body)
        {
            var content = new StringContent(body.ToString(Formatting.None), Encoding.UTF8, "application/json");
            HttpResponseMessage response = http.PostAsync(baseUrl + path, content).Result;
            string text = response.Content.ReadAsStringAsync().Result;
            if ((int)response.StatusCode != 200)
                throw new InvalidOperationException("POST " + path + " answered " + (int)response.StatusCode + ": " + text);
            return JObject.Parse(text);
        }
    }
}
