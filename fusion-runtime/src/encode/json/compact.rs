//! Compact JSON (wire format §3.8): a §3 text without its layout.

/// `text` (a wire format §3 JSON text) without its layout (wire format §3.8): every LF and space
/// outside a string removed, so `{"a": [1]}` is written `{"a":[1]}`.
///
/// ```
/// use fusion_runtime::testing::json;
/// let pretty = json::to_string(&serde_json::json!({"a": "x y", "b": [1, 2]})).unwrap();
/// assert_eq!(json::compact(&pretty), r#"{"a":"x y","b":[1,2]}"#);
/// ```
pub fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    compact_into(&mut out, text);
    out
}

/// [`compact`], appended to `out` (a budget's prefix compacts its items one by one: the compact
/// form of a list is `[`, its elements' compact forms joined by `,`, and `]`).
pub(crate) fn compact_into(out: &mut String, text: &str) {
    let mut in_string = false;
    let mut escaped = false;
    let mut run = 0;
    for (index, byte) in text.bytes().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
        } else if byte == b'\n' || byte == b' ' {
            // Layout: copy the text since the last one, skip this byte.
            out.push_str(&text[run..index]);
            run = index + 1;
        } else if byte == b'"' {
            in_string = true;
        }
    }
    out.push_str(&text[run..]);
}
