// A partner's server code with the client oapi-codegen generates (package checkoutapi): create an
// authorization session, complete its checkout through the sandbox's helper, capture part of it,
// refund part of it, list with a filter, retrieve it, read the error codes of a second capture and of
// a void from their typed 400 members, and tell each code or value the client knows from one a later
// version of the service added.
//
// Every open enum of an answer (status, status_summary, kind, each `error`, …) is a union (the raw
// JSON value) whose first branch is a Go enum type of the documented values (…0, with a constant per
// value and Valid()) and whose second is any string (…1): see open-enums.overlay.yaml and NOTES.md.
//
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
// PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"partner.example/checkout/checkoutapi"
)

// answer is what every ClientWithResponses response has: its status and its raw body.
type answer interface {
	StatusCode() int
	GetBody() []byte
}

// fail ends the program on one line: a wrong setting, a refused key, no sandbox.
func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(2)
}

// envOr is the variable's value, or def when it is unset or empty.
func envOr(name, def string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return def
}

// settings reads PARTNER_BASE_URL, PARTNER_API_KEY and PARTNER_RUN, with the local sandbox's
// defaults (`npm start`, its development key), so that the program runs as copied. A wrong value
// ends it on one line.
func settings() (baseURL, apiKey, run string) {
	baseURL = envOr("PARTNER_BASE_URL", "http://127.0.0.1:4010")
	apiKey = envOr("PARTNER_API_KEY", "sandbox-dev-key")
	// Unique to each run: it goes into the idempotency keys, the email and the metadata.
	run = envOr("PARTNER_RUN", strconv.FormatInt(time.Now().UnixMilli(), 36))
	if !regexp.MustCompile(`^https?://[^\s/?#]+(/[^\s?#]*)?$`).MatchString(baseURL) {
		fail("PARTNER_BASE_URL=%s is not an http(s) URL", baseURL)
	}
	if !regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`).MatchString(run) {
		fail("PARTNER_RUN=%s is not 1 to 64 letters, digits, - or _ (it goes into idempotency keys and an email)", run)
	}
	return strings.TrimSuffix(baseURL, "/"), apiKey, run
}

// expect200 stops the program unless the call answered 200 (whose typed member is then JSON200):
// on one line for no sandbox at the address or a refused key.
func expect200(what string, r answer, err error) {
	var unreachable *url.Error
	if errors.As(err, &unreachable) {
		fail("Nothing answers at PARTNER_BASE_URL (%v): is the sandbox running (npm start)?", unreachable)
	}
	if err != nil {
		log.Fatalf("%s: %v", what, err)
	}
	if r.StatusCode() == http.StatusUnauthorized {
		fail("PARTNER_API_KEY was refused (401): %s", r.GetBody())
	}
	if r.StatusCode() != http.StatusOK {
		log.Fatalf("%s answered %d: %s", what, r.StatusCode(), r.GetBody())
	}
}

func ptr[T any](v T) *T { return &v }

// unknown prints the line for a value this client does not know.
func unknown(what, value string) {
	fmt.Printf("%s %q is not one this client knows: a later version of the service\n", what, value)
}

func main() {
	ctx := context.Background()
	baseURL, apiKey, run := settings()
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
		Kind:           ptr(checkoutapi.PaymentSessionKindInputAuthorization), // requests name the closed *Input enums
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
		PaymentId: id, Amount: 1000, Reason: checkoutapi.RefundReasonInputCustomerRequest, IdempotencyKey: run + "-refund",
	})
	expect200("refund", refund, err)

	list, err := client.ListPaymentSessionsWithResponse(ctx, &checkoutapi.ListPaymentSessionsParams{
		Search: ptr(email),
		Status: &[]checkoutapi.PaymentSessionStatusInput{checkoutapi.PaymentSessionStatusInputCaptured},
	})
	expect200("list", list, err)
	listed := false
	for _, item := range list.JSON200.PaymentSessions {
		listed = listed || (item.Id != nil && item.Id.String() == id)
	}

	retrieved, err := client.RetrievePaymentSessionWithResponse(ctx, id)
	expect200("retrieve", retrieved, err)
	session := retrieved.JSON200

	// An open enum's first branch decodes any string into the Go enum type; Valid() says whether it
	// is one of the documented constants.
	statusSummary, err := session.StatusSummary.AsPaymentSessionStatusSummary0()
	if err != nil {
		log.Fatalf("status_summary: %v", err)
	}
	switch {
	case statusSummary == checkoutapi.PaymentSessionStatusSummary0PartiallyRefunded:
		fmt.Println("status_summary: partially refunded, as expected after a partial refund")
	case !statusSummary.Valid():
		unknown("status_summary", string(statusSummary))
	}
	status, _ := session.Status.AsPaymentSessionStatus0()
	if !status.Valid() {
		unknown("status", string(status))
	}
	if session.Kind != nil {
		if kind, _ := session.Kind.AsPaymentSessionKind0(); !kind.Valid() {
			unknown("kind", string(kind))
		}
	}

	// service_fee is a string or a number (ServiceFee, a union): a string as it came, a number as the
	// JSON text it came as (exact, where a float64 would round a decimal).
	serviceFee := ""
	if session.ServiceFee != nil {
		if text, err := session.ServiceFee.AsServiceFee0(); err == nil {
			serviceFee = text
		} else if _, err := session.ServiceFee.AsServiceFee1(); err == nil {
			number, _ := session.ServiceFee.MarshalJSON()
			serviceFee = string(number)
		} else {
			log.Fatalf("service_fee is neither a string nor a number: %v", err)
		}
	}

	// A second capture: its 400 body is the generated PaymentSessionCaptureError.
	again, err := client.CapturePaymentSessionWithResponse(ctx, id, checkoutapi.CapturePaymentSessionRequest{
		TotalAmount: 1000, IdempotencyKey: ptr(run + "-capture-2"),
	})
	if err != nil {
		log.Fatal(err)
	}
	refusal := again.JSON400
	if refusal == nil {
		log.Fatalf("the second capture answered %d: %s", again.StatusCode(), again.Body)
	}
	captureError, err := refusal.Error.AsPaymentSessionCaptureErrorError0()
	if err != nil {
		log.Fatalf("capture error: %v", err)
	}
	switch {
	case captureError == checkoutapi.PaymentSessionCaptureErrorError0SessionCaptured:
		fmt.Printf("second capture refused: already captured (%s)\n", refusal.Message)
	case !captureError.Valid():
		unknown("capture error", string(captureError))
	default:
		fmt.Printf("second capture refused: %s (%s)\n", captureError, refusal.Message)
	}

	// A void of the captured session answers 400: its body is the generated PaymentSessionVoidError.
	voided, err := client.VoidPaymentSessionWithResponse(ctx, id, checkoutapi.VoidPaymentSessionRequest{IdempotencyKey: ptr(run + "-void")})
	if err != nil {
		log.Fatal(err)
	}
	if voided.JSON400 == nil {
		log.Fatalf("the void answered %d: %s", voided.StatusCode(), voided.Body)
	}
	voidError, err := voided.JSON400.Error.AsPaymentSessionVoidErrorError0()
	if err != nil {
		log.Fatalf("void error: %v", err)
	}
	switch {
	case voidError == checkoutapi.PaymentSessionVoidErrorError0SessionCaptured:
		fmt.Printf("void refused: already captured, refund instead (%s)\n", voided.JSON400.Message)
	case !voidError.Valid():
		unknown("void error", string(voidError))
	default:
		fmt.Printf("void refused: %s (%s)\n", voidError, voided.JSON400.Message)
	}

	fmt.Printf("session %s is %s (%s)\n", id, status, statusSummary)
	result, _ := json.Marshal(map[string]any{
		"session_id":           id,
		"captured":             session.CaptureAmount,
		"refund_id":            refund.JSON200.RefundId,
		"listed":               listed,
		"capture_error":        captureError,
		"void_error":           voidError,
		"void_error_known":     voidError.Valid(),
		"status_summary":       statusSummary,
		"status_summary_known": statusSummary.Valid(),
		"service_fee":          serviceFee,
	})
	fmt.Printf("PARTNER_RESULT %s\n", result)
}
