//! Hardening property 1 (forging) through derived presenters: arbitrary strings in a model's
//! fields reach rule templates, suggestion templates, UI templates and callbacks, collection
//! callbacks and embedded children (two levels deep), and the reference parser
//! (`fusion_tests::wire`) still recovers exactly the blocks wire format §6 says the presenter emits,
//! with their decoded texts; the JSON data block parses back to the wire value and the TOON data
//! block decodes (with `toon-format`) to it.
//!
//! The expected responses come from `Expect`, a second implementation of wire format §6.2–§6.8 written
//! for this test (truncation, UI, embeds with their de-duplication, rules, suggestions), fed with
//! the same declarations as the derived presenters. Its item templates are declared `each` (one
//! line per item, as the oracle writes them); grouped lines (wire format §6.10) are forged in
//! `tests/tests/present/said_once.rs`.

use crate::harden_support;

use fusion_runtime::present::Format;
use fusion_runtime::ui::{self, UiBlock};
use fusion_runtime::{Presenter, Selection, Suggestion};
use fusion_tests::wire::Block;
use harden_support::{config, list_expected, nasty, parse, ui_expected};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

const AGENT_LIMIT: usize = 3;

/// A model whose every declaration carries field text onto the wire.
#[derive(Presenter, Debug, Clone)]
#[presenter(agent_limit = 3)]
#[rule("Static: items are generated.")]
#[rule("Note: {note}", each)]
#[rule("Flagged {id}: {note}", when = Self::is_flagged, each)]
#[rule(call = Self::tag_rules)]
#[suggest(tool = "{tool}", reason = "{reason}", each)]
#[suggest(tool = "fixed.tool", reason = "Because {id}", when = Self::is_flagged, each)]
#[suggest(call = Self::tag_suggestions)]
#[ui(markdown = "{note}")]
#[ui(summary = "{id}")]
#[ui(Self::blocks)]
#[collection_ui(summary = "{n} items")]
#[collection_ui(Self::collection_blocks)]
#[collection_rule("Collection of {n}")]
#[collection_rule(call = Self::collection_rules)]
#[collection_suggest(tool = "bulk.export", reason = "Export {n} rows")]
#[collection_suggest(call = Self::collection_suggestions)]
struct Item {
    id: String,
    note: String,
    tool: String,
    reason: String,
    flagged: bool,
    tags: Vec<String>,
    lang: String,
    #[redact]
    secret: String,
    #[embed]
    owner: Option<Child>,
    #[embed]
    children: Vec<Child>,
}

impl Item {
    fn is_flagged(&self) -> bool {
        self.flagged
    }

    fn tag_rules(&self) -> Vec<String> {
        self.tags.clone()
    }

    fn tag_suggestions(&self) -> Vec<Suggestion> {
        self.tags
            .iter()
            .map(|tag| Suggestion::new(tag.clone(), self.note.clone()))
            .collect()
    }

    fn blocks(&self) -> Vec<UiBlock> {
        vec![
            ui::code_block(&self.lang, &self.note).title(self.tool.clone()),
            ui::mermaid(&self.reason),
            ui::table(
                [self.id.as_str(), self.tool.as_str()],
                [[self.note.as_str(), self.reason.as_str()]],
            ),
            ui::list(&self.tags),
            UiBlock::custom(self.lang.clone(), self.reason.clone()).title(self.id.clone()),
        ]
    }

    fn collection_blocks(items: &[Self]) -> Vec<UiBlock> {
        vec![
            ui::list(items.iter().map(|i| i.note.clone())),
            ui::table(["id"], items.iter().map(|i| [i.id.clone()])),
        ]
    }

    fn collection_rules(items: &[Self]) -> Vec<String> {
        items
            .iter()
            .map(|i| format!("{}|{}", i.id, i.tool))
            .collect()
    }

    fn collection_suggestions(items: &[Self]) -> Option<Suggestion> {
        items
            .first()
            .map(|i| Suggestion::new(i.reason.clone(), i.tool.clone()))
    }
}

