# A partner's server code with the client openapi-generator's `ruby` generator made (Typhoeus):
# create an authorization session, complete its checkout through the sandbox's helper, capture
# part of it, refund part of it, list with a filter, and read capture's error code.
#   ruby -I client/lib flow.rb
require 'json'
require 'net/http'
require 'partner_payments'

base_url = URI(ENV.fetch('PARTNER_BASE_URL'))
run = ENV.fetch('PARTNER_RUN')

PartnerPayments.configure do |config|
  config.scheme = base_url.scheme
  config.host = "#{base_url.host}:#{base_url.port}"
  config.api_key['x-service-api-key'] = ENV.fetch('PARTNER_API_KEY')
end
sessions = PartnerPayments::PaymentSessionsApi.new
refunds = PartnerPayments::RefundsApi.new
no_charges = PartnerPayments::AmountDetails.new(total_additional_charges: 0, total_discounts: 0)

created = sessions.create_payment_session(PartnerPayments::CreatePaymentSessionRequest.new(
  kind: PartnerPayments::PaymentSessionKind::AUTHORIZATION,
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
id = created.id

# The customer finishes the hosted checkout: in the sandbox, its helper does it.
completed = Net::HTTP.post(URI.join(base_url, "/sandbox/v1/payment_sessions/#{id}/complete_checkout"), '{}',
                           'content-type' => 'application/json', 'x-service-api-key' => ENV.fetch('PARTNER_API_KEY'))
raise "complete_checkout answered #{completed.code}" unless completed.is_a?(Net::HTTPSuccess)

sessions.capture_payment_session(id, PartnerPayments::CapturePaymentSessionRequest.new(total_amount: 3000, idempotency_key: "#{run}-capture"))
refund = refunds.create_refund(PartnerPayments::CreateRefundRequest.new(
  payment_id: id, amount: 1000, reason: PartnerPayments::RefundReason::CUSTOMER_REQUEST, idempotency_key: "#{run}-refund"
))
session = sessions.retrieve_payment_session(id)
list = sessions.list_payment_sessions(search: "#{run}@partner.example", status: [PartnerPayments::PaymentSessionStatus::CAPTURED])
listed = list.payment_sessions.any? { |item| item.id == id }

# A second capture: the client raises ApiError with the raw body, which the generated
# PaymentSessionCaptureError reads; its error code is one of its enum values.
capture_error = begin
  sessions.capture_payment_session(id, PartnerPayments::CapturePaymentSessionRequest.new(total_amount: 1000, idempotency_key: "#{run}-capture-2"))
  nil
rescue PartnerPayments::ApiError => e
  raise unless e.code == 400
  PartnerPayments::PaymentSessionCaptureError.build_from_hash(JSON.parse(e.response_body, symbolize_names: true)).error
end

puts "session #{id} is #{session.status}"
puts "PARTNER_RESULT #{JSON.generate(session_id: id, captured: session.capture_amount, refund_id: refund.refund_id, listed: listed, capture_error: capture_error)}"
