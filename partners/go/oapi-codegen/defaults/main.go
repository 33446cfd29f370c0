// The short flow against the client that oapi-codegen writes with its defaults from the OpenAPI
// 3.0 companion: create an authorization session, complete its checkout through the sandbox's
// helper, capture part of it, refund part of it, list it with a filter, retrieve it, and read the
// error code of a second capture, status_summary and service_fee as the service sent them.
//
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
// PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"partner.example/checkout/checkoutapi"
)

func envOr(name, def string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return def
}

func ptr[T any](v T) *T { return &v }

// must stops the flow unless the call answered the status it expects.
func must(what string, status int, want int, body []byte, err error) {
	if err != nil {
		log.Fatalf("%s: %v", what, err)
	}
	if status != want {
		log.Fatalf("%s answered %d, not %d: %s", what, status, want, body)
	}
}

func main() {
	ctx := context.Background()
	baseURL := strings.TrimSuffix(envOr("PARTNER_BASE_URL", "http://127.0.0.1:4010"), "/")
	apiKey := envOr("PARTNER_API_KEY", "sandbox-dev-key")
	run := envOr("PARTNER_RUN", strconv.FormatInt(time.Now().UnixMilli(), 36))
	email := run + "@partner.example"

	client, err := checkoutapi.NewClientWithResponses(baseURL, checkoutapi.WithRequestEditorFn(
		func(_ context.Context, req *http.Request) error {
			req.Header.Set("x-service-api-key", apiKey)
			return nil
		}))
	if err != nil {
		log.Fatal(err)
	}

	noCharges := checkoutapi.AmountDetails{TotalAdditionalCharges: 0, TotalDiscounts: 0}
	created, err := client.CreatePaymentSessionWithResponse(ctx, checkoutapi.CreatePaymentSessionRequest{
		Kind:           ptr(checkoutapi.Authorization),
		TotalAmount:    5000,
		AmountDetails:  noCharges,
		SuccessUrl:     "https://partner.example/thanks",
		FailureUrl:     "https://partner.example/failed",
		CustomerEmail:  ptr(openapi_types.Email(email)),
		Metadata:       ptr(run),
		IdempotencyKey: ptr(run + "-create"),
		OrderItems: []checkoutapi.OrderItemInput{
			{Name: "Blood pressure monitor", Sku: ptr("BPM-200"), Quantity: 1, Price: 5000, AmountDetails: noCharges},
		},
	})
	must("create", created.StatusCode(), 200, created.Body, err)
	id := created.JSON200.Id.String()

	// The customer's checkout, played by the sandbox's helper (not in the published document).
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/sandbox/v1/payment_sessions/"+id+"/complete_checkout", strings.NewReader("{}"))
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Set("x-service-api-key", apiKey)
	req.Header.Set("content-type", "application/json")
	completed, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	completed.Body.Close()
	must("complete_checkout", completed.StatusCode, 200, nil, nil)

	captured, err := client.CapturePaymentSessionWithResponse(ctx, id, checkoutapi.CapturePaymentSessionRequest{TotalAmount: 3000, IdempotencyKey: ptr(run + "-capture")})
	must("capture", captured.StatusCode(), 200, captured.Body, err)
	refund, err := client.CreateRefundWithResponse(ctx, checkoutapi.CreateRefundRequest{
		PaymentId: id, Amount: 1000, Reason: checkoutapi.CustomerRequest, IdempotencyKey: run + "-refund",
	})
	must("refund", refund.StatusCode(), 200, refund.Body, err)

	list, err := client.ListPaymentSessionsWithResponse(ctx, &checkoutapi.ListPaymentSessionsParams{
		Search: ptr(email), Status: &[]checkoutapi.PaymentSessionStatusInput{checkoutapi.Captured},
	})
	must("list", list.StatusCode(), 200, list.Body, err)
	listed := false
	for _, item := range list.JSON200.PaymentSessions {
		listed = listed || (item.Id != nil && item.Id.String() == id)
	}

	retrieved, err := client.RetrievePaymentSessionWithResponse(ctx, id)
	must("retrieve", retrieved.StatusCode(), 200, retrieved.Body, err)
	session := retrieved.JSON200

	// A second capture answers 400, decoded into the operation's error model (JSON400).
	again, err := client.CapturePaymentSessionWithResponse(ctx, id, checkoutapi.CapturePaymentSessionRequest{TotalAmount: 1000, IdempotencyKey: ptr(run + "-capture-2")})
	must("second capture", again.StatusCode(), 400, again.Body, err)

	// The companion states no type for service_fee (a string or a number): encoding/json gives a string or a float64.
	var serviceFee *string
	if session.ServiceFee != nil {
		switch fee := (*session.ServiceFee).(type) {
		case string:
			serviceFee = &fee
		case float64:
			serviceFee = ptr(strconv.FormatFloat(fee, 'f', -1, 64))
		}
	}
	var captureAmount *int64
	if session.CaptureAmount != nil {
		captureAmount = ptr(int64(*session.CaptureAmount))
	}
	result, err := json.Marshal(map[string]any{
		"session_id":     id,
		"captured":       captureAmount,
		"refund_id":      refund.JSON200.RefundId,
		"listed":         listed,
		"capture_error":  again.JSON400.Error,
		"status_summary": session.StatusSummary,
		"service_fee":    serviceFee,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("PARTNER_DEFAULTS_RESULT %s\n", result)
}
