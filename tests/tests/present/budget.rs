//! Response budgets (wire format §17): fitting a presented response to a number of tokens.

use std::sync::LazyLock;

use fusion_runtime::tokens::{ExactCounter, TokenCounter, estimate};
use fusion_runtime::{Call, Presenter, Selection, Tool, ToolResponse, ToolSet};
use proptest::prelude::*;

use crate::support::assert_blocks;

/// wire format V101–V103: one row of a list, with a dynamic rule.
#[derive(Presenter, Clone, Debug)]
#[rule(when = Self::is_flagged, text = "Row {id} is flagged.")]
struct Row {
    id: u32,
    note: String,
    flagged: bool,
}

impl Row {
    fn is_flagged(&self) -> bool {
        self.flagged
    }
}

fn rows(count: u32) -> Vec<Row> {
    (1..=count)
        .map(|id| Row {
            id,
            note: "a note of several plain words".to_owned(),
            flagged: id == 2,
        })
        .collect()
}

/// The estimate a fitted response may reach (wire format §17.2): B − (2⌈√B⌉ + 4).
fn room(budget: usize) -> usize {
    let root = budget.isqrt() + usize::from(budget.isqrt().pow(2) < budget);
    budget.saturating_sub(2 * root + 4)
}

/// The sum of the estimates of the text blocks (wire format §17.2).
fn tokens(response: &ToolResponse) -> usize {
    response.blocks().iter().map(|block| estimate(block)).sum()
}

/// The estimated tokens of the budget's summary block for `shown` of `total` items.
fn summary_tokens(shown: usize, total: usize, budget: usize) -> usize {
    estimate(&summary_block(shown, total, budget))
}

/// The budget's summary block for `shown` of `total` items (wire format §17.3).
fn summary_block(shown: usize, total: usize, budget: usize) -> String {
    let budget = budget.to_string();
    let grouped = if budget.len() > 3 {
        format!(
            "{},{}",
            &budget[..budget.len() - 3],
            &budget[budget.len() - 3..]
        )
    } else {
        budget
    };
    format!(
        "<ui_passthrough type=\"summary\">\n📊 **Summary**: ⚠️ Dataset truncated. {shown} of {total} shown to stay within {grouped} tokens; use filters or `_select` to see others.\n</ui_passthrough>"
    )
}

fn kept_ids(response: &ToolResponse) -> Vec<u64> {
    let data: serde_json::Value = serde_json::from_str(&response.blocks()[0]).expect("parses");
    data.as_array()
        .expect("a list")
        .iter()
        .map(|row| row["id"].as_u64().expect("an id"))
        .collect()
}

#[test]
fn v101_a_collection_keeps_the_longest_prefix_that_fits() {
    let response = Row::present_all(&rows(10)).max_tokens(200).build().unwrap();
    assert_blocks(
        &response,
        &[
            "[\n  {\n    \"id\": 1,\n    \"note\": \"a note of several plain words\",\n    \"flagged\": false\n  },\n  {\n    \"id\": 2,\n    \"note\": \"a note of several plain words\",\n    \"flagged\": true\n  }\n]",
            "<ui_passthrough type=\"summary\">\n📊 **Summary**: ⚠️ Dataset truncated. 2 of 10 shown to stay within 200 tokens; use filters or `_select` to see others.\n</ui_passthrough>",
            "<domain_rules>\n- Row 2 is flagged.\n</domain_rules>",
        ],
    );
    assert!(tokens(&response) <= room(200));
    assert!(exact(&response) <= 200);
    // One more item does not fit in the room of the budget (wire format §17.2).
    let three = Row::present_all(&rows(10)[..3]).build().unwrap();
    assert!(tokens(&three) + summary_tokens(3, 10, 200) > room(200));
}

#[test]
fn a_response_that_fits_is_unchanged() {
    let plain = Row::present_all(&rows(3)).build().unwrap();
    let budgeted = Row::present_all(&rows(3))
        .max_tokens(10_000)
        .build()
        .unwrap();
    assert_eq!(plain.blocks(), budgeted.blocks());
}

#[test]
fn a_narrower_selection_shows_more_items() {
    let all = rows(40);
    let whole = kept_ids(&Row::present_all(&all).max_tokens(300).build().unwrap());
    let selection = Selection::new(["id"]);
    let narrow = Row::present_all(&all)
        .select(&selection)
        .max_tokens(300)
        .build()
        .unwrap();
    assert!(kept_ids(&narrow).len() > whole.len() * 2, "{whole:?}");
    assert!(tokens(&narrow) <= 300);
}

