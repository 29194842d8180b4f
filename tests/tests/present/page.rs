//! Paged answers (wire format §6.11): `_select`, the agent limit and the budget apply to the
//! items, and the envelope's fields agree with the items kept.

use fusion_runtime::present::Format;
use fusion_runtime::{Presenter, Selection};
use proptest::prelude::*;
use serde_json::{Value, json};

/// A search result of the issue's notes vault.
#[derive(Presenter, Clone)]
#[rule("score is 0 to 1, higher is better.")]
struct Hit {
    path: String,
    title: String,
    score: f64,
}

/// The same, limited to 5 per answer.
#[derive(Presenter, Clone)]
#[presenter(agent_limit = 5)]
struct LimitedHit {
    path: String,
    title: String,
}

fn hits(n: usize) -> Vec<Hit> {
    (0..n)
        .map(|i| Hit {
            path: format!("notes/{i}.md"),
            title: format!("Rust and MCP, part {i}"),
            score: 1.0 / (f64::from(u32::try_from(i).unwrap_or(u32::MAX)) + 1.0),
        })
        .collect()
}

/// The estimated tokens of a response (wire format §17.2), the count a budget holds.
fn estimate(response: &fusion_runtime::ToolResponse) -> usize {
    response
        .blocks()
        .iter()
        .map(|block| fusion_runtime::tokens::estimate(block))
        .sum()
}

fn data(response: &fusion_runtime::ToolResponse) -> Value {
    response
        .view()
        .data()
        .as_value()
        .cloned()
        .unwrap_or(Value::Null)
}

#[test]
fn v192_a_page_under_select() {
    let hits = hits(2);
    let selection = Selection::new(["path"]);
    let response = Hit::present_all(&hits)
        .select(&selection)
        .format(Format::CompactJson)
        .page(40, Some(72))
        .build()
        .unwrap();
    assert_eq!(
        response.blocks(),
        [
            r#"{"results":[{"path":"notes/0.md"},{"path":"notes/1.md"}],"total":72,"offset":40,"shown":2,"truncated":true,"next_offset":42}"#,
            "<domain_rules>\n- score is 0 to 1, higher is better.\n</domain_rules>",
        ]
    );
}

#[test]
fn the_last_page_is_not_truncated_and_the_total_defaults_to_the_end() {
    let hits = hits(3);
    let response = Hit::present_all(&hits).page(10, None).build().unwrap();
    let data = data(&response);
    assert_eq!(data["total"], 13);
    assert_eq!(data["truncated"], false);
    assert_eq!(data.get("next_offset"), None);
}

#[test]
fn the_agent_limit_and_the_next_page_suggestion() {
    let items: Vec<LimitedHit> = (0..8)
        .map(|i| LimitedHit {
            path: format!("{i}.md"),
            title: "t".into(),
        })
        .collect();
    let (builder, info) = LimitedHit::present_all(&items)
        .page(0, None)
        .items_key("notes")
        .suggest_next("notes.search", "More results")
        .into_builder()
        .unwrap();
    assert_eq!(
        (info.shown, info.total, info.next_offset()),
        (5, 8, Some(5))
    );
    let response = builder.build();
    let data = data(&response);
    assert_eq!(data["notes"].as_array().unwrap().len(), 5);
    assert_eq!(
        (&data["shown"], &data["truncated"], &data["next_offset"]),
        (&json!(5), &json!(true), &json!(5))
    );
    assert!(
        response
            .text()
            .contains("- notes.search: More results (offset: 5)")
    );
}

#[test]
fn a_budget_cuts_the_items_and_the_envelope_says_so() {
    let hits = hits(200);
    let response = Hit::present_all(&hits)
        .max_tokens(1_500)
        .page(0, Some(200))
        .build()
        .unwrap();
    let data = data(&response);
    let shown = data["results"].as_array().unwrap().len();
    assert!(shown > 5 && shown < 200, "{shown}");
    assert_eq!(data["shown"], shown);
    assert_eq!(data["truncated"], true);
    assert_eq!(data["next_offset"], shown);
    assert!(
        estimate(&response) <= 1_500,
        "{} tokens",
        estimate(&response)
    );
}

