#!/usr/bin/perl
# A partner's server code with OpenAPI::Client, which reads the OpenAPI 3.0 document at run time and
# makes one method per operationId: create an authorization session, complete its checkout through
# the sandbox's helper, capture part of it, refund part of it, list with a filter, retrieve it, read
# the error codes of a second capture and of a void from their 400 bodies, and tell each code or
# value the document lists from one a later version of the service added. Every answer is checked
# against the document, strictly (no type coercion).
#   perl flow.pl [openapi-3.0.json]
# It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
# PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
use strict;
use warnings;
use Mojo::JSON qw(encode_json);
use OpenAPI::Client;
use Time::HiRes ();

# Ends the program on one line: a wrong setting, a refused key, no sandbox.
sub fail {
  print STDERR "$_[0]\n";
  exit 2;
}

# The variable's value, or the default when it is unset or empty.
sub setting {
  my ($name, $default) = @_;
  return length($ENV{$name} // '') ? $ENV{$name} : $default;
}

sub base36 {
  my ($n, $digits) = (shift, '');
  do { $digits = (0 .. 9, 'a' .. 'z')[$n % 36] . $digits; $n = int($n / 36) } while $n > 0;
  return $digits;
}

# The settings, with the local sandbox's defaults (`npm start`, its development key), so that the
# program runs as copied. A wrong value ends it on one line.
my $base_url = setting(PARTNER_BASE_URL => 'http://127.0.0.1:4010');
my $api_key  = setting(PARTNER_API_KEY => 'sandbox-dev-key');
# Unique to each run: it goes into the idempotency keys, the email and the metadata.
my $run      = setting(PARTNER_RUN => base36(int(Time::HiRes::time() * 1000)));
fail("PARTNER_BASE_URL=$base_url is not an http(s) URL") unless $base_url =~ m{\Ahttps?://[^\s/?#]+(/[^\s?#]*)?\z};
fail("PARTNER_RUN=$run is not 1 to 64 letters, digits, - or _ (it goes into idempotency keys and an email)") unless $run =~ /\A[A-Za-z0-9][A-Za-z0-9_-]{0,63}\z/;
$base_url =~ s{/\z}{};
my $document = $ARGV[0] // 'openapi-3.0.json';
fail("flow.pl: no document at $document (the OpenAPI 3.0 companion, generated/openapi-3.0.json)") unless -f $document;

my $client = OpenAPI::Client->new($document, base_url => $base_url);
my %routes = map { ($_->{operation_id} => $_) } grep { $_->{operation_id} } $client->validator->routes->each;

# The API key is a security scheme, not a parameter: every request carries it.
$client->ua->on(start => sub {
  my ($ua, $tx) = @_;
  $tx->req->headers->header('x-service-api-key' => $api_key);
});

# Checks an answer against the document's schema for that operation and status, and returns what
# does not conform. The client validates requests only; this is the check of the answers. It runs
# without the validator's type coercion, which is on by default (for query and path parameters,
# which arrive as text) and would let a number pass where the document says string: an answer is
# JSON, and its types are checked as they are.
sub invalid_answer {
  my ($operation, $status, $body) = @_;
  my $validator = $client->validator;
  my $coerce    = $validator->coerce;
  $validator->coerce({});
  my @invalid = $validator->validate_response(
    [@{$routes{$operation}}{qw(method path)}, $status],
    {body => sub { {exists => 1, value => $body, accept => 'application/json'} }},
  );
  $validator->coerce($coerce);
  return @invalid;
}

# The check is really on: a body that breaks the document (a session without its required status
# and status_summary, a void refusal whose code is a number) must be refused, or the flow stops.
die "the answer check refuses nothing: it would pass any answer\n"
  unless invalid_answer(retrievePaymentSession => 200, {order_items => []})
  and invalid_answer(voidPaymentSession => 400, {error => 7, message => 'not a code'});

# Calls an operation, checks its answer against the document's schema for that status, and returns
# the status and the JSON body.
sub call {
  my ($operation, @args) = @_;
  my $tx = $client->call($operation => @args);
  my ($status, $body) = ($tx->res->code // 0, $tx->res->json);
  # A refused key, or no sandbox at that address, ends the program on one line.
  fail("Nothing answers at PARTNER_BASE_URL=$base_url (@{[$tx->error->{message}]}): is the sandbox running (npm start)?") unless $status;
  fail("PARTNER_API_KEY was refused (401): @{[$tx->res->body]}") if $status == 401;
  my @invalid = invalid_answer($operation, $status, $body);
  die "$operation answered $status with a body the document does not allow: @invalid\n" if @invalid;
  return ($status, $body);
}

# The values the document lists for an open enum (x-extensible-enum in the 3.0 companion): a
# schema's own, or those of one of its properties. Any other value is one a later version added.
sub documented {
  my ($schema, $property) = @_;
  my $pointer = "/components/schemas/$schema" . (defined $property ? "/properties/$property" : '') . '/x-extensible-enum';
  my $values  = $client->validator->get($pointer) or die "the document lists no values at $pointer\n";
  return {map { ($_ => 1) } @$values};
}

# Calls an operation that must succeed, and returns its JSON body.
sub call_ok {
  my ($status, $body) = call(@_);
  die "$_[0] answered $status: @{[encode_json($body)]}\n" unless $status >= 200 && $status < 300;
  return $body;
}

my %known_void_error     = %{documented(PaymentSessionVoidError => 'error')};
my %known_status_summary = %{documented('PaymentSessionStatusSummary')};
my %known_status         = %{documented('PaymentSessionStatus')};
my %known_kind           = %{documented('PaymentSessionKind')};

# Prints the line for a value this client does not know.
sub unknown {
  my ($what, $value) = @_;
  print qq{$what "$value" is not one this client knows: a later version of the service\n};
}

# Requests keep the documented values only (kind, reason and the status filter are closed enums);
# answers may carry values the document does not list.
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
# one of its codes.
my ($status, $error) = call(capturePaymentSession => {business_id => $id}, json => {total_amount => 1000, idempotency_key => "$run-capture-2"});
die "the second capture answered $status, not 400\n" unless $status == 400;
print "second capture refused: $error->{error} ($error->{message})\n";

# A void of the captured session answers 400 with a PaymentSessionVoidError.
my ($void_status, $void) = call(voidPaymentSession => {business_id => $id}, json => {idempotency_key => "$run-void"});
die "the void answered $void_status, not 400\n" unless $void_status == 400;
my $void_error_known = $known_void_error{$void->{error}} ? 1 : 0;
if    ($void->{error} eq 'SessionCaptured') { print "void refused: already captured, refund instead ($void->{message})\n" }
elsif ($void_error_known)                   { print "void refused: $void->{error} ($void->{message})\n" }
else                                        { unknown('void error', $void->{error}) }

my $status_summary_known = $known_status_summary{$session->{status_summary}} ? 1 : 0;
unknown(status_summary => $session->{status_summary}) unless $status_summary_known;
unknown(status => $session->{status}) unless $known_status{$session->{status}};
unknown(kind => $session->{kind}) if defined $session->{kind} and not $known_kind{$session->{kind}};

print "session $id is $session->{status} ($session->{status_summary})\n";
print 'PARTNER_RESULT ', encode_json({
  session_id           => $id,
  captured             => $session->{capture_amount},
  refund_id            => $refund->{refund_id},
  listed               => $listed ? \1 : \0,
  capture_error        => $error->{error},
  void_error           => $void->{error},
  void_error_known     => $void_error_known ? \1 : \0,
  status_summary       => $session->{status_summary},
  status_summary_known => $status_summary_known ? \1 : \0,
  # A string ("0.00") or a number (0): written as the decimal it is.
  service_fee          => defined $session->{service_fee} ? "$session->{service_fee}" : undef,
}), "\n";
