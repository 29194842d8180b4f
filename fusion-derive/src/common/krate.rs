//! The path generated code uses for the runtime crate: `::fusion_runtime`, unless the user
//! re-exports it and says where with `crate = path`.

use syn::Path;

/// `given` (from `crate = path`), or `::fusion_runtime`.
pub fn runtime_path(given: Option<Path>) -> Path {
    given.unwrap_or_else(|| syn::parse_quote!(::fusion_runtime))
}
