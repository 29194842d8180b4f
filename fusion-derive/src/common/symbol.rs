//! Every attribute and key name the derives read, in one place, so a name is spelled once and
//! messages, parsers and the `attributes(...)` lists in `lib.rs` agree.

/// The helper attributes.
pub mod attr {
    /// Container options (`agent_limit`, `context`, ...) and the field flag `skip`.
    pub const PRESENTER: &str = "presenter";
    /// An item rule.
    pub const RULE: &str = "rule";
    /// An item suggestion.
    pub const SUGGEST: &str = "suggest";
    /// An item UI declaration.
    pub const UI: &str = "ui";
    /// A collection rule.
    pub const COLLECTION_RULE: &str = "collection_rule";
    /// A collection suggestion.
    pub const COLLECTION_SUGGEST: &str = "collection_suggest";
    /// A collection UI declaration.
    pub const COLLECTION_UI: &str = "collection_ui";
    /// A redacted field.
    pub const REDACT: &str = "redact";
    /// An embedded field.
    pub const EMBED: &str = "embed";
    /// serde's own attribute, read for wire names, presence and tags.
    pub const SERDE: &str = "serde";
    /// The helper attribute of `#[derive(Tool)]`. (Not `tool`: rmcp's `#[tool]` attribute macro
    /// is usually in scope next to a tool's input type, and a derive helper of the same name
    /// would be ambiguous.)
    pub const FUSION: &str = "fusion";

    /// Every helper attribute of `#[derive(Presenter)]`.
    pub const PRESENTER_ALL: &[&str] = &[
        PRESENTER,
        RULE,
        SUGGEST,
        UI,
        COLLECTION_RULE,
        COLLECTION_SUGGEST,
        COLLECTION_UI,
        REDACT,
        EMBED,
        SERDE,
    ];

    /// Every helper attribute of `#[derive(Tool)]`.
    pub const TOOL_ALL: &[&str] = &[FUSION];

    /// The presenter attributes that belong on the struct.
    pub const ON_STRUCT: &[&str] = &[
        RULE,
        SUGGEST,
        UI,
        COLLECTION_RULE,
        COLLECTION_SUGGEST,
        COLLECTION_UI,
    ];

    /// The presenter attributes that belong on a field.
    pub const ON_FIELD: &[&str] = &[REDACT, EMBED];
}

/// The keys inside the helper attributes (a name shared by two attributes is one constant).
pub mod key {
    // `#[presenter(...)]`
    /// The agent limit.
    pub const AGENT_LIMIT: &str = "agent_limit";
    /// The request context type.
    pub const CONTEXT: &str = "context";
    /// The model's name (`#[presenter]`) or the MCP tool name (`#[fusion]`).
    pub const NAME: &str = "name";
    /// The path of the runtime crate when it is re-exported under another name.
    pub const CRATE: &str = "crate";
    /// The name of the field enum.
    pub const FIELD_ENUM: &str = "field_enum";
    /// The data block format.
    pub const FORMAT: &str = "format";
    /// The response budget in tokens (`#[presenter]` and `#[fusion]`).
    pub const MAX_TOKENS: &str = "max_tokens";
    /// A field that is never on the wire.
    pub const SKIP: &str = "skip";

    // `#[rule]`, `#[suggest]`, `#[ui]` and their collection forms
    /// A rule's text.
    pub const TEXT: &str = "text";
    /// The condition of a declaration.
    pub const WHEN: &str = "when";
    /// The function of a declaration.
    pub const CALL: &str = "call";
    /// Hidden fields a template may show.
    pub const REVEAL: &str = "reveal";
    /// A suggestion's tool.
    pub const TOOL: &str = "tool";
    /// A suggestion's reason.
    pub const REASON: &str = "reason";
    /// A markdown UI block.
    pub const MARKDOWN: &str = "markdown";
    /// A summary UI block.
    pub const SUMMARY: &str = "summary";
    /// A table UI block of named fields.
    pub const TABLE: &str = "table";
    /// The title of a declared UI block.
    pub const TITLE: &str = "title";
    /// The field that labels an item in a grouped rule or suggestion (wire format §6.10).
    pub const KEY: &str = "key";
    /// The text of a rule or suggestion said once for several items (wire format §6.10).
    pub const MANY: &str = "many";
    /// One line per item: the declaration does not group (wire format §6.10).
    pub const EACH: &str = "each";

    // `#[redact(...)]`
    /// A fixed censor text.
    pub const CENSOR: &str = "censor";
    /// A censor function.
    pub const WITH: &str = "with";

