//! A presentation being configured and written (wire format §6.2): [`Presentation`] (started by
//! [`present`], [`present_all`] or [`Present`]), the budget it carries, and [`Shape`], which
//! writes the data block of a cut and asks the engine for the other blocks. Building it is
//! `build`'s (the seam where a budget hands it to `fit`).

use serde::{Serialize, Serializer};

use super::engine::{Cut, Items, Parts, Presenter, Scope, cut_items};
use crate::encode::EncodeError;
use crate::encode::json;
use crate::encode::toon::table::Members;
use crate::model::{FieldMask, Model, Selection};
use crate::response::{Format, ResponseBuilder, ToolError, toon_presented_all, toon_presented_one};

/// A presentation being configured: the value(s), the context and the selection.
///
/// Start one with [`present`] or [`present_all`] (or the [`Present`] extension methods).
#[must_use = "a presentation does nothing until `build` is called"]
pub struct Presentation<'a, T, Ctx: ?Sized = ()> {
    pub(crate) items: Items<'a, T>,
    pub(crate) ctx: &'a Ctx,
    pub(crate) selection: Option<&'a Selection>,
    /// `None`: the presenter's [`Presenter::FORMAT`].
    pub(crate) format: Option<Format>,
    /// The format when neither the call nor the presenter chooses one (the tool set's default).
    pub(crate) default_format: Option<Format>,
    /// The budget of the call, the tool or the tool set (wire format §17.1), the tightest one.
    #[cfg(feature = "budget")]
    pub(crate) max_tokens: Option<usize>,
    /// Whether the budget is kept by the exact `o200k_base` count instead of the estimate
    /// ([`Presentation::exact_tokens`]).
    #[cfg(feature = "exact-tokens")]
    pub(crate) exact: bool,
    /// Tokens the caller adds around the fitted response (a page's envelope and next-page
    /// suggestion): the fit leaves them free besides its own margin, while its summary and
    /// `RESPONSE_TOO_LARGE` name the budget itself.
    #[cfg(feature = "budget")]
    pub(crate) reserved: usize,
    /// Whether the data block's wire value is asked for besides its text (a structured
    /// action's `structuredContent`, a page's items): see [`Shape::value`].
    pub(crate) keep_value: bool,
    /// For a lean tool (wire format §6.12): the static rules its description says; `None`: not lean.
    pub(crate) said: Option<&'a [&'static str]>,
}

/// Presents a single value.
pub fn present<T: Model>(value: &T) -> Presentation<'_, T> {
    Presentation {
        items: Items::One(value),
        ctx: &(),
        selection: None,
        format: None,
        default_format: None,
        #[cfg(feature = "budget")]
        max_tokens: None,
        #[cfg(feature = "exact-tokens")]
        exact: false,
        #[cfg(feature = "budget")]
        reserved: 0,
        keep_value: false,
        said: None,
    }
}

/// Presents a collection (agent limit, collection UI, rules and suggestions).
pub fn present_all<T: Model>(items: &[T]) -> Presentation<'_, T> {
    Presentation {
        items: Items::Many(items),
        ctx: &(),
        selection: None,
        format: None,
        default_format: None,
        #[cfg(feature = "budget")]
        max_tokens: None,
        #[cfg(feature = "exact-tokens")]
        exact: false,
        #[cfg(feature = "budget")]
        reserved: 0,
        keep_value: false,
        said: None,
    }
}

/// `value.present()` and `Model::present_all(&items)` for every derived model.
pub trait Present: Model + Sized {
    /// Presents this value.
    fn present(&self) -> Presentation<'_, Self> {
        present(self)
    }

    /// Presents a collection of this model.
    fn present_all(items: &[Self]) -> Presentation<'_, Self> {
        present_all(items)
    }
}

impl<T: Model> Present for T {}

impl<'a, T, Ctx: ?Sized> Presentation<'a, T, Ctx> {
    /// Applies a `_select` selection to the data block (an empty selection selects everything).
    pub fn select(mut self, selection: &'a Selection) -> Self {
        self.selection = Some(selection);
        self
    }

    /// Hands `ctx` to every callback of this presenter and of its embedded children.
    pub fn context<C: ?Sized>(self, ctx: &'a C) -> Presentation<'a, T, C> {
        Presentation {
            items: self.items,
            ctx,
            selection: self.selection,
            format: self.format,
            default_format: self.default_format,
            #[cfg(feature = "budget")]
            max_tokens: self.max_tokens,
            #[cfg(feature = "exact-tokens")]
            exact: self.exact,
            #[cfg(feature = "budget")]
            reserved: self.reserved,
            keep_value: self.keep_value,
            said: self.said,
        }
    }

    /// Writes the data block in `format` instead of the presenter's own
    /// ([`Presenter::FORMAT`], JSON unless the model says `#[presenter(format = toon)]`).
    pub fn format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }

