//! The id of a message the parser could not hold: valid JSON beyond `serde_json`'s limits
//! (nested deeper than 128 levels, a number beyond `f64`) still names the request it answers.
//!
//! [`readable_id`] checks the whole input against the JSON grammar without recursion (a stack
//! of open containers, so no depth is too deep) and, when it is valid JSON, returns the
//! top-level `id` member if that is a string or an integer. Anything else (malformed JSON,
//! invalid UTF-8, an id that is itself out of range) has no readable id.

use serde_json::Value;

/// The top-level `id` of `input` when `input` is one valid JSON object and its `id` is a string
/// or an integer that fits `i64`.
pub(super) fn readable_id(input: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(input).ok()?;
    let span = Scanner {
        bytes: text.as_bytes(),
        at: 0,
    }
    .document()?;
    match serde_json::from_str::<Value>(text.get(span?.0..span?.1)?).ok()? {
        id @ Value::String(_) => Some(id),
        Value::Number(n) if n.is_i64() => Some(Value::Number(n)),
        _ => None,
    }
}

/// A container open around the current position.
#[derive(Clone, Copy, PartialEq)]
enum Open {
    Object,
    Array,
}

struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// The whole input as one value: `None` when it is not valid JSON; else the span of the
    /// top-level object's `id` member (`Some(None)` without one).
    #[allow(
        clippy::option_option,
        reason = "invalid JSON, no id, or the id's span: three answers"
    )]
    fn document(mut self) -> Option<Option<(usize, usize)>> {
        let mut stack: Vec<Open> = Vec::new();
        let mut id: Option<(usize, usize)> = None;
        // The start of the current top-level member's value, when its key is `id`.
        let mut id_start: Option<usize> = None;
        loop {
            // A value starts here.
            self.whitespace();
            if stack.len() == 1 && id_start.is_some() {
                id_start = Some(self.at);
            }
            match self.peek()? {
                b'{' => {
                    self.at += 1;
                    self.whitespace();
                    if self.eat(b'}').is_none() {
                        stack.push(Open::Object);
                        self.key(stack.len(), &mut id_start)?;
                        continue;
                    }
                }
                b'[' => {
                    self.at += 1;
                    self.whitespace();
                    if self.eat(b']').is_none() {
                        stack.push(Open::Array);
                        continue;
                    }
                }
                b'"' => self.string()?,
                b'-' | b'0'..=b'9' => self.number()?,
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                _ => return None,
            }
            // A value ended here: close containers until another value follows.
            loop {
                if stack.len() == 1
                    && let Some(start) = id_start.take()
                {
                    id = Some((start, self.at));
                }
                self.whitespace();
                match stack.last() {
                    None => return (self.at == self.bytes.len()).then_some(id),
                    Some(Open::Object) => match self.peek()? {
                        b',' => {
                            self.at += 1;
                            self.key(stack.len(), &mut id_start)?;
                            break;
                        }
                        b'}' => {
                            self.at += 1;
                            stack.pop();
                        }
                        _ => return None,
                    },
                    Some(Open::Array) => match self.peek()? {
                        b',' => {
                            self.at += 1;
                            break;
                        }
                        b']' => {
                            self.at += 1;
                            stack.pop();
                        }
                        _ => return None,
                    },
                }
            }
        }
    }

    /// A member's key and its colon; at depth 1, an `id` key marks the value to keep.
    fn key(&mut self, depth: usize, id_start: &mut Option<usize>) -> Option<()> {
        self.whitespace();
        let start = self.at;
        self.string()?;
        if depth == 1 && &self.bytes[start..self.at] == b"\"id\"" {
            *id_start = Some(self.at);
        }
        self.whitespace();
        self.eat(b':')
    }

    fn string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        loop {
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return Some(());
                }
                b'\\' => {
                    self.at += 1;
                    match self.peek()? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.at += 1,
                        b'u' => {
                            let hex = self.bytes.get(self.at + 1..self.at + 5)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            self.at += 5;
                        }
                        _ => return None,
                    }
                }
                0..=0x1f => return None,
                _ => self.at += 1,
            }
        }
    }

    fn digits(&mut self) -> Option<()> {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        (self.at > start).then_some(())
    }

    fn number(&mut self) -> Option<()> {
        let _ = self.eat(b'-');
        if self.eat(b'0').is_none() {
            self.digits()?;
        }
        if self.eat(b'.').is_some() {
            self.digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.digits()?;
        }
        Some(())
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word).then(|| self.at = end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_id_of_valid_json_is_read_at_any_depth() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","params":{{"x":{}1{}}},"id":"abc","method":"ping"}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert_eq!(readable_id(deep.as_bytes()), Some(json!("abc")));
        assert_eq!(
            readable_id(br#"{"id":7,"params":{"id":8,"x":1e400}}"#),
            Some(json!(7))
        );
        assert_eq!(readable_id(br#" { "id" : -3 } "#), Some(json!(-3)));
        assert_eq!(
            readable_id(br#"{"a":{}, "b":[], "id":"\u0041"}"#),
            Some(json!("A"))
        );
    }

    #[test]
    fn invalid_json_and_unusable_ids_have_no_id() {
        for input in [
            &br#"{"id":1,"#[..],
            br#"{"id":1}x"#,
            br#"{"id":1,"params":[1,]}"#,
            br#"{"id":1e400}"#,
            br#"{"id":1.5}"#,
            br#"{"id":null}"#,
            br#"{"method":"ping"}"#,
            b"{\"id\":1,\"m\":\"\xff\"}",
            br#"{"id":1,"m":"\x"}"#,
            br#"{"id":01}"#,
            br#"[{"id":1}]"#,
            br#"{"params":{"id":1}}"#,
            b"",
        ] {
            assert_eq!(
                readable_id(input),
                None,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }
}