    // `#[fusion(...)]`
    /// The tool's (or an action's) description.
    pub const DESCRIPTION: &str = "description";
    /// Enables `_select`.
    pub const SELECT: &str = "select";
    /// The TOON description layout.
    pub const TOON: &str = "toon";
    /// The output type (`outputSchema`).
    pub const OUTPUT: &str = "output";
    /// The presented model of an action.
    pub const RETURNS: &str = "returns";
    /// A destructive action.
    pub const DESTRUCTIVE: &str = "destructive";
    /// A read-only action.
    pub const READ_ONLY: &str = "read_only";
    /// An action that asks for `structuredContent`.
    pub const STRUCTURED: &str = "structured";
    /// The action's own check of a valid input.
    pub const CHECK: &str = "check";
    /// A tool whose calls may repeat with no further effect (`idempotentHint`).
    pub const IDEMPOTENT: &str = "idempotent";
    /// A tool that reaches an open world outside the server (`openWorldHint: true`).
    pub const OPEN_WORLD: &str = "open_world";
    /// A tool that stays within the server's own data (`openWorldHint: false`).
    pub const CLOSED_WORLD: &str = "closed_world";
    /// A lean tool: static rules said once in its description (`ToolSpec::lean`).
    pub const LEAN: &str = "lean";
}

/// The `&'static str` of the helper attribute's name, if `attribute` is one of ours.
pub fn attr_name(attribute: &syn::Attribute) -> Option<&'static str> {
    let ident = attribute.path().get_ident()?;
    attr::PRESENTER_ALL
        .iter()
        .chain(attr::TOOL_ALL)
        .copied()
        .find(|n| ident == n)
}

#[cfg(test)]
mod tests {
    /// The names inside `attributes(...)` after `derive_name` in `lib.rs`.
    fn declared(derive_name: &str) -> Vec<&'static str> {
        let source = include_str!("../lib.rs");
        let derive = source.find(derive_name).unwrap_or_default();
        let start = source[derive..]
            .find("attributes(")
            .map(|i| derive + i + "attributes(".len());
        let list = start.and_then(|s| source[s..].find(')').map(|e| &source[s..s + e]));
        let mut names: Vec<&str> = list
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .collect();
        names.sort_unstable();
        names
    }

    /// The `attributes(...)` lists in `lib.rs` and this table name the same attributes.
    #[test]
    fn helper_attributes_are_listed_once() {
        let mut presenter = super::attr::PRESENTER_ALL.to_vec();
        presenter.sort_unstable();
        assert_eq!(declared("Presenter,"), presenter);
        assert_eq!(declared("Tool,"), super::attr::TOOL_ALL);
    }

    /// The attribute reference (`presenter.md`, `tool.md`, the derives' rustdoc) names every
    /// attribute and every key of the derives' own key tables (`spec(key::..)` in the `attr.rs`
    /// files), so the reference cannot drift from what the derives accept.
    #[test]
    fn the_reference_names_every_attribute_and_key() {
        fn keys(source: &str) -> Vec<&'static str> {
            let source: String = source.split_whitespace().collect();
            source
                .split("spec(key::")
                .skip(1)
                .filter_map(|rest| rest.split(',').next())
                .map(|constant| {
                    let definition = format!("pub const {}: &str = \"", constant.trim());
                    let symbols = include_str!("symbol.rs");
                    let at = symbols.find(&definition).expect("a key constant") + definition.len();
                    let name = &symbols[at..];
                    let name: &'static str = Box::leak(name[..name.find('"').unwrap()].into());
                    name
                })
                .collect()
        }
        let presenter = include_str!("../../presenter.md");
        let tool = include_str!("../../tool.md");
        let presenter_keys = [
            include_str!("../presenter/attr.rs"),
            include_str!("../presenter/decl.rs"),
        ];
        for key in presenter_keys.into_iter().flat_map(keys) {
            assert!(
                presenter.contains(&format!("{key} ="))
                    // A flag (`each`) is named as written.
                    || presenter.contains(&format!("`{key}`"))
                    || presenter.contains(&format!("({key}"))
                    || presenter.contains(&format!("{key}(")),
                "presenter.md does not document the key `{key}`"
            );
        }
        for key in keys(include_str!("../tool/attr.rs")) {
            assert!(
                tool.contains(&format!("| `{key}` |")),
                "tool.md has no row for the key `{key}`"
            );
        }
        // Both forms of a suggestion target.
        assert!(
            presenter.contains("`tool.action`")
                && presenter.contains("#[suggest(Billing::Remind, \"reason\")]")
        );
        for attribute in super::attr::PRESENTER_ALL {
            assert!(
                presenter.contains(&format!("#[{attribute}")) || *attribute == "serde",
                "presenter.md does not document `#[{attribute}]`"
            );
        }
    }
}