/// The embedded child, presented as a single value (`owner`) and as a collection (`children`).
#[derive(Presenter, Debug, Clone)]
#[rule("Child rule.")]
#[rule("Child {label}", each)]
#[suggest(tool = "child.{label}", reason = "{hint}", each)]
#[ui(markdown = "{label}")]
#[collection_ui(summary = "{n} children")]
struct Child {
    label: String,
    hint: String,
    #[redact(censor = "***")]
    pin: String,
    #[embed]
    leaf: Option<Leaf>,
}

/// The grandchild: its UI reaches the response only through the first parent item's children.
#[derive(Presenter, Debug, Clone)]
#[rule("Leaf {text}", each)]
#[ui(Self::leaf_ui)]
struct Leaf {
    text: String,
    #[redact(with = Self::mask)]
    code: String,
}

impl Leaf {
    fn leaf_ui(&self) -> UiBlock {
        ui::code_block("leaf", &self.text)
    }

    fn mask(code: &str) -> String {
        format!("len {}", code.chars().count())
    }
}

// ---------------------------------------------------------------------------------------------
// The expectation: wire format §6 written again, over the same declarations.

/// One block an embedded child contributes, as the reference parser must recover it.
#[derive(Debug, Clone, PartialEq)]
enum Contributed {
    Ui(UiBlock),
    Rules(Vec<String>),
    Suggestions(Vec<(String, String)>),
}

impl Contributed {
    fn block(&self) -> Block {
        match self {
            Contributed::Ui(block) => ui_expected(block),
            Contributed::Rules(rules) => list_expected("domain_rules", rules),
            Contributed::Suggestions(pairs) => list_expected(
                "action_suggestions",
                &pairs
                    .iter()
                    .map(|(t, r)| format!("{t}: {r}"))
                    .collect::<Vec<_>>(),
            ),
        }
    }
}

/// What a presenter contributes besides its data block (wire format §6.2 steps 3–6).
#[derive(Debug, Default)]
struct Parts {
    ui: Vec<UiBlock>,
    embeds: Vec<Contributed>,
    rules: Vec<String>,
    suggestions: Vec<(String, String)>,
}

impl Parts {
    fn rule(&mut self, rule: String) {
        if !self.rules.contains(&rule) {
            self.rules.push(rule);
        }
    }

    fn suggest(&mut self, tool: String, reason: String) {
        let pair = (tool, reason);
        if !self.suggestions.contains(&pair) {
            self.suggestions.push(pair);
        }
    }
}

/// A model's declarations, restated by hand (the derive's input, not its output).
trait Expect: Sized {
    const LIMIT: Option<usize> = None;
    const STATIC_RULES: &'static [&'static str] = &[];
    fn item_ui(&self) -> Vec<UiBlock> {
        Vec::new()
    }
    fn item_rules(&self) -> Vec<String> {
        Vec::new()
    }
    fn item_suggestions(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    fn collection_ui(_items: &[Self]) -> Vec<UiBlock> {
        Vec::new()
    }
    fn collection_rules(_items: &[Self]) -> Vec<String> {
        Vec::new()
    }
    fn collection_suggestions(_items: &[Self]) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The embed fields in declaration order, with their wire names: `None` when absent (or an
    /// empty collection, wire format §6.8), else (items, as a collection).
    fn embed_fields(&self) -> Vec<(&'static str, Option<EmbedValue<'_>>)> {
        Vec::new()
    }
    /// The wire value of one item (redaction applied).
    fn wire(&self) -> Value;
}

/// An embed field's value, already presented: the child's contributions given `with_ui`.
type EmbedValue<'a> = Box<dyn Fn(bool) -> Parts + 'a>;

fn embed_value<C: Expect>(items: &[C], many: bool) -> EmbedValue<'_> {
    Box::new(move |with_ui| parts(items, many, with_ui, &[]))
}

