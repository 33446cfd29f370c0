//! The Rust samples of the reference: every operation of the contract, called once through the
//! client openapi-generator's `rust` generator makes (reqwest, blocking), in an order that works on
//! the sandbox. Each call stands between `// sample: <operationId>` and `// end sample`; the
//! reference quotes that region, dedented, as the operation's Rust sample. What plays the
//! customer, the clinician or the card network (the sandbox's helpers under /sandbox/v1/, plain
//! HTTP) stays outside the markers.
//!
//! It reads PARTNER_BASE_URL (default http://127.0.0.1:4010), PARTNER_API_KEY (default
//! sandbox-dev-key) and PARTNER_RUN (default: the time in base 36; it keeps the idempotency keys,
//! emails and skus of one run apart from another's), and ends on the line
//! `PARTNER_SAMPLES {"<operationId>": <HTTP status>, …}`. See NOTES.md, "Samples".
use std::process::ExitCode;

use checkout_api::apis::configuration::{ApiKey, Configuration};
use checkout_api::apis::disputes_api::{
    self, AcceptDisputeParams, RetrieveDisputeParams, RetrieveDisputeRecordParams,
};
use checkout_api::apis::eligibility_api::{self, RetrieveProvisionRequestEligibilityParams};
use checkout_api::apis::payment_sessions_api::{
    self, CancelPaymentSessionParams, CapturePaymentSessionError, CapturePaymentSessionParams,
    CreatePaymentSessionParams, ListPaymentSessionsParams, RetrievePaymentSessionParams,
    VoidPaymentSessionParams,
};
use checkout_api::apis::payment_tokens_api::{
    self, CreatePaymentTokenParams, DeletePaymentTokenParams, ListPaymentTokensParams,
    RetrievePaymentTokenParams, RetrieveProvisionTokenRequestParams, UpdatePaymentTokenParams,
};
use checkout_api::apis::product_catalog_api::{
    self, CreateCatalogItemParams, ListCatalogItemsParams, RetrieveCatalogItemParams,
    RetrieveCheckoutMethodParams, UpdateCatalogItemParams,
};
use checkout_api::apis::refunds_api::{self, CreateRefundParams};
use checkout_api::apis::{Error, ResponseContent};
use checkout_api::models::{
    AmountDetails, CapturePaymentSessionRequest, CatalogItemDetailRequest,
    CreateCatalogItemRequest, CreatePaymentSessionRequest, CreatePaymentTokenRequest,
    CreateRefundRequest, EligibilityStatusKnownValue, OrderItemInput, PaymentSessionKindInput,
    PaymentSessionStatusKnownValue, PaymentTokenUpdateResponseNextActionKnownValue,
    RefundReasonInput, UpdateCatalogItemRequest, UpdatePaymentTokenRequest,
    VoidPaymentSessionRequest,
};

/// The status an operation that returned Ok got. A generated function returns Ok only for a
/// status below 400 (4xx and 5xx are Error::ResponseError, with their status), and does not hand
/// the status of a success to its caller; 200 is the only success status the contract gives
/// each of these operations.
const OK: u16 = 200;

/// What the program reads from its environment, checked: a wrong value stops it with one line.
struct Settings {
    base_url: String,
    api_key: String,
    run: String,
}

