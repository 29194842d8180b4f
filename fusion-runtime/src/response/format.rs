//! The format of a data block (wire format §2.4): the one enum a presenter declares and the testing view
//! reports.

/// The format of a response's data block (wire format §2.4).
///
/// A presenter writes [`Format::Json`] (the default) or [`Format::Toon`]
/// (`#[presenter(format = toon)]`, or [`Presentation::format`](crate::present::Presentation::format)
/// per call); only the data block changes, UI, embeds, rules and suggestions are the same in both.
/// The testing view reports [`Format::Text`] for a text data block or an error envelope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// The wire value as JSON (wire format §3), the default.
    #[default]
    Json,
    /// The wire value as compact JSON (wire format §3.8): §3's bytes without the layout's line
    /// breaks and spaces, about 30% fewer tokens for the same value. The testing view reports it
    /// as [`Format::Json`].
    CompactJson,
    /// The wire value as TOON (wire format §9) with the pipe delimiter: nested models as TOON objects,
    /// uniform lists of models (a collection, an invoice's lines) as tables. Fewer tokens for
    /// collections and uniform nested lists.
    Toon,
    /// A text data block (wire format §5.3), or an error envelope. A presenter's data is a value, never
    /// a text: a presentation asked for `Text` writes JSON.
    Text,
}

impl Format {
    /// `json`, `toon` or `text`, as wire format §14.2 names them (compact JSON is `json`).
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Json | Format::CompactJson => "json",
            Format::Toon => "toon",
            Format::Text => "text",
        }
    }
}
