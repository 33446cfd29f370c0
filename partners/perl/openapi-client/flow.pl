#!/usr/bin/perl
# A partner's server code with OpenAPI::Client, which reads the OpenAPI 3.0 document at run time and
# makes one method per operationId: create an authorization session, complete its checkout through
# the sandbox's helper, capture part of it, refund part of it, list with a filter, and read
# capture's error code from its 400 body. Every answer is checked against the document.
#   perl flow.pl <openapi-3.0.json>
use strict;
use warnings;
use Mojo::JSON qw(encode_json);
use OpenAPI::Client;

my ($document) = @ARGV;
my $base_url   = $ENV{PARTNER_BASE_URL};
my $run        = $ENV{PARTNER_RUN};
my $client     = OpenAPI::Client->new($document, base_url => $base_url);
my %routes     = map { ($_->{operation_id} => $_) } grep { $_->{operation_id} } $client->validator->routes->each;

# The API key is a security scheme, not a parameter: every request carries it.
$client->ua->on(start => sub {
  my ($ua, $tx) = @_;
  $tx->req->headers->header('x-service-api-key' => $ENV{PARTNER_API_KEY});
});

# Calls an operation, checks its answer against the document's schema for that status (the client
# validates requests only), and returns the status and the JSON body.
sub call {
  my ($operation, @args) = @_;
  my $tx = $client->call($operation => @args);
  my ($status, $body) = ($tx->res->code // 0, $tx->res->json);
  my $route = $routes{$operation};
  my @invalid = $client->validator->validate_response(
    [@$route{qw(method path)}, $status],
    {body => sub { {exists => 1, value => $body, accept => 'application/json'} }},
  );
  die "$operation answered $status with a body the document does not allow: @invalid\n" if @invalid;
  return ($status, $body);
}

# Calls an operation that must succeed, and returns its JSON body.
sub call_ok {
  my ($status, $body) = call(@_);
  die "$_[0] answered $status: @{[encode_json($body)]}\n" unless $status >= 200 && $status < 300;
  return $body;
}

my $no_charges = {total_additional_charges => 0, total_discounts => 0};
my $created = call_ok(createPaymentSession => {}, json => {
  kind            => 'authorization',
  total_amount    => 5000,
  amount_details  => $no_charges,
  success_url     => 'https://partner.example/orders/{{payment_session_id}}/thanks',
  failure_url     => 'https://partner.example/orders/{{payment_session_id}}/failed',
  customer_email  => "$run\@partner.example",
  customer_name   => 'Partner Matrix',
  metadata        => $run,
  idempotency_key => "$run-create",
  order_items     => [{name => 'Blood pressure monitor', sku => 'BPM-200', quantity => 1, price => 5000, amount_details => $no_charges}],
});
my $id = $created->{id};

# The customer finishes the hosted checkout: in the sandbox, its helper does it.
my $completed = $client->ua->post("$base_url/sandbox/v1/payment_sessions/$id/complete_checkout" => json => {});
die "complete_checkout answered @{[$completed->res->code]}\n" unless $completed->res->is_success;

call_ok(capturePaymentSession => {business_id => $id}, json => {total_amount => 3000, idempotency_key => "$run-capture"});
my $refund  = call_ok(createRefund => {}, json => {payment_id => $id, amount => 1000, reason => 'customer_request', idempotency_key => "$run-refund"});
my $session = call_ok(retrievePaymentSession => {business_id => $id});
my $list    = call_ok(listPaymentSessions => {search => "$run\@partner.example", status => ['captured']});
my $listed  = grep { $_->{id} eq $id } @{$list->{payment_sessions}};

# A second capture answers 400 with a PaymentSessionCaptureError (checked above), whose `error` is
# an enum of codes.
my ($status, $error) = call(capturePaymentSession => {business_id => $id}, json => {total_amount => 1000, idempotency_key => "$run-capture-2"});
die "the second capture answered $status, not 400\n" unless $status == 400;

print "session $id is $session->{status}\n";
print 'PARTNER_RESULT ', encode_json({
  session_id    => $id,
  captured      => $session->{capture_amount},
  refund_id     => $refund->{refund_id},
  listed        => $listed ? \1 : \0,
  capture_error => $error->{error},
}), "\n";
