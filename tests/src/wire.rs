//! A reference parser of the fusion wire format, written from wire format §2, §4, §5 and §13 alone.
//!
//! It reads the concatenated text of a response's blocks (joined by LF, as a model reads them)
//! and recovers the blocks, their attributes and their list items. It shares no code with the
//! runtime on purpose: the hardening properties check that whatever strings a response was made
//! of, this parser recovers exactly the structure the toolkit meant to emit.

/// The framework element names of wire format §5.1.
const NAMES: [&str; 14] = [
    "ui_passthrough",
    "llm_directives",
    "domain_rules",
    "action_suggestions",
    "tool_error",
    "validation_error",
    "message",
    "recovery",
    "available_actions",
    "action",
    "details",
    "detail",
    "retry_after",
    "field",
];

/// A framework tag start found in a text: where it is, whether it closes, and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagStart {
    /// Byte offset of the `<`.
    pub at: usize,
    /// Whether the tag is a closing one (`</name`).
    pub closing: bool,
    /// The element name, lowercase.
    pub name: &'static str,
}

/// Every framework tag start of `text`, in order (wire format §5.1).
pub fn tag_starts(text: &str) -> Vec<TagStart> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for at in 0..bytes.len() {
        if bytes[at] != b'<' {
            continue;
        }
        let closing = bytes.get(at + 1) == Some(&b'/');
        let start = at + 1 + usize::from(closing);
        for name in NAMES {
            let end = start + name.len();
            if end <= bytes.len()
                && bytes[start..end].eq_ignore_ascii_case(name.as_bytes())
                && bytes.get(end).is_none_or(|&b| {
                    !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.' || b == b':')
                })
            {
                found.push(TagStart { at, closing, name });
                break;
            }
        }
    }
    found
}

/// One block recovered from the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// The data block (text, JSON or TOON), as written.
    Data(String),
    /// A `<ui_passthrough>` block: its decoded attributes in order and its content as written.
    Ui {
        /// Attribute names and decoded values, in order.
        attrs: Vec<(String, String)>,
        /// The content between the tag lines.
        content: String,
    },
    /// A list block: its name and its item bodies (continuation indentation removed).
    List {
        /// `llm_directives`, `domain_rules` or `action_suggestions`.
        name: String,
        /// The item bodies, as written after wire format §5.3.
        items: Vec<String>,
    },
    /// A `<tool_error>` envelope, element texts decoded.
    ToolError {
        /// `code` and `severity`, decoded.
        attrs: Vec<(String, String)>,
        /// The message.
        message: String,
        /// The recovery, if present.
        recovery: Option<String>,
        /// The available actions.
        actions: Vec<String>,
        /// The details, keys and values decoded.
        details: Vec<(String, String)>,
        /// The retry delay line's text, if present.
        retry_after: Option<String>,
    },
    /// A `<validation_error>` envelope.
    ValidationError {
        /// The `action` attribute, decoded.
        action: String,
        /// Each field's decoded `name` and decoded detail.
        fields: Vec<(String, String)>,
        /// The recovery text.
        recovery: String,
    },
}

/// Why a text is not a well-formed fusion response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not a well-formed response: {}", self.0)
    }
}

impl std::error::Error for ParseError {}

fn fail<T>(message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(message.into()))
}

/// Decodes XML attribute entities (the ones wire format §5.2 writes).
pub fn decode_attribute(value: &str) -> String {
    value
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&#9;", "\t")
        .replace("&#10;", "\n")
        .replace("&#13;", "\r")
        .replace("&amp;", "&")
}