    /// Writes the data block in `format` when neither this presentation
    /// ([`Presentation::format`]) nor the presenter (`#[presenter(format = ...)]`) chooses one:
    /// the tool set's server-wide default ([`ToolSet::format`](crate::ToolSet::format)).
    pub fn default_format(mut self, format: Format) -> Self {
        self.default_format = Some(format);
        self
    }

    /// The data block's format: this presentation's, else the presenter's declared one, else the
    /// default, else the presenter's [`Presenter::FORMAT`] (JSON).
    pub(crate) fn resolved_format(&self) -> Format
    where
        T: Presenter<Ctx>,
    {
        match (self.format, self.default_format) {
            (Some(format), _) => format,
            (None, Some(default)) if !T::FORMAT_DECLARED => default,
            _ => T::FORMAT,
        }
    }

    /// Fits the response to `max_tokens` tokens (wire format §17): a collection keeps the longest
    /// prefix of items that fits, a single value cuts its embedded collections, and a truncation
    /// summary says so. The tightest of this, the presenter's, the tool's and the tool set's
    /// budget wins.
    ///
    /// The budget is kept by the token estimate (wire format §17.2), which is never under the
    /// exact `o200k_base` count on the text it was calibrated on, but not on every text: it is
    /// under on characters drawn at random from a script, Korean in decomposed form (NFD),
    /// letters run together without spaces and short values alone under a narrow `_select` (a
    /// probe's lists of 500 emoji city names went 15% over; `fusion_runtime::tokens`,
    /// "How the estimate works"). On such text, keep the budget by the exact count
    /// (`exact_tokens`, feature `exact-tokens`).
    #[cfg(feature = "budget")]
    pub fn max_tokens(self, max_tokens: usize) -> Self {
        self.within(Some(max_tokens))
    }

    /// Keeps the budget by the exact `o200k_base` count (feature `exact-tokens`) instead of the
    /// estimate (wire format §17.2): the response is the longest cut whose blocks count at most
    /// the budget exactly, with no room left free, whatever the text (the estimate can be far
    /// under on characters drawn at random from a script, Korean in decomposed form (NFD),
    /// letters run together without spaces and short values alone under a narrow `_select`).
    /// The estimate's own search
    /// aims the tries, and each cut tried is rendered whole and counted by `bpe-openai`: two or
    /// three tries, next to the answer, so about 1 ms a call at 2,000 tokens and 7 to 25 ms at
    /// 25,000, hundreds of times the estimate's fit; the vocabulary is loaded on first use
    /// (tens of milliseconds). Without a budget it changes nothing.
    ///
    /// ```
    /// # #[cfg(feature = "derive")] {
    /// use fusion_runtime::Presenter;
    ///
    /// #[derive(Presenter)]
    /// struct Session {
    ///     token: String,
    /// }
    ///
    /// let sessions: Vec<Session> = (0..200)
    ///     .map(|i| Session { token: format!("qzx{i}wvkjhgfpl") })
    ///     .collect();
    /// let response = Session::present_all(&sessions)
    ///     .max_tokens(500)
    ///     .exact_tokens()
    ///     .build()?;
    /// let exact = fusion_runtime::tokens::ExactCounter::o200k()?;
    /// let counted: usize = response.blocks().iter().map(|block| {
    ///     use fusion_runtime::tokens::TokenCounter;
    ///     exact.count(block)
    /// }).sum();
    /// assert!(counted <= 500);
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "exact-tokens")]
    pub fn exact_tokens(mut self) -> Self {
        self.exact = true;
        self
    }

    /// Presents for a lean tool (wire format §6.12) whose description says the static rules
    /// `said`: they are left out of the answer, and a `_select` that leaves out a member of the
    /// model leaves out the dynamic rules and the suggestions too. [`Call::present`](crate::Call::present)
    /// does this for a tool made lean with [`ToolSpec::lean`](crate::tool::ToolSpec::lean) or
    /// [`ToolSet::lean`](crate::ToolSet::lean).
    pub fn lean(mut self, said: &'a [&'static str]) -> Self {
        self.said = Some(said);
        self
    }

    /// How many items this presents (1 for a single value).
    pub(crate) fn items_len(&self) -> usize {
        match self.items {
            Items::One(_) => 1,
            Items::Many(items) => items.len(),
        }
    }

    /// Tightens the budget to `max_tokens` when one is given (the tool layer's budget).
    #[cfg(feature = "budget")]
    pub(crate) fn within(mut self, max_tokens: Option<usize>) -> Self {
        self.max_tokens = tightest(self.max_tokens, max_tokens);
        self
    }
}

