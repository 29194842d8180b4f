//! `structuredContent` of a structured action (wire format §11.2) made from the value, in a build
//! without the testing view (the runtime's own tests run without the feature `testing`, which
//! makes every data block's value anyway): presented, returned as a presentation, as a JSON
//! value, and built by hand before the call could ask.

use serde::ser::SerializeStruct;
use serde_json::json;

use super::call::Call;
use crate::model::{FieldMask, Model, NoField, Selection};
use crate::present::engine::Presenter;
use crate::present::{Format, Present};
use crate::response::{Json, ToolResponse, success};

/// A hand-written model: an id and an amount whose float is integral (written `100`).
struct Invoice(&'static str, f64);

impl serde::Serialize for Invoice {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.serialize_selected(&FieldMask::ALL, serializer)
    }
}

impl Model for Invoice {
    type Field = NoField;
    const NAME: &'static str = "Invoice";
    const WIRE_NAMES: &'static [&'static str] = &["id", "amount"];

    fn serialize_selected<S: serde::Serializer>(
        &self,
        _: &FieldMask,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut state = serializer.serialize_struct("Invoice", 2)?;
        state.serialize_field("id", self.0)?;
        state.serialize_field("amount", &self.1)?;
        state.end()
    }
}

impl<C: ?Sized> Presenter<C> for Invoice {}

fn structured_call() -> Call {
    Call::new("billing", Some("get".into()), Selection::default()).with_structured(true)
}

fn answer<R: crate::IntoToolResponse>(call: &Call, handler: impl FnOnce() -> R) -> ToolResponse {
    call.respond(&|failure| panic!("{failure}"), handler)
}

#[test]
fn a_presented_value_is_its_own_structured_content() {
    let call = structured_call();
    let invoice = Invoice("INV-1", 100.0);
    let response = answer(&call, || call.present(&invoice).build());
    assert_eq!(
        response.blocks()[0],
        "{\n  \"id\": \"INV-1\",\n  \"amount\": 100\n}"
    );
    // The value the block reads back as: `100`, not serde_json's `100.0`.
    assert_eq!(
        response.to_json(),
        r#"{"content":[{"type":"text","text":"{\n  \"id\": \"INV-1\",\n  \"amount\": 100\n}"}],"structuredContent":{"id":"INV-1","amount":100}}"#
    );
}

#[test]
fn a_returned_presentation_makes_its_value_for_json_and_toon() {
    let call = structured_call();
    let invoice = Invoice("INV-1", 0.1 + 0.2);
    let json_block = answer(&call, || invoice.present());
    let toon_block = answer(&call, || invoice.present().format(Format::Toon));
    assert_eq!(
        toon_block.blocks()[0],
        "id: INV-1\namount: 0.30000000000000004"
    );
    for response in [json_block, toon_block] {
        assert_eq!(
            response.structured_content(),
            Some(&json!({"id": "INV-1", "amount": 0.1 + 0.2}))
        );
    }
}

#[test]
fn a_json_value_and_a_hand_built_block_are_structured_too() {
    let call = structured_call();
    let value = json!({"ratio": 0.1 + 0.2, "count": 3.0});
    let returned = answer(&call, || Json(value.clone()));
    let built = answer(&call, || success(&value));
    for response in [returned, built] {
        assert_eq!(
            serde_json::to_string(response.structured_content().unwrap()).unwrap(),
            r#"{"ratio":0.30000000000000004,"count":3}"#
        );
    }
}

#[test]
fn a_presented_collection_is_no_structured_content() {
    let call = structured_call();
    let items = [Invoice("INV-1", 1.0)];
    let response = call.respond(&|_| {}, || call.present_all(&items).build());
    assert_eq!(response.is_error(), Some(true));
    assert_eq!(response.structured_content(), None);
}

// With `testing` on (as in a workspace test run, where the test crates switch it on for every
// crate) every presentation keeps its value for the view: the claim holds without it.
#[cfg(not(feature = "testing"))]
#[test]
fn an_action_that_does_not_ask_makes_no_value() {
    let call = Call::new("billing", None, Selection::default());
    let invoice = Invoice("INV-1", 1.0);
    let response = answer(&call, || call.present(&invoice).build());
    assert_eq!(response.structured_content(), None);
    assert_eq!(response.value, None);
}
