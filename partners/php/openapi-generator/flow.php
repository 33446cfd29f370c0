<?php
// A partner's server code with the client openapi-generator's `php` generator made (Guzzle):
// create an authorization session, complete its checkout through the sandbox's helper, capture
// part of it, refund part of it, list with a filter, and read capture's error code.
//   php flow.php
declare(strict_types=1);

require __DIR__ . '/autoload.php';

use GuzzleHttp\Client;
use Partner\Payments\Api\PaymentSessionsApi;
use Partner\Payments\Api\RefundsApi;
use Partner\Payments\ApiException;
use Partner\Payments\Configuration;
use Partner\Payments\Model\AmountDetails;
use Partner\Payments\Model\CapturePaymentSessionRequest;
use Partner\Payments\Model\CreatePaymentSessionRequest;
use Partner\Payments\Model\CreateRefundRequest;
use Partner\Payments\Model\OrderItemInput;
use Partner\Payments\Model\PaymentSessionCaptureError;
use Partner\Payments\Model\PaymentSessionKind;
use Partner\Payments\Model\PaymentSessionStatus;
use Partner\Payments\Model\RefundReason;

$baseUrl = getenv('PARTNER_BASE_URL');
$run = getenv('PARTNER_RUN');
// Query booleans as `true`/`false`, as the API reads them (the client's default sends 1/0). The
// serializer reads this from the default configuration, so that is the one to set.
$config = Configuration::getDefaultConfiguration()
    ->setHost($baseUrl)
    ->setApiKey('x-service-api-key', getenv('PARTNER_API_KEY'))
    ->setBooleanFormatForQueryString(Configuration::BOOLEAN_FORMAT_STRING);
$http = new Client();
$sessions = new PaymentSessionsApi($http, $config);
$refunds = new RefundsApi($http, $config);
$noCharges = new AmountDetails(['total_additional_charges' => 0, 'total_discounts' => 0]);

$created = $sessions->createPaymentSession(new CreatePaymentSessionRequest([
    'kind' => PaymentSessionKind::AUTHORIZATION,
    'total_amount' => 5000,
    'amount_details' => $noCharges,
    'success_url' => 'https://partner.example/orders/{{payment_session_id}}/thanks',
    'failure_url' => 'https://partner.example/orders/{{payment_session_id}}/failed',
    'customer_email' => "$run@partner.example",
    'customer_name' => 'Partner Matrix',
    'metadata' => $run,
    'idempotency_key' => "$run-create",
    'order_items' => [new OrderItemInput(['name' => 'Blood pressure monitor', 'sku' => 'BPM-200', 'quantity' => 1, 'price' => 5000, 'amount_details' => $noCharges])],
]));
$id = $created->getId();

// The customer finishes the hosted checkout: in the sandbox, its helper does it.
$http->post("$baseUrl/sandbox/v1/payment_sessions/$id/complete_checkout", [
    'headers' => ['x-service-api-key' => getenv('PARTNER_API_KEY'), 'content-type' => 'application/json'],
    'body' => '{}',
]);

$sessions->capturePaymentSession($id, new CapturePaymentSessionRequest(['total_amount' => 3000, 'idempotency_key' => "$run-capture"]));
$refund = $refunds->createRefund(new CreateRefundRequest([
    'payment_id' => $id,
    'amount' => 1000,
    'reason' => RefundReason::CUSTOMER_REQUEST,
    'idempotency_key' => "$run-refund",
]));
$session = $sessions->retrievePaymentSession($id);
$list = $sessions->listPaymentSessions(search: "$run@partner.example", status: [PaymentSessionStatus::CAPTURED]);
$listed = in_array($id, array_map(fn ($item) => $item->getId(), $list->getPaymentSessions()), true);

// A second capture: the client throws an ApiException whose response object is the generated
// PaymentSessionCaptureError, whose code is one of its enum values.
$captureError = null;
try {
    $sessions->capturePaymentSession($id, new CapturePaymentSessionRequest(['total_amount' => 1000, 'idempotency_key' => "$run-capture-2"]));
} catch (ApiException $e) {
    $body = $e->getResponseObject();
    if ($e->getCode() !== 400 || !$body instanceof PaymentSessionCaptureError) {
        throw $e;
    }
    $captureError = $body->getError();
}

echo "session $id is {$session->getStatus()}\n";
echo 'PARTNER_RESULT ', json_encode([
    'session_id' => $id,
    'captured' => $session->getCaptureAmount(),
    'refund_id' => $refund->getRefundId(),
    'listed' => $listed,
    'capture_error' => $captureError,
]), "\n";