impl Settings {
    fn from_environment() -> Result<Settings, String> {
        // An unset or empty variable takes its default.
        let variable = |name: &str, fallback: String| {
            std::env::var(name)
                .ok()
                .filter(|value| !value.is_empty())
                .unwrap_or(fallback)
        };
        let base_url = variable("PARTNER_BASE_URL", "http://127.0.0.1:4010".into())
            .trim_end_matches('/')
            .to_string();
        let api_key = variable("PARTNER_API_KEY", "sandbox-dev-key".into());
        let run = variable("PARTNER_RUN", base36(now_millis()));
        let host = base_url
            .strip_prefix("http://")
            .or_else(|| base_url.strip_prefix("https://"))
            .map(|rest| rest.split(['/', '?', '#']).next().unwrap_or(""));
        if !host.is_some_and(|host| !host.is_empty() && !host.contains(char::is_whitespace)) {
            return Err(format!("PARTNER_BASE_URL={base_url} is not an http(s) URL"));
        }
        if api_key.is_empty()
            || api_key.len() > 256
            || !api_key.bytes().all(|b| (0x21..=0x7e).contains(&b))
        {
            return Err(format!(
                "PARTNER_API_KEY={api_key} is not an API key: printable ASCII without spaces"
            ));
        }
        let run_ok = run.len() <= 64
            && run
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphanumeric())
            && run
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !run_ok {
            return Err(format!("PARTNER_RUN={run} is not 1 to 64 letters, digits, - or _ (it goes into idempotency keys, emails and skus)"));
        }
        Ok(Settings {
            base_url,
            api_key,
            run,
        })
    }
}

fn now_millis() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis())
        .unwrap_or(0)
}

fn base36(mut n: u128) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(std::char::from_digit((n % 36) as u32, 36).unwrap_or('0'));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

/// Why the program stopped, as one line; with the status and body of an answer, or whether none
/// came.
#[derive(Default)]
struct Failure {
    status: Option<u16>,
    body: String,
    unreachable: bool,
    message: String,
}

impl<T> From<Error<T>> for Failure {
    fn from(error: Error<T>) -> Self {
        match error {
            Error::ResponseError(response) => Failure {
                status: Some(response.status.as_u16()),
                message: format!(
                    "the service answered {}: {}",
                    response.status, response.content
                ),
                body: response.content,
                ..Failure::default()
            },
            Error::Reqwest(e) => Failure {
                unreachable: e.is_connect() || e.is_timeout(),
                message: with_causes(&e),
                ..Failure::default()
            },
            other => Failure {
                message: other.to_string(),
                ..Failure::default()
            },
        }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure {
            message,
            ..Failure::default()
        }
    }
}

/// An error and its causes, on one line.
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut line = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        line.push_str(&format!(": {inner}"));
        cause = inner.source();
    }
    line
}

fn main() -> ExitCode {
    let settings = match Settings::from_environment() {
        Ok(settings) => settings,
        Err(line) => {
            eprintln!("{line}");
            return ExitCode::from(2);
        }
    };
    match call_every_operation(&settings) {
        Ok(statuses) => {
            let fields: Vec<String> = statuses
                .iter()
                .map(|(operation, status)| format!("\"{operation}\":{status}"))
                .collect();
            println!("PARTNER_SAMPLES {{{}}}", fields.join(","));
            ExitCode::SUCCESS
        }
        // A refused key or no service at the address is a wrong setting (exit 2); any other
        // answer that is not 2xx stops the program (exit 1). Either way, on one line.
        Err(failure) if failure.unreachable => {
            eprintln!(
                "Nothing answers at PARTNER_BASE_URL={} ({}): is the sandbox running (npm start)?",
                settings.base_url, failure.message
            );
            ExitCode::from(2)
        }
        Err(failure) if failure.status == Some(401) => {
            eprintln!("PARTNER_API_KEY was refused (401): {}", failure.body);
            ExitCode::from(2)
        }
        Err(failure) => {
            eprintln!("{}", failure.message);
            ExitCode::from(1)
        }
    }
}

