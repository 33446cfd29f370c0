// The Go samples of the reference: every operation of the contract, called once through the
// ClientWithResponses oapi-codegen generates (package checkoutapi), in an order that works on the
// sandbox. Each call stands between `// sample: <operationId>` and `// end sample`; the reference
// quotes that region, dedented, as the operation's Go sample. What plays the customer, the
// clinician or the card network (the sandbox's helpers under /sandbox/v1/, plain HTTP) stays
// outside the markers.
//
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010), PARTNER_API_KEY (default
// sandbox-dev-key) and PARTNER_RUN (default: the time in base 36; it keeps the idempotency keys,
// emails and skus of one run apart from another's), and ends on the line
// `PARTNER_SAMPLES {"<operationId>": <HTTP status>, …}`. See NOTES.md, "Samples".
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// settings is what the program reads from its environment, checked: a wrong value stops it with one line.
type settings struct{ baseURL, apiKey, run string }

var (
	runPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)
	keyPattern = regexp.MustCompile(`^[\x21-\x7e]{1,256}$`)
)

// variable is an environment variable, or its default when it is unset or empty.
func variable(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func settingsFromEnvironment() (settings, error) {
	s := settings{
		baseURL: strings.TrimRight(variable("PARTNER_BASE_URL", "http://127.0.0.1:4010"), "/"),
		apiKey:  variable("PARTNER_API_KEY", "sandbox-dev-key"),
		run:     variable("PARTNER_RUN", strconv.FormatInt(time.Now().UnixMilli(), 36)),
	}
	if u, err := url.Parse(s.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return s, fmt.Errorf("PARTNER_BASE_URL=%s is not an http(s) URL", s.baseURL)
	}
	if !keyPattern.MatchString(s.apiKey) {
		return s, fmt.Errorf("PARTNER_API_KEY=%s is not an API key: printable ASCII without spaces", s.apiKey)
	}
	if !runPattern.MatchString(s.run) {
		return s, fmt.Errorf("PARTNER_RUN=%s is not 1 to 64 letters, digits, - or _ (it goes into idempotency keys, emails and skus)", s.run)
	}
	return s, nil
}

// statuses is the HTTP status each operation got, in the order of the calls.
type statuses struct {
	order []string
	codes map[string]int
}

func (s *statuses) record(operationID string, code int) {
	if s.codes == nil {
		s.codes = map[string]int{}
	}
	s.order = append(s.order, operationID)
	s.codes[operationID] = code
}

func (s *statuses) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, id := range s.order {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%d", id, s.codes[id])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// lastStatus notes the status of every answer the client gets, for main's line on a 401.
type lastStatus struct{ code int }

func (l *lastStatus) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		l.code = res.StatusCode
	}
	return res, err
}

func ptr[T any](v T) *T { return &v }

