<?php
// Every operation of the contract, once, through the client openapi-generator's `php` generator
// made (Guzzle). Each call stands between `// sample: <operationId>` and `// end sample`: the API
// reference shows that region as the operation's PHP sample. What the customer, the clinician and
// the card network do is played by the sandbox's helpers (/sandbox/v1/…), outside the regions.
//   php samples.php
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010), PARTNER_API_KEY (default
// sandbox-dev-key) and PARTNER_RUN (default: the time in base 36; it makes keys, emails and skus
// unique), and ends on `PARTNER_SAMPLES {"<operationId>": <HTTP status>, …}`.
declare(strict_types=1);

require __DIR__ . '/autoload.php';

use GuzzleHttp\Client;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Middleware;
use Partner\Payments\Api\DisputesApi;
use Partner\Payments\Api\EligibilityApi;
use Partner\Payments\Api\PaymentSessionsApi;
use Partner\Payments\Api\PaymentTokensApi;
use Partner\Payments\Api\ProductCatalogApi;
use Partner\Payments\Api\RefundsApi;
use Partner\Payments\ApiException;
use Partner\Payments\Configuration;
use Partner\Payments\Model\AmountDetails;
use Partner\Payments\Model\CapturePaymentSessionRequest;
use Partner\Payments\Model\CatalogItemDetailRequest;
use Partner\Payments\Model\CreateCatalogItemRequest;
use Partner\Payments\Model\CreatePaymentSessionRequest;
use Partner\Payments\Model\CreatePaymentTokenRequest;
use Partner\Payments\Model\CreateRefundRequest;
use Partner\Payments\Model\OrderItemInput;
use Partner\Payments\Model\PaymentSessionKindInput;
use Partner\Payments\Model\PaymentTokenUpdateResponseNextActionKnownValue;
use Partner\Payments\Model\RefundReasonInput;
use Partner\Payments\Model\UpdateCatalogItemRequest;
use Partner\Payments\Model\UpdatePaymentTokenRequest;
use Partner\Payments\Model\VoidPaymentSessionRequest;

// A failure is one line, not a stack trace: an answer's status and body, or what went wrong.
set_exception_handler(function (Throwable $e): void {
    $answer = $e instanceof ApiException && $e->getCode() > 0
        ? "HTTP {$e->getCode()}: {$e->getResponseBody()}"
        : strtok($e->getMessage(), "\n");
    fwrite(STDERR, 'samples.php: ' . get_class($e) . ": $answer\n");
    exit(1);
});

/** A variable of the environment, or its default; a wrong value stops the program with one line. */
function setting(string $name, string $default, string $pattern, string $expected): string
{
    $value = getenv($name);
    $value = $value === false || $value === '' ? $default : $value;
    if (!preg_match($pattern, $value)) {
        fwrite(STDERR, "$name=$value is not $expected\n");
        exit(2);
    }
    return $value;
}
$baseUrl = rtrim(setting('PARTNER_BASE_URL', 'http://127.0.0.1:4010', '~^https?://[^\s/?#]+(/[^\s?#]*)?$~', 'an http(s) URL'), '/');
$apiKey = setting('PARTNER_API_KEY', 'sandbox-dev-key', '~^[\x21-\x7e]+$~', 'an API key (printable characters, no spaces)');
$run = setting('PARTNER_RUN', base_convert((string) time(), 10, 36), '~^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$~', 'a run name (letters, digits, ".", "_" or "-", at most 64)');

// The status of each operation's answer, as the client's HTTP stack saw it.
$lastStatus = null;
$statuses = [];
$stack = HandlerStack::create();
$stack->push(Middleware::mapResponse(function ($response) use (&$lastStatus) {
    $lastStatus = $response->getStatusCode();
    return $response;
}));
$answered = function (string $operationId) use (&$lastStatus, &$statuses): void {
    if ($lastStatus === null) {
        throw new LogicException("the sample of $operationId sent no request");
    }
    $statuses[$operationId] = $lastStatus;
    $lastStatus = null;
};

// Query booleans as `true`/`false`, as the API reads them (the serializer reads the default
// configuration, so that is the one to set).
$config = Configuration::getDefaultConfiguration()
    ->setHost($baseUrl)
    ->setApiKey('x-service-api-key', $apiKey)
    ->setBooleanFormatForQueryString(Configuration::BOOLEAN_FORMAT_STRING);
$http = new Client(['handler' => $stack]);
$paymentSessions = new PaymentSessionsApi($http, $config);
$refunds = new RefundsApi($http, $config);
$paymentTokens = new PaymentTokensApi($http, $config);
$eligibility = new EligibilityApi($http, $config);
$catalog = new ProductCatalogApi($http, $config);
$disputes = new DisputesApi($http, $config);

/** The sandbox's helpers play the customer, the clinician and the card network: plain HTTP. */
function helper(string $baseUrl, string $apiKey, string $path, array $body = []): array
{
    $response = (new Client(['http_errors' => false]))->post($baseUrl . $path, [
        'headers' => ['x-service-api-key' => $apiKey],
        'json' => (object) $body,
    ]);
    if ($response->getStatusCode() !== 200) {
        throw new RuntimeException("POST $path answered {$response->getStatusCode()}: {$response->getBody()}");
    }
    return json_decode((string) $response->getBody(), true);
}
$email = "samples-$run@partner.example";
/** An authorization hold of $20 on a thermometer, as the create sample makes one. */
$authorization = fn (string $key) => $paymentSessions->createPaymentSession(new CreatePaymentSessionRequest([
    'kind' => PaymentSessionKindInput::AUTHORIZATION,
    'total_amount' => 2000,
    'amount_details' => new AmountDetails(['total_additional_charges' => 0, 'total_discounts' => 0]),
    'success_url' => 'https://shop.example/orders/{{payment_session_id}}/paid',
    'failure_url' => 'https://shop.example/orders/{{payment_session_id}}/failed',
    'customer_email' => $email,
    'idempotency_key' => $key,
    'order_items' => [new OrderItemInput(['name' => 'Digital thermometer', 'sku' => 'TH-10', 'quantity' => 1, 'price' => 2000,
        'amount_details' => new AmountDetails(['total_additional_charges' => 0, 'total_discounts' => 0])])],
]))->getId();

// sample: createPaymentSession
$noCharges = new AmountDetails(['total_additional_charges' => 0, 'total_discounts' => 0]);
$created = $paymentSessions->createPaymentSession(new CreatePaymentSessionRequest([
    'kind' => PaymentSessionKindInput::AUTHORIZATION,
    'total_amount' => 5000,
    'amount_details' => $noCharges,
    'success_url' => 'https://shop.example/orders/{{payment_session_id}}/paid',
    'failure_url' => 'https://shop.example/orders/{{payment_session_id}}/failed',
    'customer_email' => $email,
    'idempotency_key' => "order-1001-$run",
    'order_items' => [new OrderItemInput(['name' => 'Blood pressure monitor', 'sku' => 'BPM-200', 'quantity' => 1, 'price' => 5000, 'amount_details' => $noCharges])],
]));
$sessionId = $created->getId();
echo "send the customer to {$created->getRedirectUrl()}\n";
// end sample
$answered('createPaymentSession');

// The customer completes the hosted checkout: the hold is placed.
helper($baseUrl, $apiKey, "/sandbox/v1/payment_sessions/$sessionId/complete_checkout");

// sample: retrievePaymentSession
$session = $paymentSessions->retrievePaymentSession($sessionId);
echo "session {$session->getId()}: {$session->getStatus()} ({$session->getStatusSummary()})\n";
// end sample
$answered('retrievePaymentSession');

// sample: listPaymentSessions
$page = $paymentSessions->listPaymentSessions(page_size: 10, search: $email);
foreach ($page->getPaymentSessions() as $item) {
    echo "{$item->getId()} {$item->getStatus()} {$item->getTotalAmount()}\n";
}
echo "{$page->getPagination()->getCount()} sessions\n";
// end sample
$answered('listPaymentSessions');

// sample: capturePaymentSession
try {
    $capture = $paymentSessions->capturePaymentSession($sessionId, new CapturePaymentSessionRequest([
        'total_amount' => 3000,
        'idempotency_key' => "capture-1001-$run",
    ]));
    echo "captured: {$capture->getId()}\n";
} catch (ApiException $e) {
    // A 400's body is the operation's error model; its `error` says why (SessionExpired, …).
    echo 'capture refused: ', $e->getResponseObject()?->getError() ?? $e->getMessage(), "\n";
}
// end sample
$answered('capturePaymentSession');

// sample: createRefund
$refund = $refunds->createRefund(new CreateRefundRequest([
    'payment_id' => $sessionId,
    'amount' => 1000,
    'reason' => RefundReasonInput::CUSTOMER_REQUEST,
    'idempotency_key' => "refund-1001-$run",
]));
echo "refund {$refund->getRefundId()}\n";
// end sample
$answered('createRefund');

// A second session, which the customer abandons.
$abandonedId = $authorization("order-1002-$run");

// sample: cancelPaymentSession
$canceled = $paymentSessions->cancelPaymentSession($abandonedId);
echo "session {$canceled->getId()} is {$canceled->getStatus()}\n";
// end sample
$answered('cancelPaymentSession');

// A third session, authorized, whose order is then called off.
$heldId = $authorization("order-1003-$run");
helper($baseUrl, $apiKey, "/sandbox/v1/payment_sessions/$heldId/complete_checkout");

// sample: voidPaymentSession
$void = $paymentSessions->voidPaymentSession($heldId, new VoidPaymentSessionRequest([
    'idempotency_key' => "void-1003-$run",
]));
echo "hold released: {$void->getId()}\n";
// end sample
$answered('voidPaymentSession');

// sample: createPaymentToken
$setup = $paymentTokens->createPaymentToken(new CreatePaymentTokenRequest([
    'success_url' => 'https://shop.example/plan/ready',
    'failure_url' => 'https://shop.example/plan/failed',
    'customer_email' => "plan-$run@partner.example",
    'idempotency_key' => "plan-$run",
]));
$provisionRequestId = $setup->getProvisionTokenRequestId();
echo "send the customer to {$setup->getRedirectUrl()}\n";
// end sample
$answered('createPaymentToken');

// The customer finishes the setup page, and the clinician approves the letter.
helper($baseUrl, $apiKey, "/sandbox/v1/provision_requests/$provisionRequestId/complete", ['letter' => 'approved']);

// sample: retrieveProvisionTokenRequest
$provisionRequest = $paymentTokens->retrieveProvisionTokenRequest($provisionRequestId);
$paymentToken = $provisionRequest->getPaymentToken(); // null until the token is issued
echo "payment token: {$paymentToken}\n";
// end sample
$answered('retrieveProvisionTokenRequest');

// sample: retrieveProvisionRequestEligibility
$answer = $eligibility->retrieveProvisionRequestEligibility($provisionRequestId);
echo "eligibility {$answer->getEligibilityStatus()}, letter valid through {$answer->getLmnExpiresAt()?->format('Y-m-d')}\n";
echo 'chargeable items: ', implode(', ', $answer->getItems()), "\n";
// end sample
$answered('retrieveProvisionRequestEligibility');

// sample: listPaymentTokens
$tokens = $paymentTokens->listPaymentTokens(page_size: 10, email: "plan-$run@partner.example");
foreach ($tokens->getPaymentTokens() as $token) {
    echo "{$token->getPaymentToken()} {$token->getCustomerEmail()}\n";
}
// end sample
$answered('listPaymentTokens');

// sample: retrievePaymentToken
$token = $paymentTokens->retrievePaymentToken($paymentToken);
foreach ($token->getPaymentMethods() as $card) {
    echo "card ending {$card->getLast4()}, expires {$card->getExpMonth()}/{$card->getExpYear()}\n";
}
// end sample
$answered('retrievePaymentToken');

// sample: updatePaymentToken
$update = $paymentTokens->updatePaymentToken($paymentToken, new UpdatePaymentTokenRequest([
    'update_card_info' => false,
    'order_items' => [new OrderItemInput(['name' => 'Blood pressure monitor', 'sku' => 'BPM-200', 'quantity' => 1, 'price' => 5000,
        'amount_details' => new AmountDetails(['total_additional_charges' => 0, 'total_discounts' => 0])])],
]));
if ($update->getNextAction() !== PaymentTokenUpdateResponseNextActionKnownValue::NONE) {
    echo "the customer must act ({$update->getNextAction()}): {$update->getRedirectUrl()}\n";
}
// end sample
$answered('updatePaymentToken');

// sample: deletePaymentToken
$paymentTokens->deletePaymentToken($paymentToken);
echo "token deleted\n";
// end sample
$answered('deletePaymentToken');

// sample: createCatalogItem
$sku = "COLD-PACK-$run";
$catalog->createCatalogItem(new CreateCatalogItemRequest([
    'sku' => $sku,
    'name' => 'Cold pack',
    'description' => 'Reusable cold pack',
    'image_urls' => [],
]));
echo "item $sku created, awaiting review\n";
// end sample
$answered('createCatalogItem');

// sample: updateCatalogItem
$catalog->updateCatalogItem(new UpdateCatalogItemRequest([
    'sku' => $sku,
    'name' => 'Cold pack XL',
    'description' => 'Reusable cold pack, large',
    'image_urls' => [],
    'url' => 'https://shop.example/products/cold-pack-xl',
]));
// end sample
$answered('updateCatalogItem');

// The service reviews the item.
helper($baseUrl, $apiKey, '/sandbox/v1/catalog/items/review', ['sku' => $sku, 'eligibility' => 'eligible']);

// sample: retrieveCatalogItem
$item = $catalog->retrieveCatalogItem(new CatalogItemDetailRequest(['sku' => $sku]));
echo "{$item->getSku()} {$item->getName()}: " . ($item->getEligibility() ?? 'awaiting review') . "\n";
// end sample
$answered('retrieveCatalogItem');

// sample: listCatalogItems
$items = $catalog->listCatalogItems(page_size: 50, eligibility: 'eligible');
foreach ($items->getData() as $item) {
    echo "{$item->getSku()} {$item->getName()}\n";
}
// end sample
$answered('listCatalogItems');

// sample: retrieveCheckoutMethod
$method = $catalog->retrieveCheckoutMethod(); // its fields are not documented: an array
echo 'checkout method: ', json_encode((object) $method), "\n";
// end sample
$answered('retrieveCheckoutMethod');

// The card network opens a dispute on the captured session.
$disputeId = helper($baseUrl, $apiKey, "/sandbox/v1/payment_sessions/$sessionId/disputes", ['reason' => 'product_not_received'])['dispute_id'];

// sample: retrieveDispute
$dispute = $disputes->retrieveDispute($disputeId);
echo "dispute {$dispute->getDisputeId()}: {$dispute->getState()}, {$dispute->getAmount()} cents, respond by {$dispute->getDueBy()->format('Y-m-d')}\n";
// end sample
$answered('retrieveDispute');

// sample: listDisputes
$list = $disputes->listDisputes();
foreach ($list->getData() as $record) {
    echo "{$record->getId()} {$record->getState()} on {$record->getChargeId()}\n";
}
// end sample
$answered('listDisputes');

// sample: retrieveDisputeRecord
$record = $disputes->retrieveDisputeRecord($disputeId);
echo "dispute {$record->getId()}: {$record->getState()}, {$record->getReason()}\n";
// end sample
$answered('retrieveDisputeRecord');

// sample: acceptDispute
$disputes->acceptDispute($disputeId);
echo "dispute accepted: the amount goes back to the customer\n";
// end sample
$answered('acceptDispute');

echo 'PARTNER_SAMPLES ', json_encode($statuses), "\n";
