//! Paged answers (wire format §6.11): a collection presented inside the envelope most list tools
//! return (`{results, total, offset, ...}`), whose fields agree with the items the response keeps
//! after `_select`, the agent limit and the budget.
//!
//! The items are presented as any collection is (selection per item, agent limit, budget fitting,
//! UI, rules and suggestions), with room left in the budget for the envelope and the next-page
//! suggestion, the summary and `RESPONSE_TOO_LARGE` naming the budget itself; the data block is
//! then the envelope around the kept items, its counts taken from them, and the page is
//! measured as it is sent (fitted again with more room left, should it be over).

use serde_json::{Map, Value};

use super::engine::Items;
use super::engine::Presenter;
#[cfg(feature = "budget")]
use super::presentation::tightest;
use super::presentation::{Fitted, Presentation};
use crate::encode::{EncodeError, json};
use crate::response::{Format, ResponseBuilder, Suggestion, ToolError, ToolResponse};

/// How many items a paged response kept, and where the next page starts (wire format §6.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageInfo {
    /// The position of the first item in the whole result (the request's offset).
    pub offset: usize,
    /// How many items the response shows, after the agent limit and the budget.
    pub shown: usize,
    /// How many items the whole result holds.
    pub total: usize,
}

impl PageInfo {
    /// Whether items after the shown ones exist: `offset + shown < total`.
    pub fn truncated(&self) -> bool {
        self.offset + self.shown < self.total
    }

    /// The offset of the next page (`offset + shown`), when [`PageInfo::truncated`].
    pub fn next_offset(&self) -> Option<usize> {
        self.truncated().then_some(self.offset + self.shown)
    }
}

/// A collection presented as one page of a larger result; start one with
/// [`Presentation::page`].
///
/// ```
/// use fusion_runtime::Presenter;
/// use fusion_runtime::present::Present;
///
/// #[derive(Presenter)]
/// struct Note { path: String }
///
/// let notes: Vec<Note> = (0..3).map(|n| Note { path: format!("{n}.md") }).collect();
/// let response = Note::present_all(&notes).page(10, Some(40)).build().unwrap();
/// assert_eq!(
///     response.blocks()[0],
///     "{\n  \"results\": [\n    {\n      \"path\": \"0.md\"\n    },\n    {\n      \"path\": \"1.md\"\n    },\n    {\n      \"path\": \"2.md\"\n    }\n  ],\n  \"total\": 40,\n  \"offset\": 10,\n  \"shown\": 3,\n  \"truncated\": true,\n  \"next_offset\": 13\n}"
/// );
/// ```
#[must_use = "a page does nothing until `build` is called"]
pub struct Paged<'a, T, Ctx: ?Sized = ()> {
    presentation: Presentation<'a, T, Ctx>,
    offset: usize,
    total: Option<usize>,
    items_key: &'static str,
    next: Option<(String, String)>,
}

impl<'a, T, Ctx: ?Sized> Presentation<'a, T, Ctx> {
    /// Presents this collection as the page of a larger result that starts at `offset`, of
    /// `total` items (`None`: the result ends with this page, `offset` + its length).
    ///
    /// The data block is the envelope `{"results": [...], "total", "offset", "shown",
    /// "truncated", "next_offset"}` (wire format §6.11): `_select`, the agent limit and the budget
    /// apply to the items, and the counts are those of the items kept. A single value presented
    /// as a page is a page of one. Set a budget before: `.max_tokens(n).page(offset, total)`.
    pub fn page(mut self, offset: usize, total: Option<usize>) -> Paged<'a, T, Ctx> {
        // A page is a list: a single value is a page of one, presented as a collection of one.
        if let Items::One(value) = self.items {
            self.items = Items::Many(std::slice::from_ref(value));
        }
        Paged {
            presentation: self,
            offset,
            total,
            items_key: "results",
            next: None,
        }
    }
}

