<?php
// A partner's server code with the client openapi-generator's `php` generator made (Guzzle):
// create an authorization session, complete its checkout through the sandbox's helper, capture
// part of it, refund part of it, list with a filter, retrieve it, read the error codes of a second
// capture and of a void, and tell a documented code or value from one the service added later.
//   php flow.php
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
// PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
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
use Partner\Payments\Model\PaymentSessionCaptureErrorErrorKnownValue;
use Partner\Payments\Model\PaymentSessionKindInput;
use Partner\Payments\Model\PaymentSessionStatusInput;
use Partner\Payments\Model\PaymentSessionStatusSummaryKnownValue;
use Partner\Payments\Model\PaymentSessionVoidError;
use Partner\Payments\Model\PaymentSessionVoidErrorErrorKnownValue;
use Partner\Payments\Model\RefundReasonInput;
use Partner\Payments\Model\VoidPaymentSessionRequest;

/** Ends the program on one line: a wrong setting, a refused key, no sandbox. */
function fail(string $message): never
{
    fwrite(STDERR, "$message\n");
    exit(2);
}

/** The variable's value, or the default when it is unset or empty. */
function setting(string $name, string $default): string
{
    $value = getenv($name);
    return $value === false || $value === '' ? $default : $value;
}

// The settings, with the local sandbox's defaults (`npm start`, its development key), so that the
// program runs as copied. A wrong value ends it on one line.
$baseUrl = setting('PARTNER_BASE_URL', 'http://127.0.0.1:4010');
$apiKey = setting('PARTNER_API_KEY', 'sandbox-dev-key');
// Unique to each run: it goes into the idempotency keys, the email and the metadata.
$run = setting('PARTNER_RUN', base_convert((string) (int) (microtime(true) * 1000), 10, 36));
if (!preg_match('~^https?://[^\s/?#]+(/[^\s?#]*)?$~', $baseUrl)) {
    fail("PARTNER_BASE_URL=$baseUrl is not an http(s) URL");
}
if (!preg_match('~^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$~', $run)) {
    fail("PARTNER_RUN=$run is not 1 to 64 letters, digits, - or _ (it goes into idempotency keys and an email)");
}
$baseUrl = rtrim($baseUrl, '/');
// Query booleans as `true`/`false`, as the API reads them (the client's default sends 1/0). The
// serializer reads this from the default configuration, so that is the one to set.
$config = Configuration::getDefaultConfiguration()
    ->setHost($baseUrl)
    ->setApiKey('x-service-api-key', $apiKey)
    ->setBooleanFormatForQueryString(Configuration::BOOLEAN_FORMAT_STRING);
$http = new Client();
$sessions = new PaymentSessionsApi($http, $config);
$refunds = new RefundsApi($http, $config);
$noCharges = new AmountDetails(['total_additional_charges' => 0, 'total_discounts' => 0]);

/**
 * Reads the 400 body of a refused call through its generated error model: the code as the service
 * sent it (a string: the model does not check it against a list).
 */
function refusalCode(callable $call, string $model): string
{
    try {
        $call();
    } catch (ApiException $e) {
        $body = $e->getResponseObject();
        if ($e->getCode() !== 400 || !$body instanceof $model) {
            throw $e;
        }
        return $body->getError();
    }
    throw new RuntimeException("the call succeeded: a $model was expected");
}

/** Says so when a value is none of those this version of the contract lists. */
function known(string $what, string $value, array $known): bool
{
    if (in_array($value, $known, true)) {
        return true;
    }
    echo "$what \"$value\" is not one this client knows: a later version of the service\n";
    return false;
}

// Requests name the closed *Input enums: what the partner sends is one of the documented values.
// A refused key, or no sandbox at that address, ends the program on one line.
try {
    $created = $sessions->createPaymentSession(new CreatePaymentSessionRequest([
        'kind' => PaymentSessionKindInput::AUTHORIZATION,
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
} catch (ApiException $e) {
    if ($e->getCode() === 401) {
        fail("PARTNER_API_KEY was refused (401): {$e->getResponseBody()}");
    }
    if ($e->getCode() === 0) {
        fail("Nothing answers at PARTNER_BASE_URL=$baseUrl ({$e->getMessage()}): is the sandbox running (npm start)?");
    }
    throw $e;
}
$id = $created->getId();

// The customer finishes the hosted checkout: in the sandbox, its helper does it.
$http->post("$baseUrl/sandbox/v1/payment_sessions/$id/complete_checkout", [
    'headers' => ['x-service-api-key' => $apiKey, 'content-type' => 'application/json'],
    'body' => '{}',
]);

$sessions->capturePaymentSession($id, new CapturePaymentSessionRequest(['total_amount' => 3000, 'idempotency_key' => "$run-capture"]));
$refund = $refunds->createRefund(new CreateRefundRequest([
    'payment_id' => $id,
    'amount' => 1000,
    'reason' => RefundReasonInput::CUSTOMER_REQUEST,
    'idempotency_key' => "$run-refund",
]));
$session = $sessions->retrievePaymentSession($id);
$list = $sessions->listPaymentSessions(search: "$run@partner.example", status: [PaymentSessionStatusInput::CAPTURED]);
$listed = in_array($id, array_map(fn ($item) => $item->getId(), $list->getPaymentSessions()), true);

// A second capture and a void of the captured session: the client throws an ApiException whose
// response object is the operation's generated error model, whose `error` is a string.
$captureError = refusalCode(
    fn () => $sessions->capturePaymentSession($id, new CapturePaymentSessionRequest(['total_amount' => 1000, 'idempotency_key' => "$run-capture-2"])),
    PaymentSessionCaptureError::class,
);
if ($captureError === PaymentSessionCaptureErrorErrorKnownValue::SESSION_CAPTURED) {
    echo "the session was already captured: the first capture stands\n";
}
$voidError = refusalCode(
    fn () => $sessions->voidPaymentSession($id, new VoidPaymentSessionRequest(['idempotency_key' => "$run-void"])),
    PaymentSessionVoidError::class,
);
// The known codes are the generated enum class of the companion's PaymentSessionVoidErrorErrorKnownValue.
$voidErrorKnown = known('void error', $voidError, PaymentSessionVoidErrorErrorKnownValue::getAllowableEnumValues());
if ($voidError === PaymentSessionVoidErrorErrorKnownValue::SESSION_CAPTURED) {
    echo "the session is captured: it is refunded, not voided\n";
}

$statusSummary = $session->getStatusSummary();
$statusSummaryKnown = known('status_summary', $statusSummary, PaymentSessionStatusSummaryKnownValue::getAllowableEnumValues());
// service_fee is a string or a number in the document; the client reads either as a decimal
// string (--type-mappings and --schema-mappings ServiceFee=string).
$serviceFee = $session->getServiceFee();

echo "session $id is {$session->getStatus()} ($statusSummary), service fee $serviceFee\n";
echo 'PARTNER_RESULT ', json_encode([
    'session_id' => $id,
    'captured' => $session->getCaptureAmount(),
    'refund_id' => $refund->getRefundId(),
    'listed' => $listed,
    'capture_error' => $captureError,
    'void_error' => $voidError,
    'void_error_known' => $voidErrorKnown,
    'status_summary' => $statusSummary,
    'status_summary_known' => $statusSummaryKnown,
    'service_fee' => $serviceFee,
]), "\n";