fn call_every_operation(settings: &Settings) -> Result<Vec<(&'static str, u16)>, Failure> {
    let mut statuses = Vec::new();
    let run = &settings.run;
    let email = format!("{run}@partner.example");
    // The configuration carries the base URL and the API key, which each call sends as
    // x-service-api-key (the document's apiKey scheme).
    let config = Configuration {
        base_path: settings.base_url.clone(),
        api_key: Some(ApiKey {
            prefix: None,
            key: settings.api_key.clone(),
        }),
        ..Configuration::default()
    };
    let sandbox = Helpers {
        config: &config,
        settings,
    };

    // sample: createPaymentSession
    let no_charges = AmountDetails::new(0, 0);
    let item = OrderItemInput {
        sku: Some("BPM-200".into()),
        ..OrderItemInput::new("Blood pressure monitor".into(), 1, 5000, no_charges.clone())
    };
    let request = CreatePaymentSessionRequest {
        kind: Some(PaymentSessionKindInput::Authorization),
        customer_email: Some(email.clone()),
        idempotency_key: Some(format!("{run}-create")),
        ..CreatePaymentSessionRequest::new(
            5000,
            no_charges,
            "https://partner.example/orders/{{payment_session_id}}/thanks".into(),
            "https://partner.example/orders/{{payment_session_id}}/failed".into(),
            vec![item],
        )
    };
    let created = payment_sessions_api::create_payment_session(
        &config,
        CreatePaymentSessionParams {
            create_payment_session_request: request.clone(),
        },
    )?;
    let session_id = created.id.to_string();
    println!("send the customer to {}", created.redirect_url);
    // end sample
    statuses.push(("createPaymentSession", OK));

    // The customer finishes the hosted checkout: the hold is placed.
    sandbox.post(
        &format!("/sandbox/v1/payment_sessions/{session_id}/complete_checkout"),
        "{}",
    )?;

    // sample: retrievePaymentSession
    let session = payment_sessions_api::retrieve_payment_session(
        &config,
        RetrievePaymentSessionParams {
            business_id: session_id.clone(),
        },
    )?;
    // status is an open enum: a String, compared with a known value's (the generated enum of the
    // companion's PaymentSessionStatusKnownValue; Display writes the value as sent).
    if session.status == PaymentSessionStatusKnownValue::Authorized.to_string() {
        println!("session {session_id} is authorized: capture or void it");
    }
    // end sample
    statuses.push(("retrievePaymentSession", OK));

    // sample: listPaymentSessions
    // The parameter struct does not derive Default: every one of its 18 fields is written out.
    let page = payment_sessions_api::list_payment_sessions(
        &config,
        ListPaymentSessionsParams {
            search: Some(email.clone()),
            page_size: Some(10),
            page: None,
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
            status: None,
            summarize_refunds: None,
            include_service_fee: None,
            payment_token: None,
        },
    )?;
    for item in &page.payment_sessions {
        if let Some(id) = item.id {
            println!("{id} {}", item.status);
        }
    }
    println!("{} sessions match", page.pagination.count);
    // end sample
    statuses.push(("listPaymentSessions", OK));

    // sample: capturePaymentSession
    let capture = payment_sessions_api::capture_payment_session(
        &config,
        CapturePaymentSessionParams {
            business_id: session_id.clone(),
            capture_payment_session_request: CapturePaymentSessionRequest {
                idempotency_key: Some(format!("{run}-capture")),
                ..CapturePaymentSessionRequest::new(3000)
            },
        },
    );
    match capture {
        Ok(capture) => println!("captured 3000 cents: {}", capture.id),
        // The 400's body is the operation's error model; its code is a String (an open enum).
        Err(Error::ResponseError(ResponseContent {
            status,
            entity: Some(CapturePaymentSessionError::Status400(refusal)),
            ..
        })) if status == 400 => {
            return Err(format!("capture refused: {} ({})", refusal.error, refusal.message).into());
        }
        Err(other) => return Err(other.into()),
    }
    // end sample
    statuses.push(("capturePaymentSession", OK));

    // sample: createRefund
    let refund = refunds_api::create_refund(
        &config,
        CreateRefundParams {
            create_refund_request: CreateRefundRequest::new(
                session_id.clone(),
                1000,
                format!("{run}-refund"),
                RefundReasonInput::CustomerRequest,
            ),
        },
    )?;
    println!("refund {}", refund.refund_id);
    // end sample
    statuses.push(("createRefund", OK));

    // Two more sessions, the same request with new keys: one the customer leaves pending, one whose
    // hold is placed.
    let create = |key: String| {
        payment_sessions_api::create_payment_session(
            &config,
            CreatePaymentSessionParams {
                create_payment_session_request: CreatePaymentSessionRequest {
                    idempotency_key: Some(key),
                    ..request.clone()
                },
            },
        )
        .map(|created| created.id.to_string())
    };
    let pending_session_id = create(format!("{run}-to-cancel"))?;
    let authorized_session_id = create(format!("{run}-to-void"))?;
    sandbox.post(
        &format!("/sandbox/v1/payment_sessions/{authorized_session_id}/complete_checkout"),
        "{}",
    )?;

    // sample: cancelPaymentSession
    let canceled = payment_sessions_api::cancel_payment_session(
        &config,
        CancelPaymentSessionParams {
            business_id: pending_session_id.clone(),
            request_body: None,
        },
    )?;
    println!(
        "session {pending_session_id} is {}",
        canceled.status.unwrap_or_default()
    );
    // end sample
    statuses.push(("cancelPaymentSession", OK));

    // sample: voidPaymentSession
    let voided = payment_sessions_api::void_payment_session(
        &config,
        VoidPaymentSessionParams {
            business_id: authorized_session_id.clone(),
            void_payment_session_request: Some(VoidPaymentSessionRequest {
                idempotency_key: Some(format!("{run}-void")),
                ..VoidPaymentSessionRequest::new()
            }),
        },
    )?;
    println!("hold released: {}", voided.id);
    // end sample
    statuses.push(("voidPaymentSession", OK));

    let token_email = format!("tokens-{run}@partner.example");
    // sample: createPaymentToken
    let setup = payment_tokens_api::create_payment_token(
        &config,
        CreatePaymentTokenParams {
            create_payment_token_request: CreatePaymentTokenRequest {
                customer_email: Some(token_email.clone()),
                customer_name: Some("Pat Lee".into()),
                idempotency_key: Some(format!("{run}-token")),
                ..CreatePaymentTokenRequest::new(
                    "https://partner.example/plan/ready".into(),
                    "https://partner.example/plan/failed".into(),
                )
            },
        },
    )?;
    let provision_request_id = setup.provision_token_request_id.to_string();
    println!("send the customer to {}", setup.redirect_url);
    // end sample
    statuses.push(("createPaymentToken", OK));

    // The customer takes the survey and enters a card; the clinician approves the letter.
    sandbox.post(
        &format!("/sandbox/v1/provision_requests/{provision_request_id}/complete"),
        r#"{"letter": "approved"}"#,
    )?;

    // sample: retrieveProvisionTokenRequest
    let provision = payment_tokens_api::retrieve_provision_token_request(
        &config,
        RetrieveProvisionTokenRequestParams {
            provision_token_request_id: provision_request_id.clone(),
        },
    )?;
    // payment_token is None until the customer has finished the setup page.
    match &provision.payment_token {
        Some(token) => println!("payment token {token}"),
        None => println!("no token yet"),
    }
    // end sample
    statuses.push(("retrieveProvisionTokenRequest", OK));
    let payment_token = provision
        .payment_token
        .ok_or_else(|| "the provision request issued no payment token".to_string())?;

    // sample: retrieveProvisionRequestEligibility
    let answer = eligibility_api::retrieve_provision_request_eligibility(
        &config,
        RetrieveProvisionRequestEligibilityParams {
            provision_token_request_id: provision_request_id.clone(),
        },
    )?;
    // eligibility_status is an open enum (a String), or None.
    let approved = EligibilityStatusKnownValue::Approved.to_string();
    if answer.eligibility_status.as_deref() == Some(approved.as_str()) {
        println!("approved for {}", answer.items.join(", "));
    }
    // end sample
    statuses.push(("retrieveProvisionRequestEligibility", OK));

    // sample: listPaymentTokens
    let found = payment_tokens_api::list_payment_tokens(
        &config,
        ListPaymentTokensParams {
            email: Some(token_email.clone()),
            page: None,
            page_size: None,
            name: None,
            card_expires_before: None,
            lmn_expires_before: None,
        },
    )?;
    for token in &found.payment_tokens {
        println!(
            "{} {}",
            token.payment_token,
            token.customer_email.as_deref().unwrap_or("")
        );
    }
    // end sample
    statuses.push(("listPaymentTokens", OK));

    // sample: retrievePaymentToken
    let token = payment_tokens_api::retrieve_payment_token(
        &config,
        RetrievePaymentTokenParams {
            payment_token: payment_token.clone(),
        },
    )?;
    if let Some(until) = token.lmn_expires_at.flatten() {
        println!(
            "{}: letter of medical necessity until {until}",
            token.payment_token
        );
    }
    // end sample
    statuses.push(("retrievePaymentToken", OK));

    // sample: updatePaymentToken
    let vitamins = OrderItemInput {
        sku: Some("VITD-2000".into()),
        ..OrderItemInput::new(
            "Vitamin D3 2000 IU".into(),
            1,
            1500,
            AmountDetails::new(0, 0),
        )
    };
    let updated = payment_tokens_api::update_payment_token(
        &config,
        UpdatePaymentTokenParams {
            payment_token: payment_token.clone(),
            update_payment_token_request: UpdatePaymentTokenRequest {
                update_card_info: Some(false),
                order_items: Some(vec![vitamins]),
            },
        },
    )?;
    // None: nothing for the customer to do; otherwise send them to redirect_url.
    if updated.next_action == PaymentTokenUpdateResponseNextActionKnownValue::None.to_string() {
        println!("token updated");
    } else {
        println!(
            "next action {}: send the customer to {:?}",
            updated.next_action, updated.redirect_url
        );
    }
    // end sample
    statuses.push(("updatePaymentToken", OK));

    // sample: deletePaymentToken
    payment_tokens_api::delete_payment_token(
        &config,
        DeletePaymentTokenParams {
            payment_token: payment_token.clone(),
        },
    )?;
    println!("payment token {payment_token} deleted");
    // end sample
    statuses.push(("deletePaymentToken", OK));

    // sample: createCatalogItem
    let sku = format!("SAMPLE-{run}");
    let item = product_catalog_api::create_catalog_item(
        &config,
        CreateCatalogItemParams {
            create_catalog_item_request: CreateCatalogItemRequest {
                name: Some("Cold pack".into()),
                description: Some("Reusable cold pack".into()),
                image_urls: Some(vec![]),
                ..CreateCatalogItemRequest::new(sku.clone())
            },
        },
    )?;
    // The answer's shape is not documented: the client reads it as a map of JSON values.
    if let Some(sku) = item.get("sku").and_then(|sku| sku.as_str()) {
        println!("created {sku}");
    }
    // end sample
    statuses.push(("createCatalogItem", OK));

    // sample: updateCatalogItem
    product_catalog_api::update_catalog_item(
        &config,
        UpdateCatalogItemParams {
            update_catalog_item_request: UpdateCatalogItemRequest::new(
                sku.clone(),
                "Cold pack XL".into(),
                "Reusable cold pack, large".into(),
                vec![],
                "https://partner.example/products/cold-pack".into(),
            ),
        },
    )?;
    println!("updated {sku}");
    // end sample
    statuses.push(("updateCatalogItem", OK));

    // sample: retrieveCatalogItem
    let detail = product_catalog_api::retrieve_catalog_item(
        &config,
        RetrieveCatalogItemParams {
            catalog_item_detail_request: CatalogItemDetailRequest::new(sku.clone()),
        },
    )?;
    // eligibility is None (or Some(None)) until the service has reviewed the item.
    match detail.eligibility.flatten() {
        Some(eligibility) => println!("{} {} is {eligibility}", detail.sku, detail.name),
        None => println!("{} {} is not reviewed yet", detail.sku, detail.name),
    }
    // end sample
    statuses.push(("retrieveCatalogItem", OK));

    // sample: listCatalogItems
    let items = product_catalog_api::list_catalog_items(
        &config,
        ListCatalogItemsParams {
            page_size: Some(100),
            page: None,
            eligibility: None,
            updated_after: None,
        },
    )?;
    for each in &items.data {
        println!("{} {}", each.sku, each.name);
    }
    // end sample
    statuses.push(("listCatalogItems", OK));

    // sample: retrieveCheckoutMethod
    // Neither its request nor its answer is documented: a map of JSON values each way.
    let method = product_catalog_api::retrieve_checkout_method(
        &config,
        RetrieveCheckoutMethodParams {
            request_body: Some(Default::default()),
        },
    )?;
    println!("checkout method: {method:?}");
    // end sample
    statuses.push(("retrieveCheckoutMethod", OK));

    // The card network opens a chargeback on the captured session.
    let opened = sandbox.post(
        &format!("/sandbox/v1/payment_sessions/{session_id}/disputes"),
        "{}",
    )?;
    let dispute_id = opened["dispute_id"]
        .as_str()
        .ok_or_else(|| format!("the dispute helper answered no dispute_id: {opened}"))?
        .to_string();

    // sample: retrieveDispute
    let dispute = disputes_api::retrieve_dispute(
        &config,
        RetrieveDisputeParams {
            dispute_id: dispute_id.clone(),
        },
    )?;
    println!(
        "dispute {} is {} for {} cents, respond by {}",
        dispute.dispute_id, dispute.state, dispute.amount, dispute.due_by
    );
    // end sample
    statuses.push(("retrieveDispute", OK));

    // sample: listDisputes
    let records = disputes_api::list_disputes(&config)?;
    for each in &records.data {
        println!(
            "{} {} {} {}",
            each.id, each.state, each.amount, each.currency
        );
    }
    // end sample
    statuses.push(("listDisputes", OK));

    // sample: retrieveDisputeRecord
    let record = disputes_api::retrieve_dispute_record(
        &config,
        RetrieveDisputeRecordParams {
            id: dispute_id.clone(),
        },
    )?;
    println!(
        "charge {} disputed: {}, {}",
        record.charge_id, record.reason, record.state
    );
    // end sample
    statuses.push(("retrieveDisputeRecord", OK));

    // sample: acceptDispute
    disputes_api::accept_dispute(
        &config,
        AcceptDisputeParams {
            id: dispute_id.clone(),
            request_body: Some(Default::default()),
        },
    )?;
    println!("dispute {dispute_id} accepted");
    // end sample
    statuses.push(("acceptDispute", OK));

    Ok(statuses)
}

/// The sandbox's test helpers: plain HTTP on the configuration's reqwest client, with the key.
struct Helpers<'a> {
    config: &'a Configuration,
    settings: &'a Settings,
}

impl Helpers<'_> {
    fn post(&self, path: &str, body: &str) -> Result<serde_json::Value, Failure> {
        let response = self
            .config
            .client
            .post(format!("{}{path}", self.settings.base_url))
            .header("x-service-api-key", &self.settings.api_key)
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .map_err(|e| Failure {
                unreachable: e.is_connect() || e.is_timeout(),
                message: with_causes(&e),
                ..Failure::default()
            })?;
        let status = response.status();
        let text = response.text().map_err(|e| with_causes(&e))?;
        if !status.is_success() {
            return Err(format!("the sandbox helper {path} answered {status}: {text}").into());
        }
        serde_json::from_str(&text)
            .map_err(|_| format!("the sandbox helper {path} answered no JSON: {text}").into())
    }
}
