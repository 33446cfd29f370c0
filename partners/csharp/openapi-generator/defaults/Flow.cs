// The short flow against the client that openapi-generator's csharp generator writes with its
// defaults from the OpenAPI 3.0 companion, with only the package name and what this machine's
// toolchain needs (NOTES.md, "With the generator's defaults"): create an authorization session,
// complete its checkout through the sandbox's helper, capture part of it, refund part of it, list it
// with a filter, retrieve it, and read the error code of a second capture, status_summary and
// service_fee as the service sent them.
//
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
// PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Net.Http;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Partner.Payments.Api;
using Partner.Payments.Client;
using Partner.Payments.Model;

public static class Flow
{
    static string Setting(string name, string fallback)
    {
        string value = Environment.GetEnvironmentVariable(name);
        return string.IsNullOrEmpty(value) ? fallback : value;
    }

    static string Base36(long number)
    {
        const string digits = "0123456789abcdefghijklmnopqrstuvwxyz";
        var text = new StringBuilder();
        do
        {
            text.Insert(0, digits[(int)(number % 36)]);
            number /= 36;
        } while (number > 0);
        return text.ToString();
    }

    public static void Main()
    {
        string baseUrl = Setting("PARTNER_BASE_URL", "http://127.0.0.1:4010").TrimEnd('/');
        string apiKey = Setting("PARTNER_API_KEY", "sandbox-dev-key");
        string run = Setting("PARTNER_RUN", Base36(DateTimeOffset.UtcNow.ToUnixTimeMilliseconds()));
        string email = run + "@partner.example";

        // The document's apiKey scheme: every generated operation sends it as x-service-api-key.
        var configuration = new Configuration { BasePath = baseUrl };
        configuration.ApiKey["x-service-api-key"] = apiKey;
        var sessions = new PaymentSessionsApi(configuration);
        var noCharges = new AmountDetails(totalAdditionalCharges: 0, totalDiscounts: 0);
        var created = sessions.CreatePaymentSession(new CreatePaymentSessionRequest(
            kind: PaymentSessionKindInput.Authorization,
            totalAmount: 5000,
            amountDetails: noCharges,
            successUrl: "https://partner.example/thanks",
            failureUrl: "https://partner.example/failed",
            customerEmail: email,
            metadata: run,
            idempotencyKey: run + "-create",
            orderItems: new List<OrderItemInput>
            {
                new OrderItemInput(name: "Blood pressure monitor", sku: "BPM-200", quantity: 1, price: 5000,
                    amountDetails: noCharges),
            }));
        string id = created.Id.ToString();

        // The customer's checkout, played by the sandbox's helper (not in the published document).
        using (var http = new HttpClient())
        {
            string url = baseUrl + "/sandbox/v1/payment_sessions/" + id + "/complete_checkout";
            var complete = new HttpRequestMessage(HttpMethod.Post, url)
            {
                Content = new StringContent("{}", Encoding.UTF8, "application/json"),
            };
            complete.Headers.Add("x-service-api-key", apiKey);
            var completed = http.SendAsync(complete).Result;
            if (!completed.IsSuccessStatusCode)
                throw new InvalidOperationException("complete_checkout answered " + (int)completed.StatusCode);
        }

        sessions.CapturePaymentSession(id,
            new CapturePaymentSessionRequest(totalAmount: 3000, idempotencyKey: run + "-capture"));
        var refund = new RefundsApi(configuration).CreateRefund(new CreateRefundRequest(
            paymentId: id, amount: 1000, reason: RefundReasonInput.CustomerRequest, idempotencyKey: run + "-refund"));
        var captured = new List<PaymentSessionStatusInput> { PaymentSessionStatusInput.Captured };
        var list = sessions.ListPaymentSessions(search: email, status: captured);
        bool listed = list.PaymentSessions.Any(item => item.Id.ToString() == id);
        var session = sessions.RetrievePaymentSession(id);

        // A second capture answers 400: an ApiException with the body as text, read into the
        // operation's error model.
        string captureError;
        try
        {
            sessions.CapturePaymentSession(id,
                new CapturePaymentSessionRequest(totalAmount: 1000, idempotencyKey: run + "-capture-2"));
            throw new InvalidOperationException("the second capture answered 2xx; a 400 was expected");
        }
        catch (ApiException e) when (e.ErrorCode == 400)
        {
            captureError = JsonConvert.DeserializeObject<PaymentSessionCaptureError>((string)e.ErrorContent).Error;
        }

        // Open enums are strings in the companion, and ServiceFee states no type: an Object, the
        // string or the number as Json.NET read it.
        object fee = session.ServiceFee;
        var result = new JObject
        {
            ["session_id"] = id,
            ["captured"] = session.CaptureAmount,
            ["refund_id"] = refund.RefundId,
            ["listed"] = listed,
            ["capture_error"] = captureError,
            ["status_summary"] = session.StatusSummary,
            ["service_fee"] = fee == null ? null : Convert.ToString(fee, CultureInfo.InvariantCulture),
        };
        Console.WriteLine("PARTNER_DEFAULTS_RESULT " + result.ToString(Formatting.None));
    }
}
