# Verifies a signed webhook with OpenSSL::HMAC: x-service-signature is `t=<unix>,v0=<hex>`, the hex
# an HMAC-SHA256 of `<t>.<raw body>` under the endpoint's secret. Exit 0 and print the event type
# when it verifies; exit 1 otherwise. An event type that none of the contract's webhooks has (one a
# later version of the service sends) is verified, said to be ignored, and still exits 0: a receiver
# answers 204 and moves on. Properties it does not know are left alone.
#   ruby verify-webhook.rb <body file> <x-service-signature> <secret>
require 'json'
require 'openssl'

def verify_webhook(raw_body, header, secret, tolerance: 300)
  entries = header.split(',').map { |part| part.strip.split('=', 2) }
  t = entries.find { |key, _| key == 't' }&.last
  signatures = entries.select { |key, value| key == 'v0' && value }.map(&:last)
  return false unless t&.match?(/\A\d+\z/) && !signatures.empty?
  return false if (Time.now.to_i - t.to_i).abs > tolerance

  expected = OpenSSL::HMAC.hexdigest('SHA256', secret, "#{t}.#{raw_body}")
  signatures.any? { |hex| hex.bytesize == expected.bytesize && OpenSSL.fixed_length_secure_compare(hex, expected) }
end

body_file, header, secret = ARGV
body = File.binread(body_file)
unless verify_webhook(body, header.to_s, secret.to_s)
  warn 'signature does not verify'
  exit 1
end
# The event types of the contract's webhooks.
KNOWN_EVENT_TYPES = %w[
  payment_session_complete payment_token_updated payment_token.updated product_catalog.item.eligibility_updated
  dispute.created dispute.updated dispute.closed dispute.evidence_submitted
].freeze
event = JSON.parse(body)
event_type = event.is_a?(Hash) && event['event_type'].is_a?(String) ? event['event_type'] : '(no event_type)'
puts "verified #{event_type}"
puts "ignored unknown event type #{event_type}" unless KNOWN_EVENT_TYPES.include?(event_type)
