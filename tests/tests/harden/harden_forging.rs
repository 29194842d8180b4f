//! Hardening property 1 (forging): arbitrary strings in every text-bearing input never change
//! the structure that the reference parser (`fusion_tests::wire`) recovers (wire format §5.10 P1–P8).

use crate::harden_support;

use fusion_runtime::ResponseBuilder;
use fusion_runtime::ToolError;
use fusion_runtime::tool::{Problem, ProblemKind, ValidationError};
use fusion_runtime::ui::{self, UiBlock, Width};
use fusion_tests::wire::{self, Block};
use harden_support::{config, nasty, neutral};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum UiInput {
    Markdown(String),
    Mermaid(String),
    Code(String, String),
    Summary(String),
    List(Vec<String>),
    Table(Vec<String>, Vec<Vec<String>>),
    Custom(String, String),
}

fn ui_input() -> impl Strategy<Value = (UiInput, Option<String>, Option<i64>)> {
    let kind = prop_oneof![
        nasty().prop_map(UiInput::Markdown),
        nasty().prop_map(UiInput::Mermaid),
        (nasty(), nasty()).prop_map(|(l, c)| UiInput::Code(l, c)),
        nasty().prop_map(UiInput::Summary),
        prop::collection::vec(nasty(), 0..4).prop_map(UiInput::List),
        (
            prop::collection::vec(nasty(), 0..3),
            prop::collection::vec(prop::collection::vec(nasty(), 0..3), 0..3)
        )
            .prop_map(|(h, r)| UiInput::Table(h, r)),
        (nasty(), nasty()).prop_map(|(t, c)| UiInput::Custom(t, c)),
    ];
    (
        kind,
        prop::option::of(nasty()),
        prop::option::of(any::<i64>()),
    )
}

fn build_ui(input: &UiInput) -> UiBlock {
    match input {
        UiInput::Markdown(t) => ui::markdown(t.clone()),
        UiInput::Mermaid(s) => ui::mermaid(s),
        UiInput::Code(l, c) => ui::code_block(l, c),
        UiInput::Summary(t) => ui::summary(t),
        UiInput::List(items) => ui::list(items),
        UiInput::Table(h, r) => ui::table(h, r.clone()),
        UiInput::Custom(t, c) => UiBlock::custom(t.clone(), c.clone()),
    }
}

/// P7: the first and last lines of fenced content are the fence, and no inner line holds a
/// backtick run as long as the fence.
fn check_fence(content: &str) -> Result<(), TestCaseError> {
    let first = content.split('\n').next().unwrap_or_default();
    let fence_len = first.bytes().take_while(|b| *b == b'`').count();
    prop_assert!(fence_len >= 3, "no fence in {content:?}");
    let last = content.rsplit('\n').next().unwrap_or_default();
    prop_assert_eq!(last, "`".repeat(fence_len));
    let inner = &content[first.len()..content.len() - last.len()];
    let longest = inner.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    prop_assert!(longest < fence_len, "a backtick run as long as the fence");
    Ok(())
}

