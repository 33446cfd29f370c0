#!/usr/bin/env bash
# The curl sample of every operation of the contract, as the API reference shows it: each call
# stands between `# sample: <operationId>` and `# end sample`. Between the calls, the program reads
# the ids it needs from the answers, and plays the customer, the clinician and the card network
# with the sandbox's helpers (/sandbox/v1/…), which the real service does not have.
#
#   bash partners/curl/samples.sh
#
# It needs bash, curl and node (to read JSON). It reads PARTNER_BASE_URL (default
# http://127.0.0.1:4010, the sandbox of `npm start`), PARTNER_API_KEY (default sandbox-dev-key) and
# PARTNER_RUN (default: the time in base 36; it goes into idempotency keys, emails and skus, so that
# runs never collide), and ends on the line `PARTNER_SAMPLES {"<operationId>": <HTTP status>, …}`.
set -euo pipefail

BASE_URL=${PARTNER_BASE_URL:-http://127.0.0.1:4010}
API_KEY=${PARTNER_API_KEY:-sandbox-dev-key}
RUN=${PARTNER_RUN:-$(node -p 'Date.now().toString(36)')}
fail() { echo "$1" >&2; exit 2; }
[[ $BASE_URL =~ ^https?://[^/[:space:]]+(/[^[:space:]]*)?$ ]] || fail "PARTNER_BASE_URL=$BASE_URL is not an http(s) URL"
BASE_URL=${BASE_URL%/}
[[ -n $API_KEY ]] || fail "PARTNER_API_KEY is empty"
[[ $RUN =~ ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$ ]] || fail "PARTNER_RUN=$RUN is not 1 to 64 letters, digits, - or _ (it goes into emails and skus)"

# In this program `curl` keeps each answer's body in $answer and its HTTP status in $status; the
# samples themselves are plain curl commands, which print the answer.
answer=$(mktemp)
errors=$(mktemp)
trap 'rm -f "$answer" "$errors"' EXIT
curl() {
  status=$(command curl --silent --show-error --output "$answer" --write-out '%{http_code}' "$@" 2>"$errors") ||
    fail "Nothing answers at PARTNER_BASE_URL=$BASE_URL: is the sandbox running (npm start)? ($(head -c 200 "$errors"))"
}
statuses=()
# Records the status of the operation just called; any answer but 2xx ends the program, with it.
record() {
  [[ $status == 401 ]] && fail "PARTNER_API_KEY was refused (401): $(cat "$answer")"
  [[ $status == 2?? ]] || fail "$1 answered $status: $(cat "$answer")"
  statuses+=("\"$1\": $status")
}
# A field of the last answer, e.g. `field id` or `field data.0.id`.
field() {
  node -e 'let v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const key of process.argv[2].split(".")) v = v?.[key];
    if (v === undefined || v === null) { console.error(`the answer has no ${process.argv[2]}`); process.exit(1); }
    console.log(v);' "$answer" "$1"
}
# A sandbox helper: plain HTTP, outside the samples.
helper() {
  local body='{}'
  [[ $# -lt 2 ]] || body=$2
  curl -X POST "$BASE_URL$1" -H "x-service-api-key: $API_KEY" -H 'content-type: application/json' -d "$body"
  [[ $status == 200 ]] || fail "the helper $1 answered $status: $(cat "$answer")"
}
# A payment session for the calls that need one in another state.
new_session() {
  curl "$BASE_URL/payments/v1/create_payment_session" -H "x-service-api-key: $API_KEY" -H 'content-type: application/json' -d @- <<JSON
{"kind": "authorization", "total_amount": 2500, "amount_details": {"total_additional_charges": 0, "total_discounts": 0},
 "success_url": "https://partner.example/orders/$RUN/thanks", "failure_url": "https://partner.example/orders/$RUN/failed",
 "idempotency_key": "$RUN-$1", "order_items": [{"name": "Thermometer", "sku": "TH-10", "quantity": 1, "price": 2500,
 "amount_details": {"total_additional_charges": 0, "total_discounts": 0}}]}
JSON
  [[ $status == 200 ]] || fail "creating a session answered $status: $(cat "$answer")"
  field id
}

# A session: created, paid by the customer, read, listed, captured in part, refunded in part.
# sample: createPaymentSession
curl "$BASE_URL/payments/v1/create_payment_session" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d @- <<JSON
{
  "kind": "authorization",
  "total_amount": 5000,
  "amount_details": { "total_additional_charges": 0, "total_discounts": 0 },
  "success_url": "https://partner.example/orders/{{payment_session_id}}/thanks",
  "failure_url": "https://partner.example/orders/{{payment_session_id}}/failed",
  "customer_email": "jane-$RUN@partner.example",
  "idempotency_key": "order-$RUN",
  "order_items": [
    { "name": "Blood pressure monitor", "sku": "BPM-200", "quantity": 1, "price": 5000,
      "amount_details": { "total_additional_charges": 0, "total_discounts": 0 } }
  ]
}
JSON
# end sample
record createPaymentSession
SESSION_ID=$(field id)
helper "/sandbox/v1/payment_sessions/$SESSION_ID/complete_checkout"

# sample: retrievePaymentSession
curl "$BASE_URL/payments/v1/payment_session/$SESSION_ID" \
  -H "x-service-api-key: $API_KEY"
# end sample
record retrievePaymentSession

# sample: listPaymentSessions
curl "$BASE_URL/payments/v1/payment_sessions?search=jane-$RUN@partner.example&status=authorized&page_size=10" \
  -H "x-service-api-key: $API_KEY"
# end sample
record listPaymentSessions

# sample: capturePaymentSession
curl "$BASE_URL/payments/v1/payment_session/$SESSION_ID/capture" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d @- <<JSON
{ "total_amount": 3000, "idempotency_key": "capture-$RUN" }
JSON
# end sample
record capturePaymentSession

# sample: createRefund
curl "$BASE_URL/payments/v1/refund" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d @- <<JSON
{
  "payment_id": "$SESSION_ID",
  "amount": 1000,
  "reason": "customer_request",
  "idempotency_key": "refund-$RUN"
}
JSON
# end sample
record createRefund

# A session the customer has not paid yet, canceled.
PENDING_ID=$(new_session pending)
# sample: cancelPaymentSession
curl -X POST "$BASE_URL/payments/v1/payment_session/$PENDING_ID/cancel" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d '{}'
# end sample
record cancelPaymentSession

# An authorization, voided.
AUTHORIZED_ID=$(new_session authorized)
helper "/sandbox/v1/payment_sessions/$AUTHORIZED_ID/complete_checkout"
# sample: voidPaymentSession
curl "$BASE_URL/payments/v1/payment_session/$AUTHORIZED_ID/void" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d @- <<JSON
{ "idempotency_key": "void-$RUN" }
JSON
# end sample
record voidPaymentSession

# A payment token: created, set up by the customer, read, listed, updated, deleted.
# sample: createPaymentToken
curl "$BASE_URL/api/v1/payment_tokens/create" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d @- <<JSON
{
  "customer_email": "sam-$RUN@partner.example",
  "customer_name": "Sam Doe",
  "success_url": "https://partner.example/plan/ok",
  "failure_url": "https://partner.example/plan/failed",
  "metadata": "plan-monthly"
}
JSON
# end sample
record createPaymentToken
REQUEST_ID=$(field provision_token_request_id)
helper "/sandbox/v1/provision_requests/$REQUEST_ID/complete" '{"letter": "approved"}'

# sample: retrieveProvisionTokenRequest
curl "$BASE_URL/api/v1/payment_tokens/provision_request/$REQUEST_ID" \
  -H "x-service-api-key: $API_KEY"
# end sample
record retrieveProvisionTokenRequest
PAYMENT_TOKEN=$(field payment_token)

# sample: retrieveProvisionRequestEligibility
curl "$BASE_URL/api/v1/eligibility/provision_request/$REQUEST_ID" \
  -H "x-service-api-key: $API_KEY"
# end sample
record retrieveProvisionRequestEligibility

# sample: listPaymentTokens
curl "$BASE_URL/api/v1/payment_tokens?email=sam-$RUN@partner.example" \
  -H "x-service-api-key: $API_KEY"
# end sample
record listPaymentTokens

# sample: retrievePaymentToken
curl "$BASE_URL/api/v1/payment_tokens/$PAYMENT_TOKEN" \
  -H "x-service-api-key: $API_KEY"
# end sample
record retrievePaymentToken

# sample: updatePaymentToken
curl "$BASE_URL/api/v1/payment_tokens/$PAYMENT_TOKEN/update" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d '{ "update_card_info": true }'
# end sample
record updatePaymentToken

# sample: deletePaymentToken
curl -X POST "$BASE_URL/api/v1/payment_tokens/$PAYMENT_TOKEN/delete" \
  -H "x-service-api-key: $API_KEY"
# end sample
record deletePaymentToken

# The catalog: an item created, updated, read and listed; the checkout method.
# sample: createCatalogItem
curl "$BASE_URL/api/v1/product_catalog/items/create" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d @- <<JSON
{ "sku": "TH-$RUN", "name": "Digital thermometer" }
JSON
# end sample
record createCatalogItem

# sample: updateCatalogItem
curl "$BASE_URL/api/v1/product_catalog/items/update" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d @- <<JSON
{
  "sku": "TH-$RUN",
  "name": "Digital thermometer",
  "description": "Reads in 8 seconds.",
  "image_urls": ["https://partner.example/images/th.jpg"],
  "url": "https://partner.example/products/th"
}
JSON
# end sample
record updateCatalogItem

# sample: retrieveCatalogItem
curl "$BASE_URL/api/v1/product_catalog/items/detail" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d @- <<JSON
{ "sku": "TH-$RUN" }
JSON
# end sample
record retrieveCatalogItem

# sample: listCatalogItems
curl "$BASE_URL/api/v1/product_catalog/items/list?page_size=20" \
  -H "x-service-api-key: $API_KEY"
# end sample
record listCatalogItems

# sample: retrieveCheckoutMethod
curl "$BASE_URL/api/v1/product_catalog/service_checkout_method" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d '{}'
# end sample
record retrieveCheckoutMethod

# A dispute, opened by the card network on the captured session: read both ways, listed, accepted.
helper "/sandbox/v1/payment_sessions/$SESSION_ID/disputes"
DISPUTE_ID=$(field dispute_id)

# sample: retrieveDispute
curl "$BASE_URL/api/v1/disputes/$DISPUTE_ID" \
  -H "x-service-api-key: $API_KEY"
# end sample
record retrieveDispute

# sample: listDisputes
curl "$BASE_URL/v1/disputes" \
  -H "x-service-api-key: $API_KEY"
# end sample
record listDisputes

# sample: retrieveDisputeRecord
curl "$BASE_URL/v1/disputes/$DISPUTE_ID" \
  -H "x-service-api-key: $API_KEY"
# end sample
record retrieveDisputeRecord

# sample: acceptDispute
curl "$BASE_URL/v1/disputes/$DISPUTE_ID/accept" \
  -H "x-service-api-key: $API_KEY" \
  -H 'content-type: application/json' \
  -d '{}'
# end sample
record acceptDispute

joined=$(IFS=,; echo "${statuses[*]}")
echo "PARTNER_SAMPLES {${joined//,/, }}"
