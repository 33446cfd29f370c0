"""Verifies a signed webhook with hmac and hashlib: x-service-signature is `t=<unix>,v0=<hex>`, the
hex an HMAC-SHA256 of `<t>.<raw body>` under the endpoint's secret. Exits 0 and prints the event
type when it verifies; exits 1 otherwise. An event type that is none of the contract's webhooks (one
a later version of the service added) is verified and ignored: a receiver answers 204 and moves on.

    python verify_webhook.py <body file> <x-service-signature> <secret>
"""

import hashlib
import hmac
import json
import sys
import time

# The event types of the contract's webhooks.
KNOWN_EVENT_TYPES = frozenset(
    {
        "payment_session_complete",
        "payment_token_updated",
        "payment_token.updated",
        "product_catalog.item.eligibility_updated",
        "dispute.created",
        "dispute.updated",
        "dispute.closed",
        "dispute.evidence_submitted",
    }
)


def verify_webhook(raw_body: bytes, header: str, secret: str, tolerance_seconds: int = 300) -> bool:
    entries = [part.strip().partition("=") for part in header.split(",")]
    timestamps = [value for key, _, value in entries if key == "t"]
    signatures = [value for key, _, value in entries if key == "v0"]
    if len(timestamps) != 1 or not (timestamps[0].isascii() and timestamps[0].isdigit()) or not signatures:
        return False
    t = timestamps[0]
    if abs(time.time() - int(t)) > tolerance_seconds:
        return False
    expected = hmac.new(secret.encode(), t.encode() + b"." + raw_body, hashlib.sha256).hexdigest().encode()
    return any(hmac.compare_digest(expected, given.encode()) for given in signatures)


if __name__ == "__main__":
    body_file, header, secret = sys.argv[1:4]
    with open(body_file, "rb") as file:
        body = file.read()
    if not verify_webhook(body, header, secret):
        sys.exit("signature does not verify")
    # Only a verified body is parsed. Properties it does not know are left alone.
    event_type = str(json.loads(body).get("event_type"))
    print(f"verified {event_type}")
    if event_type not in KNOWN_EVENT_TYPES:
        print(f"ignored unknown event type {event_type}")