#[test]
fn v102_not_even_one_item_fits() {
    let response = Row::present_all(&rows(3)).max_tokens(20).build().unwrap();
    assert_eq!(response.is_error(), Some(true));
    assert_eq!(
        response.blocks(),
        [
            "<tool_error code=\"RESPONSE_TOO_LARGE\" severity=\"error\">\n<message>One item with the truncation summary takes about 90 tokens, more than fits a response budget of 20 tokens.</message>\n<recovery>Most of it is not the data (summary, UI, rules, suggestions), so a narrower `_select` will not help: tell the user that this answer does not fit the tool's response budget.</recovery>\n</tool_error>",
        ],
    );
}

/// wire format V103: the agent limit cuts first; the budget summary replaces its summary.
#[derive(Presenter, Clone)]
#[presenter(agent_limit = 5, max_tokens = 120)]
struct Limited {
    id: u32,
    note: &'static str,
}

#[test]
fn v103_the_budget_summary_replaces_the_agent_limit_summary() {
    let items: Vec<Limited> = (1..=8)
        .map(|id| Limited {
            id,
            note: "a note of several plain words, and then some more words",
        })
        .collect();
    let response = Limited::present_all(&items).build().unwrap();
    assert_eq!(response.blocks().len(), 2, "{:#?}", response.blocks());
    assert_eq!(
        response.blocks()[1],
        "<ui_passthrough type=\"summary\">\n📊 **Summary**: ⚠️ Dataset truncated. 1 of 8 shown to stay within 120 tokens; use filters or `_select` to see others.\n</ui_passthrough>"
    );
    // The tightest budget wins: a looser one of the call changes nothing.
    let loose = Limited::present_all(&items)
        .max_tokens(100_000)
        .build()
        .unwrap();
    assert_eq!(loose.blocks(), response.blocks());
}

/// A project embedding many tasks (wire format §17.4).
#[derive(Presenter, Clone)]
struct Task {
    title: String,
}

#[derive(Presenter)]
struct Project {
    name: &'static str,
    #[embed]
    tasks: Vec<Task>,
}

fn project(tasks: usize) -> Project {
    Project {
        name: "Apollo",
        tasks: (0..tasks)
            .map(|n| Task {
                title: format!("task number {n} of the project"),
            })
            .collect(),
    }
}

#[test]
fn v104_a_single_value_cuts_its_embedded_collections() {
    let response = project(50).present().max_tokens(200).build().unwrap();
    assert!(tokens(&response) <= room(200), "{}", tokens(&response));
    let data: serde_json::Value = serde_json::from_str(&response.blocks()[0]).unwrap();
    let kept = data["tasks"].as_array().unwrap().len();
    assert!(kept > 0 && kept < 50);
    assert_eq!(
        response.blocks()[1],
        format!(
            "<ui_passthrough type=\"summary\">\n📊 **Summary**: ⚠️ Dataset truncated. {kept} of 50 shown to stay within 200 tokens; use filters or `_select` to see others.\n</ui_passthrough>"
        )
    );
    // One more task would not fit.
    let more = project(kept + 1).present().build().unwrap();
    assert!(tokens(&more) + summary_tokens(kept + 1, 50, 200) > room(200));
}

/// A tool whose handler presents through the call: the tool set's budget reaches it.
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[fusion(read_only)]
struct ListRows {}

#[test]
fn the_tool_set_budget_reaches_the_presentation_without_the_handler() {
    let tools = ToolSet::new()
        .max_tokens(200)
        .tool(|_: ListRows, _: &Call| {
            let all = rows(10);
            // Built inside the handler; the budget is applied where the result is wrapped.
            fusion_runtime::Json(kept_ids(&Row::present_all(&all).build().unwrap()).len())
        })
        .unwrap();
    // A hand-built answer is sent as it is.
    assert_eq!(tools.call("list_rows", None).blocks(), ["10"]);

    let tools = ToolSet::new()
        .max_tokens(200)
        .tool(|_: ListRows, _: &Call| Row::present_all(&TEN_ROWS))
        .unwrap();
    let response = tools.call("list_rows", None);
    assert_eq!(kept_ids(&response), [1, 2]);
    let through_call = ToolSet::new()
        .max_tokens(200)
        .tool(|_: ListRows, call: &Call| call.present_all(&TEN_ROWS).build())
        .unwrap();
    assert_eq!(kept_ids(&through_call.call("list_rows", None)), [1, 2]);
}

