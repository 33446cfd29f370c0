"""Verifies a signed webhook with hmac and hashlib: x-service-signature is `t=<unix>,v0=<hex>`, the
hex an HMAC-SHA256 of `<t>.<raw body>` under the endpoint's secret. Exits 0 and prints the event
type when it verifies; exits 1 otherwise.

    python verify_webhook.py <body file> <x-service-signature> <secret>
"""

import hashlib
import hmac
import json
import sys
import time


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
    print(f"verified {json.loads(body)['event_type']}")
