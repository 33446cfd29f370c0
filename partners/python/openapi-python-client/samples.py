"""The Python sample of every operation of the contract, with the client openapi-python-client
generates (attrs models, httpx), as the API reference shows them: each call stands between
`# sample: <operationId>` and `# end sample`. Around them, the program plays the customer, the
clinician and the card network with the sandbox's helpers (/sandbox/v1/...), which the real service
does not have.

It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36; it goes
into idempotency keys, emails and skus, so that runs never collide), and ends on the line
`PARTNER_SAMPLES {"<operationId>": <HTTP status>, ...}`."""

import json
import os
import re
import sys
import time
from typing import Any, NoReturn
from uuid import UUID

import httpx

from checkout_client import AuthenticatedClient
from checkout_client.api.disputes import accept_dispute, list_disputes, retrieve_dispute, retrieve_dispute_record
from checkout_client.api.eligibility import retrieve_provision_request_eligibility
from checkout_client.api.payment_sessions import (
    cancel_payment_session,
    capture_payment_session,
    create_payment_session,
    list_payment_sessions,
    retrieve_payment_session,
    void_payment_session,
)
from checkout_client.api.payment_tokens import (
    create_payment_token,
    delete_payment_token,
    list_payment_tokens,
    retrieve_payment_token,
    retrieve_provision_token_request,
    update_payment_token,
)
from checkout_client.api.product_catalog import (
    create_catalog_item,
    list_catalog_items,
    retrieve_catalog_item,
    retrieve_checkout_method,
    update_catalog_item,
)
from checkout_client.api.refunds import create_refund
from checkout_client.models import (
    AcceptDisputeRequest,
    AmountDetails,
    CancelPaymentSessionRequest,
    CapturePaymentSessionRequest,
    CaptureResponse,
    CatalogItem,
    CatalogItemCreateResponse,
    CatalogItemDetailRequest,
    CatalogItemList,
    CatalogItemUpdateResponse,
    CheckoutMethodRequest,
    CheckoutMethodResponse,
    CreateCatalogItemRequest,
    CreatePaymentSessionRequest,
    CreatePaymentTokenRequest,
    CreateRefundRequest,
    Dispute,
    DisputeAcceptResponse,
    DisputeRecord,
    DisputeRecordList,
    EligibilityResponse,
    OrderItemInput,
    PaymentSession,
    PaymentSessionCancelResponse,
    PaymentSessionCreateResponse,
    PaymentSessionList,
    PaymentToken,
    PaymentTokenCreateResponse,
    PaymentTokenDeleteResponse,
    PaymentTokenList,
    PaymentTokenUpdateResponse,
    ProvisionTokenRequest,
    RefundCreateResponse,
    UpdateCatalogItemRequest,
    UpdatePaymentTokenRequest,
    VoidPaymentSessionRequest,
    VoidResponse,
)
from checkout_client.types import Response


def fail(message: str) -> NoReturn:
    print(message, file=sys.stderr)
    raise SystemExit(2)


def base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while number:
        number, digit = divmod(number, 36)
        text = digits[digit] + text
    return text or "0"