/// Rows numbered from 0 with these notes, every `flag_every`th flagged (its rule fires).
fn noted_rows(notes: impl Iterator<Item = String>, flag_every: usize) -> Vec<Row> {
    notes
        .enumerate()
        .map(|(index, note)| Row {
            id: u32::try_from(index).unwrap(),
            note,
            flagged: index % flag_every == 1,
        })
        .collect()
}

/// A `_select` of the id and the note, or none.
fn note_selection(select_note: bool) -> Selection {
    if select_note {
        Selection::new(["id", "note"])
    } else {
        Selection::default()
    }
}

static EXACT: LazyLock<ExactCounter> = LazyLock::new(|| ExactCounter::o200k().expect("o200k"));

/// The exact count of a response: the sum over its text blocks.
fn exact(response: &ToolResponse) -> usize {
    response
        .blocks()
        .iter()
        .map(|block| EXACT.count(block))
        .sum()
}

/// A fitted response's estimate is within the room (wire format §17.2), and its exact count
/// within the budget.
/// `all` fitted to `budget` in `format` (under `selection`, if any), checked by
/// [`within_budget`]; `None` when the answer is `RESPONSE_TOO_LARGE` (not even one item fits).
fn fitted_within(
    all: &[Row],
    selection: Option<&Selection>,
    format: fusion_runtime::present::Format,
    budget: usize,
) -> Result<Option<ToolResponse>, TestCaseError> {
    let presentation = Row::present_all(all);
    let presentation = match selection {
        Some(selection) => presentation.select(selection),
        None => presentation,
    };
    let response = presentation
        .format(format)
        .max_tokens(budget)
        .build()
        .unwrap();
    if response.is_error() == Some(true) {
        return Ok(None);
    }
    within_budget(&response, budget)?;
    Ok(Some(response))
}

fn within_budget(response: &ToolResponse, budget: usize) -> Result<(), TestCaseError> {
    let estimated = tokens(response);
    prop_assert!(estimated <= room(budget), "{estimated} > room of {budget}");
    prop_assert!(
        exact(response) <= budget,
        "exact {} > {budget} (estimate {estimated})",
        exact(response)
    );
    Ok(())
}

/// Words of billing notes, with the non-ASCII text the estimate is calibrated on (the corpus's
/// word soups are made of the same).
const WORDS: &[&str] = fusion_examples::token_corpus::NOTE_WORDS;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// For random collections, selections and budgets: the estimate never exceeds the budget,
    /// the exact count stays within the estimator's margin (5%, plus 3 tokens a block), the
    /// data parses, its items are a prefix of the unbudgeted items, and the summary counts them.
    #[test]
    fn a_budgeted_collection_fits_parses_and_is_a_prefix(
        notes in prop::collection::vec(prop::collection::vec(prop::sample::select(WORDS), 0..12), 0..60),
        select_note in any::<bool>(),
        budget in 30usize..2_000,
    ) {
        let all = noted_rows(notes.iter().map(|words| words.join(" ")), 7);
        let selection = note_selection(select_note);
        let response = Row::present_all(&all).select(&selection).max_tokens(budget).build().unwrap();
        if response.is_error() == Some(true) {
            prop_assert!(response.blocks()[0].starts_with("<tool_error code=\"RESPONSE_TOO_LARGE\""));
            prop_assert!(!all.is_empty());
            let one = Row::present_all(&all[..1]).select(&selection).build().unwrap();
            let summary = if all.len() > 1 { summary_tokens(1, all.len(), budget) } else { 0 };
            prop_assert!(tokens(&one) + summary > room(budget));
            return Ok(());
        }
        // The estimate is an upper bound of the exact count on its corpus, and a fit leaves
        // 2⌈√B⌉ + 4 tokens free for the spread of text like it but not in it (such word soups
        // were found up to 8% under at a few hundred tokens): the exact count is within the
        // budget too (wire format §17.2).
        within_budget(&response, budget)?;
        let kept = kept_ids(&response);
        let expected: Vec<u64> = (0..kept.len() as u64).collect();
        prop_assert_eq!(&kept, &expected);
        let summary = response.blocks().iter().find(|b| b.contains("Dataset truncated"));
        if kept.len() < all.len() {
            let text = format!("{} of {} shown to stay within", kept.len(), all.len());
            prop_assert!(summary.is_some_and(|s| s.contains(&text)), "{:?}", summary);
            // The longest prefix: one more item does not fit.
            let more = Row::present_all(&all[..=kept.len()]).select(&selection).build().unwrap();
            prop_assert!(tokens(&more) + summary_tokens(kept.len() + 1, all.len(), budget) > room(budget));
        } else {
            prop_assert!(summary.is_none());
        }
    }

    /// The same for a TOON data block: it fits, and it decodes to a prefix of the items.
    #[test]
    fn a_budgeted_toon_collection_fits_and_decodes(
        count in 0usize..80,
        budget in 40usize..1_500,
    ) {
        let all = rows(u32::try_from(count).unwrap());
        let Some(response) = fitted_within(&all, None, fusion_runtime::present::Format::Toon, budget)? else {
            return Ok(());
        };
        let decoded: serde_json::Value = toon_format::decode(&response.blocks()[0], &toon_format::DecodeOptions::new()).unwrap();
        let kept = decoded.as_array().map_or(0, Vec::len);
        prop_assert!(kept <= count);
        for (index, row) in decoded.as_array().into_iter().flatten().enumerate() {
            prop_assert_eq!(row["id"].as_u64(), Some(index as u64 + 1));
        }
        if kept < count {
            // The longest prefix, whatever path the search took: one more item does not fit.
            let more = Row::present_all(&all[..=kept])
                .format(fusion_runtime::present::Format::Toon)
                .build()
                .unwrap();
            prop_assert!(tokens(&more) + summary_tokens(kept + 1, count, budget) > room(budget));
        }
    }
}