/// wire format §4.5.
fn truncation_summary(shown: usize, hidden: usize) -> UiBlock {
    ui::summary(format!(
        "\u{26A0}\u{FE0F} Dataset truncated. {shown} shown, {hidden} hidden. Use filters to narrow results."
    ))
}

/// wire format §6.2 steps 1 and 3–6 (a single value is `items` of length 1 with `many` false).
/// `selection` is the call's `_select` (the top-level presenter's): a de-selected embed says
/// nothing (wire format §6.8).
fn parts<T: Expect>(items: &[T], many: bool, with_ui: bool, selection: &[String]) -> Parts {
    let shown = match T::LIMIT {
        Some(limit) if many && items.len() > limit => &items[..limit],
        _ => items,
    };
    let mut out = Parts::default();
    if with_ui {
        if shown.len() < items.len() {
            out.ui
                .push(truncation_summary(shown.len(), items.len() - shown.len()));
        }
        if many {
            out.ui.extend(T::collection_ui(shown));
        } else {
            out.ui.extend(shown[0].item_ui());
        }
    }
    // wire format §6.8: one `seen` set for the whole presentation; UI only from item 0.
    let mut seen: Vec<Block> = Vec::new();
    for (index, item) in shown.iter().enumerate() {
        let skip_ui = !with_ui || index > 0;
        let fields = item.embed_fields().into_iter();
        let kept = fields.filter(|(name, _)| {
            selection.is_empty() || selection.iter().any(|selected| selected == name)
        });
        for field in kept.filter_map(|(_, field)| field) {
            let child = field(!skip_ui);
            let mut contributed: Vec<Contributed> = Vec::new();
            if !skip_ui {
                contributed.extend(child.ui.into_iter().map(Contributed::Ui));
            }
            contributed.extend(
                child
                    .embeds
                    .into_iter()
                    .filter(|c| !(skip_ui && matches!(c, Contributed::Ui(_)))),
            );
            if !child.rules.is_empty() {
                contributed.push(Contributed::Rules(child.rules));
            }
            if !child.suggestions.is_empty() {
                contributed.push(Contributed::Suggestions(child.suggestions));
            }
            for c in contributed {
                let block = c.block();
                if !seen.contains(&block) {
                    seen.push(block);
                    out.embeds.push(c);
                }
            }
        }
    }
    for rule in T::STATIC_RULES {
        out.rule((*rule).to_owned());
    }
    for item in shown {
        for rule in item.item_rules() {
            out.rule(rule);
        }
    }
    if many {
        for rule in T::collection_rules(shown) {
            out.rule(rule);
        }
    }
    for item in shown {
        for (tool, reason) in item.item_suggestions() {
            out.suggest(tool, reason);
        }
    }
    if many && !shown.is_empty() {
        for (tool, reason) in T::collection_suggestions(shown) {
            out.suggest(tool, reason);
        }
    }
    out
}