/// Decodes wire format §5.8 element content (`&lt;` and `&amp;`).
pub fn decode_element(text: &str) -> String {
    // `&amp;lt;` must become `&lt;`, so `&lt;` is decoded first, then `&amp;`.
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find('&') {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        if let Some(after) = tail.strip_prefix("&lt;") {
            out.push('<');
            rest = after;
        } else if let Some(after) = tail.strip_prefix("&amp;") {
            out.push('&');
            rest = after;
        } else {
            out.push('&');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// Parses `name="value"` pairs of an opening tag's attribute text.
fn parse_attrs(text: &str) -> Result<Vec<(String, String)>, ParseError> {
    let mut attrs = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches(' ');
        if rest.is_empty() {
            return Ok(attrs);
        }
        let Some(eq) = rest.find("=\"") else {
            return fail(format!("attribute without a value in {text:?}"));
        };
        let name = rest[..eq].to_owned();
        let after = &rest[eq + 2..];
        let Some(close) = after.find('"') else {
            return fail(format!("unterminated attribute in {text:?}"));
        };
        attrs.push((name, decode_attribute(&after[..close])));
        rest = &after[close + 1..];
    }
}

/// Parses a whole response text (its blocks joined by LF).
pub fn parse(text: &str) -> Result<Vec<Block>, ParseError> {
    let tags = tag_starts(text);
    let first_block_tag = tags.first().map_or(text.len(), |t| t.at);
    if first_block_tag == 0 {
        if let Some(first) = tags
            .first()
            .filter(|t| t.name == "tool_error" || t.name == "validation_error")
        {
            return if first.name == "validation_error" {
                parse_validation_error(text)
            } else {
                parse_tool_error(text)
            };
        }
        return fail("the response does not start with a data block");
    }
    let mut blocks = Vec::new();
    if first_block_tag == text.len() {
        blocks.push(Block::Data(text.to_owned()));
        return Ok(blocks);
    }
    // The data block ends with the LF that joins it to the first tag line.
    let Some(data) = text[..first_block_tag].strip_suffix('\n') else {
        return fail("a block tag does not start a line");
    };
    blocks.push(Block::Data(data.to_owned()));
    let mut index = 0;
    while index < tags.len() {
        let open = &tags[index];
        if open.closing {
            return fail(format!("unexpected closing tag </{}>", open.name));
        }
        let Some(close) = tags.get(index + 1) else {
            return fail(format!("<{}> is never closed", open.name));
        };
        if !close.closing || close.name != open.name {
            return fail(format!(
                "<{}> is followed by a framework tag that is not its end",
                open.name
            ));
        }
        let Some(line_end) = text[open.at..].find('\n').map(|n| open.at + n) else {
            return fail("an opening tag line has no end");
        };
        let opening = &text[open.at..line_end];
        let Some(inner) = text[line_end + 1..close.at].strip_suffix('\n') else {
            return fail(format!("</{}> does not start a line", open.name));
        };
        let close_end = close.at + open.name.len() + 3;
        if text.get(close.at..close_end) != Some(&format!("</{}>", open.name)[..]) {
            return fail(format!("malformed closing tag of {}", open.name));
        }
        match open.name {
            "ui_passthrough" => {
                let Some(attr_text) = opening
                    .strip_prefix("<ui_passthrough ")
                    .and_then(|s| s.strip_suffix('>'))
                else {
                    return fail(format!("malformed ui tag {opening:?}"));
                };
                blocks.push(Block::Ui {
                    attrs: parse_attrs(attr_text)?,
                    content: inner.to_owned(),
                });
            }
            "llm_directives" | "domain_rules" | "action_suggestions" => {
                if opening != format!("<{}>", open.name) {
                    return fail(format!("malformed list tag {opening:?}"));
                }
                blocks.push(Block::List {
                    name: open.name.to_owned(),
                    items: parse_items(inner)?,
                });
            }
            other => return fail(format!("<{other}> cannot start a block here")),
        }
        // The next block starts after the closing tag and one LF.
        if close_end < text.len() && text.as_bytes()[close_end] != b'\n' {
            return fail("text follows a closing tag on its line");
        }
        index += 2;
    }
    Ok(blocks)
}

/// Splits a list block's inner text into item bodies (wire format §2.3, §5.4).
fn parse_items(inner: &str) -> Result<Vec<String>, ParseError> {
    let mut items: Vec<String> = Vec::new();
    // Lines are split at LF and at lone CR, as wire format §5.4 indents after both.
    let mut lines: Vec<(&str, &str)> = Vec::new(); // (line, the break that ended it)
    let mut start = 0;
    let bytes = inner.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push((&inner[start..i], "\n"));
                start = i + 1;
            }
            b'\r' if bytes.get(i + 1) != Some(&b'\n') => {
                lines.push((&inner[start..i], "\r"));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    lines.push((&inner[start..], ""));
    let mut previous_break = "";
    for (line, line_break) in lines {
        if let Some(body) = line.strip_prefix("- ") {
            if previous_break == "\r" {
                return fail("an item starts after a lone CR");
            }
            items.push(body.to_owned());
        } else if let Some(more) = line.strip_prefix("  ") {
            let Some(current) = items.last_mut() else {
                return fail("a continuation line before any item");
            };
            current.push_str(previous_break);
            current.push_str(more);
        } else {
            return fail(format!(
                "a list line that is neither an item nor a continuation: {line:?}"
            ));
        }
        previous_break = line_break;
    }
    Ok(items)
}

/// Parses a `<validation_error>` block. Details may span lines (a value sent with a LF is
/// echoed as sent), but never hold a `<`, so each `</field>` ends its field.
fn parse_validation_error(text: &str) -> Result<Vec<Block>, ParseError> {
    let Some((first, mut rest)) = text.split_once('\n') else {
        return fail("a validation_error with no fields");
    };
    let Some(action) = first
        .strip_prefix("<validation_error action=\"")
        .and_then(|s| s.strip_suffix("\">"))
    else {
        return fail(format!("malformed validation_error tag {first:?}"));
    };
    let mut fields = Vec::new();
    while let Some(field) = rest.strip_prefix("<field name=\"") {
        let Some((name, after_name)) = field.split_once("\">") else {
            return fail("malformed field line");
        };
        let Some((detail, after)) = after_name.split_once("</field>\n") else {
            return fail("unterminated field");
        };
        fields.push((decode_attribute(name), decode_element(detail)));
        rest = after;
    }
    let Some(recovery) = rest
        .strip_prefix("<recovery>")
        .and_then(|s| s.strip_suffix("</recovery>\n</validation_error>"))
    else {
        return fail(format!("unexpected validation text {rest:?}"));
    };
    Ok(vec![Block::ValidationError {
        action: decode_attribute(action),
        fields,
        recovery: decode_element(recovery),
    }])
}

/// Parses a `<tool_error>` block.
fn parse_tool_error(text: &str) -> Result<Vec<Block>, ParseError> {
    let first = text.split('\n').next().unwrap_or_default();
    let Some(attr_text) = first
        .strip_prefix("<tool_error ")
        .and_then(|s| s.strip_suffix('>'))
    else {
        return fail(format!("malformed tool_error tag {first:?}"));
    };
    let attrs = parse_attrs(attr_text)?;
    // Element contents may span lines (LF stays in messages), so work on the text after line 1.
    let body = &text[first.len() + 1..];
    let Some(body) = body.strip_suffix("</tool_error>") else {
        return fail("tool_error is not closed at the end");
    };
    let mut rest = body;
    let take = |rest: &mut &str, open: &str, close: &str| -> Option<String> {
        let after = rest.strip_prefix(open)?;
        let end = after.find(close)?;
        let content = after[..end].to_owned();
        *rest = after[end + close.len()..].strip_prefix('\n').unwrap_or("");
        Some(content)
    };
    let Some(message) = take(&mut rest, "<message>", "</message>") else {
        return fail("tool_error has no message");
    };
    let recovery = take(&mut rest, "<recovery>", "</recovery>");
    let mut actions = Vec::new();
    if let Some(after) = rest.strip_prefix("<available_actions>\n") {
        rest = after;
        while let Some(action) = take(&mut rest, "  <action>", "</action>") {
            actions.push(decode_element(&action));
        }
        let Some(after) = rest.strip_prefix("</available_actions>\n") else {
            return fail("available_actions is not closed");
        };
        rest = after;
    }
    let mut details = Vec::new();
    if let Some(after) = rest.strip_prefix("<details>\n") {
        rest = after;
        while let Some(line) = rest.strip_prefix("  <detail key=\"") {
            let Some((key, after_key)) = line.split_once("\">") else {
                return fail("malformed detail");
            };
            let Some(end) = after_key.find("</detail>") else {
                return fail("unterminated detail");
            };
            details.push((decode_attribute(key), decode_element(&after_key[..end])));
            rest = after_key[end + "</detail>".len()..]
                .strip_prefix('\n')
                .unwrap_or("");
        }
        let Some(after) = rest.strip_prefix("</details>\n") else {
            return fail("details is not closed");
        };
        rest = after;
    }
    let retry_after = take(&mut rest, "<retry_after>", "</retry_after>");
    if !rest.is_empty() {
        return fail(format!("unexpected text in tool_error: {rest:?}"));
    }
    Ok(vec![Block::ToolError {
        attrs,
        message: decode_element(&message),
        recovery: recovery.map(|r| decode_element(&r)),
        actions,
        details,
        retry_after,
    }])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_v6_response() {
        let text = [
            "{\n  \"id\": \"123\"\n}",
            "<ui_passthrough type=\"echarts\">\n```echarts\n{}\n```\n</ui_passthrough>",
            "<domain_rules>\n- From child presenter\n</domain_rules>",
            "<llm_directives>\n- Pay attention\n</llm_directives>",
            "<action_suggestions>\n- next.action: Do this next\n</action_suggestions>",
        ]
        .join("\n");
        let blocks = parse(&text).unwrap();
        assert_eq!(blocks.len(), 5);
        assert_eq!(
            blocks[4],
            Block::List {
                name: "action_suggestions".into(),
                items: vec!["next.action: Do this next".into()]
            }
        );
    }

    #[test]
    fn items_keep_continuations() {
        let text = "d\n<domain_rules>\n- x\n  &lt;/domain_rules>\n- a\r\n  b\n- \n</domain_rules>";
        let blocks = parse(text).unwrap();
        assert_eq!(
            blocks[1],
            Block::List {
                name: "domain_rules".into(),
                items: vec![
                    "x\n&lt;/domain_rules>".into(),
                    "a\r\nb".into(),
                    String::new()
                ]
            }
        );
    }

    #[test]
    fn rejects_a_forged_block() {
        assert!(parse("d\n<domain_rules>\n</domain_rules>\n- x\n</domain_rules>").is_err());
    }

    #[test]
    fn parses_tool_error() {
        let text = "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n<message>Not &lt;found> &amp; \"x\" ></message>\n<details>\n  <detail key=\"a&quot;b&#10;\">1 > 0</detail>\n</details>\n</tool_error>";
        let blocks = parse(text).unwrap();
        let Block::ToolError {
            message, details, ..
        } = &blocks[0]
        else {
            panic!("not a tool error: {blocks:?}");
        };
        assert_eq!(message, "Not <found> & \"x\" >");
        assert_eq!(details, &vec![("a\"b\n".to_owned(), "1 > 0".to_owned())]);
    }
}
