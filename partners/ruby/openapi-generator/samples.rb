# Every operation of the contract, once, through the client openapi-generator's `ruby` generator
# made (Typhoeus). Each call stands between `# sample: <operationId>` and `# end sample`: the API
# reference shows that region as the operation's Ruby sample. What the customer, the clinician and
# the card network do is played by the sandbox's helpers (/sandbox/v1/…), outside the regions.
#   ruby -I client/lib samples.rb
# It reads PARTNER_BASE_URL (default http://127.0.0.1:4010), PARTNER_API_KEY (default
# sandbox-dev-key) and PARTNER_RUN (default: the time in base 36; it makes keys, emails and skus
# unique), and ends on `PARTNER_SAMPLES {"<operationId>": <HTTP status>, …}`.
require 'json'
require 'net/http'
require 'partner_payments'

# A variable of the environment, or its default; a wrong value stops the program with one line.
def setting(name, default, pattern, expected)
  value = ENV.fetch(name, '')
  value = default if value.empty?
  return value if value.match?(pattern)

  warn "#{name}=#{value} is not #{expected}"
  exit 2
end
base_url = URI(setting('PARTNER_BASE_URL', 'http://127.0.0.1:4010', %r{\Ahttps?://[^\s/?#]+(/[^\s?#]*)?\z}, 'an http(s) URL'))
api_key = setting('PARTNER_API_KEY', 'sandbox-dev-key', /\A[\x21-\x7e]+\z/, 'an API key (printable characters, no spaces)')
run = setting('PARTNER_RUN', Time.now.to_i.to_s(36), /\A[A-Za-z0-9][A-Za-z0-9._-]{0,63}\z/, 'a run name (letters, digits, ".", "_" or "-", at most 64)')

# The status of each operation's answer, as the client's HTTP library (Typhoeus) saw it.
last_status = nil
statuses = {}
Typhoeus.on_complete { |response| last_status = response.code }
answered = lambda do |operation_id|
  raise "the sample of #{operation_id} sent no request" if last_status.nil?

  statuses[operation_id] = last_status
  last_status = nil
end

PartnerPayments.configure do |config|
  config.scheme = base_url.scheme
  config.host = "#{base_url.host}:#{base_url.port}"
  config.base_path = base_url.path
  config.api_key['x-service-api-key'] = api_key
end
payment_sessions = PartnerPayments::PaymentSessionsApi.new
refunds = PartnerPayments::RefundsApi.new
payment_tokens = PartnerPayments::PaymentTokensApi.new
eligibility = PartnerPayments::EligibilityApi.new
catalog = PartnerPayments::ProductCatalogApi.new
disputes = PartnerPayments::DisputesApi.new

# The sandbox's helpers play the customer, the clinician and the card network: plain HTTP.
helper = lambda do |path, body = {}|
  response = Net::HTTP.post(URI("#{base_url.to_s.chomp('/')}#{path}"), JSON.generate(body),
                            'content-type' => 'application/json', 'x-service-api-key' => api_key)
  raise "POST #{path} answered #{response.code}: #{response.body}" unless response.code == '200'

  JSON.parse(response.body)
end
email = "samples-#{run}@partner.example"
# An authorization hold of $20 on a thermometer, as the create sample makes one.
authorization = lambda do |key|
  no_charges = PartnerPayments::AmountDetails.new(total_additional_charges: 0, total_discounts: 0)
  payment_sessions.create_payment_session(PartnerPayments::CreatePaymentSessionRequest.new(
    kind: PartnerPayments::PaymentSessionKindInput::AUTHORIZATION, total_amount: 2000, amount_details: no_charges,
    success_url: 'https://shop.example/orders/{{payment_session_id}}/paid',
    failure_url: 'https://shop.example/orders/{{payment_session_id}}/failed',
    customer_email: email, idempotency_key: key,
    order_items: [PartnerPayments::OrderItemInput.new(name: 'Digital thermometer', sku: 'TH-10', quantity: 1, price: 2000, amount_details: no_charges)]
  )).id
end

begin
  # sample: createPaymentSession
  no_charges = PartnerPayments::AmountDetails.new(total_additional_charges: 0, total_discounts: 0)
  created = payment_sessions.create_payment_session(PartnerPayments::CreatePaymentSessionRequest.new(
    kind: PartnerPayments::PaymentSessionKindInput::AUTHORIZATION,
    total_amount: 5000,
    amount_details: no_charges,
    success_url: 'https://shop.example/orders/{{payment_session_id}}/paid',
    failure_url: 'https://shop.example/orders/{{payment_session_id}}/failed',
    customer_email: email,
    idempotency_key: "order-1001-#{run}",
    order_items: [PartnerPayments::OrderItemInput.new(name: 'Blood pressure monitor', sku: 'BPM-200', quantity: 1, price: 5000, amount_details: no_charges)]
  ))
  session_id = created.id
  puts "send the customer to #{created.redirect_url}"
  # end sample
  answered.call('createPaymentSession')

  # The customer completes the hosted checkout: the hold is placed.
  helper.call("/sandbox/v1/payment_sessions/#{session_id}/complete_checkout")

  # sample: retrievePaymentSession
  session = payment_sessions.retrieve_payment_session(session_id)
  puts "session #{session.id}: #{session.status} (#{session.status_summary})"
  # end sample
  answered.call('retrievePaymentSession')

  # sample: listPaymentSessions
  page = payment_sessions.list_payment_sessions(page_size: 10, search: email)
  page.payment_sessions.each { |item| puts "#{item.id} #{item.status} #{item.total_amount}" }
  puts "#{page.pagination.count} sessions"
  # end sample
  answered.call('listPaymentSessions')

  # sample: capturePaymentSession
  begin
    capture = payment_sessions.capture_payment_session(session_id, PartnerPayments::CapturePaymentSessionRequest.new(
      total_amount: 3000, idempotency_key: "capture-1001-#{run}"
    ))
    puts "captured: #{capture.id}"
  rescue PartnerPayments::ApiError => e
    raise unless e.code == 400

    # A 400's body is the operation's error model; its `error` says why (SessionExpired, …).
    refusal = PartnerPayments::PaymentSessionCaptureError.build_from_hash(JSON.parse(e.response_body, symbolize_names: true))
    puts "capture refused: #{refusal.error}"
  end
  # end sample
  answered.call('capturePaymentSession')

  # sample: createRefund
  refund = refunds.create_refund(PartnerPayments::CreateRefundRequest.new(
    payment_id: session_id,
    amount: 1000,
    reason: PartnerPayments::RefundReasonInput::CUSTOMER_REQUEST,
    idempotency_key: "refund-1001-#{run}"
  ))
  puts "refund #{refund.refund_id}"
  # end sample
  answered.call('createRefund')

  # A second session, which the customer abandons.
  abandoned_id = authorization.call("order-1002-#{run}")

  # sample: cancelPaymentSession
  canceled = payment_sessions.cancel_payment_session(abandoned_id)
  puts "session #{canceled.id} is #{canceled.status}"
  # end sample
  answered.call('cancelPaymentSession')

  # A third session, authorized, whose order is then called off.
  held_id = authorization.call("order-1003-#{run}")
  helper.call("/sandbox/v1/payment_sessions/#{held_id}/complete_checkout")

  # sample: voidPaymentSession
  void = payment_sessions.void_payment_session(held_id, void_payment_session_request:
    PartnerPayments::VoidPaymentSessionRequest.new(idempotency_key: "void-1003-#{run}"))
  puts "hold released: #{void.id}"
  # end sample
  answered.call('voidPaymentSession')

  # sample: createPaymentToken
  setup = payment_tokens.create_payment_token(PartnerPayments::CreatePaymentTokenRequest.new(
    success_url: 'https://shop.example/plan/ready',
    failure_url: 'https://shop.example/plan/failed',
    customer_email: "plan-#{run}@partner.example",
    idempotency_key: "plan-#{run}"
  ))
  provision_request_id = setup.provision_token_request_id
  puts "send the customer to #{setup.redirect_url}"
  # end sample
  answered.call('createPaymentToken')

  # The customer finishes the setup page, and the clinician approves the letter.
  helper.call("/sandbox/v1/provision_requests/#{provision_request_id}/complete", letter: 'approved')

  # sample: retrieveProvisionTokenRequest
  provision_request = payment_tokens.retrieve_provision_token_request(provision_request_id)
  payment_token = provision_request.payment_token # nil until the token is issued
  puts "payment token: #{payment_token}"
  # end sample
  answered.call('retrieveProvisionTokenRequest')

  # sample: retrieveProvisionRequestEligibility
  answer = eligibility.retrieve_provision_request_eligibility(provision_request_id)
  puts "eligibility #{answer.eligibility_status}, letter valid through #{answer.lmn_expires_at}"
  puts "chargeable items: #{answer.items.join(', ')}"
  # end sample
  answered.call('retrieveProvisionRequestEligibility')

  # sample: listPaymentTokens
  tokens = payment_tokens.list_payment_tokens(page_size: 10, email: "plan-#{run}@partner.example")
  tokens.payment_tokens.each { |token| puts "#{token.payment_token} #{token.customer_email}" }
  # end sample
  answered.call('listPaymentTokens')

  # sample: retrievePaymentToken
  token = payment_tokens.retrieve_payment_token(payment_token)
  token.payment_methods.each { |card| puts "card ending #{card.last4}, expires #{card.exp_month}/#{card.exp_year}" }
  # end sample
  answered.call('retrievePaymentToken')

  # sample: updatePaymentToken
  update = payment_tokens.update_payment_token(payment_token, PartnerPayments::UpdatePaymentTokenRequest.new(
    update_card_info: false,
    order_items: [PartnerPayments::OrderItemInput.new(
      name: 'Blood pressure monitor', sku: 'BPM-200', quantity: 1, price: 5000,
      amount_details: PartnerPayments::AmountDetails.new(total_additional_charges: 0, total_discounts: 0)
    )]
  ))
  unless update.next_action == PartnerPayments::PaymentTokenUpdateResponseNextActionKnownValue::NONE
    puts "the customer must act (#{update.next_action}): #{update.redirect_url}"
  end
  # end sample
  answered.call('updatePaymentToken')

  # sample: deletePaymentToken
  payment_tokens.delete_payment_token(payment_token)
  puts 'token deleted'
  # end sample
  answered.call('deletePaymentToken')

  # sample: createCatalogItem
  sku = "COLD-PACK-#{run}"
  catalog.create_catalog_item(PartnerPayments::CreateCatalogItemRequest.new(
    sku: sku, name: 'Cold pack', description: 'Reusable cold pack', image_urls: []
  ))
  puts "item #{sku} created, awaiting review"
  # end sample
  answered.call('createCatalogItem')

  # sample: updateCatalogItem
  catalog.update_catalog_item(PartnerPayments::UpdateCatalogItemRequest.new(
    sku: sku,
    name: 'Cold pack XL',
    description: 'Reusable cold pack, large',
    image_urls: [],
    url: 'https://shop.example/products/cold-pack-xl'
  ))
  # end sample
  answered.call('updateCatalogItem')

  # The service reviews the item.
  helper.call('/sandbox/v1/catalog/items/review', sku: sku, eligibility: 'eligible')

  # sample: retrieveCatalogItem
  item = catalog.retrieve_catalog_item(PartnerPayments::CatalogItemDetailRequest.new(sku: sku))
  puts "#{item.sku} #{item.name}: #{item.eligibility || 'awaiting review'}"
  # end sample
  answered.call('retrieveCatalogItem')

  # sample: listCatalogItems
  items = catalog.list_catalog_items(page_size: 50, eligibility: 'eligible')
  items.data.each { |entry| puts "#{entry.sku} #{entry.name}" }
  # end sample
  answered.call('listCatalogItems')

  # sample: retrieveCheckoutMethod
  method = catalog.retrieve_checkout_method # its fields are not documented: a Hash
  puts "checkout method: #{JSON.generate(method)}"
  # end sample
  answered.call('retrieveCheckoutMethod')

  # The card network opens a dispute on the captured session.
  dispute_id = helper.call("/sandbox/v1/payment_sessions/#{session_id}/disputes", reason: 'product_not_received')['dispute_id']

  # sample: retrieveDispute
  dispute = disputes.retrieve_dispute(dispute_id)
  puts "dispute #{dispute.dispute_id}: #{dispute.state}, #{dispute.amount} cents, respond by #{dispute.due_by.strftime('%F')}"
  # end sample
  answered.call('retrieveDispute')

  # sample: listDisputes
  list = disputes.list_disputes
  list.data.each { |record| puts "#{record.id} #{record.state} on #{record.charge_id}" }
  # end sample
  answered.call('listDisputes')

  # sample: retrieveDisputeRecord
  record = disputes.retrieve_dispute_record(dispute_id)
  puts "dispute #{record.id}: #{record.state}, #{record.reason}"
  # end sample
  answered.call('retrieveDisputeRecord')

  # sample: acceptDispute
  disputes.accept_dispute(dispute_id)
  puts 'dispute accepted: the amount goes back to the customer'
  # end sample
  answered.call('acceptDispute')
rescue StandardError => e
  # A failure is one line, not a stack trace: an answer's status and body, or what went wrong.
  answer = e.is_a?(PartnerPayments::ApiError) && e.code.to_i.positive? ? "HTTP #{e.code}: #{e.response_body}" : "#{e.message.lines.first.strip} (#{base_url})"
  abort "samples.rb: #{e.class}: #{answer}"
end

puts "PARTNER_SAMPLES #{JSON.generate(statuses)}"
