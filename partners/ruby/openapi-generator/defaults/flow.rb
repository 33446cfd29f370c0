# The short flow against the client that openapi-generator's `ruby` generator writes with its
# defaults (Typhoeus, gem openapi_client, module OpenapiClient) from the OpenAPI 3.0 companion:
# create an authorization session, complete its checkout through the sandbox's helper, capture part
# of it, refund part of it, list it with a filter, retrieve it, and read the error code of a second
# capture, status_summary and service_fee as the service sent them.
#   ruby -I client/lib flow.rb
# It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
# PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
require 'json'
require 'net/http'
require 'openapi_client'

def setting(name, default)
  value = ENV.fetch(name, '')
  value.empty? ? default : value
end

base_url = URI(setting('PARTNER_BASE_URL', 'http://127.0.0.1:4010').chomp('/'))
api_key = setting('PARTNER_API_KEY', 'sandbox-dev-key')
run = setting('PARTNER_RUN', (Time.now.to_f * 1000).to_i.to_s(36))
email = "#{run}@partner.example"

# The client sends the document's apiKey scheme (x-service-api-key) from its configuration.
OpenapiClient.configure do |config|
  config.scheme = base_url.scheme
  config.host = "#{base_url.host}:#{base_url.port}"
  config.api_key['x-service-api-key'] = api_key
end
sessions = OpenapiClient::PaymentSessionsApi.new
no_charges = OpenapiClient::AmountDetails.new(total_additional_charges: 0, total_discounts: 0)

created = sessions.create_payment_session(OpenapiClient::CreatePaymentSessionRequest.new(
  kind: OpenapiClient::PaymentSessionKindInput::AUTHORIZATION,
  total_amount: 5000,
  amount_details: no_charges,
  success_url: 'https://partner.example/thanks',
  failure_url: 'https://partner.example/failed',
  customer_email: email,
  metadata: run,
  idempotency_key: "#{run}-create",
  order_items: [OpenapiClient::OrderItemInput.new(name: 'Blood pressure monitor', sku: 'BPM-200', quantity: 1, price: 5000, amount_details: no_charges)]
))
id = created.id

# The customer's checkout, played by the sandbox's helper (not in the published document).
completed = Net::HTTP.post(URI.join(base_url, "/sandbox/v1/payment_sessions/#{id}/complete_checkout"), '{}',
                           'content-type' => 'application/json', 'x-service-api-key' => api_key)
raise "complete_checkout answered #{completed.code}" unless completed.is_a?(Net::HTTPSuccess)

sessions.capture_payment_session(id, OpenapiClient::CapturePaymentSessionRequest.new(total_amount: 3000, idempotency_key: "#{run}-capture"))
refund = OpenapiClient::RefundsApi.new.create_refund(OpenapiClient::CreateRefundRequest.new(
  payment_id: id, amount: 1000, reason: OpenapiClient::RefundReasonInput::CUSTOMER_REQUEST, idempotency_key: "#{run}-refund"
))
list = sessions.list_payment_sessions(search: email, status: [OpenapiClient::PaymentSessionStatusInput::CAPTURED])
listed = list.payment_sessions.any? { |item| item.id == id }
session = sessions.retrieve_payment_session(id)

# A second capture answers 400: an ApiError with the body as text, read into the operation's error model.
capture_error = begin
  sessions.capture_payment_session(id, OpenapiClient::CapturePaymentSessionRequest.new(total_amount: 1000, idempotency_key: "#{run}-capture-2"))
  raise 'the second capture answered 2xx; a 400 was expected'
rescue OpenapiClient::ApiError => e
  raise unless e.code == 400

  OpenapiClient::PaymentSessionCaptureError.build_from_hash(JSON.parse(e.response_body, symbolize_names: true)).error
end

# The companion states no type for service_fee (a string or a number): an Object, as JSON gave it.
service_fee = session.service_fee
puts "PARTNER_DEFAULTS_RESULT #{JSON.generate(
  session_id: id, captured: session.capture_amount, refund_id: refund.refund_id, listed: listed,
  capture_error: capture_error, status_summary: session.status_summary, service_fee: service_fee&.to_s
)}"
