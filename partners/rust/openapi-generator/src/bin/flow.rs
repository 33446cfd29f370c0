//! A partner's server code with the client that openapi-generator's `rust` generator (reqwest,
//! blocking) makes: create an authorization session, complete its checkout through the sandbox's
//! helper, capture part of it, refund part of it, list with a filter, retrieve it, read the error
//! codes of a second capture and of a void through the generated error types, and tell a
//! documented code or value from one the service added later.
//!
//! It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
//! PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
use checkout_api::apis::configuration::{ApiKey, Configuration};
use checkout_api::apis::payment_sessions_api::{
    self as sessions, CapturePaymentSessionError, CapturePaymentSessionParams,
    CreatePaymentSessionParams, ListPaymentSessionsParams, RetrievePaymentSessionParams,
    VoidPaymentSessionError, VoidPaymentSessionParams,
};
use checkout_api::apis::refunds_api::{self, CreateRefundParams};
use checkout_api::apis::{Error, ResponseContent};
use checkout_api::models::{
    self, AmountDetails, CapturePaymentSessionRequest, CreatePaymentSessionRequest,
    CreateRefundRequest, OrderItemInput, VoidPaymentSessionRequest,
};

/// The 400 body of a refused call, read through the operation's generated error enum: `pick`
/// returns its Status400 member. The enum is `#[serde(untagged)]`: its member is chosen by the
/// body's shape, not by the status (a 500 `{"error":"ServerError",…}` body decodes as Status400
/// too), so the status is matched as well.
fn refusal<T, E, B>(
    what: &str,
    result: Result<T, Error<E>>,
    pick: impl Fn(E) -> Option<B>,
) -> Result<B, Box<dyn std::error::Error>> {
    match result {
        Err(Error::ResponseError(ResponseContent {
            status,
            entity: Some(entity),
            content,
        })) if status == 400 => pick(entity)
            .ok_or_else(|| format!("{what} answered 400 with another body: {content}").into()),
        Err(Error::ResponseError(response)) => {
            Err(format!("{what} answered {}: {}", response.status, response.content).into())
        }
        Err(other) => Err(format!("{what}: {other}").into()),
        Ok(_) => Err(format!("{what} succeeded").into()),
    }
}

/// Says so when a value is none of those this version of the contract lists.
///
/// `parse` reads a JSON value into one of the generated `…KnownValue` enums (the 3.0 companion's
/// list of an open enum's known values, which no field refers to): it reads exactly those values.
fn known<T>(what: &str, value: &str, parse: fn(serde_json::Value) -> serde_json::Result<T>) -> bool {
    let is_known = parse(serde_json::Value::String(value.to_owned())).is_ok();
    if !is_known {
        println!("{what} {value:?} is not one this client knows: a later version of the service");
    }
    is_known
}

/// Ends the program on one line: a wrong setting, a refused key, no sandbox.
fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(2)
}

/// The variable's value, or the default when it is unset or empty.
fn setting(name: &str, default: String) -> String {
    std::env::var(name)
        .ok()
        .filter(|value| !value.is_empty())
        .unwrap_or(default)
}

/// `number` in base 36, as JavaScript's `toString(36)` writes it.
fn base36(mut number: u128) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(std::char::from_digit((number % 36) as u32, 36).unwrap());
        number /= 36;
        if number == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