func main() {
	s, err := settingsFromEnvironment()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	last := &lastStatus{}
	done := &statuses{}
	// A refused key or no service at the address is a wrong setting (exit 2); any other answer that
	// is not 2xx stops the program (exit 1). Either way, on one line.
	if err := callEveryOperation(context.Background(), s, &http.Client{Transport: last}, done); err != nil {
		var unreachable *url.Error
		switch {
		case errors.As(err, &unreachable):
			fmt.Fprintf(os.Stderr, "Nothing answers at PARTNER_BASE_URL=%s (%v): is the sandbox running (npm start)?\n", s.baseURL, unreachable.Err)
			os.Exit(2)
		case last.code == http.StatusUnauthorized:
			fmt.Fprintf(os.Stderr, "PARTNER_API_KEY was refused (401): %v\n", err)
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	line, _ := json.Marshal(done)
	fmt.Printf("PARTNER_SAMPLES %s\n", line)
}

func callEveryOperation(ctx context.Context, s settings, httpClient *http.Client, statuses *statuses) error {
	run := s.run
	email := run + "@partner.example"

	// The generated client sends what a request editor adds: the API key, on every call.
	client, err := checkoutapi.NewClientWithResponses(s.baseURL,
		checkoutapi.WithHTTPClient(httpClient),
		checkoutapi.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			req.Header.Set("x-service-api-key", s.apiKey)
			return nil
		}))
	if err != nil {
		return err
	}
	sandbox := helpers{http: httpClient, settings: s}

	// sample: createPaymentSession
	noCharges := checkoutapi.AmountDetails{TotalAdditionalCharges: 0, TotalDiscounts: 0}
	request := checkoutapi.CreatePaymentSessionRequest{
		Kind:           ptr(checkoutapi.PaymentSessionKindInputAuthorization),
		TotalAmount:    5000,
		AmountDetails:  noCharges,
		SuccessUrl:     "https://partner.example/orders/{{payment_session_id}}/thanks",
		FailureUrl:     "https://partner.example/orders/{{payment_session_id}}/failed",
		CustomerEmail:  ptr(openapi_types.Email(email)),
		IdempotencyKey: ptr(run + "-create"),
		OrderItems: []checkoutapi.OrderItemInput{
			{Name: "Blood pressure monitor", Sku: ptr("BPM-200"), Quantity: 1, Price: 5000,
				AmountDetails: noCharges},
		},
	}
	created, err := client.CreatePaymentSessionWithResponse(ctx, request)
	if err != nil {
		return err
	}
	if created.JSON200 == nil {
		return fmt.Errorf("create payment session answered %d: %s", created.StatusCode(), created.Body)
	}
	sessionID := created.JSON200.Id.String()
	fmt.Println("send the customer to", created.JSON200.RedirectUrl)
	// end sample
	statuses.record("createPaymentSession", created.StatusCode())

	// The customer finishes the hosted checkout: the hold is placed.
	if _, err := sandbox.post(ctx, "/sandbox/v1/payment_sessions/"+sessionID+"/complete_checkout", "{}"); err != nil {
		return err
	}

	// sample: retrievePaymentSession
	retrieved, err := client.RetrievePaymentSessionWithResponse(ctx, sessionID)
	if err != nil {
		return err
	}
	if retrieved.JSON200 == nil {
		return fmt.Errorf("retrieve answered %d: %s", retrieved.StatusCode(), retrieved.Body)
	}
	// status is an open enum: any string decodes; Valid() says whether the contract lists it.
	status, _ := retrieved.JSON200.Status.AsPaymentSessionStatus0()
	fmt.Printf("session %s is %s\n", sessionID, status)
	// end sample
	statuses.record("retrievePaymentSession", retrieved.StatusCode())

	// sample: listPaymentSessions
	page, err := client.ListPaymentSessionsWithResponse(ctx, &checkoutapi.ListPaymentSessionsParams{
		Search:   ptr(email),
		PageSize: ptr[checkoutapi.PageSize](10),
	})
	if err != nil {
		return err
	}
	if page.JSON200 == nil {
		return fmt.Errorf("list answered %d: %s", page.StatusCode(), page.Body)
	}
	for _, item := range page.JSON200.PaymentSessions {
		status, _ := item.Status.AsPaymentSessionStatus0()
		fmt.Println(item.Id, status)
	}
	fmt.Println(page.JSON200.Pagination.Count, "sessions match")
	// end sample
	statuses.record("listPaymentSessions", page.StatusCode())

	// sample: capturePaymentSession
	capture, err := client.CapturePaymentSessionWithResponse(ctx, sessionID,
		checkoutapi.CapturePaymentSessionRequest{TotalAmount: 3000, IdempotencyKey: ptr(run + "-capture")})
	if err != nil {
		return err
	}
	switch {
	case capture.JSON200 != nil:
		fmt.Println("captured 3000 cents:", capture.JSON200.Id)
	case capture.JSON400 != nil:
		// The 400's body is the operation's error model; its code is an open enum.
		code, _ := capture.JSON400.Error.AsPaymentSessionCaptureErrorError0()
		fmt.Printf("capture refused: %s (%s)\n", code, capture.JSON400.Message)
	default:
		return fmt.Errorf("capture answered %d: %s", capture.StatusCode(), capture.Body)
	}
	// end sample
	statuses.record("capturePaymentSession", capture.StatusCode())

	// sample: createRefund
	refund, err := client.CreateRefundWithResponse(ctx, checkoutapi.CreateRefundRequest{
		PaymentId:      sessionID,
		Amount:         1000,
		Reason:         checkoutapi.RefundReasonInputCustomerRequest,
		IdempotencyKey: run + "-refund",
	})
	if err != nil {
		return err
	}
	if refund.JSON200 == nil {
		return fmt.Errorf("refund answered %d: %s", refund.StatusCode(), refund.Body)
	}
	fmt.Println("refund", refund.JSON200.RefundId)
	// end sample
	statuses.record("createRefund", refund.StatusCode())

	// Two more sessions, the same request with new keys: one the customer leaves pending, one whose
	// hold is placed.
	pendingSessionID, err := createSession(ctx, client, request, run+"-to-cancel")
	if err != nil {
		return err
	}
	authorizedSessionID, err := createSession(ctx, client, request, run+"-to-void")
	if err != nil {
		return err
	}
	if _, err := sandbox.post(ctx, "/sandbox/v1/payment_sessions/"+authorizedSessionID+"/complete_checkout", "{}"); err != nil {
		return err
	}

	// sample: cancelPaymentSession
	canceled, err := client.CancelPaymentSessionWithResponse(ctx, pendingSessionID,
		checkoutapi.CancelPaymentSessionRequest{})
	if err != nil {
		return err
	}
	if canceled.JSON200 == nil {
		return fmt.Errorf("cancel answered %d: %s", canceled.StatusCode(), canceled.Body)
	}
	canceledStatus, _ := canceled.JSON200.Status.AsPaymentSessionStatus0()
	fmt.Printf("session %s is %s\n", pendingSessionID, canceledStatus)
	// end sample
	statuses.record("cancelPaymentSession", canceled.StatusCode())

	// sample: voidPaymentSession
	voided, err := client.VoidPaymentSessionWithResponse(ctx, authorizedSessionID,
		checkoutapi.VoidPaymentSessionRequest{IdempotencyKey: ptr(run + "-void")})
	if err != nil {
		return err
	}
	if voided.JSON200 == nil {
		return fmt.Errorf("void answered %d: %s", voided.StatusCode(), voided.Body)
	}
	fmt.Println("hold released:", voided.JSON200.Id)
	// end sample
	statuses.record("voidPaymentSession", voided.StatusCode())

	tokenEmail := "tokens-" + run + "@partner.example"
	// sample: createPaymentToken
	setup, err := client.CreatePaymentTokenWithResponse(ctx, checkoutapi.CreatePaymentTokenRequest{
		CustomerEmail:  ptr(openapi_types.Email(tokenEmail)),
		CustomerName:   ptr("Pat Lee"),
		SuccessUrl:     "https://partner.example/plan/ready",
		FailureUrl:     "https://partner.example/plan/failed",
		IdempotencyKey: ptr(run + "-token"),
	})
	if err != nil {
		return err
	}
	if setup.JSON200 == nil {
		return fmt.Errorf("create payment token answered %d: %s", setup.StatusCode(), setup.Body)
	}
	provisionRequestID := setup.JSON200.ProvisionTokenRequestId.String()
	fmt.Println("send the customer to", setup.JSON200.RedirectUrl)
	// end sample
	statuses.record("createPaymentToken", setup.StatusCode())

	// The customer takes the survey and enters a card; the clinician approves the letter.
	if _, err := sandbox.post(ctx, "/sandbox/v1/provision_requests/"+provisionRequestID+"/complete", `{"letter": "approved"}`); err != nil {
		return err
	}

	// sample: retrieveProvisionTokenRequest
	provision, err := client.RetrieveProvisionTokenRequestWithResponse(ctx, provisionRequestID)
	if err != nil {
		return err
	}
	if provision.JSON200 == nil {
		return fmt.Errorf("provision request answered %d: %s", provision.StatusCode(), provision.Body)
	}
	// payment_token is null until the customer has finished the setup page.
	paymentToken := provision.JSON200.PaymentToken
	if paymentToken == nil {
		fmt.Println("no token yet")
	} else {
		fmt.Println("payment token", *paymentToken)
	}
	// end sample
	statuses.record("retrieveProvisionTokenRequest", provision.StatusCode())
	if paymentToken == nil {
		return errors.New("the provision request issued no payment token")
	}

	// sample: retrieveProvisionRequestEligibility
	answer, err := client.RetrieveProvisionRequestEligibilityWithResponse(ctx, provisionRequestID)
	if err != nil {
		return err
	}
	if answer.JSON200 == nil {
		return fmt.Errorf("eligibility answered %d: %s", answer.StatusCode(), answer.Body)
	}
	// eligibility_status is an open enum, or null.
	if answer.JSON200.EligibilityStatus != nil {
		eligibility, _ := answer.JSON200.EligibilityStatus.AsEligibilityStatus0()
		fmt.Println("eligibility", eligibility, "for", answer.JSON200.Items)
	}
	// end sample
	statuses.record("retrieveProvisionRequestEligibility", answer.StatusCode())

	// sample: listPaymentTokens
	found, err := client.ListPaymentTokensWithResponse(ctx,
		&checkoutapi.ListPaymentTokensParams{Email: ptr(tokenEmail)})
	if err != nil {
		return err
	}
	if found.JSON200 == nil {
		return fmt.Errorf("list payment tokens answered %d: %s", found.StatusCode(), found.Body)
	}
	for _, token := range found.JSON200.PaymentTokens {
		fmt.Println(token.PaymentToken, token.CreatedAt)
	}
	// end sample
	statuses.record("listPaymentTokens", found.StatusCode())

	// sample: retrievePaymentToken
	token, err := client.RetrievePaymentTokenWithResponse(ctx, *paymentToken)
	if err != nil {
		return err
	}
	if token.JSON200 == nil {
		return fmt.Errorf("retrieve payment token answered %d: %s", token.StatusCode(), token.Body)
	}
	fmt.Println(token.JSON200.PaymentToken, "letter valid until", token.JSON200.LmnExpiresAt)
	// end sample
	statuses.record("retrievePaymentToken", token.StatusCode())

	// sample: updatePaymentToken
	vitamins := checkoutapi.OrderItemInput{
		Name: "Vitamin D3 2000 IU", Sku: ptr("VITD-2000"), Quantity: 1, Price: 1500,
		AmountDetails: checkoutapi.AmountDetails{TotalAdditionalCharges: 0, TotalDiscounts: 0},
	}
	updated, err := client.UpdatePaymentTokenWithResponse(ctx, *paymentToken,
		checkoutapi.UpdatePaymentTokenRequest{
			UpdateCardInfo: ptr(false),
			OrderItems:     &[]checkoutapi.OrderItemInput{vitamins},
		})
	if err != nil {
		return err
	}
	if updated.JSON200 == nil {
		return fmt.Errorf("update payment token answered %d: %s", updated.StatusCode(), updated.Body)
	}
	// None: nothing for the customer to do; otherwise send them to redirect_url.
	next, _ := updated.JSON200.NextAction.AsPaymentTokenUpdateResponseNextAction0()
	if next == checkoutapi.PaymentTokenUpdateResponseNextAction0None {
		fmt.Println("token updated")
	} else {
		fmt.Println("next action", next, ": send the customer to", *updated.JSON200.RedirectUrl)
	}
	// end sample
	statuses.record("updatePaymentToken", updated.StatusCode())

	// sample: deletePaymentToken
	deleted, err := client.DeletePaymentTokenWithResponse(ctx, *paymentToken)
	if err != nil {
		return err
	}
	if deleted.JSON200 == nil {
		return fmt.Errorf("delete payment token answered %d: %s", deleted.StatusCode(), deleted.Body)
	}
	fmt.Println("payment token", *paymentToken, "deleted")
	// end sample
	statuses.record("deletePaymentToken", deleted.StatusCode())

	// sample: createCatalogItem
	sku := "SAMPLE-" + run
	item, err := client.CreateCatalogItemWithResponse(ctx, checkoutapi.CreateCatalogItemRequest{
		Sku:         sku,
		Name:        ptr("Cold pack"),
		Description: ptr("Reusable cold pack"),
		ImageUrls:   &[]string{},
	})
	if err != nil {
		return err
	}
	if item.JSON200 == nil {
		return fmt.Errorf("create catalog item answered %d: %s", item.StatusCode(), item.Body)
	}
	// The answer's shape is not documented: the client reads it as a map.
	fmt.Println("created", (*item.JSON200)["sku"])
	// end sample
	statuses.record("createCatalogItem", item.StatusCode())

	// sample: updateCatalogItem
	changed, err := client.UpdateCatalogItemWithResponse(ctx, checkoutapi.UpdateCatalogItemRequest{
		Sku:         sku,
		Name:        "Cold pack XL",
		Description: "Reusable cold pack, large",
		ImageUrls:   []string{},
		Url:         "https://partner.example/products/cold-pack",
	})
	if err != nil {
		return err
	}
	if changed.JSON200 == nil {
		return fmt.Errorf("update catalog item answered %d: %s", changed.StatusCode(), changed.Body)
	}
	fmt.Println("updated", sku)
	// end sample
	statuses.record("updateCatalogItem", changed.StatusCode())

	// sample: retrieveCatalogItem
	detail, err := client.RetrieveCatalogItemWithResponse(ctx,
		checkoutapi.CatalogItemDetailRequest{Sku: sku})
	if err != nil {
		return err
	}
	if detail.JSON200 == nil {
		return fmt.Errorf("catalog item detail answered %d: %s", detail.StatusCode(), detail.Body)
	}
	// eligibility stays null until the service has reviewed the item.
	if detail.JSON200.Eligibility == nil {
		fmt.Println(detail.JSON200.Sku, detail.JSON200.Name, "is not reviewed yet")
	} else {
		eligibility, _ := detail.JSON200.Eligibility.AsCatalogEligibility0()
		fmt.Println(detail.JSON200.Sku, detail.JSON200.Name, "is", eligibility)
	}
	// end sample
	statuses.record("retrieveCatalogItem", detail.StatusCode())

	// sample: listCatalogItems
	items, err := client.ListCatalogItemsWithResponse(ctx,
		&checkoutapi.ListCatalogItemsParams{PageSize: ptr[checkoutapi.PageSize](100)})
	if err != nil {
		return err
	}
	if items.JSON200 == nil {
		return fmt.Errorf("list catalog items answered %d: %s", items.StatusCode(), items.Body)
	}
	for _, each := range items.JSON200.Data {
		fmt.Println(each.Sku, each.Name)
	}
	// end sample
	statuses.record("listCatalogItems", items.StatusCode())

	// sample: retrieveCheckoutMethod
	// Neither its request nor its answer is documented: a map each way.
	method, err := client.RetrieveCheckoutMethodWithResponse(ctx, checkoutapi.CheckoutMethodRequest{})
	if err != nil {
		return err
	}
	if method.JSON200 == nil {
		return fmt.Errorf("checkout method answered %d: %s", method.StatusCode(), method.Body)
	}
	fmt.Println("checkout method:", *method.JSON200)
	// end sample
	statuses.record("retrieveCheckoutMethod", method.StatusCode())

	// The card network opens a chargeback on the captured session.
	opened, err := sandbox.post(ctx, "/sandbox/v1/payment_sessions/"+sessionID+"/disputes", "{}")
	if err != nil {
		return err
	}
	disputeID, _ := opened["dispute_id"].(string)
	var disputeUUID openapi_types.UUID
	if err := disputeUUID.UnmarshalText([]byte(disputeID)); err != nil {
		return fmt.Errorf("the dispute helper answered no dispute_id: %v", opened)
	}

	// sample: retrieveDispute
	dispute, err := client.RetrieveDisputeWithResponse(ctx, disputeUUID)
	if err != nil {
		return err
	}
	if dispute.JSON200 == nil {
		return fmt.Errorf("retrieve dispute answered %d: %s", dispute.StatusCode(), dispute.Body)
	}
	state, _ := dispute.JSON200.State.AsDisputeState0()
	fmt.Printf("dispute %s: %s, %d cents\n", disputeID, state, dispute.JSON200.Amount)
	fmt.Println("respond by", dispute.JSON200.DueBy)
	// end sample
	statuses.record("retrieveDispute", dispute.StatusCode())

	// sample: listDisputes
	records, err := client.ListDisputesWithResponse(ctx)
	if err != nil {
		return err
	}
	if records.JSON200 == nil {
		return fmt.Errorf("list disputes answered %d: %s", records.StatusCode(), records.Body)
	}
	for _, each := range records.JSON200.Data {
		fmt.Println(each.Id, each.State, each.Amount, each.Currency)
	}
	// end sample
	statuses.record("listDisputes", records.StatusCode())

	// sample: retrieveDisputeRecord
	record, err := client.RetrieveDisputeRecordWithResponse(ctx, disputeID)
	if err != nil {
		return err
	}
	if record.JSON200 == nil {
		return fmt.Errorf("retrieve dispute record answered %d: %s", record.StatusCode(), record.Body)
	}
	fmt.Println(record.JSON200.ChargeId, record.JSON200.Reason, record.JSON200.State)
	// end sample
	statuses.record("retrieveDisputeRecord", record.StatusCode())

	// sample: acceptDispute
	accepted, err := client.AcceptDisputeWithResponse(ctx, disputeID,
		checkoutapi.AcceptDisputeRequest{})
	if err != nil {
		return err
	}
	if accepted.JSON200 == nil {
		return fmt.Errorf("accept dispute answered %d: %s", accepted.StatusCode(), accepted.Body)
	}
	fmt.Println("dispute", disputeID, "accepted")
	// end sample
	statuses.record("acceptDispute", accepted.StatusCode())
	return nil
}

