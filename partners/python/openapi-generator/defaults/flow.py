"""The short flow against a client that openapi-generator's python generator wrote from the 3.0
companion with its defaults (only packageName set): create an authorization session, pay it through
the sandbox's helper, capture part of it, refund part of it, retrieve it, list it with a filter,
capture again and read the 400's code, and read status_summary and service_fee.

With the defaults, an open enum of the 3.0 companion is a str (any value as sent), a request's closed
list an Enum class, service_fee `Any` (the companion states no type for it), and a 400 raises
BadRequestException, whose `data` is the operation's error model.

It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in milliseconds, in hex)."""

import json
import os
import time
from decimal import Decimal

from checkout_client import (
    AmountDetails,
    ApiClient,
    CapturePaymentSessionRequest,
    Configuration,
    CreatePaymentSessionRequest,
    CreateRefundRequest,
    OrderItemInput,
    PaymentSessionCaptureError,
    PaymentSessionKindInput,
    PaymentSessionsApi,
    PaymentSessionStatusInput,
    RefundReasonInput,
    RefundsApi,
)
from checkout_client.exceptions import BadRequestException


def decimal_text(fee: object) -> str | None:
    """service_fee as sent (the field is `Any`): a string as it came, a JSON number as its shortest decimal."""
    if fee is None or isinstance(fee, str):
        return fee
    if isinstance(fee, (int, float)):
        return format(Decimal(str(fee)).normalize(), "f")
    raise SystemExit(f"service_fee is neither a string nor a number: {fee!r}")


def main() -> None:
    base_url = os.environ.get("PARTNER_BASE_URL") or "http://127.0.0.1:4010"
    api_key = os.environ.get("PARTNER_API_KEY") or "sandbox-dev-key"
    run = os.environ.get("PARTNER_RUN") or format(time.time_ns() // 1_000_000, "x")
    email = f"{run}@partner.example"
    no_charges = AmountDetails(total_additional_charges=0, total_discounts=0)
    with ApiClient(Configuration(host=base_url, api_key={"ServiceApiKey": api_key})) as api_client:
        sessions = PaymentSessionsApi(api_client)
        created = sessions.create_payment_session(
            CreatePaymentSessionRequest(
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
            )
        )
        session_id = str(created.id)

        # The customer pays on the hosted page: the sandbox's helper (not in the published document),
        # through the generated ApiClient's own request layer, which adds the host and the key.
        helper = api_client.param_serialize(
            method="POST",
            resource_path="/sandbox/v1/payment_sessions/{id}/complete_checkout",
            path_params={"id": session_id},
            header_params={"Content-Type": "application/json"},
            body={},
            auth_settings=["ServiceApiKey"],
        )
        paid = api_client.call_api(*helper)
        if paid.status != 200:
            raise SystemExit(f"complete_checkout answered {paid.status}: {paid.read()!r}")

        sessions.capture_payment_session(
            session_id, CapturePaymentSessionRequest(total_amount=3000, idempotency_key=f"{run}-capture")
        )
        refund = RefundsApi(api_client).create_refund(
            CreateRefundRequest(
                payment_id=session_id,
                amount=1000,
                reason=RefundReasonInput.CUSTOMER_REQUEST,
                idempotency_key=f"{run}-refund",
            )
        )
        session = sessions.retrieve_payment_session(session_id)
        page = sessions.list_payment_sessions(search=email, status=[PaymentSessionStatusInput.CAPTURED])
        listed = any(str(item.id) == session_id for item in page.payment_sessions)

        try:
            sessions.capture_payment_session(
                session_id, CapturePaymentSessionRequest(total_amount=1000, idempotency_key=f"{run}-capture-2")
            )
            raise SystemExit("the second capture answered 200")
        except BadRequestException as error:
            if not isinstance(error.data, PaymentSessionCaptureError):
                raise SystemExit(f"the second capture answered 400 without its error model: {error.body!r}") from error
            capture_error = error.data.error

    result = {
        "session_id": session_id,
        "captured": session.capture_amount,
        "refund_id": refund.refund_id,
        "listed": listed,
        "capture_error": capture_error,
        "status_summary": session.status_summary,
        "service_fee": decimal_text(session.service_fee),
    }
    print(f"PARTNER_DEFAULTS_RESULT {json.dumps(result)}")


if __name__ == "__main__":
    main()