/// A value of one of the kinds an estimate that reads only classes of characters finds hardest
/// (issue #20): UUIDs, hashes, base64, codes, digits, timestamps, URLs, ids, codes, e-mail
/// addresses and camelCase names of random letters, and sentences of the scripts without a
/// class of their own. A list of UUIDs alone was estimated at 0.75 of its exact count, of
/// SHA-256 hashes at 0.55, of Greek at 0.8, of random lower-case ids at 0.58.
fn hard_value() -> impl Strategy<Value = String> {
    let sentences: Vec<&'static str> = fusion_examples::token_corpus::OTHER_SCRIPTS
        .iter()
        .flat_map(|script| script.iter().copied())
        .collect();
    prop_oneof![
        "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
        "[0-9a-f]{64}",
        "[0-9a-f]{6,12}",
        "[A-Za-z0-9+/]{20,44}={0,2}",
        "[A-Za-z0-9]{8,16}",
        "[0-9]{4,20}",
        "20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z",
        "https://cdn\\.example\\.com/[0-9a-f]{12}/[A-Za-z0-9]{10}\\?v=[0-9]{6}",
        "[a-z]{6,24}",
        "[A-Z]{4,12}",
        "[a-z]{4,10}\\.[a-z]{4,10}@[a-z]{5,9}\\.com",
        "[a-z]{3,8}([A-Z][a-z]{2,7}){1,3}",
        prop::sample::select(sentences).prop_map(str::to_owned),
        katakana_name(),
        decomposed_words(),
        emoji_label(),
    ]
}

/// A label with emoji, as a status board or a list of places shows it (`Lisbon 🦀`,
/// `🇵🇹 ⚠️ Porto`): emoji drawn from the whole of their blocks, one to four, with a variation
/// selector, a skin tone or a second regional indicator (a flag) now and then, before or after
/// a word. Most emoji take two or three tokens and a few one; the estimate priced them all
/// alike, at under two, and a list of 500 city names with an emoji each went 15% over its
/// budget by the exact count (issue #20).
fn emoji_label() -> impl Strategy<Value = String> {
    const WORDS: [&str; 10] = [
        "Lisbon", "Oslo", "Quito", "Hanoi", "Dakar", "Perth", "Lima", "Kyiv", "Bern", "Accra",
    ];
    let one_emoji = prop_oneof![
        (0x1F300u32..0x1F650).prop_map(|point| char::from_u32(point).unwrap().to_string()),
        (0x1F680u32..0x1F700).prop_map(|point| char::from_u32(point).unwrap().to_string()),
        (0x1F900u32..0x1FA00).prop_map(|point| char::from_u32(point).unwrap().to_string()),
        (0x1F1E6u32..0x1F200, 0x1F1E6u32..0x1F200)
            .prop_map(|(a, b)| { [a, b].into_iter().filter_map(char::from_u32).collect() }),
        (0x1F466u32..0x1F470, 0x1F3FBu32..0x1F400)
            .prop_map(|(a, tone)| { [a, tone].into_iter().filter_map(char::from_u32).collect() }),
        prop::sample::select(vec!["⚠\u{fe0f}", "☀\u{fe0f}", "❄\u{fe0f}", "👩\u{200d}💻"])
            .prop_map(str::to_owned),
    ];
    (
        prop::collection::vec(one_emoji, 1..5),
        prop::sample::select(&WORDS[..]),
        any::<bool>(),
    )
        .prop_map(|(emoji, word, before)| {
            let emoji = emoji.concat();
            if before {
                format!("{emoji} {word}")
            } else {
                format!("{word} {emoji}")
            }
        })
}