// createSession creates a session from a request with another idempotency key.
func createSession(ctx context.Context, client *checkoutapi.ClientWithResponses, request checkoutapi.CreatePaymentSessionRequest, key string) (string, error) {
	request.IdempotencyKey = ptr(key)
	created, err := client.CreatePaymentSessionWithResponse(ctx, request)
	if err != nil {
		return "", err
	}
	if created.JSON200 == nil {
		return "", fmt.Errorf("create payment session answered %d: %s", created.StatusCode(), created.Body)
	}
	return created.JSON200.Id.String(), nil
}

// helpers calls the sandbox's test helpers: plain HTTP, with the key.
type helpers struct {
	http     *http.Client
	settings settings
}

func (h helpers) post(ctx context.Context, path, body string) (map[string]any, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.settings.baseURL+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("x-service-api-key", h.settings.apiKey)
	req.Header.Set("content-type", "application/json")
	res, err := h.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode/100 != 2 {
		return nil, fmt.Errorf("the sandbox helper %s answered %d: %s", path, res.StatusCode, text)
	}
	var answer map[string]any
	if err := json.Unmarshal(text, &answer); err != nil {
		return nil, fmt.Errorf("the sandbox helper %s answered no JSON object: %s", path, text)
	}
	return answer, nil
}
