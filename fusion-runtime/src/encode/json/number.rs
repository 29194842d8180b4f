//! Number text (wire format §3.6): ECMAScript `Number::toString` of a binary64, by `ryu-js`.

/// The ECMAScript text of a float (wire format §3.6): `null` for NaN and infinities, `0` for both zeros.
///
/// ```
/// use fusion_runtime::testing::json::number_text;
/// assert_eq!(number_text(100.0), "100");
/// assert_eq!(number_text(1e-7), "1e-7");
/// assert_eq!(number_text(-0.0), "0");
/// assert_eq!(number_text(f64::NAN), "null");
/// ```
pub fn number_text(value: f64) -> String {
    number_str(&mut ryu_js::Buffer::new(), value).to_owned()
}

/// [`number_text`] without allocating: the text lives in `buffer` or is a literal.
pub(super) fn number_str(buffer: &mut ryu_js::Buffer, value: f64) -> &str {
    if !value.is_finite() {
        "null"
    } else if value == 0.0 {
        // ECMAScript writes -0 as `0`; ryu-js would keep the sign.
        "0"
    } else {
        // ryu-js yields the shortest round-trip digits laid out by ECMAScript's Number::toString.
        buffer.format_finite(value)
    }
}