impl<T: Presenter<Ctx>, Ctx: ?Sized> Paged<'_, T, Ctx> {
    /// Names the envelope's item list `key` instead of `results`.
    pub fn items_key(mut self, key: &'static str) -> Self {
        self.items_key = key;
        self
    }

    /// When the response leaves items out, suggests `tool` with the reason
    /// `"{reason} (offset: {next_offset})"`: the next page, from what was kept.
    pub fn suggest_next(mut self, tool: impl Into<String>, reason: impl Into<String>) -> Self {
        self.next = Some((tool.into(), reason.into()));
        self
    }

    /// The response builder (so the handler can add to it) and what the page kept. When not
    /// even one item fits the budget, the builder holds the smallest answer (one item and the
    /// summary), which [`Paged::build`] would refuse.
    ///
    /// # Errors
    ///
    /// A data block that cannot be written ([`EncodeError`]).
    pub fn into_builder(self) -> Result<(ResponseBuilder, PageInfo), EncodeError> {
        self.fitted().map(|(builder, info, _)| (builder, info))
    }

    /// The builder, what the page kept, and the error to answer with instead when not even one
    /// item fits the budget (wire format §17.5).
    ///
    /// With a budget, the items are fitted with room left for the envelope (its largest form)
    /// and the next-page suggestion, and the page is then measured as it is sent: should it be
    /// over (the envelope indents every line of a pretty JSON list, and a join can cost a token
    /// or two), the room left for them grows by what it was over and the items are fitted again.
    /// Each round leaves more room than the last, so the rounds end; one is the rule.
    fn fitted(self) -> Result<(ResponseBuilder, PageInfo, Option<Box<ToolError>>), EncodeError> {
        let Paged {
            mut presentation,
            offset,
            total,
            items_key,
            next,
        } = self;
        // The page's items are the wire values of the items kept, made from them; the call asks
        // for the envelope's when the action is structured.
        let structured = presentation.keep_value;
        presentation.keep_value = true;
        let count = presentation.items_len();
        let total = total.unwrap_or(offset + count).max(offset + count);
        let format = presentation.resolved_format();
        let page = Page {
            offset,
            total,
            items_key,
            next: next.as_ref(),
            format,
            structured,
        };
        #[cfg(feature = "budget")]
        let budget = tightest(presentation.max_tokens, T::MAX_TOKENS);
        #[cfg(feature = "budget")]
        if budget.is_some() {
            let largest = PageInfo {
                offset,
                shown: count,
                total,
            };
            let empty = envelope_text(items_key, empty_items(format), largest, format)?;
            // The suggestion, with the largest offset it can name, and its block's tags.
            let suggestion = next.as_ref().map_or(0, |(tool, reason)| {
                crate::encode::tokens::estimate(&format!("{tool} {reason} (offset: {total})")) + 16
            });
            presentation.reserved = crate::encode::tokens::estimate(&empty) + 2 + suggestion;
        }
        #[cfg(not(feature = "budget"))]
        return page.around(&presentation);
        #[cfg(feature = "budget")]
        loop {
            let answer = page.around(&presentation)?;
            if let (Some(budget), (builder, info, None)) = (budget, &answer) {
                #[cfg(feature = "exact-tokens")]
                let exact = presentation.exact;
                #[cfg(not(feature = "exact-tokens"))]
                let exact = false;
                let over = super::fit::over_by(builder, budget, exact);
                if over > 0 && info.shown > 0 {
                    presentation.reserved += over;
                    continue;
                }
            }
            return Ok(answer);
        }
    }

    /// Builds the response; with a budget that not even one item fits, the `RESPONSE_TOO_LARGE`
    /// error of wire format §17.5.
    ///
    /// # Errors
    ///
    /// A data block that cannot be written ([`EncodeError`]).
    pub fn build(self) -> Result<ToolResponse, EncodeError> {
        Ok(match self.fitted()? {
            (_, _, Some(too_large)) => too_large.into_response(),
            (builder, _, None) => builder.build(),
        })
    }
}

/// What a page puts around the items a presentation keeps.
struct Page<'n> {
    offset: usize,
    total: usize,
    items_key: &'static str,
    next: Option<&'n (String, String)>,
    format: Format,
    /// Whether the call asks for the envelope's wire value (a structured action).
    structured: bool,
}

impl Page<'_> {
    /// The page of the items `presentation` keeps (its builder, what it kept, and its
    /// `RESPONSE_TOO_LARGE` when not even one item fits).
    fn around<T: Presenter<Ctx>, Ctx: ?Sized>(
        &self,
        presentation: &Presentation<'_, T, Ctx>,
    ) -> Result<(ResponseBuilder, PageInfo, Option<Box<ToolError>>), EncodeError> {
        let Fitted {
            mut builder,
            too_large,
        } = presentation.fitted()?;
        let items = match builder.take_value() {
            Some(Value::Array(items)) => items,
            // A page is always a collection (see `Presentation::page`).
            Some(value) => vec![value],
            None => Vec::new(),
        };
        let info = PageInfo {
            offset: self.offset,
            shown: items.len(),
            total: self.total,
        };
        // The envelope is written around the items' own data block, so its members keep the
        // order of §6.11 and the items their declaration order in any build (a
        // `serde_json::Map` sorts its keys unless the build switches on serde_json's
        // `preserve_order`).
        let text = envelope_text(self.items_key, builder.data_text(), info, self.format)?;
        let mut data = ResponseBuilder::written(text, self.format);
        // The testing view shows the wire value of every data block.
        if self.structured || cfg!(feature = "testing") {
            data.set_value(envelope(self.items_key, Value::Array(items), info));
        }
        let mut builder = builder.replace_data(data);
        if let (Some((tool, reason)), Some(next_offset)) = (self.next, info.next_offset()) {
            builder = builder.suggestion(Suggestion::new(
                tool.clone(),
                format!("{reason} (offset: {next_offset})"),
            ));
        }
        Ok((builder, info, too_large))
    }
}

