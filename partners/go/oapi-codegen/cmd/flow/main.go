// A partner's server code with the client oapi-codegen generates (package checkoutapi): create an
// authorization session, complete its checkout through the sandbox's helper, capture part of it,
// refund part of it, list with a filter, and read capture's error code from its typed 400 member.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"partner.example/checkout/checkoutapi"
)

// answer is what every ClientWithResponses response has: its status and its raw body.
type answer interface {
	StatusCode() int
	GetBody() []byte
}

// expect200 stops the program unless the call answered 200 (whose typed member is then JSON200).
func expect200(what string, r answer, err error) {
	if err != nil {
		log.Fatalf("%s: %v", what, err)
	}
	if r.StatusCode() != http.StatusOK {
		log.Fatalf("%s answered %d: %s", what, r.StatusCode(), r.GetBody())
	}
}

func ptr[T any](v T) *T { return &v }

func main() {
	ctx := context.Background()
	baseURL, apiKey, run := os.Getenv("PARTNER_BASE_URL"), os.Getenv("PARTNER_API_KEY"), os.Getenv("PARTNER_RUN")
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
		Kind:           ptr(checkoutapi.PaymentSessionKindAuthorization),
		TotalAmount:    5000,
		AmountDetails:  noCharges,
		SuccessUrl:     "https://partner.example/orders/{{payment_session_id}}/thanks",
		FailureUrl:     "https://partner.example/orders/{{payment_session_id}}/failed",
		CustomerEmail:  ptr(openapi_types.Email(email)),
		CustomerName:   ptr("Partner Matrix"),
		Metadata:       ptr(run),
		IdempotencyKey: ptr(run + "-create"),
		OrderItems: []checkoutapi.OrderItemInput{
			{Name: "Blood pressure monitor", Sku: ptr("BPM-200"), Quantity: 1, Price: 5000, AmountDetails: noCharges},
		},
	})
	expect200("create", created, err)
	id := created.JSON200.Id.String()

	// The customer finishes the hosted checkout: in the sandbox, its helper does it.
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
	if completed.StatusCode != http.StatusOK {
		log.Fatalf("complete_checkout answered %d", completed.StatusCode)
	}

	captured, err := client.CapturePaymentSessionWithResponse(ctx, id, checkoutapi.CapturePaymentSessionRequest{
		TotalAmount: 3000, IdempotencyKey: ptr(run + "-capture"),
	})
	expect200("capture", captured, err)

	refund, err := client.CreateRefundWithResponse(ctx, checkoutapi.CreateRefundRequest{
		PaymentId: id, Amount: 1000, Reason: checkoutapi.RefundReasonCustomerRequest, IdempotencyKey: run + "-refund",
	})
	expect200("refund", refund, err)

	list, err := client.ListPaymentSessionsWithResponse(ctx, &checkoutapi.ListPaymentSessionsParams{
		Search: ptr(email),
		Status: &[]checkoutapi.PaymentSessionStatus{checkoutapi.PaymentSessionStatusCaptured},
	})
	expect200("list", list, err)
	listed := false
	for _, item := range list.JSON200.PaymentSessions {
		listed = listed || (item.Id != nil && item.Id.String() == id)
	}

	retrieved, err := client.RetrievePaymentSessionWithResponse(ctx, id)
	expect200("retrieve", retrieved, err)
	session := retrieved.JSON200

	// A second capture: its 400 body is the generated PaymentSessionCaptureError, whose code is a typed enum.
	again, err := client.CapturePaymentSessionWithResponse(ctx, id, checkoutapi.CapturePaymentSessionRequest{
		TotalAmount: 1000, IdempotencyKey: ptr(run + "-capture-2"),
	})
	if err != nil {
		log.Fatal(err)
	}
	var captureError checkoutapi.PaymentSessionCaptureErrorError
	if refusal := again.JSON400; refusal != nil {
		switch refusal.Error {
		case checkoutapi.PaymentSessionCaptureErrorErrorSessionCaptured:
			fmt.Printf("second capture refused: already captured (%s)\n", refusal.Message)
		default:
			fmt.Printf("second capture refused: %s (%s)\n", refusal.Error, refusal.Message)
		}
		captureError = refusal.Error
	}

	fmt.Printf("session %s is %s\n", id, session.Status)
	result, _ := json.Marshal(map[string]any{
		"session_id":    id,
		"captured":      session.CaptureAmount,
		"refund_id":     refund.JSON200.RefundId,
		"listed":        listed,
		"capture_error": captureError,
	})
	fmt.Printf("PARTNER_RESULT %s\n", result)
}