/// P8: table rows have no line break and `|` count = cells + 1 on each row line.
fn check_table(content: &str, headers: usize, rows: &[Vec<String>]) -> Result<(), TestCaseError> {
    let lines: Vec<&str> = content.split('\n').collect();
    let unescaped_bars = |line: &str| {
        let bytes = line.as_bytes();
        (0..bytes.len())
            .filter(|&i| bytes[i] == b'|' && (i == 0 || bytes[i - 1] != b'\\'))
            .count()
    };
    let expected_lines = 2 + rows.len().max(1);
    prop_assert_eq!(lines.len(), expected_lines, "table lines of {:?}", content);
    prop_assert_eq!(unescaped_bars(lines[0]), headers.max(1) + 1);
    for (line, row) in lines[2..].iter().zip(rows) {
        prop_assert_eq!(unescaped_bars(line), row.len().max(1) + 1, "row {:?}", line);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn forged_text_never_changes_the_structure(
        data in nasty(),
        uis in prop::collection::vec(ui_input(), 0..4),
        hints in prop::collection::vec(nasty(), 0..3),
        rules in prop::collection::vec(nasty(), 0..4),
        suggestions in prop::collection::vec((nasty(), nasty()), 0..3),
    ) {
        let mut builder = ResponseBuilder::text(data.clone());
        for (input, title, priority) in &uis {
            let mut block = build_ui(input).width(Width::Third);
            if let Some(title) = title {
                block = block.title(title.clone());
            }
            if let Some(priority) = priority {
                block = block.priority(*priority);
            }
            builder = builder.ui(block);
        }
        for hint in &hints {
            builder = builder.hint(hint.clone());
        }
        for rule in &rules {
            builder = builder.rule(rule.clone());
        }
        for (tool, reason) in &suggestions {
            builder = builder.suggest(tool.clone(), reason.clone());
        }
        let response = builder.build();
        let text = response.text();
        let blocks = wire::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;

        let mut expected_count = 1 + uis.len();
        let data_text = if data.is_empty() { "OK".to_owned() } else { neutral(&data) };
        prop_assert_eq!(&blocks[0], &Block::Data(data_text));
        for (i, (input, title, priority)) in uis.iter().enumerate() {
            let Block::Ui { attrs, content } = &blocks[1 + i] else {
                return Err(TestCaseError::fail(format!("block {} is not UI", 1 + i)));
            };
            let built = build_ui(input);
            let mut want = vec![("type".to_owned(), built.kind().to_owned())];
            if let Some(title) = title.as_ref().filter(|t| !t.is_empty()) {
                want.push(("title".to_owned(), title.clone()));
            }
            want.push(("width".to_owned(), "third".to_owned()));
            if let Some(priority) = priority {
                want.push(("priority".to_owned(), priority.to_string()));
            }
            prop_assert_eq!(attrs, &want);
            prop_assert_eq!(content, &neutral(built.content()));
            match input {
                UiInput::Mermaid(_) | UiInput::Code(..) => check_fence(built.content())?,
                UiInput::Table(h, r) => check_table(built.content(), h.len(), r)?,
                _ => {}
            }
        }
        let mut list = |name: &str, items: Vec<String>| {
            if items.is_empty() {
                None
            } else {
                expected_count += 1;
                Some((name.to_owned(), items))
            }
        };
        let mut unique_rules: Vec<String> = Vec::new();
        for rule in &rules {
            if !unique_rules.contains(rule) {
                unique_rules.push(rule.clone());
            }
        }
        let mut unique_suggestions: Vec<String> = Vec::new();
        let mut seen_pairs: Vec<&(String, String)> = Vec::new();
        for pair in &suggestions {
            if !seen_pairs.contains(&pair) {
                seen_pairs.push(pair);
                unique_suggestions.push(format!("{}: {}", pair.0, pair.1));
            }
        }
        let lists: Vec<(String, Vec<String>)> = [
            list("llm_directives", hints.clone()),
            list("domain_rules", unique_rules),
            list("action_suggestions", unique_suggestions),
        ]
        .into_iter()
        .flatten()
        .collect();
        prop_assert_eq!(blocks.len(), expected_count);
        for (block, (name, items)) in blocks[1 + uis.len()..].iter().zip(lists) {
            let want = Block::List {
                name,
                items: items.iter().map(|i| neutral(i)).collect(),
            };
            prop_assert_eq!(block, &want);
        }
    }

    #[test]
    fn forged_json_strings_never_leave_the_data_block(
        keys in prop::collection::vec(nasty(), 0..4),
        values in prop::collection::vec(nasty(), 0..4),
    ) {
        let mut object = serde_json::Map::new();
        for (key, value) in keys.iter().zip(&values) {
            object.insert(key.clone(), serde_json::Value::String(value.clone()));
        }
        let value = serde_json::Value::Object(object);
        let response = ResponseBuilder::json(&value).unwrap().rule("r").build();
        let text = response.text();
        let blocks = wire::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(blocks.len(), 2);
        let Block::Data(data) = &blocks[0] else { unreachable!() };
        prop_assert!(wire::tag_starts(data).is_empty());
        let parsed: serde_json::Value = serde_json::from_str(data).unwrap();
        prop_assert_eq!(parsed, value);
    }

    #[test]
    fn forged_tool_errors_decode_to_their_inputs(
        code in nasty(),
        message in nasty(),
        recovery in nasty(),
        actions in prop::collection::vec(nasty(), 0..3),
        details in prop::collection::vec((nasty(), nasty()), 0..3),
        retry in 0u64..4,
        warning in any::<bool>(),
    ) {
        let mut error = if warning {
            ToolError::warning(code.clone(), message.clone())
        } else {
            ToolError::new(code.clone(), message.clone())
        };
        error = error.recovery(recovery.clone()).actions(actions.clone()).retry_after(retry);
        for (key, value) in &details {
            error = error.detail(key.clone(), value.clone());
        }
        let response = error.into_response();
        prop_assert_eq!(response.is_error(), Some(!warning));
        let text = response.text();
        let blocks = wire::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let want_code = if code.is_empty() { "ERROR".to_owned() } else { code };
        let want = Block::ToolError {
            attrs: vec![
                ("code".to_owned(), want_code),
                ("severity".to_owned(), if warning { "warning" } else { "error" }.to_owned()),
            ],
            message,
            recovery: (!recovery.is_empty()).then_some(recovery),
            actions,
            details,
            retry_after: (retry > 0).then(|| format!("{retry} seconds")),
        };
        prop_assert_eq!(&blocks, &vec![want]);
    }

    #[test]
    fn forged_validation_errors_decode_to_their_inputs(
        reference in nasty(),
        problems in prop::collection::vec((nasty(), nasty(), nasty()), 1..4),
    ) {
        let list: Vec<Problem> = problems
            .iter()
            .map(|(path, sent, reason)| {
                Problem::new(path.clone(), ProblemKind::Invalid { sent: sent.clone(), reason: reason.clone() })
            })
            .collect();
        let response = ValidationError::new(reference.clone(), list.clone()).unwrap().into_response();
        let text = response.text();
        let blocks = wire::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let want = Block::ValidationError {
            action: reference,
            fields: list.iter().map(|p| (p.path.clone(), p.kind.to_string())).collect(),
            recovery: "Fix the fields above and call the tool again. Do not explain the error.".to_owned(),
        };
        prop_assert_eq!(&blocks, &vec![want]);
    }
}