/// PARTNER_BASE_URL, PARTNER_API_KEY and PARTNER_RUN, with the local sandbox's defaults (`npm
/// start`, its development key), so that the program runs as copied. A wrong value ends it on one
/// line.
fn settings() -> (String, String, String) {
    let base_url = setting("PARTNER_BASE_URL", "http://127.0.0.1:4010".into());
    let api_key = setting("PARTNER_API_KEY", "sandbox-dev-key".into());
    // Unique to each run: it goes into the idempotency keys, the email and the metadata.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let run = setting("PARTNER_RUN", base36(now.as_millis()));
    let host = base_url
        .strip_prefix("http://")
        .or_else(|| base_url.strip_prefix("https://"));
    let host_ok = host.is_some_and(|rest| {
        let host = rest.split('/').next().unwrap_or("");
        !host.is_empty() && !rest.contains(char::is_whitespace) && !host.contains(['?', '#'])
    });
    if !host_ok {
        fail(&format!(
            "PARTNER_BASE_URL={base_url} is not an http(s) URL"
        ));
    }
    let run_ok = run.len() <= 64
        && run
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && run
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !run_ok {
        fail(&format!("PARTNER_RUN={run} is not 1 to 64 letters, digits, - or _ (it goes into idempotency keys and an email)"));
    }
    (base_url.trim_end_matches('/').to_string(), api_key, run)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (base_url, api_key, run) = settings();
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
    // Requests name the closed *Input enums: what the partner sends is one of the documented values.
    let request = CreatePaymentSessionRequest {
        kind: Some(models::PaymentSessionKindInput::Authorization),
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
    // A refused key, or no sandbox at that address, ends the program on one line.
    let created = match sessions::create_payment_session(
        &config,
        CreatePaymentSessionParams {
            create_payment_session_request: request,
        },
    ) {
        Ok(created) => created,
        Err(Error::ResponseError(response)) if response.status == 401 => {
            fail(&format!("PARTNER_API_KEY was refused (401): {}", response.content))
        }
        Err(Error::Reqwest(error)) if error.is_connect() => fail(&format!(
            "Nothing answers at PARTNER_BASE_URL={base_url} ({error}): is the sandbox running (npm start)?"
        )),
        Err(other) => return Err(other.into()),
    };
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
        models::RefundReasonInput::CustomerRequest,
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
            status: Some(vec![models::PaymentSessionStatusInput::Captured]),
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

    // A second capture and a void of the captured session: each 400 body is the operation's
    // generated error model, whose `error` is a String (the code as the service sent it).
    let capture_error = refusal(
        "the second capture",
        capture(1000, format!("{run}-capture-2")),
        |entity| match entity {
            CapturePaymentSessionError::Status400(body) => Some(body.error),
            _ => None,
        },
    )?;
    if capture_error == models::PaymentSessionCaptureErrorErrorKnownValue::SessionCaptured.to_string() {
        println!("the session was already captured: the first capture stands");
    }
    let void_request = VoidPaymentSessionRequest {
        idempotency_key: Some(format!("{run}-void")),
        ..VoidPaymentSessionRequest::new()
    };
    let void_error = refusal(
        "the void",
        sessions::void_payment_session(
            &config,
            VoidPaymentSessionParams {
                business_id: id.clone(),
                void_payment_session_request: Some(void_request),
            },
        ),
        |entity| match entity {
            VoidPaymentSessionError::Status400(body) => Some(body.error),
            _ => None,
        },
    )?;
    let void_error_known = known(
        "void error",
        &void_error,
        serde_json::from_value::<models::PaymentSessionVoidErrorErrorKnownValue>,
    );
    if void_error == models::PaymentSessionVoidErrorErrorKnownValue::SessionCaptured.to_string() {
        println!("the session is captured: it is refunded, not voided");
    }

    let status_summary_known = known(
        "status_summary",
        &session.status_summary,
        serde_json::from_value::<models::PaymentSessionStatusSummaryKnownValue>,
    );
    // service_fee is a string or a number: the 3.0 companion states no type for it, so the
    // client holds the JSON value as it came, written back as the decimal it carries.
    let service_fee = match session.service_fee.clone().flatten() {
        Some(serde_json::Value::String(text)) => text,
        Some(serde_json::Value::Number(number)) => number.to_string(),
        _ => String::new(),
    };

    println!(
        "session {id} is {} ({}), service fee {service_fee}",
        session.status, session.status_summary
    );
    let result = serde_json::json!({
        "session_id": id,
        "captured": session.capture_amount,
        "refund_id": refund.refund_id,
        "listed": listed,
        "capture_error": capture_error,
        "void_error": void_error,
        "void_error_known": void_error_known,
        "status_summary": session.status_summary,
        "status_summary_known": status_summary_known,
        "service_fee": service_fee,
    });
    println!("PARTNER_RESULT {result}");
    Ok(())
}
