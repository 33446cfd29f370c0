"""The Python sample of every operation of the contract, with the client openapi-generator's python
generator writes (pydantic models, urllib3), as the API reference shows them: each call stands
between `# sample: <operationId>` and `# end sample`. Around them, the program plays the customer,
the clinician and the card network with the sandbox's helpers (/sandbox/v1/...), which the real
service does not have.

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

from urllib3.exceptions import HTTPError

from checkout_client import (
    AmountDetails,
    ApiClient,
    CapturePaymentSessionRequest,
    CatalogItemDetailRequest,
    Configuration,
    CreateCatalogItemRequest,
    CreatePaymentSessionRequest,
    CreatePaymentTokenRequest,
    CreateRefundRequest,
    DisputesApi,
    EligibilityApi,
    OrderItemInput,
    PaymentSessionCreateError,
    PaymentSessionKindInput,
    PaymentSessionsApi,
    PaymentSessionStatusInput,
    PaymentTokensApi,
    ProductCatalogApi,
    RefundReasonInput,
    RefundsApi,
    UpdateCatalogItemRequest,
    UpdatePaymentTokenRequest,
    VoidPaymentSessionRequest,
)
from checkout_client.exceptions import ApiException, BadRequestException, UnauthorizedException
from checkout_client.rest import RESTResponse


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


class RecordingApiClient(ApiClient):
    """The generated ApiClient, keeping the status of its last answer for the PARTNER_SAMPLES line."""

    last_status = 0

    def call_api(self, *args: Any, **kwargs: Any) -> RESTResponse:
        response = super().call_api(*args, **kwargs)
        self.last_status = response.status
        return response


def helper(api_client: ApiClient, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A sandbox helper (the customer, the clinician or the card network), through the generated request layer."""
    request = api_client.param_serialize(
        method="POST",
        resource_path=path,
        header_params={"Content-Type": "application/json"},
        body=body or {},
        auth_settings=["ServiceApiKey"],
    )
    answer = api_client.call_api(*request)
    text: str = answer.response.data.decode()
    if answer.status != 200:
        raise SystemExit(f"the helper {path} answered {answer.status}: {text}")
    result: dict[str, Any] = json.loads(text)
    return result


def no_charges() -> AmountDetails:
    return AmountDetails(total_additional_charges=0, total_discounts=0)


def new_session(api_client: ApiClient, name: str) -> str:
    """A payment session for the calls that need one in another state."""
    created = PaymentSessionsApi(api_client).create_payment_session(
        CreatePaymentSessionRequest(
            kind=PaymentSessionKindInput.AUTHORIZATION,
            total_amount=2500,
            amount_details=no_charges(),
            idempotency_key=f"{RUN}-{name}",
            success_url="https://partner.example/orders/ok",
            failure_url="https://partner.example/orders/failed",
            order_items=[OrderItemInput(name="Thermometer", sku="TH-10", quantity=1, price=2500, amount_details=no_charges())],
        )
    )
    return str(created.id)


