//! Verifies a signed webhook with the `hmac` and `sha2` crates: x-service-signature is
//! `t=<unix>,v0=<hex>[,v0=<hex>…]`, each hex an HMAC-SHA256 of `<t>.<raw body>` under the
//! endpoint's secret. Exits 0 and prints the event type when it verifies; exits 1 otherwise. An
//! event type that none of the contract's webhooks has (one a later version of the service sends)
//! is verified, said to be ignored, and still exits 0: a receiver answers 204 and moves on.
//! Properties it does not know are left alone.
//!   verify_webhook <body file> <x-service-signature> <secret>
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

pub fn verify_webhook(
    raw_body: &[u8],
    header: &str,
    secret: &[u8],
    tolerance_seconds: u64,
) -> bool {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for entry in header.split(',') {
        match entry.trim().split_once('=') {
            Some(("t", value)) => timestamp = Some(value),
            Some(("v0", value)) => signatures.push(value),
            _ => {}
        }
    }
    let Some(t) = timestamp.filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
    else {
        return false;
    };
    let Ok(sent_at) = t.parse::<u64>() else {
        return false;
    };
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    if now.abs_diff(sent_at) > tolerance_seconds {
        return false;
    }
    signatures.iter().any(|signature| {
        let Ok(given) = hex::decode(signature) else {
            return false;
        };
        let mut mac =
            Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes a key of any length");
        mac.update(t.as_bytes());
        mac.update(b".");
        mac.update(raw_body);
        mac.verify_slice(&given).is_ok() // constant time
    })
}

/// The event types of the contract's webhooks.
const KNOWN_EVENT_TYPES: &[&str] = &[
    "payment_session_complete",
    "payment_token_updated",
    "payment_token.updated",
    "product_catalog.item.eligibility_updated",
    "dispute.created",
    "dispute.updated",
    "dispute.closed",
    "dispute.evidence_submitted",
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, body_file, header, secret] = args.as_slice() else {
        eprintln!("usage: verify_webhook <body file> <x-service-signature> <secret>");
        return ExitCode::from(2);
    };
    let body = match std::fs::read(body_file) {
        Ok(body) => body,
        Err(error) => {
            eprintln!("cannot read {body_file}: {error}");
            return ExitCode::from(2);
        }
    };
    if !verify_webhook(&body, header, secret.as_bytes(), 300) {
        eprintln!("signature does not verify");
        return ExitCode::FAILURE;
    }
    let event: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
    let event_type = event["event_type"].as_str().unwrap_or("(no event_type)");
    println!("verified {event_type}");
    if !KNOWN_EVENT_TYPES.contains(&event_type) {
        println!("ignored unknown event type {event_type}");
    }
    ExitCode::SUCCESS
}