#[test]
fn a_toon_page() {
    let hits = hits(2);
    let response = Hit::present_all(&hits)
        .format(Format::Toon)
        .page(0, Some(9))
        .build()
        .unwrap();
    assert!(
        response.blocks()[0].starts_with("results[2|]{path|title|score}:"),
        "{}",
        response.blocks()[0]
    );
    assert_eq!(data(&response)["next_offset"], 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The envelope agrees with the items kept, whatever `_select`, agent limit and budget.
    #[test]
    fn the_envelope_agrees_with_the_items_kept(
        n in 0usize..40,
        offset in 0usize..100,
        more in 0usize..50,
        limited in any::<bool>(),
        budget in prop::option::of(40usize..3_000),
        selected in prop::sample::subsequence(vec!["path", "title", "score"], 0..3),
        format in prop::sample::select(vec![Format::Json, Format::CompactJson, Format::Toon]),
    ) {
        let total = offset + n + more;
        let selection = Selection::new(selected.clone());
        let all = hits(n);
        let limited_items: Vec<LimitedHit> = all
            .iter()
            .map(|h| LimitedHit { path: h.path.clone(), title: h.title.clone() })
            .collect();
        let build = |response: Result<fusion_runtime::ToolResponse, _>| response.unwrap();
        let response = if limited {
            let mut p = LimitedHit::present_all(&limited_items).select(&selection).format(format);
            if let Some(budget) = budget { p = p.max_tokens(budget); }
            build(p.page(offset, Some(total)).build())
        } else {
            let mut p = Hit::present_all(&all).select(&selection).format(format);
            if let Some(budget) = budget { p = p.max_tokens(budget); }
            build(p.page(offset, Some(total)).build())
        };
        if response.is_error().is_some() {
            // Not even one item fits: RESPONSE_TOO_LARGE, no envelope (wire format §17.5).
            prop_assert!(response.blocks()[0].starts_with("<tool_error code=\"RESPONSE_TOO_LARGE\""));
            prop_assert!(budget.is_some() && n > 0);
            return Ok(());
        }
        let data = data(&response);
        let results = data["results"].as_array().cloned().unwrap_or_default();
        let shown = results.len();
        prop_assert!(shown <= n);
        if limited { prop_assert!(shown <= 5); }
        prop_assert_eq!(&data["shown"], &json!(shown));
        prop_assert_eq!(&data["total"], &json!(total));
        prop_assert_eq!(&data["offset"], &json!(offset));
        prop_assert_eq!(&data["truncated"], &json!(offset + shown < total));
        if offset + shown < total {
            prop_assert_eq!(&data["next_offset"], &json!(offset + shown));
        } else {
            prop_assert!(data.get("next_offset").is_none());
        }
        // The kept items are the first ones, selected.
        for (index, item) in results.iter().enumerate() {
            prop_assert_eq!(&item["path"].as_str().is_some(), &(selected.is_empty() || selected.contains(&"path")));
            if let Some(path) = item["path"].as_str() {
                prop_assert_eq!(path, format!("notes/{index}.md"));
            }
        }
        if let Some(budget) = budget {
            prop_assert!(estimate(&response) <= budget, "{} > {budget}", estimate(&response));
        }
    }
}

/// The estimate a fitted response may reach (wire format §17.2): B − (2⌈√B⌉ + 4).
fn room(budget: usize) -> usize {
    let root = budget.isqrt() + usize::from(budget.isqrt().pow(2) < budget);
    budget.saturating_sub(2 * root + 4)
}

/// A page with a budget is fitted as it is sent: its envelope and next-page suggestion within
/// the room, its summary and `RESPONSE_TOO_LARGE` naming the budget itself (found by a user's
/// probe: the suggestion was added after the fit, 197 estimated tokens for a room of 153, and
/// the summary said "within 347 tokens" of a budget of 400).
#[test]
fn a_budgeted_page_counts_its_envelope_and_next_suggestion() {
    let all = hits(200);
    let reason = "List the next page of the notes that match the query, ranked by score, \
                  highest first, to go on reading";
    for format in [Format::Json, Format::CompactJson, Format::Toon] {
        let mut fitted = 0;
        for budget in (60..900).step_by(7) {
            let response = Hit::present_all(&all)
                .format(format)
                .max_tokens(budget)
                .page(100, Some(100_000))
                .suggest_next("notes.search", reason)
                .build()
                .unwrap();
            let text = response.blocks().join("\n");
            if response.is_error() == Some(true) {
                let figure = format!("response budget of {budget} tokens");
                assert!(text.contains(&figure), "{format:?} at {budget}: {text}");
                continue;
            }
            fitted += 1;
            assert!(
                estimate(&response) <= room(budget),
                "{format:?} at {budget}: {} > {}",
                estimate(&response),
                room(budget)
            );
            assert!(
                text.contains(&format!("to stay within {budget} tokens")),
                "{format:?} at {budget}: {text}"
            );
            assert!(text.contains("notes.search"), "{format:?} at {budget}");
        }
        assert!(fitted > 50, "{format:?}: {fitted} pages fitted");
    }
}
