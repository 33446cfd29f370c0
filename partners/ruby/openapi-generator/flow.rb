# A partner's server code with the client openapi-generator's `ruby` generator made (Typhoeus):
# create an authorization session, complete its checkout through the sandbox's helper, capture
# part of it, refund part of it, list with a filter, retrieve it, read the error codes of a second
# capture and of a void, and tell a documented code or value from one the service added later.
#   ruby -I client/lib flow.rb
# It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
# PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
require 'json'
require 'net/http'
require 'partner_payments'

# The variable's value, or the default when it is unset or empty.
def setting(name, default)
  value = ENV.fetch(name, '')
  value.empty? ? default : value
end

# The settings, with the local sandbox's defaults (`npm start`, its development key), so that the
# program runs as copied. A wrong value ends it on one line (abort: on stderr, exit status 1).
base_text = setting('PARTNER_BASE_URL', 'http://127.0.0.1:4010')
api_key = setting('PARTNER_API_KEY', 'sandbox-dev-key')
# Unique to each run: it goes into the idempotency keys, the email and the metadata.
run = setting('PARTNER_RUN', (Time.now.to_f * 1000).to_i.to_s(36))
abort("PARTNER_BASE_URL=#{base_text} is not an http(s) URL") unless base_text.match?(%r{\Ahttps?://[^\s/?#]+(/[^\s?#]*)?\z})
abort("PARTNER_RUN=#{run} is not 1 to 64 letters, digits, - or _ (it goes into idempotency keys and an email)") unless run.match?(/\A[A-Za-z0-9][A-Za-z0-9_-]{0,63}\z/)
base_url = URI(base_text.chomp('/'))

PartnerPayments.configure do |config|
  config.scheme = base_url.scheme
  config.host = "#{base_url.host}:#{base_url.port}"
  config.api_key['x-service-api-key'] = api_key
end
sessions = PartnerPayments::PaymentSessionsApi.new
refunds = PartnerPayments::RefundsApi.new
no_charges = PartnerPayments::AmountDetails.new(total_additional_charges: 0, total_discounts: 0)

# Reads the 400 body of a refused call through the generated error model that the document names
# for it: the client raises ApiError with the raw body, and the model's `error` is the code as the
# service sent it (a String: the model does not check it against a list).
def refusal_code(model)
  yield
  raise "the call succeeded: a #{model} was expected"
rescue PartnerPayments::ApiError => e
  raise unless e.code == 400

  model.build_from_hash(JSON.parse(e.response_body, symbolize_names: true)).error
end

# Says so when a value is none of those this version of the contract lists: `known` is one of the
# generated enum classes of the 3.0 companion's <Schema>KnownValue schemas (see NOTES.md).
def known?(what, value, known)
  return true if known.all_vars.include?(value)

  puts "#{what} #{value.inspect} is not one this client knows: a later version of the service"
  false
end

# Requests name the closed *Input enums: what the partner sends is one of the documented values.
# A refused key, or no sandbox at that address, ends the program on one line.
begin
  created = sessions.create_payment_session(PartnerPayments::CreatePaymentSessionRequest.new(
    kind: PartnerPayments::PaymentSessionKindInput::AUTHORIZATION,
    total_amount: 5000,
    amount_details: no_charges,
    success_url: 'https://partner.example/orders/{{payment_session_id}}/thanks',
    failure_url: 'https://partner.example/orders/{{payment_session_id}}/failed',
    customer_email: "#{run}@partner.example",
    customer_name: 'Partner Matrix',
    metadata: run,
    idempotency_key: "#{run}-create",
    order_items: [PartnerPayments::OrderItemInput.new(name: 'Blood pressure monitor', sku: 'BPM-200', quantity: 1, price: 5000, amount_details: no_charges)]
  ))
rescue PartnerPayments::ApiError => e
  abort("PARTNER_API_KEY was refused (401): #{e.response_body}") if e.code == 401
  abort("Nothing answers at PARTNER_BASE_URL=#{base_url} (#{e.message.lines.first.strip}): is the sandbox running (npm start)?") if e.code.to_i.zero?
  raise
end
id = created.id

# The customer finishes the hosted checkout: in the sandbox, its helper does it.
completed = Net::HTTP.post(URI.join(base_url, "/sandbox/v1/payment_sessions/#{id}/complete_checkout"), '{}',
                           'content-type' => 'application/json', 'x-service-api-key' => api_key)
raise "complete_checkout answered #{completed.code}" unless completed.is_a?(Net::HTTPSuccess)

sessions.capture_payment_session(id, PartnerPayments::CapturePaymentSessionRequest.new(total_amount: 3000, idempotency_key: "#{run}-capture"))
refund = refunds.create_refund(PartnerPayments::CreateRefundRequest.new(
  payment_id: id, amount: 1000, reason: PartnerPayments::RefundReasonInput::CUSTOMER_REQUEST, idempotency_key: "#{run}-refund"
))
session = sessions.retrieve_payment_session(id)
list = sessions.list_payment_sessions(search: "#{run}@partner.example", status: [PartnerPayments::PaymentSessionStatusInput::CAPTURED])
listed = list.payment_sessions.any? { |item| item.id == id }

# A second capture and a void of the captured session.
capture_error = refusal_code(PartnerPayments::PaymentSessionCaptureError) do
  sessions.capture_payment_session(id, PartnerPayments::CapturePaymentSessionRequest.new(total_amount: 1000, idempotency_key: "#{run}-capture-2"))
end
puts 'the session was already captured: the first capture stands' if capture_error == PartnerPayments::PaymentSessionCaptureErrorErrorKnownValue::SESSION_CAPTURED
void_error = refusal_code(PartnerPayments::PaymentSessionVoidError) do
  sessions.void_payment_session(id, void_payment_session_request: PartnerPayments::VoidPaymentSessionRequest.new(idempotency_key: "#{run}-void"))
end
void_error_known = known?('void error', void_error, PartnerPayments::PaymentSessionVoidErrorErrorKnownValue)
puts 'the session is captured: it is refunded, not voided' if void_error == PartnerPayments::PaymentSessionVoidErrorErrorKnownValue::SESSION_CAPTURED

status_summary = session.status_summary
status_summary_known = known?('status_summary', status_summary, PartnerPayments::PaymentSessionStatusSummaryKnownValue)
# service_fee is a string or a number in the document; the client reads either as a decimal String
# (--schema-mappings ServiceFee=String).
service_fee = session.service_fee

puts "session #{id} is #{session.status} (#{status_summary}), service fee #{service_fee}"
puts "PARTNER_RESULT #{JSON.generate(
  session_id: id, captured: session.capture_amount, refund_id: refund.refund_id, listed: listed,
  capture_error: capture_error, void_error: void_error, void_error_known: void_error_known,
  status_summary: status_summary, status_summary_known: status_summary_known, service_fee: service_fee
)}"