def samples(api_client: RecordingApiClient) -> None:
    run = RUN

    def record(operation_id: str) -> None:
        STATUSES[operation_id] = api_client.last_status

    # A session: created, paid by the customer, read, listed, captured in part, refunded in part.
    # sample: createPaymentSession
    try:
        created = PaymentSessionsApi(api_client).create_payment_session(
            CreatePaymentSessionRequest(
                kind=PaymentSessionKindInput.AUTHORIZATION,
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
            )
        )
    except BadRequestException as error:
        # error.data is the 400 body, a PaymentSessionCreateError: its `error` is the code
        code = error.data.error if isinstance(error.data, PaymentSessionCreateError) else error.body
        raise SystemExit(f"create answered 400: {code}") from error
    session_id = str(created.id)
    print(f"send the customer to {created.redirect_url}")
    # end sample
    record("createPaymentSession")
    helper(api_client, f"/sandbox/v1/payment_sessions/{session_id}/complete_checkout")

    # sample: retrievePaymentSession
    session = PaymentSessionsApi(api_client).retrieve_payment_session(session_id)
    print(f"session {session.id} is {session.status} ({session.status_summary})")
    # end sample
    record("retrievePaymentSession")

    # sample: listPaymentSessions
    page = PaymentSessionsApi(api_client).list_payment_sessions(
        search=f"jane-{run}@partner.example", status=[PaymentSessionStatusInput.AUTHORIZED], page_size=10
    )
    for item in page.payment_sessions:
        print(item.id, item.status, item.total_amount)
    # end sample
    record("listPaymentSessions")

    # sample: capturePaymentSession
    captured = PaymentSessionsApi(api_client).capture_payment_session(
        session_id, CapturePaymentSessionRequest(total_amount=3000, idempotency_key=f"capture-{run}")
    )
    print(f"capture {captured.id}")
    # end sample
    record("capturePaymentSession")

    # sample: createRefund
    refund = RefundsApi(api_client).create_refund(
        CreateRefundRequest(
            payment_id=session_id,
            amount=1000,
            reason=RefundReasonInput.CUSTOMER_REQUEST,
            idempotency_key=f"refund-{run}",
        )
    )
    print(f"refund {refund.refund_id}")
    # end sample
    record("createRefund")

    # A session the customer has not paid yet, canceled.
    pending_id = new_session(api_client, "pending")
    # sample: cancelPaymentSession
    canceled = PaymentSessionsApi(api_client).cancel_payment_session(pending_id, {})
    print(f"session {canceled.id} is {canceled.status}")
    # end sample
    record("cancelPaymentSession")

    # An authorization, voided.
    authorized_id = new_session(api_client, "authorized")
    helper(api_client, f"/sandbox/v1/payment_sessions/{authorized_id}/complete_checkout")
    # sample: voidPaymentSession
    voided = PaymentSessionsApi(api_client).void_payment_session(
        authorized_id, VoidPaymentSessionRequest(idempotency_key=f"void-{run}")
    )
    print(f"void {voided.id}")
    # end sample
    record("voidPaymentSession")

    # A payment token: created, set up by the customer, read, listed, updated, deleted.
    # sample: createPaymentToken
    setup = PaymentTokensApi(api_client).create_payment_token(
        CreatePaymentTokenRequest(
            customer_email=f"sam-{run}@partner.example",
            customer_name="Sam Doe",
            success_url="https://partner.example/plan/ok",
            failure_url="https://partner.example/plan/failed",
            metadata="plan-monthly",
        )
    )
    request_id = str(setup.provision_token_request_id)
    print(f"send the customer to {setup.redirect_url}")
    # end sample
    record("createPaymentToken")
    helper(api_client, f"/sandbox/v1/provision_requests/{request_id}/complete", {"letter": "approved"})

    # sample: retrieveProvisionTokenRequest
    provision = PaymentTokensApi(api_client).retrieve_provision_token_request(request_id)
    # None until the customer has finished the setup page
    payment_token = provision.payment_token
    # end sample
    record("retrieveProvisionTokenRequest")
    if payment_token is None:
        raise SystemExit("the provision request issued no payment token")

    # sample: retrieveProvisionRequestEligibility
    eligibility = EligibilityApi(api_client).retrieve_provision_request_eligibility(request_id)
    print(f"eligibility {eligibility.eligibility_status}, letter valid until {eligibility.lmn_expires_at}")
    # end sample
    record("retrieveProvisionRequestEligibility")

    # sample: listPaymentTokens
    tokens = PaymentTokensApi(api_client).list_payment_tokens(email=f"sam-{run}@partner.example")
    for listed in tokens.payment_tokens:
        print(listed.payment_token, listed.customer_email)
    # end sample
    record("listPaymentTokens")

    # sample: retrievePaymentToken
    token = PaymentTokensApi(api_client).retrieve_payment_token(payment_token)
    print(f"token of {token.customer_email}, letter valid until {token.lmn_expires_at}")
    # end sample
    record("retrievePaymentToken")

    # sample: updatePaymentToken
    update = PaymentTokensApi(api_client).update_payment_token(
        payment_token, UpdatePaymentTokenRequest(update_card_info=True)
    )
    print(f"next: {update.next_action}, at {update.redirect_url}")
    # end sample
    record("updatePaymentToken")

    # sample: deletePaymentToken
    PaymentTokensApi(api_client).delete_payment_token(payment_token)
    # end sample
    record("deletePaymentToken")

    # The catalog: an item created, updated, read and listed; the checkout method.
    sku = f"TH-{run}"
    # sample: createCatalogItem
    ProductCatalogApi(api_client).create_catalog_item(CreateCatalogItemRequest(sku=sku, name="Digital thermometer"))
    # end sample
    record("createCatalogItem")

    # sample: updateCatalogItem
    ProductCatalogApi(api_client).update_catalog_item(
        UpdateCatalogItemRequest(
            sku=sku,
            name="Digital thermometer",
            description="Reads in 8 seconds.",
            image_urls=["https://partner.example/images/th.jpg"],
            url="https://partner.example/products/th",
        )
    )
    # end sample
    record("updateCatalogItem")

    # sample: retrieveCatalogItem
    detail = ProductCatalogApi(api_client).retrieve_catalog_item(CatalogItemDetailRequest(sku=sku))
    print(f"{detail.sku}: {detail.name}, eligibility {detail.eligibility or 'not reviewed yet'}")
    # end sample
    record("retrieveCatalogItem")

    # sample: listCatalogItems
    catalog = ProductCatalogApi(api_client).list_catalog_items(page_size=20)
    for entry in catalog.data:
        print(entry.sku, entry.eligibility)
    # end sample
    record("listCatalogItems")

    # sample: retrieveCheckoutMethod
    method = ProductCatalogApi(api_client).retrieve_checkout_method({})
    print(f"checkout method: {method}")
    # end sample
    record("retrieveCheckoutMethod")

    # A dispute, opened by the card network on the captured session: read both ways, listed, accepted.
    dispute_id = str(helper(api_client, f"/sandbox/v1/payment_sessions/{session_id}/disputes")["dispute_id"])

    # sample: retrieveDispute
    dispute = DisputesApi(api_client).retrieve_dispute(UUID(dispute_id))
    print(f"dispute {dispute.dispute_id} is {dispute.state}: respond by {dispute.due_by}")
    # end sample
    record("retrieveDispute")

    # sample: listDisputes
    disputes = DisputesApi(api_client).list_disputes()
    for each in disputes.data:
        print(each.id, each.state, each.amount)
    # end sample
    record("listDisputes")

    # sample: retrieveDisputeRecord
    dispute_record = DisputesApi(api_client).retrieve_dispute_record(dispute_id)
    print(f"dispute {dispute_record.id} of charge {dispute_record.charge_id} is {dispute_record.state}")
    # end sample
    record("retrieveDisputeRecord")

    # sample: acceptDispute
    DisputesApi(api_client).accept_dispute(dispute_id, {})
    # end sample
    record("acceptDispute")


def main() -> None:
    check_environment()
    configuration = Configuration(host=BASE_URL, api_key={"ServiceApiKey": API_KEY})
    # One attempt per request: an unreachable sandbox is said at once.
    configuration.retries = 0
    with RecordingApiClient(configuration) as api_client:
        try:
            samples(api_client)
        except UnauthorizedException as error:
            fail(f"PARTNER_API_KEY was refused (401): {error.body}")
        except ApiException as error:
            raise SystemExit(f"{error.status} {error.reason}: {error.body}") from error
        except HTTPError:
            fail(f"Nothing answers at PARTNER_BASE_URL={BASE_URL}: is the sandbox running (npm start)?")
    print(f"PARTNER_SAMPLES {json.dumps(STATUSES)}")


if __name__ == "__main__":
    main()
