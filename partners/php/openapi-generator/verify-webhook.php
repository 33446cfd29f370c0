<?php
// Verifies a signed webhook with hash_hmac: x-service-signature is `t=<unix>,v0=<hex>`, the hex an
// HMAC-SHA256 of `<t>.<raw body>` under the endpoint's secret. Exit 0 and print the event type when
// it verifies; exit 1 otherwise. An event type that none of the contract's webhooks has (one a later
// version of the service sends) is verified, said to be ignored, and still exits 0: a receiver
// answers 204 and moves on. Properties it does not know are left alone.
//   php verify-webhook.php <body file> <x-service-signature> <secret>
declare(strict_types=1);

function verify_webhook(string $rawBody, string $header, string $secret, int $tolerance = 300): bool
{
    $t = null;
    $signatures = [];
    foreach (explode(',', $header) as $part) {
        [$key, $value] = array_pad(explode('=', trim($part), 2), 2, null);
        if ($key === 't') {
            $t = $value;
        } elseif ($key === 'v0' && $value !== null) {
            $signatures[] = $value;
        }
    }
    if ($t === null || !preg_match('/^\d+$/', $t) || $signatures === []) {
        return false;
    }
    if (abs(time() - (int) $t) > $tolerance) {
        return false;
    }
    $expected = hash_hmac('sha256', "$t.$rawBody", $secret);
    foreach ($signatures as $signature) {
        if (hash_equals($expected, $signature)) {
            return true;
        }
    }
    return false;
}

[, $bodyFile, $header, $secret] = array_pad($argv, 4, '');
$body = file_get_contents($bodyFile);
if ($body === false || !verify_webhook($body, $header, $secret)) {
    fwrite(STDERR, "signature does not verify\n");
    exit(1);
}
// The event types of the contract's webhooks.
const KNOWN_EVENT_TYPES = [
    'payment_session_complete', 'payment_token_updated', 'payment_token.updated', 'product_catalog.item.eligibility_updated',
    'dispute.created', 'dispute.updated', 'dispute.closed', 'dispute.evidence_submitted',
];
$event = json_decode($body, true);
$eventType = is_array($event) && is_string($event['event_type'] ?? null) ? $event['event_type'] : '(no event_type)';
echo "verified $eventType\n";
if (!in_array($eventType, KNOWN_EVENT_TYPES, true)) {
    echo "ignored unknown event type $eventType\n";
}
