// Written by hand, in place of the generated model (see .openapi-generator-ignore).
use serde::{Deserialize, Serialize};

/// ServiceFee : Service fee in decimal dollars (not cents), sent as a string or a number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ServiceFee {
    String(String),
    Number(f64),
}

impl Default for ServiceFee {
    fn default() -> Self {
        Self::String(Default::default())
    }
}
