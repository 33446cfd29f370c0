"""The short flow against a client that openapi-python-client generated with its defaults (only the
package's name set): create an authorization session, pay it through the sandbox's helper, capture
part of it, refund part of it, retrieve it, list it with a filter, capture again and read the 400's
code, and read status_summary and service_fee.

With the defaults, every enum is an Enum class (a StrEnum): a request takes the class's member, as a
partner writes it (`PaymentSessionKindInput.AUTHORIZATION`); a plain string there breaks `to_dict`.
An open enum in an answer is `<Enum class> | str`: a value the class lacks stays the string sent.

It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in milliseconds, in hex)."""

import json
import os
import time
from decimal import Decimal

from checkout_client import AuthenticatedClient
from checkout_client.api.payment_sessions import (
    capture_payment_session,
    create_payment_session,
    list_payment_sessions,
    retrieve_payment_session,
)
from checkout_client.api.refunds import create_refund
from checkout_client.models import (
    AmountDetails,
    CapturePaymentSessionRequest,
    CaptureResponse,
    CreatePaymentSessionRequest,
    CreateRefundRequest,
    OrderItemInput,
    PaymentSession,
    PaymentSessionCaptureError,
    PaymentSessionCreateResponse,
    PaymentSessionKindInput,
    PaymentSessionList,
    PaymentSessionStatusInput,
    RefundCreateResponse,
    RefundReasonInput,
)
from checkout_client.types import Unset


def as_sent(value: object) -> str:
    """An open enum's value as the service sent it: a member's value, or the string it did not list."""
    return str(value)


def decimal_text(fee: float | str | Unset) -> str | None:
    """service_fee as sent: a string as it came, a JSON number as its shortest decimal."""
    if isinstance(fee, Unset):
        return None
    return fee if isinstance(fee, str) else format(Decimal(str(fee)).normalize(), "f")


def main() -> None:
    base_url = os.environ.get("PARTNER_BASE_URL") or "http://127.0.0.1:4010"
    api_key = os.environ.get("PARTNER_API_KEY") or "sandbox-dev-key"
    run = os.environ.get("PARTNER_RUN") or format(time.time_ns() // 1_000_000, "x")
    email = f"{run}@partner.example"
    no_charges = AmountDetails(total_additional_charges=0, total_discounts=0)
    client = AuthenticatedClient(base_url=base_url, token=api_key, auth_header_name="x-service-api-key", prefix="")
    with client:
        created = create_payment_session.sync_detailed(
            client=client,
            body=CreatePaymentSessionRequest(
                kind=PaymentSessionKindInput.AUTHORIZATION,
                total_amount=5000,
                amount_details=no_charges,
                success_url="https://partner.example/thanks",
                failure_url="https://partner.example/failed",
                customer_email=email,
                customer_name="Partner Defaults",
                metadata=run,
                idempotency_key=f"{run}-create",
                order_items=[
                    OrderItemInput(name="Thermometer", sku="TH-1", quantity=1, price=5000, amount_details=no_charges)
                ],
            ),
        )
        if not isinstance(created.parsed, PaymentSessionCreateResponse):
            raise SystemExit(f"create answered {created.status_code}: {created.content!r}")
        session_id = str(created.parsed.id)

        # The customer pays on the hosted page: the sandbox's helper (not in the published document).
        client.get_httpx_client().post(
            f"/sandbox/v1/payment_sessions/{session_id}/complete_checkout", json={}
        ).raise_for_status()

        captured = capture_payment_session.sync_detailed(
            session_id,
            client=client,
            body=CapturePaymentSessionRequest(total_amount=3000, idempotency_key=f"{run}-capture"),
        )
        if not isinstance(captured.parsed, CaptureResponse):
            raise SystemExit(f"capture answered {captured.status_code}: {captured.content!r}")

        refund = create_refund.sync_detailed(
            client=client,
            body=CreateRefundRequest(
                payment_id=session_id,
                amount=1000,
                reason=RefundReasonInput.CUSTOMER_REQUEST,
                idempotency_key=f"{run}-refund",
            ),
        )
        if not isinstance(refund.parsed, RefundCreateResponse):
            raise SystemExit(f"refund answered {refund.status_code}: {refund.content!r}")

        session = retrieve_payment_session.sync(session_id, client=client)
        if not isinstance(session, PaymentSession):
            raise SystemExit(f"retrieve answered {session!r}")

        page = list_payment_sessions.sync(client=client, search=email, status=[PaymentSessionStatusInput.CAPTURED])
        listed = isinstance(page, PaymentSessionList) and any(
            str(item.id) == session_id for item in page.payment_sessions
        )

        again = capture_payment_session.sync_detailed(
            session_id,
            client=client,
            body=CapturePaymentSessionRequest(total_amount=1000, idempotency_key=f"{run}-capture-2"),
        )
        if not isinstance(again.parsed, PaymentSessionCaptureError):
            raise SystemExit(f"the second capture answered {again.status_code}: {again.content!r}")

    result = {
        "session_id": session_id,
        "captured": session.capture_amount,
        "refund_id": refund.parsed.refund_id,
        "listed": listed,
        "capture_error": as_sent(again.parsed.error),
        "status_summary": as_sent(session.status_summary),
        "service_fee": decimal_text(session.service_fee),
    }
    print(f"PARTNER_DEFAULTS_RESULT {json.dumps(result)}")


if __name__ == "__main__":
    main()