/// The envelope of wire format §6.11: the items, then `total`, `offset`, `shown`, `truncated` and,
/// when truncated, `next_offset`.
fn envelope(items_key: &str, items: Value, info: PageInfo) -> Value {
    let mut out = Map::new();
    out.insert(items_key.to_owned(), items);
    out.insert("total".to_owned(), info.total.into());
    out.insert("offset".to_owned(), info.offset.into());
    out.insert("shown".to_owned(), info.shown.into());
    out.insert("truncated".to_owned(), info.truncated().into());
    if let Some(next) = info.next_offset() {
        out.insert("next_offset".to_owned(), next.into());
    }
    Value::Object(out)
}

/// What an empty item list is in `format`'s data block (the envelope a budget leaves room for).
#[cfg(feature = "budget")]
fn empty_items(format: Format) -> &'static str {
    match format {
        Format::Toon => "[0]:",
        Format::Json | Format::CompactJson | Format::Text => "[]",
    }
}

/// The text of the envelope of wire format §6.11 in `format` (a text format writes JSON, as a
/// presentation does), around `items`: the data block the kept items' presentation wrote, a
/// list in the same format (in TOON a root list, `[N]...`, which a key turns into the member).
fn envelope_text(
    items_key: &str,
    items: &str,
    info: PageInfo,
    format: Format,
) -> Result<String, EncodeError> {
    let mut members: Vec<(&str, String)> = vec![
        ("total", info.total.to_string()),
        ("offset", info.offset.to_string()),
        ("shown", info.shown.to_string()),
        ("truncated", info.truncated().to_string()),
    ];
    if let Some(next) = info.next_offset() {
        members.push(("next_offset", next.to_string()));
    }
    let mut out = String::with_capacity(items.len() + 128);
    match format {
        Format::Toon => {
            crate::encode::toon::quote::push_key(&mut out, items_key);
            out.push_str(items);
            for (key, value) in members {
                out.push('\n');
                out.push_str(key);
                out.push_str(": ");
                out.push_str(&value);
            }
        }
        Format::Json | Format::CompactJson | Format::Text => {
            // The same members either way; only the layout's separators differ (§3, §3.8).
            let compact = format == Format::CompactJson;
            let (open, next, colon, close) = if compact {
                ("{", ",", ":", "}")
            } else {
                ("{\n  ", ",\n  ", ": ", "\n}")
            };
            out.push_str(open);
            out.push_str(&json::to_string(items_key)?);
            out.push_str(colon);
            if compact {
                out.push_str(items);
            } else {
                // JSON text holds no raw line break inside a string, so every one starts a line.
                out.push_str(&items.replace('\n', "\n  "));
            }
            for (key, value) in members {
                out.push_str(next);
                out.push('"');
                out.push_str(key);
                out.push('"');
                out.push_str(colon);
                out.push_str(&value);
            }
            out.push_str(close);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const INFO: PageInfo = PageInfo {
        offset: 10,
        shown: 2,
        total: 40,
    };

    #[test]
    fn the_envelope_keeps_the_order_of_6_11_in_every_format() {
        let pretty = envelope_text(
            "results",
            "[\n  {\n    \"b\": 1,\n    \"a\": 2\n  }\n]",
            INFO,
            Format::Json,
        );
        assert_eq!(
            pretty.unwrap(),
            "{\n  \"results\": [\n    {\n      \"b\": 1,\n      \"a\": 2\n    }\n  ],\n  \"total\": 40,\n  \"offset\": 10,\n  \"shown\": 2,\n  \"truncated\": true,\n  \"next_offset\": 12\n}"
        );
        let compact = envelope_text("hits", r#"[{"b":1},{"b":2}]"#, INFO, Format::CompactJson);
        assert_eq!(
            compact.unwrap(),
            r#"{"hits":[{"b":1},{"b":2}],"total":40,"offset":10,"shown":2,"truncated":true,"next_offset":12}"#
        );
        let last = PageInfo { total: 12, ..INFO };
        let toon = envelope_text("my hits", "[2|]{b|a}:\n  1|2\n  3|4", last, Format::Toon);
        assert_eq!(
            toon.unwrap(),
            "\"my hits\"[2|]{b|a}:\n  1|2\n  3|4\ntotal: 12\noffset: 10\nshown: 2\ntruncated: false"
        );
    }

    #[cfg(feature = "budget")]
    #[test]
    fn an_empty_page_writes_an_empty_list() {
        let info = PageInfo {
            offset: 0,
            shown: 0,
            total: 0,
        };
        assert_eq!(
            envelope_text(
                "results",
                empty_items(Format::CompactJson),
                info,
                Format::CompactJson
            )
            .unwrap(),
            r#"{"results":[],"total":0,"offset":0,"shown":0,"truncated":false}"#
        );
        assert_eq!(
            envelope_text("results", empty_items(Format::Toon), info, Format::Toon).unwrap(),
            "results[0]:\ntotal: 0\noffset: 0\nshown: 0\ntruncated: false"
        );
    }

    #[test]
    fn the_next_offset_follows_the_kept_items() {
        let info = PageInfo {
            offset: 20,
            shown: 17,
            total: 72,
        };
        assert!(info.truncated());
        assert_eq!(info.next_offset(), Some(37));
        let last = PageInfo {
            offset: 70,
            shown: 2,
            total: 72,
        };
        assert_eq!(last.next_offset(), None);
    }
}