/// The tighter of two budgets, either possibly absent.
#[cfg(feature = "budget")]
pub(crate) fn tightest(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A built presentation: the builder, and the error to answer with instead when not even the
/// smallest answer fits a budget (wire format §17.5).
pub(crate) struct Fitted {
    pub(crate) builder: ResponseBuilder,
    /// Boxed: the error is rare, and a smaller `Fitted` is cheaper to move on the common path.
    pub(crate) too_large: Option<Box<ToolError>>,
}

/// How a presentation is written: context, selection and format (what fitting leaves alone).
pub(crate) struct Shape<'a, Ctx: ?Sized> {
    pub(crate) ctx: &'a Ctx,
    pub(crate) mask: Option<&'a FieldMask>,
    pub(crate) format: Format,
    /// Whether the data block's wire value is made too, from the items themselves (never read
    /// back from the text): for a structured action, a page, and the testing view (feature
    /// `testing`); otherwise nothing is spent on it.
    pub(crate) value: bool,
    /// The static rules the tool's description says (wire format §6.12).
    pub(crate) said: &'a [&'static str],
    /// Whether the dynamic rules and suggestions are left out (a lean projection, §6.12).
    pub(crate) projected: bool,
    /// Tokens the fit leaves free for what the caller adds ([`Presentation::reserved`]).
    #[cfg(feature = "budget")]
    pub(crate) reserved: usize,
}

impl<Ctx: ?Sized> Shape<'_, Ctx> {
    /// What the engine leaves out of this presentation's other blocks.
    pub(crate) fn scope(&self) -> Scope<'_> {
        Scope {
            mask: self.mask,
            said: self.said,
            projected: self.projected,
        }
    }

    /// The response for `items`, cut by `cut` and their child collections by `embed_cut`; and
    /// whether a budget cut something.
    #[inline]
    pub(crate) fn render<T: Presenter<Ctx>>(
        &self,
        items: Items<'_, T>,
        cut: Cut,
        embed_cut: Cut,
    ) -> Result<(ResponseBuilder, bool), EncodeError> {
        let (shown, _) = cut_items(items, cut);
        let capped;
        let mask = match (embed_cut.cap, self.mask) {
            (None, mask) => mask,
            (Some(cap), mask) => {
                capped = mask
                    .cloned()
                    .unwrap_or(FieldMask::ALL)
                    .with_embed_cap(Some(cap));
                Some(&capped)
            }
        };
        let mut builder = if self.format == Format::Toon {
            let members = mask.map_or(Members::Every, Members::Selected);
            match shown {
                Items::One(item) => toon_presented_one(item, members)?,
                Items::Many(items) => toon_presented_all(items, members)?,
            }
        } else {
            let text = match (shown, mask) {
                (Items::One(item), None) => json::to_string(item)?,
                (Items::One(item), Some(mask)) => json::to_string(&Selected { item, mask })?,
                (Items::Many(items), None) => json::to_string(items)?,
                (Items::Many(items), Some(mask)) => json::to_string(&SelectedAll { items, mask })?,
            };
            if self.format == Format::CompactJson {
                ResponseBuilder::json_text(json::compact(&text))
            } else {
                ResponseBuilder::json_text(text)
            }
        };
        if self.value {
            builder.set_value(match (shown, mask) {
                (Items::One(item), None) => json::to_value(item)?,
                (Items::One(item), Some(mask)) => json::to_value(&Selected { item, mask })?,
                (Items::Many(items), None) => json::to_value(items)?,
                (Items::Many(items), Some(mask)) => json::to_value(&SelectedAll { items, mask })?,
            });
        }
        Ok(self.with_parts(builder, items, cut, embed_cut))
    }

    /// `builder` (holding the data block of `items` as `cut` cuts them) with every other part.
    #[inline]
    pub(crate) fn with_parts<T: Presenter<Ctx>>(
        &self,
        builder: ResponseBuilder,
        items: Items<'_, T>,
        cut: Cut,
        embed_cut: Cut,
    ) -> (ResponseBuilder, bool) {
        let parts = Parts::of(items, self.ctx, true, cut, embed_cut, self.scope());
        let budget_cut = parts.budget_cut;
        (parts.into_builder(builder), budget_cut)
    }
}

/// One item written with a selection.
pub(crate) struct Selected<'a, T> {
    pub(crate) item: &'a T,
    pub(crate) mask: &'a FieldMask,
}

impl<T: Model> Serialize for Selected<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.item.serialize_selected(self.mask, serializer)
    }
}

/// A collection written with a selection applied to each element.
struct SelectedAll<'a, T> {
    items: &'a [T],
    mask: &'a FieldMask,
}

impl<T: Model> Serialize for SelectedAll<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.items.iter().map(|item| Selected {
            item,
            mask: self.mask,
        }))
    }
}
