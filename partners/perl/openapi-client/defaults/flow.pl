#!/usr/bin/perl
# The short flow against OpenAPI::Client as it comes: it reads the document (the OpenAPI 3.0
# companion) at run time and makes one method per operationId, with no option but the base URL.
# Create an authorization session, pay it through the sandbox's helper, capture part of it, refund
# part of it, retrieve it, list it with a filter, capture again and read the 400's code, and read
# status_summary and service_fee. The client validates requests against the document and returns
# each answer's JSON as sent: nothing a later version adds can make it fail.
#   perl flow.pl [openapi-3.0.json]
# It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
# PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in milliseconds).
use strict;
use warnings;
use Mojo::JSON qw(encode_json);
use OpenAPI::Client;
use Time::HiRes ();

my $base_url = $ENV{PARTNER_BASE_URL} || 'http://127.0.0.1:4010';
my $api_key  = $ENV{PARTNER_API_KEY}  || 'sandbox-dev-key';
my $run      = $ENV{PARTNER_RUN}      || int(Time::HiRes::time() * 1000);
my $client   = OpenAPI::Client->new($ARGV[0] // 'openapi-3.0.json', base_url => $base_url);
# The API key is a security scheme, not a parameter: every request carries it.
$client->ua->on(start => sub { $_[1]->req->headers->header('x-service-api-key' => $api_key) });

# Calls an operation that must succeed, and returns its JSON body.
sub call_ok {
  my $tx = $client->call(@_);
  die "$_[0] answered @{[$tx->res->code // $tx->error->{message}]}: @{[$tx->res->body]}\n"
    unless $tx->res->is_success;
  return $tx->res->json;
}

my $no_charges = {total_additional_charges => 0, total_discounts => 0};
my $created = call_ok(createPaymentSession => {}, json => {
  kind            => 'authorization',
  total_amount    => 5000,
  amount_details  => $no_charges,
  success_url     => 'https://partner.example/thanks',
  failure_url     => 'https://partner.example/failed',
  customer_email  => "$run\@partner.example",
  customer_name   => 'Partner Defaults',
  metadata        => "$run",
  idempotency_key => "$run-create",
  order_items     => [
    {name => 'Thermometer', sku => 'TH-1', quantity => 1, price => 5000, amount_details => $no_charges},
  ],
});
my $id = $created->{id};

# The customer pays on the hosted page: the sandbox's helper (not in the published document).
my $paid = $client->ua->post("$base_url/sandbox/v1/payment_sessions/$id/complete_checkout" => json => {});
die "complete_checkout answered @{[$paid->res->code]}\n" unless $paid->res->is_success;

# A fresh parameters hash for each call: the client writes the request's body into the one it gets.
call_ok(capturePaymentSession => {business_id => $id}, json => {total_amount => 3000, idempotency_key => "$run-cap"});
my $refund = call_ok(createRefund => {}, json => {
  payment_id => $id, amount => 1000, reason => 'customer_request', idempotency_key => "$run-refund",
});
my $session = call_ok(retrievePaymentSession => {business_id => $id});
my $list    = call_ok(listPaymentSessions => {search => "$run\@partner.example", status => ['captured']});
my $listed  = grep { $_->{id} eq $id } @{$list->{payment_sessions}};

# A second capture answers 400: its body is the operation's error, whose `error` is the code as sent.
my $again = $client->call(
  capturePaymentSession => {business_id => $id},
  json => {total_amount => 1000, idempotency_key => "$run-cap-2"},
);
die "the second capture answered @{[$again->res->code]}, not 400\n" unless ($again->res->code // 0) == 400;

print 'PARTNER_DEFAULTS_RESULT ', encode_json({
  session_id     => $id,
  captured       => $session->{capture_amount},
  refund_id      => $refund->{refund_id},
  listed         => $listed ? \1 : \0,
  capture_error  => $again->res->json->{error},
  status_summary => $session->{status_summary},
  # A string ("0.00") or a number (0): written as the decimal it is.
  service_fee    => defined $session->{service_fee} ? "$session->{service_fee}" : undef,
}), "\n";
