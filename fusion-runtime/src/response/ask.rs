//! What a handler asks the person or the client for before it can finish (an input-required
//! result, protocol revision 2026-07-28, SEP-2322; elicitation over a session), and the answers
//! it gets on the next call. The adapter turns the asks into the protocol's requests; the tool
//! layer's [`Call`](crate::Call) reads the answers.

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// One thing a handler asks for, under a key of its choosing (the answer comes back under it).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Ask {
    /// A yes/no confirmation of the person: a form of one required boolean, `confirm`.
    Confirm {
        /// What the person is asked, such as `Void INV-0002? This cannot be undone.`
        message: String,
    },
    /// A form the person fills in: `schema` is the JSON Schema of an object whose properties
    /// are primitives (what elicitation allows), such as a `schemars` type's schema.
    Form {
        /// Why the form is asked.
        message: String,
        /// The requested schema.
        schema: Value,
    },
    /// A question to the client's model (sampling).
    Sample {
        /// The user message to the model.
        prompt: String,
        /// The most tokens the answer may have.
        max_tokens: u32,
    },
}

impl Ask {
    /// The protocol request for this ask: `elicitation/create` or `sampling/createMessage`, as
    /// JSON (`method` and `params`).
    pub fn to_request(&self) -> Value {
        match self {
            Ask::Confirm { message } => json!({"method": "elicitation/create", "params": {
                "message": message,
                "requestedSchema": {"type": "object", "properties": {"confirm": {
                    "type": "boolean", "title": "Confirm",
                    "description": "true to go ahead, false to stop"}},
                    "required": ["confirm"]}}}),
            Ask::Form { message, schema } => json!({"method": "elicitation/create", "params": {
                "message": message, "requestedSchema": schema}}),
            Ask::Sample { prompt, max_tokens } => json!({"method": "sampling/createMessage",
                "params": {"messages": [{"role": "user", "content": {"type": "text",
                "text": prompt}}], "maxTokens": max_tokens}}),
        }
    }

    /// Whether answering this ask needs the client's `elicitation` capability (else `sampling`).
    pub fn needs_elicitation(&self) -> bool {
        !matches!(self, Ask::Sample { .. })
    }
}

/// The asks of one response, by key, in a stable order.
pub type Asks = BTreeMap<String, Ask>;

/// The answers a call brought, by the keys that were asked: each the client's result
/// (`{"action": "accept", "content": {...}}` for an elicitation, the model's message for a
/// sampling).
pub type Answers = BTreeMap<String, Value>;