impl Expect for Item {
    const LIMIT: Option<usize> = Some(AGENT_LIMIT);
    const STATIC_RULES: &'static [&'static str] = &["Static: items are generated."];

    fn item_ui(&self) -> Vec<UiBlock> {
        let mut out = vec![ui::markdown(self.note.clone()), ui::summary(&self.id)];
        out.extend(self.blocks());
        out
    }

    fn item_rules(&self) -> Vec<String> {
        let mut out = vec![format!("Note: {}", self.note)];
        if self.flagged {
            out.push(format!("Flagged {}: {}", self.id, self.note));
        }
        out.extend(self.tags.iter().cloned());
        out
    }

    fn item_suggestions(&self) -> Vec<(String, String)> {
        let mut out = vec![(self.tool.clone(), self.reason.clone())];
        if self.flagged {
            out.push(("fixed.tool".to_owned(), format!("Because {}", self.id)));
        }
        out.extend(self.tags.iter().map(|tag| (tag.clone(), self.note.clone())));
        out
    }

    fn collection_ui(items: &[Self]) -> Vec<UiBlock> {
        let mut out = vec![ui::summary(format!("{} items", items.len()))];
        out.extend(Item::collection_blocks(items));
        out
    }

    fn collection_rules(items: &[Self]) -> Vec<String> {
        let mut out = vec![format!("Collection of {}", items.len())];
        out.extend(items.iter().map(|i| format!("{}|{}", i.id, i.tool)));
        out
    }

    fn collection_suggestions(items: &[Self]) -> Vec<(String, String)> {
        let mut out = vec![(
            "bulk.export".to_owned(),
            format!("Export {} rows", items.len()),
        )];
        out.extend(items.first().map(|i| (i.reason.clone(), i.tool.clone())));
        out
    }

    fn embed_fields(&self) -> Vec<(&'static str, Option<EmbedValue<'_>>)> {
        vec![
            (
                "owner",
                self.owner
                    .as_ref()
                    .map(|owner| embed_value(std::slice::from_ref(owner), false)),
            ),
            // wire format §6.8: an empty collection embeds nothing.
            (
                "children",
                (!self.children.is_empty()).then(|| embed_value(&self.children, true)),
            ),
        ]
    }

    fn wire(&self) -> Value {
        json!({
            "id": self.id,
            "note": self.note,
            "tool": self.tool,
            "reason": self.reason,
            "flagged": self.flagged,
            "tags": self.tags,
            "lang": self.lang,
            "secret": "[REDACTED]",
            "owner": self.owner.as_ref().map_or(Value::Null, Expect::wire),
            "children": self.children.iter().map(Expect::wire).collect::<Vec<_>>(),
        })
    }
}

impl Expect for Child {
    const STATIC_RULES: &'static [&'static str] = &["Child rule."];

    fn item_ui(&self) -> Vec<UiBlock> {
        vec![ui::markdown(self.label.clone())]
    }

    fn item_rules(&self) -> Vec<String> {
        vec![format!("Child {}", self.label)]
    }

    fn item_suggestions(&self) -> Vec<(String, String)> {
        vec![(format!("child.{}", self.label), self.hint.clone())]
    }

    fn collection_ui(items: &[Self]) -> Vec<UiBlock> {
        vec![ui::summary(format!("{} children", items.len()))]
    }

    fn embed_fields(&self) -> Vec<(&'static str, Option<EmbedValue<'_>>)> {
        vec![(
            "leaf",
            self.leaf
                .as_ref()
                .map(|leaf| embed_value(std::slice::from_ref(leaf), false)),
        )]
    }

    fn wire(&self) -> Value {
        json!({
            "label": self.label,
            "hint": self.hint,
            "pin": "***",
            "leaf": self.leaf.as_ref().map_or(Value::Null, Expect::wire),
        })
    }
}

impl Expect for Leaf {
    fn item_ui(&self) -> Vec<UiBlock> {
        vec![self.leaf_ui()]
    }

    fn item_rules(&self) -> Vec<String> {
        vec![format!("Leaf {}", self.text)]
    }

    fn wire(&self) -> Value {
        json!({"text": self.text, "code": Leaf::mask(&self.code)})
    }
}

/// The wire names of `Item`, in declaration order.
const ITEM_NAMES: [&str; 10] = [
    "id", "note", "tool", "reason", "flagged", "tags", "lang", "secret", "owner", "children",
];

/// wire format §7.4: the selected members, in model order.
fn selected(wire: Value, selection: &[String]) -> Value {
    if selection.is_empty() {
        return wire;
    }
    let Value::Object(members) = wire else {
        return wire;
    };
    Value::Object(
        members
            .into_iter()
            .filter(|(name, _)| selection.contains(name))
            .collect::<Map<_, _>>(),
    )
}

