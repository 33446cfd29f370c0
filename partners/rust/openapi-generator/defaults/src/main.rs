//! The short flow against the client that openapi-generator's `rust` generator writes with its
//! defaults (reqwest, async) from the OpenAPI 3.0 companion: create an authorization session,
//! complete its checkout through the sandbox's helper, capture part of it, refund part of it, list
//! it with a filter, retrieve it, and read the error code of a second capture, status_summary and
//! service_fee as the service sent them.
//!
//! It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
//! PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
use checkout_api::apis::configuration::{ApiKey, Configuration};
use checkout_api::apis::payment_sessions_api::{self as sessions, CapturePaymentSessionError};
use checkout_api::apis::{refunds_api, Error, ResponseContent};
use checkout_api::models::{
    AmountDetails, CapturePaymentSessionRequest, CreatePaymentSessionRequest, CreateRefundRequest,
    OrderItemInput, PaymentSessionKindInput, PaymentSessionStatusInput, RefundReasonInput,
};

fn setting(name: &str, default: &str) -> String {
    std::env::var(name).ok().filter(|value| !value.is_empty()).unwrap_or_else(|| default.to_string())
}

fn main() {
    // The generated functions are async: a current-thread runtime runs them one after another.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime");
    runtime.block_on(flow());
}

async fn flow() {
    let base_url = setting("PARTNER_BASE_URL", "http://127.0.0.1:4010").trim_end_matches('/').to_string();
    let run = setting("PARTNER_RUN", &format!("{:x}", std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis()));
    let email = format!("{run}@partner.example");
    let mut config = Configuration::new();
    config.base_path = base_url.clone();
    // The client sends the document's apiKey scheme (x-service-api-key) from here on every call.
    config.api_key = Some(ApiKey { prefix: None, key: setting("PARTNER_API_KEY", "sandbox-dev-key") });

    let no_charges = || AmountDetails::new(0, 0);
    let mut order_item = OrderItemInput::new("Blood pressure monitor".into(), 1, 5000, no_charges());
    order_item.sku = Some("BPM-200".into());
    let mut create = CreatePaymentSessionRequest::new(
        5000, no_charges(), "https://partner.example/thanks".into(), "https://partner.example/failed".into(), vec![order_item],
    );
    create.kind = Some(PaymentSessionKindInput::Authorization);
    create.customer_email = Some(email.clone());
    create.metadata = Some(run.clone());
    create.idempotency_key = Some(format!("{run}-create"));
    let created = sessions::create_payment_session(&config, create).await.expect("create");
    let id = created.id.to_string();

    // The customer's checkout, played by the sandbox's helper (not in the published document).
    let completed = config.client.post(format!("{base_url}/sandbox/v1/payment_sessions/{id}/complete_checkout"))
        .header("x-service-api-key", &config.api_key.as_ref().unwrap().key)
        .header("content-type", "application/json").body("{}").send().await.expect("complete_checkout");
    assert!(completed.status().is_success(), "complete_checkout answered {}", completed.status());

    let mut capture = CapturePaymentSessionRequest::new(3000);
    capture.idempotency_key = Some(format!("{run}-capture"));
    sessions::capture_payment_session(&config, &id, capture).await.expect("capture");
    let refund = CreateRefundRequest::new(id.clone(), 1000, format!("{run}-refund"), RefundReasonInput::CustomerRequest);
    let refund = refunds_api::create_refund(&config, refund).await.expect("refund");

    let list = sessions::list_payment_sessions(
        &config, None, None, None, None, None, None, Some(&email), None, None, None, None, None, None, None,
        Some(vec![PaymentSessionStatusInput::Captured]), None, None, None,
    ).await.expect("list");
    let listed = list.payment_sessions.iter().any(|item| item.id.map(|found| found.to_string()) == Some(id.clone()));
    let session = sessions::retrieve_payment_session(&config, &id).await.expect("retrieve");

    // A second capture answers 400: the error's entity is the operation's error enum, Status400 its body.
    let mut again = CapturePaymentSessionRequest::new(1000);
    again.idempotency_key = Some(format!("{run}-capture-2"));
    let capture_error = match sessions::capture_payment_session(&config, &id, again).await {
        Err(Error::ResponseError(ResponseContent { status, entity: Some(CapturePaymentSessionError::Status400(body)), .. })) if status == 400 => body.error,
        other => panic!("the second capture was not refused with a 400: {other:?}"),
    };

    // The companion states no type for service_fee (a string or a number): the JSON value as it came.
    let service_fee = match session.service_fee.clone().flatten() {
        Some(serde_json::Value::String(text)) => Some(text),
        Some(serde_json::Value::Number(number)) => Some(number.to_string()),
        _ => None,
    };
    let result = serde_json::json!({
        "session_id": id,
        "captured": session.capture_amount,
        "refund_id": refund.refund_id,
        "listed": listed,
        "capture_error": capture_error,
        "status_summary": session.status_summary,
        "service_fee": service_fee,
    });
    println!("PARTNER_DEFAULTS_RESULT {result}");
}