/// A product name of katakana loanwords, as a Japanese shop writes them (`テレビスタンド・ミニ-12`):
/// katakana merges far less than hiragana, and the estimate once priced it as hiragana, at 0.55
/// of its exact count (issue #20). The words are not the calibration corpus's list.
fn katakana_name() -> impl Strategy<Value = String> {
    const WORDS: [&str; 20] = [
        "テレビ",
        "カメラ",
        "コンピューター",
        "プリンター",
        "エアコン",
        "ドライヤー",
        "シャンプー",
        "リモコン",
        "ヘッドホン",
        "サングラス",
        "ネックレス",
        "ブレスレット",
        "スーツケース",
        "サンダル",
        "ベルト",
        "マフラー",
        "コート",
        "セーター",
        "ワンピース",
        "スカート",
    ];
    (
        prop::collection::vec(prop::sample::select(&WORDS[..]), 1..4),
        prop::sample::select(vec!["", " ", "・"]),
        prop::option::of(0u32..1_000),
    )
        .prop_map(|(words, separator, number)| {
            let name = words.join(separator);
            match number {
                Some(number) => format!("{name}-{number}"),
                None => name,
            }
        })
}

/// JSON, pretty or compact, or TOON.
fn any_format() -> impl Strategy<Value = fusion_runtime::present::Format> {
    prop::sample::select(vec![
        fusion_runtime::present::Format::Json,
        fusion_runtime::present::Format::CompactJson,
        fusion_runtime::present::Format::Toon,
    ])
}