/// Every block of the response after the data block, as the reference parser must recover it.
fn expected_blocks(parts: &Parts) -> Vec<Block> {
    let mut blocks: Vec<Block> = parts.ui.iter().map(ui_expected).collect();
    blocks.extend(parts.embeds.iter().map(Contributed::block));
    if !parts.rules.is_empty() {
        blocks.push(list_expected("domain_rules", &parts.rules));
    }
    if !parts.suggestions.is_empty() {
        let bodies: Vec<String> = parts
            .suggestions
            .iter()
            .map(|(t, r)| format!("{t}: {r}"))
            .collect();
        blocks.push(list_expected("action_suggestions", &bodies));
    }
    blocks
}

/// The testing view's lists (wire format §14.2): own UI then the children's; children's rules and
/// suggestions first.
fn expected_view(parts: &Parts) -> (Vec<UiBlock>, Vec<String>, Vec<(String, String)>) {
    let mut ui = parts.ui.clone();
    let mut rules = Vec::new();
    let mut suggestions = Vec::new();
    for c in &parts.embeds {
        match c {
            Contributed::Ui(block) => ui.push(block.clone()),
            Contributed::Rules(list) => rules.extend(list.iter().cloned()),
            Contributed::Suggestions(list) => suggestions.extend(list.iter().cloned()),
        }
    }
    rules.extend(parts.rules.iter().cloned());
    suggestions.extend(parts.suggestions.iter().cloned());
    (ui, rules, suggestions)
}

/// JSON-model equality (TOON spec §2): numbers by value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same(vx, vy))
        }
        _ => a == b,
    }
}

