//! A partner's server code with the client that openapi-generator's `rust` generator (reqwest,
//! blocking) makes: create an authorization session, complete its checkout through the sandbox's
//! helper, capture part of it, refund part of it, list with a filter, retrieve it, and read the
//! error code of a second capture through the generated error type.
use checkout_api::apis::configuration::{ApiKey, Configuration};
use checkout_api::apis::payment_sessions_api::{
    self as sessions, CapturePaymentSessionError, CapturePaymentSessionParams,
    CreatePaymentSessionParams, ListPaymentSessionsParams, RetrievePaymentSessionParams,
};
use checkout_api::apis::refunds_api::{self, CreateRefundParams};
use checkout_api::apis::{Error, ResponseContent};
use checkout_api::models::payment_session_capture_error::Error as CaptureErrorCode;
use checkout_api::models::{
    self, AmountDetails, CapturePaymentSessionRequest, CreatePaymentSessionRequest,
    CreateRefundRequest, OrderItemInput,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let base_url = std::env::var("PARTNER_BASE_URL")?;
    let api_key = std::env::var("PARTNER_API_KEY")?;
    let run = std::env::var("PARTNER_RUN")?;
    let email = format!("{run}@partner.example");
    let config = Configuration {
        base_path: base_url.clone(),
        api_key: Some(ApiKey {
            prefix: None,
            key: api_key.clone(),
        }),
        ..Configuration::default()
    };
    let no_charges = AmountDetails::new(0, 0);

    let item = OrderItemInput {
        sku: Some("BPM-200".into()),
        ..OrderItemInput::new("Blood pressure monitor".into(), 1, 5000, no_charges.clone())
    };
    let request = CreatePaymentSessionRequest {
        kind: Some(models::PaymentSessionKind::Authorization),
        customer_email: Some(email.clone()),
        customer_name: Some("Partner Matrix".into()),
        metadata: Some(run.clone()),
        idempotency_key: Some(format!("{run}-create")),
        ..CreatePaymentSessionRequest::new(
            5000,
            no_charges,
            "https://partner.example/orders/{{payment_session_id}}/thanks".into(),
            "https://partner.example/orders/{{payment_session_id}}/failed".into(),
            vec![item],
        )
    };
    let created = sessions::create_payment_session(
        &config,
        CreatePaymentSessionParams {
            create_payment_session_request: request,
        },
    )?;
    let id = created.id.to_string();

    // The customer finishes the hosted checkout: in the sandbox, its helper does it.
    config
        .client
        .post(format!(
            "{base_url}/sandbox/v1/payment_sessions/{id}/complete_checkout"
        ))
        .header("x-service-api-key", &api_key)
        .header("content-type", "application/json")
        .body("{}")
        .send()?
        .error_for_status()?;

    let capture = |amount: i64, idempotency_key: String| {
        let request = CapturePaymentSessionRequest {
            idempotency_key: Some(idempotency_key),
            ..CapturePaymentSessionRequest::new(amount)
        };
        sessions::capture_payment_session(
            &config,
            CapturePaymentSessionParams {
                business_id: id.clone(),
                capture_payment_session_request: request,
            },
        )
    };
    capture(3000, format!("{run}-capture"))?;

    let refund_request = CreateRefundRequest::new(
        id.clone(),
        1000,
        format!("{run}-refund"),
        models::RefundReason::CustomerRequest,
    );
    let refund = refunds_api::create_refund(
        &config,
        CreateRefundParams {
            create_refund_request: refund_request,
        },
    )?;

    let session = sessions::retrieve_payment_session(
        &config,
        RetrievePaymentSessionParams {
            business_id: id.clone(),
        },
    )?;

    let list = sessions::list_payment_sessions(
        &config,
        ListPaymentSessionsParams {
            search: Some(email.clone()),
            status: Some(vec![models::PaymentSessionStatus::Captured]),
            page: None,
            page_size: None,
            filter_pending: None,
            filter_voided: None,
            include_metadata: None,
            include_order_items: None,
            created_on_start: None,
            created_on_end: None,
            captured_on_start: None,
            captured_on_end: None,
            include_refunds: None,
            include_disputes: None,
            kind: None,
            summarize_refunds: None,
            include_service_fee: None,
            payment_token: None,
        },
    )?;
    let listed = list
        .payment_sessions
        .iter()
        .any(|item| item.id == Some(created.id));

    // A second capture: its 400 body is the generated PaymentSessionCaptureError, whose `error` is
    // an enum. CapturePaymentSessionError picks its member by the body's shape, not by the status
    // (a 500 `ServerError` body would decode as Status400 too), so the status is matched as well.
    let capture_error = match capture(1000, format!("{run}-capture-2")) {
        Err(Error::ResponseError(ResponseContent {
            status,
            entity: Some(CapturePaymentSessionError::Status400(body)),
            ..
        })) if status == 400 => body.error,
        Err(Error::ResponseError(response)) => {
            return Err(format!(
                "the second capture answered {}: {}",
                response.status, response.content
            )
            .into())
        }
        Err(other) => return Err(other.into()),
        Ok(_) => return Err("the second capture succeeded".into()),
    };
    if capture_error == CaptureErrorCode::SessionCaptured {
        println!("the session was already captured: the first capture stands");
    }

    println!("session {id} is {}", session.status);
    let result = serde_json::json!({
        "session_id": id,
        "captured": session.capture_amount,
        "refund_id": refund.refund_id,
        "listed": listed,
        "capture_error": capture_error,
    });
    println!("PARTNER_RESULT {result}");
    Ok(())
}
