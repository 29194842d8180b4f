//! The HTTP guard's short way for the message it sees most: a `tools/call` that
//! [`classify_body`](super::classify::classify_body) forwards as it is. The long way parses the
//! body into a `serde_json::Value` and checks it; this one reads the same bytes with visitors
//! that keep nothing (no `Value`, no allocation) and says only "forward it as it is" or "let the
//! long way decide".
//!
//! It never decides otherwise than the long way, because it only accepts what the long way
//! forwards as it is:
//!
//! - every value is read with `deserialize_any`, as `Value` reads it, and every key as `Value`
//!   reads it (`serde_json` reads a key alike whatever is asked of it): the same grammar, string
//!   checks (UTF-8, escapes, control characters), number range and nesting limit, whatever
//!   `serde_json`'s features;
//! - a key `Value` reads specially (`serde_json`'s private tokens of `arbitrary_precision` and
//!   `raw_value`), or a value of a kind a visitor here does not expect, stops the read;
//! - a checked member passes at every occurrence, so the one a `Map` keeps (the last) passes, and
//!   a member that must be absent has none.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Whether the long way forwards `body` as it is: a request (`jsonrpc` "2.0", an id that is a
/// string or an integer, no `result` or `error`) of `tools/call` whose `params` have a string
/// `name`, `arguments` an object or absent, and no `_meta`, `inputResponses`, `requestState` or
/// `task`, in a body without a byte order mark. `false` says nothing: the long way decides.
pub(super) fn forwards_as_is(body: &[u8]) -> bool {
    // A marked body is forwarded rewritten, without its mark.
    if body.starts_with(b"\xEF\xBB\xBF") {
        return false;
    }
    // What the long way parses: the body without a carriage return at its end.
    let line = body.strip_suffix(b"\r").unwrap_or(body);
    // `serde_json::from_slice`, with a seed for a visitor.
    let mut reader = serde_json::Deserializer::from_slice(line);
    Expect::Call
        .deserialize(&mut reader)
        .and_then(|()| reader.end())
        .is_ok()
}

/// The members of a message this reads, by position.
const MESSAGE: [&str; 6] = ["id", "jsonrpc", "method", "params", "result", "error"];

/// The members of a call's `params` this reads, by position.
const PARAMS: [&str; 6] = [
    "name",
    "arguments",
    "_meta",
    "inputResponses",
    "requestState",
    "task",
];

/// The keys `serde_json`'s `Value` reads as something else than a member (its private tokens,
/// with the features `arbitrary_precision` and `raw_value`) begin with this.
const PRIVATE_TOKEN: &str = "$serde_json::private::";

/// What one value must be; a value that is not stops the read.
#[derive(Clone, Copy)]
enum Expect {
    /// Anything: read through.
    Any,
    /// An id the guard answers with: a string or an integer that fits `i64`.
    Id,
    /// This string.
    Str(&'static str),
    /// A string.
    AnyStr,
    /// An object, read through.
    Object,
    /// The `params` of a plain call.
    Params,
    /// The whole message: a plain `tools/call` request.
    Call,
}

impl Expect {
    /// What this wants, for the message of a stopped read.
    fn what(self) -> &'static str {
        match self {
            Expect::Any => "a JSON value",
            Expect::Id => "a string or an integer",
            Expect::Str(wanted) => wanted,
            Expect::AnyStr => "a string",
            Expect::Object => "an object",
            Expect::Params => "the params of a plain call",
            Expect::Call => "a plain tools/call request",
        }
    }

    /// The read stops here: the long way decides.
    fn stop<E: de::Error>(self) -> Result<(), E> {
        Err(E::custom(format_args!("not {}", self.what())))
    }

    /// Takes a scalar when anything goes.
    fn any<E: de::Error>(self) -> Result<(), E> {
        match self {
            Expect::Any => Ok(()),
            _ => self.stop(),
        }
    }

    /// Reads an object's members through, checking only their keys.
    fn through<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
        while map.next_key_seed(Member(&[]))?.is_some() {
            map.next_value_seed(Expect::Any)?;
        }
        Ok(())
    }

    /// A plain `tools/call` request (see [`forwards_as_is`]).
    fn call<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = [false; 4];
        while let Some(member) = map.next_key_seed(Member(&MESSAGE))? {
            let expect = match member {
                Some(0) => Expect::Id,
                Some(1) => Expect::Str("2.0"),
                Some(2) => Expect::Str("tools/call"),
                Some(3) => Expect::Params,
                // `result` or `error`: not a request.
                Some(_) => return self.stop(),
                None => Expect::Any,
            };
            map.next_value_seed(expect)?;
            if let Some(seen) = member.and_then(|member| seen.get_mut(member)) {
                *seen = true;
            }
        }
        if seen.iter().all(|seen| *seen) {
            Ok(())
        } else {
            self.stop()
        }
    }

    /// The `params` of a plain call.
    fn params<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut named = false;
        while let Some(member) = map.next_key_seed(Member(&PARAMS))? {
            let expect = match member {
                Some(0) => Expect::AnyStr,
                Some(1) => Expect::Object,
                // What rmcp's types must read (`_meta`, the asking rounds, a task).
                Some(_) => return self.stop(),
                None => Expect::Any,
            };
            map.next_value_seed(expect)?;
            named |= member == Some(0);
        }
        if named { Ok(()) } else { self.stop() }
    }
}

impl<'de> DeserializeSeed<'de> for Expect {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        // As `Value` reads every value.
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Expect {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.any()
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        match self {
            Expect::Id => Ok(()),
            _ => self.any(),
        }
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<(), E> {
        match self {
            // `Value::is_i64`.
            Expect::Id if i64::try_from(n).is_ok() => Ok(()),
            _ => self.any(),
        }
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.any()
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        match self {
            Expect::Any | Expect::Id | Expect::AnyStr => Ok(()),
            Expect::Str(wanted) if s == wanted => Ok(()),
            _ => self.stop(),
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.any()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.any()?;
        while seq.next_element_seed(Expect::Any)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        match self {
            Expect::Any | Expect::Object => Expect::through(map),
            Expect::Params => self.params(map),
            Expect::Call => self.call(map),
            _ => self.stop(),
        }
    }
}

/// A key: its position among these names, or `None` for another. A private token of `serde_json`
/// stops the read.
struct Member(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for Member {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        // As `Value` reads a key (`serde_json` reads `str` and `any` alike for a key).
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for Member {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member's name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        if key.starts_with(PRIVATE_TOKEN) {
            return Err(E::custom("a private token of serde_json"));
        }
        Ok(self.0.iter().position(|name| *name == key))
    }
}

#[cfg(test)]
#[path = "plain_call_tests.rs"]
mod tests;
