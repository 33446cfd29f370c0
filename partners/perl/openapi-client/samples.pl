#!/usr/bin/perl
# Every operation of the contract, once, through OpenAPI::Client, which reads the OpenAPI 3.0
# document at run time, makes one method per operationId and validates each request against it.
# Each call stands between `# sample: <operationId>` and `# end sample`: the API reference shows
# that region as the operation's Perl sample. Each answer is checked against the document after
# its sample, as the flow checks them. What the customer, the clinician and the card network do is
# played by the sandbox's helpers (/sandbox/v1/…), outside the regions.
#   perl samples.pl [openapi-3.0.json]
# It reads PARTNER_BASE_URL (default http://127.0.0.1:4010), PARTNER_API_KEY (default
# sandbox-dev-key) and PARTNER_RUN (default: the time in base 36; it makes keys, emails and skus
# unique), and ends on `PARTNER_SAMPLES {"<operationId>": <HTTP status>, …}`.
use strict;
use warnings;
use Mojo::JSON qw(encode_json false);
use OpenAPI::Client;

# A variable of the environment, or its default; a wrong value stops the program with one line.
sub setting {
  my ($name, $default, $pattern, $expected) = @_;
  my $value = length($ENV{$name} // '') ? $ENV{$name} : $default;
  return $value if $value =~ $pattern;
  print STDERR "$name=$value is not $expected\n";
  exit 2;
}
my $base_url = setting(PARTNER_BASE_URL => 'http://127.0.0.1:4010', qr{\Ahttps?://[^\s/?#]+(/[^\s?#]*)?\z}, 'an http(s) URL') =~ s{/\z}{}r;
my $api_key  = setting(PARTNER_API_KEY => 'sandbox-dev-key', qr{\A[\x21-\x7e]+\z}, 'an API key (printable characters, no spaces)');
my $run      = setting(PARTNER_RUN => base36(time), qr{\A[A-Za-z0-9][A-Za-z0-9._-]{0,63}\z}, 'a run name (letters, digits, ".", "_" or "-", at most 64)');
my $document = $ARGV[0] // 'openapi-3.0.json';
die "samples.pl: no document at $document (the OpenAPI 3.0 companion, generated/openapi-3.0.json)\n" unless -f $document;

sub base36 {
  my ($n, $digits) = (shift, '');
  do { $digits = (0 .. 9, 'a' .. 'z')[$n % 36] . $digits; $n = int($n / 36) } while $n > 0;
  return $digits;
}

my $client = OpenAPI::Client->new($document, base_url => $base_url);
my %routes = map { ($_->{operation_id} => $_) } grep { $_->{operation_id} } $client->validator->routes->each;

# The API key is a security scheme, not a parameter: every request carries it.
$client->ua->on(start => sub {
  my ($ua, $tx) = @_;
  $tx->req->headers->header('x-service-api-key' => $api_key);
});

# Checks an answer against the document's schema for that operation and status, and returns what
# does not conform: the client validates requests only. Without the validator's type coercion (on
# by default, for parameters, which arrive as text): an answer is JSON, and its types are checked
# as they are.
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
die "samples.pl: the answer check refuses nothing: it would pass any answer\n"
  unless invalid_answer(retrievePaymentSession => 200, {order_items => []});

# The last call the client built, and each operation's status once its answer passed the check, in
# the order of the calls.
my ($last_tx, @statuses);
$client->on(after_build_tx => sub { $last_tx = $_[1] });
sub answered {
  my ($operation) = @_;
  my $tx = $last_tx or die "samples.pl: the sample of $operation sent no request\n";
  undef $last_tx;
  my $called = $tx->req->env->{operationId};
  die "samples.pl: the sample of $operation called $called\n" unless $called eq $operation;
  my $status = $tx->res->code // 0;
  my @invalid = invalid_answer($operation, $status, $tx->res->json);
  die "samples.pl: $operation answered $status with a body the document does not allow: @invalid\n" if @invalid;
  push @statuses, encode_json($operation) . ':' . (0 + $status);
}

# The sandbox's helpers play the customer, the clinician and the card network: plain HTTP.
sub helper {
  my ($path, $body) = @_;
  my $res = $client->ua->post("$base_url$path" => json => $body // {})->res;
  die "samples.pl: POST $path answered @{[$res->code // 'nothing']}: @{[$res->body]}\n" unless ($res->code // 0) == 200;
  return $res->json;
}
my $email = "samples-$run\@partner.example";
# An authorization hold of $20 on a thermometer, as the create sample makes one.
sub authorization {
  my ($key) = @_;
  my $no_charges = {total_additional_charges => 0, total_discounts => 0};
  my $tx = $client->createPaymentSession({}, json => {
    kind => 'authorization', total_amount => 2000, amount_details => $no_charges,
    success_url => 'https://shop.example/orders/{{payment_session_id}}/paid',
    failure_url => 'https://shop.example/orders/{{payment_session_id}}/failed',
    customer_email => $email, idempotency_key => $key,
    order_items => [{name => 'Digital thermometer', sku => 'TH-10', quantity => 1, price => 2000, amount_details => $no_charges}],
  });
  die 'samples.pl: createPaymentSession: ', ($tx->res->body || $tx->error->{message}), "\n" if $tx->error;
  return $tx->res->json->{id};
}

# sample: createPaymentSession
my $no_charges = {total_additional_charges => 0, total_discounts => 0};
my $create = $client->createPaymentSession({}, json => {
  kind            => 'authorization',
  total_amount    => 5000,
  amount_details  => $no_charges,
  success_url     => 'https://shop.example/orders/{{payment_session_id}}/paid',
  failure_url     => 'https://shop.example/orders/{{payment_session_id}}/failed',
  customer_email  => $email,
  idempotency_key => "order-1001-$run",
  order_items     => [{name => 'Blood pressure monitor', sku => 'BPM-200', quantity => 1, price => 5000, amount_details => $no_charges}],
});
die 'createPaymentSession: ', ($create->res->body || $create->error->{message}), "\n" if $create->error;
my $created    = $create->res->json;
my $session_id = $created->{id};
print "send the customer to $created->{redirect_url}\n";
# end sample
answered('createPaymentSession');

# The customer completes the hosted checkout: the hold is placed.
helper("/sandbox/v1/payment_sessions/$session_id/complete_checkout");

# sample: retrievePaymentSession
my $retrieve = $client->retrievePaymentSession({business_id => $session_id});
die 'retrievePaymentSession: ', ($retrieve->res->body || $retrieve->error->{message}), "\n" if $retrieve->error;
my $session = $retrieve->res->json;
print "session $session->{id}: $session->{status} ($session->{status_summary})\n";
# end sample
answered('retrievePaymentSession');

# sample: listPaymentSessions
my $list = $client->listPaymentSessions({page_size => 10, search => $email});
die 'listPaymentSessions: ', ($list->res->body || $list->error->{message}), "\n" if $list->error;
my $page = $list->res->json;
print "$_->{id} $_->{status} $_->{total_amount}\n" for @{$page->{payment_sessions}};
print "$page->{pagination}{count} sessions\n";
# end sample
answered('listPaymentSessions');

# sample: capturePaymentSession
my $capture = $client->capturePaymentSession({business_id => $session_id}, json => {
  total_amount    => 3000,
  idempotency_key => "capture-1001-$run",
});
if (($capture->res->code // 0) == 400) {
  # The body is the operation's error: its `error` says why (SessionExpired, …).
  print "capture refused: @{[$capture->res->json->{error}]}\n";
}
elsif ($capture->error) { die 'capturePaymentSession: ', ($capture->res->body || $capture->error->{message}), "\n" }
else                    { print "captured: @{[$capture->res->json->{id}]}\n" }
# end sample
answered('capturePaymentSession');

# sample: createRefund
my $refund = $client->createRefund({}, json => {
  payment_id      => $session_id,
  amount          => 1000,
  reason          => 'customer_request',
  idempotency_key => "refund-1001-$run",
});
die 'createRefund: ', ($refund->res->body || $refund->error->{message}), "\n" if $refund->error;
print "refund @{[$refund->res->json->{refund_id}]}\n";
# end sample
answered('createRefund');

# A second session, which the customer abandons.
my $abandoned_id = authorization("order-1002-$run");

# sample: cancelPaymentSession
my $cancel = $client->cancelPaymentSession({business_id => $abandoned_id});
die 'cancelPaymentSession: ', ($cancel->res->body || $cancel->error->{message}), "\n" if $cancel->error;
my $canceled = $cancel->res->json;
print "session $canceled->{id} is $canceled->{status}\n";
# end sample
answered('cancelPaymentSession');

# A third session, authorized, whose order is then called off.
my $held_id = authorization("order-1003-$run");
helper("/sandbox/v1/payment_sessions/$held_id/complete_checkout");

# sample: voidPaymentSession
my $void = $client->voidPaymentSession({business_id => $held_id}, json => {idempotency_key => "void-1003-$run"});
die 'voidPaymentSession: ', ($void->res->body || $void->error->{message}), "\n" if $void->error;
print "hold released: @{[$void->res->json->{id}]}\n";
# end sample
answered('voidPaymentSession');

# sample: createPaymentToken
my $create_token = $client->createPaymentToken({}, json => {
  success_url     => 'https://shop.example/plan/ready',
  failure_url     => 'https://shop.example/plan/failed',
  customer_email  => "plan-$run\@partner.example",
  idempotency_key => "plan-$run",
});
die 'createPaymentToken: ', ($create_token->res->body || $create_token->error->{message}), "\n" if $create_token->error;
my $setup                = $create_token->res->json;
my $provision_request_id = $setup->{provision_token_request_id};
print "send the customer to $setup->{redirect_url}\n";
# end sample
answered('createPaymentToken');

# The customer finishes the setup page, and the clinician approves the letter.
helper("/sandbox/v1/provision_requests/$provision_request_id/complete", {letter => 'approved'});

# sample: retrieveProvisionTokenRequest
my $provision = $client->retrieveProvisionTokenRequest({provision_token_request_id => $provision_request_id});
die 'retrieveProvisionTokenRequest: ', ($provision->res->body || $provision->error->{message}), "\n" if $provision->error;
my $payment_token = $provision->res->json->{payment_token};    # undef until the token is issued
print "payment token: $payment_token\n";
# end sample
answered('retrieveProvisionTokenRequest');

# sample: retrieveProvisionRequestEligibility
my $eligibility = $client->retrieveProvisionRequestEligibility({provision_token_request_id => $provision_request_id});
die 'retrieveProvisionRequestEligibility: ', ($eligibility->res->body || $eligibility->error->{message}), "\n" if $eligibility->error;
my $answer = $eligibility->res->json;
print "eligibility $answer->{eligibility_status}, letter valid through @{[$answer->{lmn_expires_at} // 'none']}\n";
print 'chargeable items: ', join(', ', @{$answer->{items}}), "\n";
# end sample
answered('retrieveProvisionRequestEligibility');

# sample: listPaymentTokens
my $list_tokens = $client->listPaymentTokens({page_size => 10, email => "plan-$run\@partner.example"});
die 'listPaymentTokens: ', ($list_tokens->res->body || $list_tokens->error->{message}), "\n" if $list_tokens->error;
print "$_->{payment_token} $_->{customer_email}\n" for @{$list_tokens->res->json->{payment_tokens}};
# end sample
answered('listPaymentTokens');

# sample: retrievePaymentToken
my $retrieve_token = $client->retrievePaymentToken({payment_token => $payment_token});
die 'retrievePaymentToken: ', ($retrieve_token->res->body || $retrieve_token->error->{message}), "\n" if $retrieve_token->error;
print "card ending $_->{last4}, expires $_->{exp_month}/$_->{exp_year}\n" for @{$retrieve_token->res->json->{payment_methods}};
# end sample
answered('retrievePaymentToken');

# sample: updatePaymentToken
my $update = $client->updatePaymentToken({payment_token => $payment_token}, json => {
  update_card_info => false,
  order_items      => [{name => 'Blood pressure monitor', sku => 'BPM-200', quantity => 1, price => 5000,
                        amount_details => {total_additional_charges => 0, total_discounts => 0}}],
});
die 'updatePaymentToken: ', ($update->res->body || $update->error->{message}), "\n" if $update->error;
my $action = $update->res->json;
print "the customer must act ($action->{next_action}): $action->{redirect_url}\n" unless $action->{next_action} eq 'None';
# end sample
answered('updatePaymentToken');

# sample: deletePaymentToken
my $delete = $client->deletePaymentToken({payment_token => $payment_token});
die 'deletePaymentToken: ', ($delete->res->body || $delete->error->{message}), "\n" if $delete->error;
print "token deleted\n";
# end sample
answered('deletePaymentToken');

# sample: createCatalogItem
my $sku         = "COLD-PACK-$run";
my $create_item = $client->createCatalogItem({}, json => {sku => $sku, name => 'Cold pack', description => 'Reusable cold pack', image_urls => []});
die 'createCatalogItem: ', ($create_item->res->body || $create_item->error->{message}), "\n" if $create_item->error;
print "item $sku created, awaiting review\n";
# end sample
answered('createCatalogItem');

# sample: updateCatalogItem
my $update_item = $client->updateCatalogItem({}, json => {
  sku         => $sku,
  name        => 'Cold pack XL',
  description => 'Reusable cold pack, large',
  image_urls  => [],
  url         => 'https://shop.example/products/cold-pack-xl',
});
die 'updateCatalogItem: ', ($update_item->res->body || $update_item->error->{message}), "\n" if $update_item->error;
# end sample
answered('updateCatalogItem');

# The service reviews the item.
helper('/sandbox/v1/catalog/items/review', {sku => $sku, eligibility => 'eligible'});

# sample: retrieveCatalogItem
my $detail = $client->retrieveCatalogItem({}, json => {sku => $sku});
die 'retrieveCatalogItem: ', ($detail->res->body || $detail->error->{message}), "\n" if $detail->error;
my $item = $detail->res->json;
print "$item->{sku} $item->{name}: @{[$item->{eligibility} // 'awaiting review']}\n";
# end sample
answered('retrieveCatalogItem');

# sample: listCatalogItems
my $list_items = $client->listCatalogItems({page_size => 50, eligibility => 'eligible'});
die 'listCatalogItems: ', ($list_items->res->body || $list_items->error->{message}), "\n" if $list_items->error;
print "$_->{sku} $_->{name}\n" for @{$list_items->res->json->{data}};
# end sample
answered('listCatalogItems');

# sample: retrieveCheckoutMethod
my $checkout_method = $client->retrieveCheckoutMethod({});
die 'retrieveCheckoutMethod: ', ($checkout_method->res->body || $checkout_method->error->{message}), "\n" if $checkout_method->error;
print 'checkout method: ', $checkout_method->res->body, "\n";    # its fields are not documented
# end sample
answered('retrieveCheckoutMethod');

# The card network opens a dispute on the captured session.
my $dispute_id = helper("/sandbox/v1/payment_sessions/$session_id/disputes", {reason => 'product_not_received'})->{dispute_id};

# sample: retrieveDispute
my $retrieve_dispute = $client->retrieveDispute({dispute_id => $dispute_id});
die 'retrieveDispute: ', ($retrieve_dispute->res->body || $retrieve_dispute->error->{message}), "\n" if $retrieve_dispute->error;
my $dispute = $retrieve_dispute->res->json;
print "dispute $dispute->{dispute_id}: $dispute->{state}, $dispute->{amount} cents, respond by $dispute->{due_by}\n";
# end sample
answered('retrieveDispute');

# sample: listDisputes
my $list_disputes = $client->listDisputes({});
die 'listDisputes: ', ($list_disputes->res->body || $list_disputes->error->{message}), "\n" if $list_disputes->error;
print "$_->{id} $_->{state} on $_->{charge_id}\n" for @{$list_disputes->res->json->{data}};
# end sample
answered('listDisputes');

# sample: retrieveDisputeRecord
my $retrieve_record = $client->retrieveDisputeRecord({id => $dispute_id});
die 'retrieveDisputeRecord: ', ($retrieve_record->res->body || $retrieve_record->error->{message}), "\n" if $retrieve_record->error;
my $record = $retrieve_record->res->json;
print "dispute $record->{id}: $record->{state}, $record->{reason}\n";
# end sample
answered('retrieveDisputeRecord');

# sample: acceptDispute
my $accept = $client->acceptDispute({id => $dispute_id});
die 'acceptDispute: ', ($accept->res->body || $accept->error->{message}), "\n" if $accept->error;
print "dispute accepted: the amount goes back to the customer\n";
# end sample
answered('acceptDispute');

print 'PARTNER_SAMPLES {', join(',', @statuses), "}\n";