/// Checks one presented response against the expectation.
fn check(
    response: &fusion_runtime::ToolResponse,
    wire_value: &Value,
    parts: &Parts,
    format: Format,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(response.is_error(), None);
    let text = response.text();
    let blocks = parse(&text)?;
    let Some(Block::Data(data)) = blocks.first() else {
        return Err(TestCaseError::fail(format!("no data block in {text}")));
    };
    match format {
        // A presentation asked for text writes JSON.
        Format::Json | Format::CompactJson | Format::Text => {
            let parsed: Value = serde_json::from_str(data)
                .map_err(|e| TestCaseError::fail(format!("{e}: {data}")))?;
            prop_assert_eq!(&parsed, wire_value);
        }
        Format::Toon => {
            let decoded: Value = if data == "OK" {
                json!({})
            } else {
                toon_format::decode(data, &toon_format::DecodeOptions::new())
                    .map_err(|e| TestCaseError::fail(format!("{e}\n--- toon:\n{data}")))?
            };
            prop_assert!(
                same(&decoded, wire_value),
                "decoded {decoded}\nexpected {wire_value}\n--- toon:\n{data}"
            );
        }
    }
    let expected = expected_blocks(parts);
    prop_assert_eq!(&blocks[1..], expected.as_slice());

    let view = response.view();
    let data = view.data();
    prop_assert_eq!(data.as_value(), Some(wire_value));
    let (ui, rules, suggestions) = expected_view(parts);
    prop_assert_eq!(view.ui(), ui.as_slice());
    prop_assert_eq!(view.rules(), rules.as_slice());
    let view_pairs: Vec<(String, String)> = view
        .suggestions()
        .iter()
        .map(|s| (s.tool.to_string(), s.reason.to_string()))
        .collect();
    prop_assert_eq!(view_pairs, suggestions);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Generators.

fn leaf() -> impl Strategy<Value = Leaf> {
    (nasty(), nasty()).prop_map(|(text, code)| Leaf { text, code })
}

fn child() -> impl Strategy<Value = Child> {
    (nasty(), nasty(), nasty(), prop::option::of(leaf())).prop_map(|(label, hint, pin, leaf)| {
        Child {
            label,
            hint,
            pin,
            leaf,
        }
    })
}

/// Field texts drawn from a small pool half of the time, so that de-duplication of rules,
/// suggestions and embed blocks across items is exercised.
fn text(pool: &[String]) -> impl Strategy<Value = String> + use<> {
    let pool = pool.to_vec();
    prop_oneof![nasty(), prop::sample::select(pool)]
}

fn item(pool: &[String]) -> impl Strategy<Value = Item> + use<> {
    (
        (
            text(pool),
            text(pool),
            text(pool),
            text(pool),
            any::<bool>(),
        ),
        (
            prop::collection::vec(text(pool), 0..5),
            text(pool),
            nasty(),
            prop::option::of(child()),
            prop::collection::vec(child(), 0..3),
        ),
    )
        .prop_map(
            |((id, note, tool, reason, flagged), (tags, lang, secret, owner, children))| Item {
                id,
                note,
                tool,
                reason,
                flagged,
                tags,
                lang,
                secret,
                owner,
                children,
            },
        )
}

fn items() -> impl Strategy<Value = Vec<Item>> {
    prop::collection::vec(nasty(), 1..4)
        .prop_flat_map(|pool| prop::collection::vec(item(&pool), 0..6))
}

/// Selections of `Item`'s names, and of a name another model of the tool would have (it matches
/// nothing, wire format §7.4, so a selection of it alone is `{}`).
fn selection() -> impl Strategy<Value = Vec<String>> {
    let mut names = ITEM_NAMES.to_vec();
    names.push("elsewhere");
    prop::collection::vec(prop::sample::select(names), 0..4)
        .prop_map(|names| names.into_iter().map(str::to_owned).collect())
}

fn format() -> impl Strategy<Value = Format> {
    prop::sample::select(vec![Format::Json, Format::CompactJson, Format::Toon])
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_presented_single_value_recovers_exactly(
        item in prop::collection::vec(nasty(), 1..3).prop_flat_map(|pool| item(&pool)),
        names in selection(),
        format in format(),
    ) {
        let selection = Selection::new(names.clone());
        let response = item.present().select(&selection).format(format).build().unwrap();
        let wire_value = selected(item.wire(), &names);
        check(&response, &wire_value, &parts(std::slice::from_ref(&item), false, true, &names), format)?;
    }

    #[test]
    fn a_presented_collection_recovers_exactly(
        items in items(),
        names in selection(),
        format in format(),
    ) {
        let selection = Selection::new(names.clone());
        let response = Item::present_all(&items).select(&selection).format(format).build().unwrap();
        let shown = &items[..items.len().min(AGENT_LIMIT)];
        let wire_value = Value::Array(shown.iter().map(|i| selected(i.wire(), &names)).collect());
        check(&response, &wire_value, &parts(&items, true, true, &names), format)?;
    }
}

/// The expectation itself, on a fixed case: two items sharing a child, so de-duplication and the
/// first-item UI rule both show.
#[test]
fn the_expectation_matches_a_hand_checked_case() {
    let child = Child {
        label: "c".into(),
        hint: "h".into(),
        pin: "1".into(),
        leaf: None,
    };
    let item = |id: &str| Item {
        id: id.into(),
        note: "n".into(),
        tool: "t".into(),
        reason: "r".into(),
        flagged: false,
        tags: vec![],
        lang: "x".into(),
        secret: "s".into(),
        owner: Some(child.clone()),
        children: vec![],
    };
    let items = [item("a"), item("b")];
    let response = Item::present_all(&items).build().unwrap();
    let blocks = response.blocks();
    // Collection UI (summary, list, table); the owner's UI, rules and suggestion, once for both
    // items (item b's equal blocks are dropped); the empty children collections say nothing
    // (wire format §6.8); then the item rules and suggestions.
    assert_eq!(blocks.len(), 1 + 3 + 3 + 2, "{blocks:#?}");
    assert_eq!(
        blocks[4..7],
        [
            "<ui_passthrough type=\"markdown\">\nc\n</ui_passthrough>",
            "<domain_rules>\n- Child rule.\n- Child c\n</domain_rules>",
            "<action_suggestions>\n- child.c: h\n</action_suggestions>",
        ]
    );
    let text = response.text();
    assert_eq!(
        fusion_tests::wire::parse(&text).unwrap()[1..],
        expected_blocks(&parts(&items, true, true, &[]))[..]
    );
}