/// Words in decomposed form (NFD, as macOS stores file names): a letter and its combining
/// accents, one or two (`Mu\u{308}ller`, Vietnamese `pha\u{302}\u{309}m`).
fn decomposed_words() -> impl Strategy<Value = String> {
    const WORDS: [&str; 10] = [
        "Mu\u{308}ller",
        "Gro\u{308}\u{df}e",
        "cre\u{300}me bru\u{302}le\u{301}e",
        "cafe\u{301} au lait",
        "nai\u{308}vete\u{301}",
        "San\u{303}a",
        "Sa\u{309}n pha\u{302}\u{309}m",
        "đa\u{303} he\u{302}\u{301}t ha\u{300}ng",
        "vui lo\u{300}ng quay la\u{323}i",
        "Gia\u{301} đa\u{323}\u{306}c bie\u{323}\u{302}t",
    ];
    prop::collection::vec(prop::sample::select(&WORDS[..]), 1..5).prop_map(|words| words.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Rows of such values, in JSON (pretty and compact) and TOON, with and without a
    /// `_select`: the fitted response is never over the budget by the exact count.
    #[test]
    fn identifiers_and_other_scripts_stay_within_the_budget_by_the_exact_count(
        values in prop::collection::vec(prop::collection::vec(hard_value(), 1..4), 0..80),
        format in any_format(),
        select_note in any::<bool>(),
        budget in 30usize..3_000,
    ) {
        let all = noted_rows(values.iter().map(|words| words.join(" ")), 5);
        let selection = note_selection(select_note);
        fitted_within(&all, Some(&selection), format, budget)?;
    }

    /// Rows of katakana product names or of text in decomposed form alone, the two kinds of
    /// real text a user's probe found far under the estimate (issue #20): a list of them kept
    /// its budget by the estimate and went up to 42% over it by the exact count.
    #[test]
    fn katakana_names_and_decomposed_text_stay_within_the_budget_by_the_exact_count(
        values in prop_oneof![
            prop::collection::vec(katakana_name(), 0..120),
            prop::collection::vec(decomposed_words(), 0..120),
        ],
        format in any_format(),
        select_note in any::<bool>(),
        budget in 30usize..4_000,
    ) {
        let all = noted_rows(values.into_iter(), 5);
        let selection = note_selection(select_note);
        fitted_within(&all, Some(&selection), format, budget)?;
    }

    /// Rows of labels with emoji alone, under a `_select` of the label alone or of none: a user's
    /// probe found a list of city names with an emoji each 15% over its budget by the exact
    /// count (issue #20), the emoji priced alike at under two tokens each.
    #[test]
    fn labels_with_emoji_stay_within_the_budget_by_the_exact_count(
        values in prop::collection::vec(emoji_label(), 40..300),
        format in any_format(),
        select_note in any::<bool>(),
        budget in 100usize..3_000,
    ) {
        let all = noted_rows(values.into_iter(), 5);
        let selection = if select_note {
            Selection::new(["note"])
        } else {
            Selection::default()
        };
        fitted_within(&all, Some(&selection), format, budget)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// With `exact_tokens`, the budget is kept by the exact count on any text, characters
    /// drawn at random from a script too (which the estimate is far under on, wire format
    /// A.27): the response counts at most the budget exactly, and one more item would not (the
    /// longest prefix, with no room left).
    #[test]
    fn an_exactly_counted_budget_holds_on_random_characters_and_keeps_the_longest_prefix(
        notes in prop::collection::vec("[a-z]{6,24}|[а-я]{6,24}|[一-鿿]{4,12}|[A-Za-z0-9]{8,16}|[0-9a-f]{32}", 1..60),
        format in prop::sample::select(vec![
            fusion_runtime::present::Format::Json,
            fusion_runtime::present::Format::Toon,
        ]),
        budget in 60usize..1_500,
    ) {
        let all = noted_rows(notes.iter().cloned(), 6);
        let fit = |items: &[Row]| Row::present_all(items).format(format).max_tokens(budget).exact_tokens().build().unwrap();
        let response = fit(&all);
        if response.is_error() == Some(true) {
            // Not even one item and the summary fit, by the exact count.
            let one = Row::present_all(&all[..1]).format(format).build().unwrap();
            prop_assert!(all.len() > 1 || exact(&one) > budget);
            return Ok(());
        }
        prop_assert!(exact(&response) <= budget, "exact {} > {budget}", exact(&response));
        let kept = response.blocks().iter().find_map(|block| {
            let (_, rest) = block.split_once("Dataset truncated. ")?;
            rest.split(' ').next()?.parse::<usize>().ok()
        });
        if let Some(kept) = kept {
            // One more item does not fit: the blocks of kept + 1 items and the summary of them
            // count over the budget exactly.
            prop_assert!(kept < all.len());
            let more = Row::present_all(&all[..=kept]).format(format).build().unwrap();
            let summary = EXACT.count(&summary_block(kept + 1, all.len(), budget));
            prop_assert!(exact(&more) + summary > budget, "{} + {summary} <= {budget}", exact(&more));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// With `exact_tokens`, a single value keeps the longest cap on its embedded list that fits
    /// the budget by the exact count, on text the estimate is far under on too (the estimate
    /// only aims the exact count's probes, wire format §17.2).
    #[test]
    fn an_exactly_counted_single_value_keeps_the_longest_cap(
        titles in prop::collection::vec("[a-z ]{6,30}|[а-я]{6,24}|[一-鿿]{4,12}|[0-9a-f]{32}", 0..80),
        budget in 40usize..1_500,
    ) {
        let project = |count: usize| Project {
            name: "Apollo",
            tasks: titles.iter().take(count).map(|title| Task { title: title.clone() }).collect(),
        };
        let response = project(titles.len()).present().max_tokens(budget).exact_tokens().build().unwrap();
        if response.is_error() == Some(true) {
            // Not even the value with its list emptied fits, by the exact count.
            let summary = if titles.is_empty() { 0 } else { EXACT.count(&summary_block(0, titles.len(), budget)) };
            prop_assert!(exact(&project(0).present().build().unwrap()) + summary > budget);
            return Ok(());
        }
        prop_assert!(exact(&response) <= budget, "exact {} > {budget}", exact(&response));
        let data: serde_json::Value = serde_json::from_str(&response.blocks()[0]).unwrap();
        let kept = data["tasks"].as_array().map_or(0, Vec::len);
        if kept < titles.len() {
            // One more task does not fit: the value with kept + 1 tasks and their summary count
            // over the budget exactly.
            let more = exact(&project(kept + 1).present().build().unwrap());
            let summary = if kept + 1 < titles.len() {
                EXACT.count(&summary_block(kept + 1, titles.len(), budget))
            } else {
                0
            };
            prop_assert!(more + summary > budget, "{kept} kept, but {} count {more} + {summary} <= {budget}", kept + 1);
        }
    }
}

/// Rows whose notes are ideographs drawn at random, which the estimate is far under on (wire
/// format A.27).
fn random_ideograph_rows(count: u32) -> Vec<Row> {
    let mut seed: u64 = 0x5EED;
    (0..count)
        .map(|id| {
            let note = (0..14)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    char::from_u32(0x4E00 + u32::try_from(seed % 20_000).unwrap()).unwrap()
                })
                .collect();
            Row {
                id,
                note,
                flagged: false,
            }
        })
        .collect()
}

#[test]
fn a_tool_set_that_counts_exactly_keeps_every_tools_budget_by_the_exact_count() {
    static ROWS: LazyLock<Vec<Row>> = LazyLock::new(|| random_ideograph_rows(400));
    let set = |exact: bool| {
        let set = ToolSet::new().max_tokens(1_000);
        let set = if exact { set.exact_tokens() } else { set };
        set.tool(|_: ListRows, _: &Call| Row::present_all(&ROWS))
            .unwrap()
            .tool(|_: ListFewRows, call: &Call| call.present_all(&ROWS).build())
            .unwrap()
    };
    // A handler's presentation (the tool set's budget) and one through `Call::present_all`
    // (the tool's own, tighter budget): both kept by the exact count.
    for (tool, budget) in [("list_rows", 1_000), ("list_few_rows", 150)] {
        let exactly = set(true).call(tool, None);
        assert!(
            exact(&exactly) <= budget,
            "{tool}: exact {} > {budget}",
            exact(&exactly)
        );
        assert!(!kept_ids(&exactly).is_empty());
    }
    // By the estimate, these rows go over the budget: what the switch is for.
    let by_estimate = set(false).call("list_rows", None);
    assert!(exact(&by_estimate) > 1_000, "exact {}", exact(&by_estimate));
}

/// Ten rows, for handlers that present a collection they do not own.
static TEN_ROWS: LazyLock<Vec<Row>> = LazyLock::new(|| rows(10));

/// A tool with its own budget (`#[fusion(max_tokens = ...)]`).
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[fusion(read_only, max_tokens = 150)]
struct ListFewRows {}

#[test]
fn the_tool_budget_and_the_tool_set_budget_the_tightest_wins() {
    let tools = ToolSet::new()
        .max_tokens(5_000)
        .tool(|_: ListFewRows, _: &Call| Row::present_all(&TEN_ROWS))
        .unwrap();
    let definition = tools.get("list_few_rows").unwrap();
    assert_eq!(definition.max_tokens(), Some(150));
    // Not advertised unless the tool opts in (wire format §17.7).
    assert!(definition.to_json().get("_meta").is_none());
    let response = tools.call("list_few_rows", None);
    assert!(kept_ids(&response).len() < 3, "{:?}", response.blocks());
    assert!(tokens(&response) <= 150);
}

#[test]
fn an_advertised_budget_is_in_the_tools_list_meta() {
    use fusion_runtime::tool::{ToolDefinition, ToolSpec, input_schema_of};
    let spec = ToolSpec::new("list_rows")
        .max_tokens(25_000)
        .advertise_max_tokens();
    let definition = ToolDefinition::from_schema(&spec, &input_schema_of::<ListRows>()).unwrap();
    assert_eq!(
        definition.to_json()["_meta"],
        serde_json::json!({"anthropic/maxResultSizeChars": 200_000})
    );
    let capped = ToolSpec::new("list_rows")
        .max_tokens(100_000)
        .advertise_max_tokens();
    let capped = ToolDefinition::from_schema(&capped, &input_schema_of::<ListRows>()).unwrap();
    assert_eq!(
        capped.to_json()["_meta"]["anthropic/maxResultSizeChars"],
        500_000
    );
    let unbudgeted = ToolSpec::new("list_rows").advertise_max_tokens();
    let unbudgeted =
        ToolDefinition::from_schema(&unbudgeted, &input_schema_of::<ListRows>()).unwrap();
    assert!(unbudgeted.to_json().get("_meta").is_none());
}

/// The billing list, cut the way the peers cut an oversized result: by characters.
mod peers {
    use std::sync::Arc;

    use fusion_examples::store::Store;
    use fusion_examples::tools::{BillingApp, tools};
    use fusion_runtime::ToolSet;

    use super::tokens;

    fn billing(budget: Option<usize>) -> ToolSet<BillingApp> {
        let app = Arc::new(BillingApp::new(Store::load().expect("the billing data")));
        let set = tools(app).expect("the billing tools");
        match budget {
            Some(budget) => set.max_tokens(budget),
            None => set,
        }
    }

    fn list() -> serde_json::Value {
        serde_json::json!({"action": "list_invoices"})
    }

    /// The TypeScript reference's egress guard: the text cut to the limit, a notice appended.
    fn egress_guard(text: &str, limit: usize) -> String {
        let cut: String = text.chars().take(limit).collect();
        format!("{cut}\n\n[Response truncated: exceeded the size limit]")
    }

    /// `FastMCP`'s response limiting: every block joined into one text, cut, with a suffix.
    fn fastmcp(blocks: &[String], limit: usize) -> String {
        let joined = blocks.join("\n\n");
        let cut: String = joined.chars().take(limit).collect();
        format!("{cut}\n\n[Response truncated due to size limit]")
    }

    #[test]
    fn a_byte_cut_billing_list_does_not_parse_a_fitted_one_does() {
        for budget in [2_000, 8_000] {
            let whole = billing(None).call("billing", Some(list()));
            let fitted = billing(Some(budget)).call("billing", Some(list()));
            assert!(
                tokens(&whole) > budget,
                "the list must be over {budget} tokens"
            );
            assert!(tokens(&fitted) <= budget);
            // The same number of characters as our whole fitted response.
            let limit = fitted
                .blocks()
                .iter()
                .map(|b| b.chars().count())
                .sum::<usize>();

            let guard = egress_guard(&whole.blocks()[0], limit);
            assert!(serde_json::from_str::<serde_json::Value>(&guard).is_err());
            let fast = fastmcp(whole.blocks(), limit);
            assert!(serde_json::from_str::<serde_json::Value>(&fast).is_err());

            let ours: serde_json::Value = serde_json::from_str(&fitted.blocks()[0]).unwrap();
            let kept = ours.as_array().unwrap();
            let all: serde_json::Value = serde_json::from_str(&whole.blocks()[0]).unwrap();
            assert!(!kept.is_empty());
            assert_eq!(kept[..], all.as_array().unwrap()[..kept.len()]);
            assert!(
                fitted.blocks()[1].contains(&format!("{} of 120 shown", kept.len())),
                "{}",
                fitted.blocks()[1]
            );
        }
    }
}

/// A model with blocks of every kind that depend on the items kept: item rules and suggestions,
/// collection rules and suggestions that count them, and a collection UI.
#[derive(Presenter, Clone, Debug)]
#[rule(when = Self::is_flagged, text = "Entry {id} is flagged.")]
#[suggest(tool = "entries.open", reason = "Open entry {id}", when = Self::is_flagged)]
#[collection_rule("{n} entries shown.")]
#[collection_suggest(tool = "entries.export", reason = "Export the {n} entries")]
#[collection_ui(table(id, note))]
struct Entry {
    id: u32,
    note: String,
    flagged: bool,
}

impl Entry {
    fn is_flagged(&self) -> bool {
        self.flagged
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A fitted collection's blocks are those of presenting the items it keeps, the budget's
    /// summary first among the UI: every block that depends on the items is made for the kept
    /// ones, however many prefixes the fit tried (wire format §17.3).
    #[test]
    fn a_fitted_collection_has_the_blocks_of_the_items_it_keeps(
        notes in prop::collection::vec(prop::collection::vec(prop::sample::select(WORDS), 0..8), 1..60),
        flagged in prop::collection::vec(any::<bool>(), 60),
        budget in 100usize..3_000,
    ) {
        let all: Vec<Entry> = notes
            .iter()
            .enumerate()
            .map(|(index, note)| Entry { id: u32::try_from(index).unwrap(), note: note.join(" "), flagged: flagged[index] })
            .collect();
        let response = Entry::present_all(&all).max_tokens(budget).build().unwrap();
        if response.is_error() == Some(true) {
            return Ok(());
        }
        let kept = kept_ids(&response).len();
        let plain = Entry::present_all(&all[..kept]).build().unwrap();
        let fitted: Vec<&String> = response
            .blocks()
            .iter()
            .filter(|block| !block.contains("Dataset truncated"))
            .collect();
        let plain: Vec<&String> = plain.blocks().iter().collect();
        prop_assert_eq!(fitted, plain);
    }
}
