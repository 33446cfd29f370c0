<?php
// The short flow against the client that openapi-generator's `php` generator writes with its
// defaults (Guzzle, namespace OpenAPI\Client) from the OpenAPI 3.0 companion: create an
// authorization session, complete its checkout through the sandbox's helper, capture part of it,
// refund part of it, list it with a filter, retrieve it, and read the error code of a second
// capture, status_summary and service_fee as the service sent them.
//   php flow.php
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
// PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
declare(strict_types=1);

require __DIR__ . '/autoload.php';

use GuzzleHttp\Client;
use OpenAPI\Client\Api\PaymentSessionsApi;
use OpenAPI\Client\Api\RefundsApi;
use OpenAPI\Client\ApiException;
use OpenAPI\Client\Configuration;
use OpenAPI\Client\Model\AmountDetails;
use OpenAPI\Client\Model\CapturePaymentSessionRequest;
use OpenAPI\Client\Model\CreatePaymentSessionRequest;
use OpenAPI\Client\Model\CreateRefundRequest;
use OpenAPI\Client\Model\OrderItemInput;
use OpenAPI\Client\Model\PaymentSessionCaptureError;
use OpenAPI\Client\Model\PaymentSessionKindInput;
use OpenAPI\Client\Model\PaymentSessionStatusInput;
use OpenAPI\Client\Model\RefundReasonInput;

function setting(string $name, string $default): string
{
    $value = getenv($name);
    return $value === false || $value === '' ? $default : $value;
}

$baseUrl = rtrim(setting('PARTNER_BASE_URL', 'http://127.0.0.1:4010'), '/');
$apiKey = setting('PARTNER_API_KEY', 'sandbox-dev-key');
$run = setting('PARTNER_RUN', base_convert((string) (int) (microtime(true) * 1000), 10, 36));
$email = "$run@partner.example";

// The client sends the document's apiKey scheme (x-service-api-key) from its configuration. Query
// booleans go as `true`/`false`, which the API reads (the client's default sends 1/0): the list's
// defaulted include_refunds and include_disputes are booleans.
$config = Configuration::getDefaultConfiguration()
    ->setHost($baseUrl)
    ->setApiKey('x-service-api-key', $apiKey)
    ->setBooleanFormatForQueryString(Configuration::BOOLEAN_FORMAT_STRING);
$http = new Client();
$sessions = new PaymentSessionsApi($http, $config);
$noCharges = new AmountDetails(['total_additional_charges' => 0, 'total_discounts' => 0]);

$created = $sessions->createPaymentSession(new CreatePaymentSessionRequest([
    'kind' => PaymentSessionKindInput::AUTHORIZATION,
    'total_amount' => 5000,
    'amount_details' => $noCharges,
    'success_url' => 'https://partner.example/thanks',
    'failure_url' => 'https://partner.example/failed',
    'customer_email' => $email,
    'metadata' => $run,
    'idempotency_key' => "$run-create",
    'order_items' => [new OrderItemInput(['name' => 'Blood pressure monitor', 'sku' => 'BPM-200', 'quantity' => 1, 'price' => 5000, 'amount_details' => $noCharges])],
]));
$id = $created->getId();

// The customer's checkout, played by the sandbox's helper (not in the published document).
$http->post("$baseUrl/sandbox/v1/payment_sessions/$id/complete_checkout", [
    'headers' => ['x-service-api-key' => $apiKey, 'content-type' => 'application/json'],
    'body' => '{}',
]);

$sessions->capturePaymentSession($id, new CapturePaymentSessionRequest(['total_amount' => 3000, 'idempotency_key' => "$run-capture"]));
$refund = (new RefundsApi($http, $config))->createRefund(new CreateRefundRequest([
    'payment_id' => $id, 'amount' => 1000, 'reason' => RefundReasonInput::CUSTOMER_REQUEST, 'idempotency_key' => "$run-refund",
]));
$list = $sessions->listPaymentSessions(search: $email, status: [PaymentSessionStatusInput::CAPTURED]);
$listed = in_array($id, array_map(fn ($item) => $item->getId(), $list->getPaymentSessions()), true);
$session = $sessions->retrievePaymentSession($id);

// A second capture answers 400: an ApiException whose response object is the operation's error model.
try {
    $sessions->capturePaymentSession($id, new CapturePaymentSessionRequest(['total_amount' => 1000, 'idempotency_key' => "$run-capture-2"]));
    throw new RuntimeException('the second capture answered 2xx; a 400 was expected');
} catch (ApiException $e) {
    $body = $e->getResponseObject();
    if ($e->getCode() !== 400 || !$body instanceof PaymentSessionCaptureError) {
        throw $e;
    }
    $captureError = $body->getError();
}

// The companion states no type for service_fee (a string or a number): `mixed`, as json_decode gave it.
$serviceFee = $session->getServiceFee();
echo 'PARTNER_DEFAULTS_RESULT ', json_encode([
    'session_id' => $id,
    'captured' => $session->getCaptureAmount(),
    'refund_id' => $refund->getRefundId(),
    'listed' => $listed,
    'capture_error' => $captureError,
    'status_summary' => $session->getStatusSummary(),
    'service_fee' => $serviceFee === null ? null : (string) $serviceFee,
]), "\n";
