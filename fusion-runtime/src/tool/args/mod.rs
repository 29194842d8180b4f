//! The one place a call's arguments are checked (wire format §13.5–§13.8), in the order a call
//! meets the checks:
//!
//! 1. the schema's: when a tool is defined, its input's JSON Schema is compiled into shapes
//!    (`shape`); each call's arguments are walked against them (`walk`), which also normalises
//!    what serde will read (an optional `null` removed, `5.0` in an integer place made `5`),
//!    and `_select` is checked against the called action's names (`select`);
//! 2. serde's: the typed input read from the walked value (`read`); a value the type still
//!    refuses (a `TryFrom` conversion) is a problem at `(root)`;
//! 3. the tool's own: [`Checks`], filled by [`Tool::check`](crate::Tool::check) (`check`).
//!
//! Every problem is worded by `problems` and sent in one `<validation_error>`
//! (`validation_error`). The walk and serde read the same parsed value (rmcp parses the
//! request's bytes once): the walk reports every problem at its path in the wire format's words
//! and checks what serde does not (unknown members at the root, the schema's bounds and
//! lengths); serde builds the type. Neither parses text again, and a walk that finds nothing
//! allocates nothing.

mod check;
mod problems;
mod read;
mod select;
pub(crate) mod shape;
mod validation_error;
mod walk;

use serde_json::{Map, Value};

pub use check::Checks;
pub(crate) use problems::describe_sent;
pub use problems::{Bound, Expected, JsonType, Problem, ProblemKind};
pub(crate) use read::{read_tool, read_typed};
pub use validation_error::ValidationError;

use crate::model::Selection;
use crate::response::ToolResponse;
use shape::{ObjectShape, Shapes};
use walk::{MAX_PROBLEMS, Path, Walker};

/// What one action's arguments are checked against: the tool's compiled shapes, the action's
/// root object, its `_select` names, and the root members handled by routing (the
/// discriminator, `_select`).
pub(crate) struct ActionArguments<'a> {
    pub(crate) shapes: &'a Shapes,
    pub(crate) root: &'a ObjectShape,
    pub(crate) select_names: &'a [String],
    pub(crate) also_valid: &'a [&'a str],
}

impl ActionArguments<'_> {
    /// wire format §13.5–§13.6: checks the arguments of a call (normalising them for serde) and
    /// `_select`; the checked selection (`None` when the action takes none or none was sent),
    /// or every problem in report order: the declared members, `_select`, unknown members.
    pub(crate) fn check(
        &self,
        map: &mut Map<String, Value>,
    ) -> Result<Option<Selection>, Vec<Problem>> {
        let walker = Walker {
            shapes: self.shapes,
        };
        let root = Path::default();
        let mut problems = Vec::new();
        walker.check_members(self.root, map, &root, &mut problems);
        let selection = select::check(
            self.select_names,
            map.get(crate::tool::SELECT),
            &mut problems,
        );
        walker.check_unknown(self.root, map, &root, self.also_valid, &mut problems);
        if problems.is_empty() {
            Ok(selection)
        } else {
            Err(problems)
        }
    }
}

/// The `<validation_error>` response of `problems` (at least one) for the action `reference`;
/// past [`MAX_PROBLEMS`] the list is cut and ends with one line saying so.
pub(crate) fn failure(reference: String, mut problems: Vec<Problem>) -> ToolResponse {
    if problems.len() > MAX_PROBLEMS {
        problems.truncate(MAX_PROBLEMS);
        problems.push(Problem::new(
            "(root)",
            ProblemKind::TooMany {
                listed: MAX_PROBLEMS,
            },
        ));
    }
    match ValidationError::new(reference, problems) {
        Some(error) => error.into_response(),
        // Callers only get here with at least one problem.
        None => ToolResponse::error_block(String::new(), true),
    }
}
