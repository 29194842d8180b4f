//! What the code `#[derive(Presenter)]` generates calls beyond the traits: redaction and the
//! stub of a failed derive. Generated code reaches these through
//! `fusion_runtime::__private`; nothing here is meant to be called by hand.

use crate::model::FieldMask;
use crate::response::ui::{self, UiBlock};

/// The mask the plain `Serialize` impl writes with: every member, nothing allocated.
pub static ALL_FIELDS: FieldMask = FieldMask::ALL;

/// The text of the default censor (wire format §8.1).
pub const REDACTED: &str = "[REDACTED]";

/// The censored value of an optional field: `None` stays `null` (wire format §8.3), `Some` becomes `text`.
#[inline]
pub fn censor_option<T>(value: &Option<T>, text: &'static str) -> Option<&'static str> {
    value.as_ref().map(|_| text)
}

/// The body of a stub `Serialize` impl: a model whose derive failed never reaches run time, but
/// the impl must still type-check.
pub fn stub_serialize<S: serde::Serializer>(serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_unit()
}

/// One member of a generated `serialize_selected`: written when the mask keeps it. One call per
/// field instead of a test and a write: a tenth of what `#[derive(Presenter)]` costs the
/// compiler is the data writer's per-field code (PERFORMANCE.md, "Compile time, round three").
#[inline]
pub fn serialize_member<S, T>(
    state: &mut S,
    mask: &FieldMask,
    index: usize,
    name: &'static str,
    value: &T,
) -> Result<(), S::Error>
where
    S: serde::ser::SerializeStruct,
    T: serde::Serialize + ?Sized,
{
    if mask.contains(index) {
        state.serialize_field(name, value)
    } else {
        Ok(())
    }
}

/// The generated table of `#[ui(table(...))]` (one item) and `#[collection_ui(table(...))]`
/// (every shown item; none is the block `_No items to show._`, wire format §4.4): one row per
/// item, its cells written by `cells`. The derive passes a closure that captures nothing, so it
/// is a plain function pointer here: the compiler checks one call per table, not an iterator
/// of closures through `ui::table`'s bounds for every model.
pub fn table_of<T>(
    headers: &[&str],
    items: &[T],
    collection: bool,
    cells: fn(&T, &mut Vec<String>),
) -> UiBlock {
    let rows = items.iter().map(|item| {
        let mut row = Vec::with_capacity(headers.len());
        cells(item, &mut row);
        row
    });
    if collection {
        ui::collection_table(headers, rows)
    } else {
        ui::table(headers, rows)
    }
}
