//! The search for the longest prefix that fits (wire format §17.3–§17.5), whatever the size of
//! the blocks besides the data: the kept prefix k fits and k + 1 does not (or k is everything),
//! for random models, collections, selections, formats and all four budget sources.

use std::sync::Arc;

use fusion_runtime::present::Format;
use fusion_runtime::tokens::estimate;
use fusion_runtime::{Call, Presenter, Selection, Tool, ToolResponse, ToolSet};
use proptest::prelude::*;

/// Words with non-ASCII text, as the calibration corpus's word soups.
const WORDS: &[&str] = fusion_examples::token_corpus::NOTE_WORDS;

/// Declares a model with blocks besides the data that grow with the items kept: a generated
/// table of the collection, an item rule and an item suggestion for flagged items, a collection
/// rule and suggestion. `tags` makes TOON rows no table rows, so TOON is fitted by renders.
macro_rules! heavy {
    ($name:ident $(, $budget:literal)?) => {
        #[derive(Presenter, Clone, Debug)]
        $(#[presenter(max_tokens = $budget)])?
        #[rule(when = Self::is_flagged, text = "Entry {id} ({note}) is flagged: mention it first.")]
        #[suggest(tool = "entries.open", reason = "Open entry {id} ({note})", when = Self::is_flagged)]
        #[collection_rule("{n} entries shown; counts are exact.")]
        #[collection_suggest(tool = "entries.export", reason = "Export the {n} entries")]
        #[collection_ui(table(id, note, tags))]
        struct $name {
            id: u32,
            note: String,
            tags: Vec<String>,
            flagged: bool,
        }

        impl $name {
            fn is_flagged(&self) -> bool {
                self.flagged
            }
        }

        impl From<&Item> for $name {
            fn from(item: &Item) -> Self {
                $name { id: item.id, note: item.note.clone(), tags: item.tags.clone(), flagged: item.flagged }
            }
        }
    };
}

heavy!(Heavy);
heavy!(HeavyCapped, 700);

/// No blocks besides the data, and flat rows (a TOON table).
#[derive(Presenter, Clone, Debug)]
struct Light {
    id: u32,
    note: String,
}

/// The fields every model is made from.
#[derive(Debug, Clone)]
struct Item {
    id: u32,
    note: String,
    tags: Vec<String>,
    flagged: bool,
}

impl From<&Item> for Light {
    fn from(item: &Item) -> Self {
        Light {
            id: item.id,
            note: item.note.clone(),
        }
    }
}

/// A tool with a budget of its own.
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[fusion(read_only, max_tokens = 500)]
struct ListHeavy {}

/// A tool with no budget of its own.
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[fusion(read_only)]
struct ListAny {}

/// The estimate a fitted response may reach (wire format §17.2): B − (2⌈√B⌉ + 4).
fn room(budget: usize) -> usize {
    let root = budget.isqrt() + usize::from(budget.isqrt().pow(2) < budget);
    budget.saturating_sub(2 * root + 4)
}

fn tokens(response: &ToolResponse) -> usize {
    response.blocks().iter().map(|block| estimate(block)).sum()
}

/// The budget summary's block for `shown` of `total` items (wire format §17.3).
fn summary_tokens(shown: usize, total: usize, budget: usize) -> usize {
    let digits = budget.to_string();
    let mut grouped = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    estimate(&format!(
        "<ui_passthrough type=\"summary\">\n📊 **Summary**: ⚠️ Dataset truncated. {shown} of {total} shown to stay within {grouped} tokens; use filters or `_select` to see others.\n</ui_passthrough>"
    ))
}

/// The ids of a data block in either format.
fn kept_ids(response: &ToolResponse, format: Format) -> Vec<u64> {
    let block = &response.blocks()[0];
    let data: serde_json::Value = if format == Format::Toon {
        toon_format::decode(block, &toon_format::DecodeOptions::new()).expect("decodes")
    } else {
        serde_json::from_str(block).expect("parses")
    };
    data.as_array()
        .map(|items| {
            items
                .iter()
                .map(|item| item["id"].as_u64().expect("an id"))
                .collect()
        })
        .unwrap_or_default()
}

/// Which model, and where the budget comes from.
#[derive(Debug, Clone, Copy)]
enum Case {
    /// `Heavy`, budget on the call.
    HeavyCall,
    /// `Light`, budget on the call.
    LightCall,
    /// `Heavy`, budget on the tool set.
    HeavyToolSet,
    /// `Heavy` in a tool whose own budget is 500.
    HeavyTool,
    /// `HeavyCapped`, whose presenter's budget is 700.
    HeavyPresenter,
}

/// Checks the search's answer: the response is the kept prefix's, within the room, and either
/// every item is kept or one more does not fit; an error only when one item does not fit.
/// `plain` presents a prefix without a budget, as the fitted response presents it.
fn check(
    count: usize,
    response: &ToolResponse,
    budget: usize,
    format: Format,
    plain: impl Fn(usize) -> ToolResponse,
) -> Result<(), TestCaseError> {
    // The response of the first `kept` items as the fit counts it: with the budget's summary
    // unless every item is kept.
    let with_summary = |kept: usize| {
        let summary = if kept < count {
            summary_tokens(kept, count, budget)
        } else {
            0
        };
        tokens(&plain(kept)) + summary
    };
    if response.is_error() == Some(true) {
        prop_assert!(response.blocks()[0].starts_with("<tool_error code=\"RESPONSE_TOO_LARGE\""));
        if count == 0 {
            // Nothing to cut: the blocks of the list with no items are over by themselves.
            prop_assert!(response.blocks()[0].contains("<message>The answer with no items takes"));
            prop_assert!(tokens(&plain(0)) > room(budget));
            return Ok(());
        }
        prop_assert!(
            with_summary(1) > room(budget),
            "answered too large, but one item fits: {}",
            response.blocks()[0]
        );
        return Ok(());
    }
    prop_assert!(
        tokens(response) <= room(budget),
        "{} > {}",
        tokens(response),
        room(budget)
    );
    let kept = kept_ids(response, format);
    let expected: Vec<u64> = (0..kept.len() as u64).collect();
    prop_assert_eq!(&kept, &expected);
    let kept = kept.len();
    // The data block is the kept prefix's, byte for byte, as a presentation without a budget
    // writes it (the fit writes it item by item).
    let unbudgeted = plain(kept);
    prop_assert_eq!(&response.blocks()[0], &unbudgeted.blocks()[0]);
    if kept < count {
        let more = with_summary(kept + 1);
        prop_assert!(
            more > room(budget),
            "{kept} kept of {count}, but {} fit ({more} tokens)",
            kept + 1
        );
    }
    Ok(())
}

/// `check` for a presentation of `all` with `selection` and `format` and no budget.
fn check_all<T: Presenter>(
    all: &[T],
    response: &ToolResponse,
    budget: usize,
    format: Format,
    selection: &Selection,
) -> Result<(), TestCaseError> {
    check(all.len(), response, budget, format, |kept| {
        fusion_runtime::present::present_all(&all[..kept])
            .select(selection)
            .format(format)
            .build()
            .unwrap()
    })
}

fn items(notes: &[Vec<&str>], flagged: &[bool]) -> Vec<Item> {
    notes
        .iter()
        .enumerate()
        .map(|(index, note)| Item {
            id: u32::try_from(index).unwrap(),
            note: note.join(" "),
            tags: note.iter().take(2).map(|word| (*word).to_owned()).collect(),
            flagged: flagged[index % flagged.len()],
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The search invariant, for the blocks besides the data from none (`Light`) to several
    /// times the data (`Heavy` under `_select: ["id"]`).
    #[test]
    fn the_kept_prefix_fits_and_one_more_does_not(
        notes in prop::collection::vec(prop::collection::vec(prop::sample::select(WORDS), 0..10), 0..120),
        flagged in prop::collection::vec(any::<bool>(), 1..8),
        case in prop::sample::select(vec![Case::HeavyCall, Case::LightCall, Case::HeavyToolSet, Case::HeavyTool, Case::HeavyPresenter]),
        select in 0usize..3,
        format in prop::sample::select(vec![Format::Json, Format::CompactJson, Format::Toon]),
        budget in 20usize..6_000,
    ) {
        let all = items(&notes, &flagged);
        let selection = match select {
            0 => Selection::default(),
            1 => Selection::new(["id"]),
            _ => Selection::new(["id", "note"]),
        };
        match case {
            Case::HeavyCall => {
                let all: Vec<Heavy> = all.iter().map(Heavy::from).collect();
                let response = Heavy::present_all(&all).select(&selection).format(format).max_tokens(budget).build().unwrap();
                check_all(&all, &response, budget, format, &selection)?;
            }
            Case::LightCall => {
                let all: Vec<Light> = all.iter().map(Light::from).collect();
                let response = Light::present_all(&all).select(&selection).format(format).max_tokens(budget).build().unwrap();
                check_all(&all, &response, budget, format, &selection)?;
            }
            Case::HeavyToolSet | Case::HeavyTool => {
                let all: Arc<Vec<Heavy>> = Arc::new(all.iter().map(Heavy::from).collect());
                let shared = Arc::clone(&all);
                let (name, response) = if matches!(case, Case::HeavyTool) {
                    let tools = ToolSet::new()
                        .tool(move |_: ListHeavy, call: &Call| call.present_all(&shared).format(format).build())
                        .unwrap();
                    (500, tools.call("list_heavy", None))
                } else {
                    let tools = ToolSet::new()
                        .max_tokens(budget)
                        .tool(move |_: ListAny, call: &Call| call.present_all(&shared).format(format).build())
                        .unwrap();
                    (budget, tools.call("list_any", None))
                };
                check_all(&all, &response, name, format, &Selection::default())?;
            }
            Case::HeavyPresenter => {
                let capped: Vec<HeavyCapped> = all.iter().map(HeavyCapped::from).collect();
                let response = HeavyCapped::present_all(&capped).select(&selection).format(format).build().unwrap();
                // The same blocks as `Heavy`'s, which has no budget of its own.
                let all: Vec<Heavy> = all.iter().map(Heavy::from).collect();
                check_all(&all, &response, 700, format, &selection)?;
            }
        }
    }
}

/// The failure of the last round's search: the other blocks (a generated table, item rules and
/// suggestions) as large as the data under `_select`; it swung between long and short prefixes
/// and kept a fraction of what fits.
#[test]
fn large_other_blocks_keep_the_longest_prefix() {
    let all: Vec<Heavy> = (0..400)
        .map(|id| Heavy {
            id,
            note: format!("note {id} Müller überfällig счёт 請求書"),
            tags: vec!["a".into(), "b".into()],
            flagged: id % 2 == 0,
        })
        .collect();
    let selection = Selection::new(["id"]);
    for budget in [2_000, 8_000, 25_000] {
        let response = Heavy::present_all(&all)
            .select(&selection)
            .max_tokens(budget)
            .build()
            .unwrap();
        assert_ne!(response.is_error(), Some(true), "{budget}");
        check_all(&all, &response, budget, Format::Json, &selection).unwrap();
    }
}

/// The last round answered `RESPONSE_TOO_LARGE` at 25,000 tokens although one item and the
/// summary fit ("One item takes about 238 tokens, more than the response budget of 25,000").
#[test]
fn too_large_only_when_one_item_does_not_fit() {
    let all: Vec<Heavy> = (0..3_000)
        .map(|id| Heavy {
            id,
            note: "a note of several plain words".into(),
            tags: vec!["x".into()],
            flagged: true,
        })
        .collect();
    for format in [Format::Json, Format::Toon] {
        let response = Heavy::present_all(&all)
            .format(format)
            .max_tokens(25_000)
            .build()
            .unwrap();
        assert_ne!(response.is_error(), Some(true), "{:?}", response.blocks());
        check_all(&all, &response, 25_000, format, &Selection::default()).unwrap();
    }
}

/// The property test's failing input of the last round: ten empty notes, `_select` of id and
/// note, a budget of 73.
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

#[test]
fn ten_empty_notes_within_73_tokens() {
    let all: Vec<Row> = (0..10)
        .map(|id| Row {
            id,
            note: String::new(),
            flagged: id % 7 == 3,
        })
        .collect();
    let selection = Selection::new(["id", "note"]);
    let response = Row::present_all(&all)
        .select(&selection)
        .max_tokens(73)
        .build()
        .unwrap();
    check_all(&all, &response, 73, Format::Json, &selection).unwrap();
}

/// A child with an item rule of its own, so its blocks grow with the items kept.
#[derive(Presenter, Clone, Debug)]
#[rule(when = Self::is_late, text = "Task {title} is late.")]
struct Task {
    title: String,
    late: bool,
}

impl Task {
    fn is_late(&self) -> bool {
        self.late
    }
}

/// A second child, with no blocks of its own.
#[derive(Presenter, Clone, Debug)]
struct Note {
    text: String,
}

/// A single value with two embedded collections (wire format §17.4).
#[derive(Presenter, Clone, Debug)]
#[rule("Tasks are listed oldest first.")]
struct Project {
    name: String,
    #[embed]
    tasks: Vec<Task>,
    #[embed]
    notes: Vec<Note>,
}

impl Project {
    /// This project with each embedded collection cut to its first `cap` items.
    fn capped(&self, cap: usize) -> Project {
        Project {
            name: self.name.clone(),
            tasks: self.tasks.iter().take(cap).cloned().collect(),
            notes: self.notes.iter().take(cap).cloned().collect(),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A single value keeps a cap c on its embedded collections such that c fits and c + 1
    /// does not (or nothing is cut); an error only when the value with empty lists does not fit.
    #[test]
    fn a_single_value_keeps_the_longest_cap_that_fits(
        tasks in prop::collection::vec((prop::collection::vec(prop::sample::select(WORDS), 1..6), any::<bool>()), 0..80),
        notes in prop::collection::vec(prop::collection::vec(prop::sample::select(WORDS), 0..12), 0..80),
        budget in 20usize..4_000,
    ) {
        let project = Project {
            name: "Apollo".into(),
            tasks: tasks.iter().map(|(words, late)| Task { title: words.join(" "), late: *late }).collect(),
            notes: notes.iter().map(|words| Note { text: words.join(" ") }).collect(),
        };
        let response = project.present().max_tokens(budget).build().unwrap();
        // The response of the project cut to `cap`, as the fit counts it: each child cut shows
        // the budget's summary with its own counts (equal texts once, as every embed block).
        let at = |cap: usize| {
            let plain = tokens(&project.capped(cap).present().build().unwrap());
            let mut summaries: Vec<(usize, usize)> = [project.tasks.len(), project.notes.len()]
                .into_iter()
                .filter(|&total| total > cap)
                .map(|total| (cap, total))
                .collect();
            summaries.dedup();
            plain + summaries.iter().map(|&(shown, total)| summary_tokens(shown, total, budget)).sum::<usize>()
        };
        if response.is_error() == Some(true) {
            prop_assert!(at(0) > room(budget), "too large, but the emptied value fits");
            return Ok(());
        }
        prop_assert!(tokens(&response) <= room(budget));
        let data: serde_json::Value = serde_json::from_str(&response.blocks()[0]).unwrap();
        let kept = |name: &str| data[name].as_array().map_or(0, Vec::len);
        let longest = project.tasks.len().max(project.notes.len());
        let cap = kept("tasks").max(kept("notes"));
        prop_assert_eq!(kept("tasks"), project.tasks.len().min(cap));
        prop_assert_eq!(kept("notes"), project.notes.len().min(cap));
        if cap < longest {
            prop_assert!(at(cap + 1) > room(budget), "cap {cap}, but {} fits", cap + 1);
        }
    }
}

/// How many times the collection's blocks of [`Growing`] were made (its `collection_ui`).
static GROWING_COLLECTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Other blocks that grow with the items kept: a line per flagged entry (`each`), and a
/// suggestion said once for all of them; its collection UI counts how often a search makes the
/// blocks of a prefix.
#[derive(Presenter, Clone, Debug)]
#[rule("Entry {id} ({note}) is flagged: mention it first.", when = Self::is_flagged, each)]
#[suggest(tool = "entries.open", reason = "Open the flagged entries", when = Self::is_flagged)]
#[collection_ui(Self::counted)]
struct Growing {
    id: u32,
    note: String,
    flagged: bool,
}

impl Growing {
    fn is_flagged(&self) -> bool {
        self.flagged
    }

    fn counted(items: &[Self]) -> fusion_runtime::ui::UiBlock {
        GROWING_COLLECTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        fusion_runtime::ui::summary(format!("{} entries", items.len()))
    }
}

/// The search's aim counts the lines the items' rules and suggestions bring as it writes the
/// data, so a collection whose rules grow with it is fitted in two probes (the prefix past the
/// answer, then the answer), not three or four (PERFORMANCE.md, "Issue #20, round nine"). The
/// answer is the same either way: the search is right whatever its guesses.
#[test]
fn other_blocks_that_grow_with_the_items_are_aimed_at() {
    use std::sync::atomic::Ordering::Relaxed;
    let all: Vec<Growing> = (0..3_000)
        .map(|id| Growing {
            id,
            note: format!("note {id} {}", WORDS[id as usize % WORDS.len()]),
            flagged: id % 3 != 1,
        })
        .collect();
    for format in [Format::Json, Format::Toon] {
        for budget in [2_000, 8_000, 25_000] {
            GROWING_COLLECTED.store(0, Relaxed);
            let response = Growing::present_all(&all)
                .format(format)
                .max_tokens(budget)
                .build()
                .unwrap();
            let made = GROWING_COLLECTED.load(Relaxed);
            check_all(&all, &response, budget, format, &Selection::default()).unwrap();
            // The blocks of one item (the aim's first measure), then of each probe; the answer's
            // are those of the last probe. One probe more is allowed for a guess one item off.
            assert!(
                made <= 4,
                "{format:?} at {budget}: the blocks made {made} times"
            );
        }
    }
}

/// A list with no items has nothing to cut: when its other blocks alone are over the budget, the
/// answer says so of the list with no items, not of "one item" it does not have (found by the
/// search's property test: no notes, a budget of 20).
#[test]
fn too_large_with_no_items_says_so() {
    let none: Vec<Heavy> = Vec::new();
    let response = Heavy::present_all(&none).max_tokens(20).build().unwrap();
    assert_eq!(response.is_error(), Some(true));
    let text = &response.blocks()[0];
    assert!(
        text.contains("<message>The answer with no items takes about "),
        "{text}"
    );
    check_all(&none, &response, 20, Format::Json, &Selection::default()).unwrap();
    let fits = Heavy::present_all(&none).max_tokens(2_000).build().unwrap();
    assert_ne!(fits.is_error(), Some(true));
}

/// A collection rule that speaks only of a short list (wire format §17.3's decision): fewer than
/// five hits carry a long warning, five or more none.
#[derive(Presenter, Clone, Debug)]
#[collection_rule(call = Self::narrow)]
struct Hit {
    id: u32,
    title: String,
}

impl Hit {
    fn narrow(items: &[Hit]) -> Option<&'static str> {
        (items.len() < 5).then_some(
            "Fewer than five results: the search may be too narrow. Before answering, tell the \
             user which filters were applied, suggest removing the date range and the category \
             filter, and offer to search the archive as well.",
        )
    }
}

/// One hit with its warning is over the budget, but five without it fit: then the whole list is
/// sent unchanged, and a longer list keeps a prefix, never `RESPONSE_TOO_LARGE` (found by a
/// user's probe: five hits at budgets of 138 to 149 answered the error).
#[test]
fn a_list_whose_blocks_shrink_fits_though_one_item_does_not() {
    let hits = |n: u32| -> Vec<Hit> {
        (0..n)
            .map(|id| Hit {
                id,
                title: format!("Quarterly report {id}"),
            })
            .collect()
    };
    let (five, twelve) = (hits(5), hits(12));
    let whole = Hit::present_all(&five).build().unwrap();
    let one = Hit::present_all(&five[..1]).build().unwrap();
    let first_five = Hit::present_all(&twelve[..5]).build().unwrap();
    let mut checked = 0;
    for budget in 60..400 {
        if tokens(&one) + summary_tokens(1, 5, budget) <= room(budget) {
            // One item fits: the search's answer stands (§17.3's decision).
            continue;
        }
        let fitted = Hit::present_all(&five).max_tokens(budget).build().unwrap();
        if tokens(&whole) <= room(budget) {
            assert_eq!(fitted.blocks(), whole.blocks(), "at {budget}");
            checked += 1;
        } else {
            assert_eq!(fitted.is_error(), Some(true), "at {budget}");
        }
        let fitted = Hit::present_all(&twelve)
            .max_tokens(budget)
            .build()
            .unwrap();
        if tokens(&first_five) + summary_tokens(5, 12, budget) <= room(budget) {
            assert_ne!(fitted.is_error(), Some(true), "12 hits at {budget}");
            assert!(tokens(&fitted) <= room(budget), "12 hits at {budget}");
        }
    }
    assert!(
        checked > 0,
        "no budget where the list fits and one item does not"
    );
}
