//! Paged answers (wire format §6.11): a collection presented inside the envelope most list tools
//! return (`{results, total, offset, ...}`), whose fields agree with the items the response keeps
//! after `_select`, the agent limit and the budget.
//!
//! The items are presented as any collection is (selection per item, agent limit, budget fitting,
//! UI, rules and suggestions), with the budget lowered by what the envelope costs; the data block
//! is then the envelope around the kept items, its counts taken from them.

use serde_json::{Map, Value};

use super::engine::Presenter;
#[cfg(feature = "budget")]
use super::presentation::tightest;
use super::presentation::{Fitted, Presentation};
use crate::encode::EncodeError;
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
    /// apply to the items, and the counts are those of the items kept.
    pub fn page(self, offset: usize, total: Option<usize>) -> Paged<'a, T, Ctx> {
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
        let envelope_of = |items: Value, shown: usize| {
            envelope(
                items_key,
                items,
                PageInfo {
                    offset,
                    shown,
                    total,
                },
            )
        };
        // The items are fitted to what the budget leaves besides the envelope (its largest form).
        #[cfg(feature = "budget")]
        if let Some(budget) = tightest(presentation.max_tokens, T::MAX_TOKENS) {
            let empty = encode(&envelope_of(Value::Array(Vec::new()), count), format)?;
            let room = budget.saturating_sub(empty.data_tokens() + 2).max(1);
            presentation.max_tokens = Some(room);
        }
        let Fitted {
            mut builder,
            too_large,
        } = presentation.fitted()?;
        let items = match builder.take_value() {
            Some(Value::Array(items)) => Value::Array(items),
            // A single value is a page of one.
            Some(value) => Value::Array(vec![value]),
            None => Value::Array(Vec::new()),
        };
        let shown = items.as_array().map_or(0, Vec::len);
        let info = PageInfo {
            offset,
            shown,
            total,
        };
        let envelope = envelope_of(items, shown);
        let mut data = encode(&envelope, format)?;
        if structured {
            data.set_value(envelope);
        }
        let mut builder = builder.replace_data(data);
        if let (Some((tool, reason)), Some(next_offset)) = (next, info.next_offset()) {
            builder = builder.suggestion(Suggestion::new(
                tool,
                format!("{reason} (offset: {next_offset})"),
            ));
        }
        Ok((builder, info, too_large))
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

/// The data block of `value` in `format` (a text format writes JSON, as a presentation does).
fn encode(value: &Value, format: Format) -> Result<ResponseBuilder, EncodeError> {
    match format {
        Format::Toon => ResponseBuilder::toon(value).map_err(EncodeError::from),
        Format::CompactJson => ResponseBuilder::json_value(value, true),
        Format::Json | Format::Text => ResponseBuilder::json_value(value, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
