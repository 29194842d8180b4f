//! The checked model of a `#[derive(Tool)]` input: a discriminated tool (an internally tagged
//! enum) or a flat tool (a struct with named fields). Plain data: `valid.rs` builds it from the
//! attributes and checks it, `expand.rs` generates code from it.

use syn::{Expr, LitStr, Path, Type};

use crate::common::diag::Error;

/// The tool to generate.
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent flags of `#[fusion(...)]`, one key each"
)]
pub struct Tool {
    /// The runtime crate path (`::fusion_runtime` unless `crate = ...`).
    pub krate: Path,
    /// The MCP tool name.
    pub name: String,
    /// `description = "..."`.
    pub description: Option<LitStr>,
    /// `select`: the tool takes `_select`.
    pub select: bool,
    /// `toon`: the description lays the actions out in TOON.
    pub toon: bool,
    /// `output = Type`: the type of the `outputSchema`.
    pub output: Option<Type>,
    /// `max_tokens = N`: the tool's response budget.
    pub max_tokens: Option<usize>,
    /// `title = "..."`: the tool's title for people (`title`, `annotations.title`).
    pub title: Option<LitStr>,
    /// `idempotent`: `idempotentHint: true`.
    pub idempotent: bool,
    /// `open_world` (`Some(true)`) or `closed_world` (`Some(false)`): `openWorldHint`.
    pub open_world: Option<bool>,
    /// `check = path` on the enum or struct: the check of every action.
    pub check: Option<Expr>,
    /// `format = compact_json`: the data block format of what the tool presents.
    pub format: Option<crate::presenter::attr::Format>,
    /// `lean`: the static rules said once in the description (`ToolSpec::lean`).
    pub lean: bool,
    /// One per action, in declaration order (skipped variants left out).
    pub actions: Vec<Action>,
}

/// An input with mistakes: the errors, and the runtime path for the stub impl.
pub struct Rejected {
    /// Every mistake found.
    pub errors: Error,
    /// The path to `fusion_runtime`.
    pub krate: Path,
}

/// One action's declarations.
#[derive(Default)]
pub struct Action {
    /// `description = "..."`.
    pub description: Option<LitStr>,
    /// `returns = Model` or `returns = [Model]`.
    pub returns: Option<Returns>,
    /// `structured`: the result goes in `structuredContent`.
    pub structured: bool,
    /// `destructive`.
    pub destructive: bool,
    /// `read_only`.
    pub read_only: bool,
    /// `check = path`: the action's own check.
    pub check: Option<Expr>,
    /// The variant's name (`None` for a flat tool's one action).
    pub variant: Option<syn::Ident>,
    /// The action's suggestion target, `tool.action` (the discriminator value serde reads), for
    /// a variant.
    pub target: Option<String>,
}

/// The model an action presents: `returns = Model` (a single value) or `returns = [Model]` (a
/// collection).
pub struct Returns {
    /// The model type (the element type of `[Model]`).
    pub model: Type,
    /// Whether it is `[Model]`.
    pub collection: bool,
}