BASE_URL = (os.environ.get("PARTNER_BASE_URL") or "http://127.0.0.1:4010").rstrip("/")
API_KEY = os.environ.get("PARTNER_API_KEY") or "sandbox-dev-key"
RUN = os.environ.get("PARTNER_RUN") or base36(time.time_ns() // 1_000_000)
STATUSES: dict[str, int] = {}


def check_environment() -> None:
    if not re.fullmatch(r"https?://[^/\s]+(/\S*)?", BASE_URL):
        fail(f"PARTNER_BASE_URL={BASE_URL} is not an http(s) URL")
    if not re.fullmatch(r"[A-Za-z0-9][\w-]{0,63}", RUN, re.ASCII):
        fail(f"PARTNER_RUN={RUN} is not 1 to 64 letters, digits, - or _ (it goes into emails and skus)")


def refused_key(response: httpx.Response) -> None:
    """Outside the samples: a refused key ends the program on one line."""
    if response.status_code == 401:
        response.read()
        fail(f"PARTNER_API_KEY was refused (401): {response.text}")


def record(operation_id: str, answer: Response[Any]) -> None:
    STATUSES[operation_id] = int(answer.status_code)


def helper(client: AuthenticatedClient, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A sandbox helper (the customer, the clinician or the card network), through the client's httpx client."""
    answer = client.get_httpx_client().post(path, json=body or {})
    if answer.status_code != 200:
        raise SystemExit(f"the helper {path} answered {answer.status_code}: {answer.text}")
    result: dict[str, Any] = answer.json()
    return result


def no_charges() -> AmountDetails:
    return AmountDetails(total_additional_charges=0, total_discounts=0)


def new_session(client: AuthenticatedClient, name: str) -> str:
    """A payment session for the calls that need one in another state."""
    answer = create_payment_session.sync_detailed(
        client=client,
        body=CreatePaymentSessionRequest(
            kind="authorization",
            total_amount=2500,
            amount_details=no_charges(),
            idempotency_key=f"{RUN}-{name}",
            success_url="https://partner.example/orders/ok",
            failure_url="https://partner.example/orders/failed",
            order_items=[OrderItemInput(name="Thermometer", sku="TH-10", quantity=1, price=2500, amount_details=no_charges())],
        ),
    )
    if not isinstance(answer.parsed, PaymentSessionCreateResponse):
        raise SystemExit(f"creating a session answered {answer.status_code}: {answer.content!r}")
    return str(answer.parsed.id)


def main() -> None:
    check_environment()
    run = RUN
    client = AuthenticatedClient(
        base_url=BASE_URL,
        token=API_KEY,
        auth_header_name="x-service-api-key",
        prefix="",
        httpx_args={"event_hooks": {"response": [refused_key]}},
    )

    # A session: created, paid by the customer, read, listed, captured in part, refunded in part.
    # sample: createPaymentSession
    created = create_payment_session.sync_detailed(
        client=client,
        body=CreatePaymentSessionRequest(
            kind="authorization",
            total_amount=5000,
            amount_details=AmountDetails(total_additional_charges=0, total_discounts=0),
            success_url="https://partner.example/orders/{{payment_session_id}}/thanks",
            failure_url="https://partner.example/orders/{{payment_session_id}}/failed",
            customer_email=f"jane-{run}@partner.example",
            idempotency_key=f"order-{run}",
            order_items=[
                OrderItemInput(
                    name="Blood pressure monitor",
                    sku="BPM-200",
                    quantity=1,
                    price=5000,
                    amount_details=AmountDetails(total_additional_charges=0, total_discounts=0),
                )
            ],
        ),
    )
    if not isinstance(created.parsed, PaymentSessionCreateResponse):
        raise SystemExit(f"create answered {created.status_code}: {created.content!r}")
    session_id = str(created.parsed.id)
    print(f"send the customer to {created.parsed.redirect_url}")
    # end sample
    record("createPaymentSession", created)
    helper(client, f"/sandbox/v1/payment_sessions/{session_id}/complete_checkout")

    # sample: retrievePaymentSession
    retrieved = retrieve_payment_session.sync_detailed(session_id, client=client)
    if not isinstance(retrieved.parsed, PaymentSession):
        raise SystemExit(f"retrieve answered {retrieved.status_code}: {retrieved.content!r}")
    session = retrieved.parsed
    print(f"session {session.id} is {session.status} ({session.status_summary})")
    # end sample
    record("retrievePaymentSession", retrieved)

    # sample: listPaymentSessions
    page = list_payment_sessions.sync_detailed(
        client=client, search=f"jane-{run}@partner.example", status=["authorized"], page_size=10
    )
    if not isinstance(page.parsed, PaymentSessionList):
        raise SystemExit(f"list answered {page.status_code}: {page.content!r}")
    for item in page.parsed.payment_sessions:
        print(item.id, item.status, item.total_amount)
    # end sample
    record("listPaymentSessions", page)

    # sample: capturePaymentSession
    captured = capture_payment_session.sync_detailed(
        session_id,
        client=client,
        body=CapturePaymentSessionRequest(total_amount=3000, idempotency_key=f"capture-{run}"),
    )
    if not isinstance(captured.parsed, CaptureResponse):
        raise SystemExit(f"capture answered {captured.status_code}: {captured.content!r}")
    print(f"capture {captured.parsed.id}")
    # end sample
    record("capturePaymentSession", captured)

    # sample: createRefund
    refund = create_refund.sync_detailed(
        client=client,
        body=CreateRefundRequest(
            payment_id=session_id, amount=1000, reason="customer_request", idempotency_key=f"refund-{run}"
        ),
    )
    if not isinstance(refund.parsed, RefundCreateResponse):
        raise SystemExit(f"refund answered {refund.status_code}: {refund.content!r}")
    print(f"refund {refund.parsed.refund_id}")
    # end sample
    record("createRefund", refund)

    # A session the customer has not paid yet, canceled.
    pending_id = new_session(client, "pending")
    # sample: cancelPaymentSession
    canceled = cancel_payment_session.sync_detailed(pending_id, client=client, body=CancelPaymentSessionRequest())
    if not isinstance(canceled.parsed, PaymentSessionCancelResponse):
        raise SystemExit(f"cancel answered {canceled.status_code}: {canceled.content!r}")
    print(f"session {canceled.parsed.id} is {canceled.parsed.status}")
    # end sample
    record("cancelPaymentSession", canceled)

    # An authorization, voided.
    authorized_id = new_session(client, "authorized")
    helper(client, f"/sandbox/v1/payment_sessions/{authorized_id}/complete_checkout")
    # sample: voidPaymentSession
    voided = void_payment_session.sync_detailed(
        authorized_id, client=client, body=VoidPaymentSessionRequest(idempotency_key=f"void-{run}")
    )
    if not isinstance(voided.parsed, VoidResponse):
        raise SystemExit(f"void answered {voided.status_code}: {voided.content!r}")
    print(f"void {voided.parsed.id}")
    # end sample
    record("voidPaymentSession", voided)

    # A payment token: created, set up by the customer, read, listed, updated, deleted.
    # sample: createPaymentToken
    setup = create_payment_token.sync_detailed(
        client=client,
        body=CreatePaymentTokenRequest(
            customer_email=f"sam-{run}@partner.example",
            customer_name="Sam Doe",
            success_url="https://partner.example/plan/ok",
            failure_url="https://partner.example/plan/failed",
            metadata="plan-monthly",
        ),
    )
    if not isinstance(setup.parsed, PaymentTokenCreateResponse):
        raise SystemExit(f"create payment token answered {setup.status_code}: {setup.content!r}")
    request_id = str(setup.parsed.provision_token_request_id)
    print(f"send the customer to {setup.parsed.redirect_url}")
    # end sample
    record("createPaymentToken", setup)
    helper(client, f"/sandbox/v1/provision_requests/{request_id}/complete", {"letter": "approved"})

    # sample: retrieveProvisionTokenRequest
    provision = retrieve_provision_token_request.sync_detailed(request_id, client=client)
    if not isinstance(provision.parsed, ProvisionTokenRequest):
        raise SystemExit(f"retrieve provision request answered {provision.status_code}: {provision.content!r}")
    # None until the customer has finished the setup page
    payment_token = provision.parsed.payment_token
    # end sample
    record("retrieveProvisionTokenRequest", provision)
    if payment_token is None:
        raise SystemExit("the provision request issued no payment token")

    # sample: retrieveProvisionRequestEligibility
    eligibility = retrieve_provision_request_eligibility.sync_detailed(request_id, client=client)
    if not isinstance(eligibility.parsed, EligibilityResponse):
        raise SystemExit(f"eligibility answered {eligibility.status_code}: {eligibility.content!r}")
    print(f"eligibility {eligibility.parsed.eligibility_status}, letter valid until {eligibility.parsed.lmn_expires_at}")
    # end sample
    record("retrieveProvisionRequestEligibility", eligibility)

    # sample: listPaymentTokens
    tokens = list_payment_tokens.sync_detailed(client=client, email=f"sam-{run}@partner.example")
    if not isinstance(tokens.parsed, PaymentTokenList):
        raise SystemExit(f"list payment tokens answered {tokens.status_code}: {tokens.content!r}")
    for listed in tokens.parsed.payment_tokens:
        print(listed.payment_token, listed.customer_email)
    # end sample
    record("listPaymentTokens", tokens)

    # sample: retrievePaymentToken
    token = retrieve_payment_token.sync_detailed(payment_token, client=client)
    if not isinstance(token.parsed, PaymentToken):
        raise SystemExit(f"retrieve payment token answered {token.status_code}: {token.content!r}")
    print(f"token of {token.parsed.customer_email}, letter valid until {token.parsed.lmn_expires_at}")
    # end sample
    record("retrievePaymentToken", token)

    # sample: updatePaymentToken
    update = update_payment_token.sync_detailed(
        payment_token, client=client, body=UpdatePaymentTokenRequest(update_card_info=True)
    )
    if not isinstance(update.parsed, PaymentTokenUpdateResponse):
        raise SystemExit(f"update payment token answered {update.status_code}: {update.content!r}")
    print(f"next: {update.parsed.next_action}, at {update.parsed.redirect_url}")
    # end sample
    record("updatePaymentToken", update)

    # sample: deletePaymentToken
    deleted = delete_payment_token.sync_detailed(payment_token, client=client)
    if not isinstance(deleted.parsed, PaymentTokenDeleteResponse):
        raise SystemExit(f"delete payment token answered {deleted.status_code}: {deleted.content!r}")
    # end sample
    record("deletePaymentToken", deleted)

    # The catalog: an item created, updated, read and listed; the checkout method.
    sku = f"TH-{run}"
    # sample: createCatalogItem
    item_created = create_catalog_item.sync_detailed(
        client=client, body=CreateCatalogItemRequest(sku=sku, name="Digital thermometer")
    )
    if not isinstance(item_created.parsed, CatalogItemCreateResponse):
        raise SystemExit(f"create catalog item answered {item_created.status_code}: {item_created.content!r}")
    # end sample
    record("createCatalogItem", item_created)

    # sample: updateCatalogItem
    item_updated = update_catalog_item.sync_detailed(
        client=client,
        body=UpdateCatalogItemRequest(
            sku=sku,
            name="Digital thermometer",
            description="Reads in 8 seconds.",
            image_urls=["https://partner.example/images/th.jpg"],
            url="https://partner.example/products/th",
        ),
    )
    if not isinstance(item_updated.parsed, CatalogItemUpdateResponse):
        raise SystemExit(f"update catalog item answered {item_updated.status_code}: {item_updated.content!r}")
    # end sample
    record("updateCatalogItem", item_updated)

    # sample: retrieveCatalogItem
    detail = retrieve_catalog_item.sync_detailed(client=client, body=CatalogItemDetailRequest(sku=sku))
    if not isinstance(detail.parsed, CatalogItem):
        raise SystemExit(f"catalog item detail answered {detail.status_code}: {detail.content!r}")
    print(f"{detail.parsed.sku}: {detail.parsed.name}, eligibility {detail.parsed.eligibility or 'not reviewed yet'}")
    # end sample
    record("retrieveCatalogItem", detail)

    # sample: listCatalogItems
    catalog = list_catalog_items.sync_detailed(client=client, page_size=20)
    if not isinstance(catalog.parsed, CatalogItemList):
        raise SystemExit(f"list catalog items answered {catalog.status_code}: {catalog.content!r}")
    for entry in catalog.parsed.data:
        print(entry.sku, entry.eligibility)
    # end sample
    record("listCatalogItems", catalog)

    # sample: retrieveCheckoutMethod
    method = retrieve_checkout_method.sync_detailed(client=client, body=CheckoutMethodRequest())
    if not isinstance(method.parsed, CheckoutMethodResponse):
        raise SystemExit(f"checkout method answered {method.status_code}: {method.content!r}")
    print(f"checkout method: {method.parsed.to_dict()}")
    # end sample
    record("retrieveCheckoutMethod", method)

    # A dispute, opened by the card network on the captured session: read both ways, listed, accepted.
    dispute_id = str(helper(client, f"/sandbox/v1/payment_sessions/{session_id}/disputes")["dispute_id"])

    # sample: retrieveDispute
    dispute = retrieve_dispute.sync_detailed(UUID(dispute_id), client=client)
    if not isinstance(dispute.parsed, Dispute):
        raise SystemExit(f"retrieve dispute answered {dispute.status_code}: {dispute.content!r}")
    print(f"dispute {dispute.parsed.dispute_id} is {dispute.parsed.state}: respond by {dispute.parsed.due_by}")
    # end sample
    record("retrieveDispute", dispute)

    # sample: listDisputes
    disputes = list_disputes.sync_detailed(client=client)
    if not isinstance(disputes.parsed, DisputeRecordList):
        raise SystemExit(f"list disputes answered {disputes.status_code}: {disputes.content!r}")
    for each in disputes.parsed.data:
        print(each.id, each.state, each.amount)
    # end sample
    record("listDisputes", disputes)

    # sample: retrieveDisputeRecord
    dispute_record = retrieve_dispute_record.sync_detailed(dispute_id, client=client)
    if not isinstance(dispute_record.parsed, DisputeRecord):
        raise SystemExit(f"retrieve dispute record answered {dispute_record.status_code}: {dispute_record.content!r}")
    print(f"dispute {dispute_record.parsed.id} of charge {dispute_record.parsed.charge_id} is {dispute_record.parsed.state}")
    # end sample
    record("retrieveDisputeRecord", dispute_record)

    # sample: acceptDispute
    accepted = accept_dispute.sync_detailed(dispute_id, client=client, body=AcceptDisputeRequest())
    if not isinstance(accepted.parsed, DisputeAcceptResponse):
        raise SystemExit(f"accept dispute answered {accepted.status_code}: {accepted.content!r}")
    # end sample
    record("acceptDispute", accepted)

    print(f"PARTNER_SAMPLES {json.dumps(STATUSES)}")


if __name__ == "__main__":
    try:
        main()
    except httpx.TransportError:
        fail(f"Nothing answers at PARTNER_BASE_URL={BASE_URL}: is the sandbox running (npm start)?")
