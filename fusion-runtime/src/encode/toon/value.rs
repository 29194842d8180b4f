//! The value the encoder walks: the JSON data model with member order kept and integers exact up
//! to 128 bits, built from any [`Serialize`] value by a serde `Serializer` of our own.
//!
//! `serde_json::Value` is not used because, without `serde_json`'s `arbitrary_precision` feature
//! (which would change number handling for every crate in the tree), it cannot hold an `i128` or a
//! `u128` beyond 64 bits, and wire format §9.3 wants exact integer digits.
//!
//! All strings of a tree live in one text buffer and values hold spans into it: a table of
//! 10,000 rows then costs one growing buffer instead of 60,000 small allocations and frees
//! (measured: about a quarter of the encoding time). Struct field names are `&'static str` and
//! are not copied at all.

use serde::Serialize;
use serde::ser;

use super::ToonError;
use crate::encode::reject::see_through;
use key::KeySerializer;
pub(crate) use key::member_name;

mod key;

/// Where a string's bytes sit in its tree's text buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    start: usize,
    end: usize,
}

/// A member name: a struct field or variant name as it is, or a map key in the text buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    Static(&'static str),
    Text(Span),
}

/// Object members in the value's own order (wire format §3.3).
pub(crate) type Members = Vec<(Key, Value)>;

/// One JSON-model value; its strings are spans of the owning [`Tree`]'s text.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) enum Value {
    #[default]
    Null,
    Bool(bool),
    /// A non-negative integer.
    UInt(u128),
    /// A negative integer.
    Int(i128),
    Float(f64),
    String(Span),
    Array(Vec<Value>),
    Object(Members),
}

impl Value {
    /// Null, a boolean, a number or a string.
    pub(crate) fn is_primitive(&self) -> bool {
        !matches!(self, Value::Array(_) | Value::Object(_))
    }
}

/// The text every span of a tree points into.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Text<'t>(&'t str);

impl Text<'static> {
    /// The text of a tree with no strings.
    pub(crate) const EMPTY: Text<'static> = Text("");
}

impl<'t> Text<'t> {
    /// The string at `span`.
    pub(crate) fn str(self, span: Span) -> &'t str {
        // Spans are only made by `push_span` on this same buffer, at character boundaries.
        self.0.get(span.start..span.end).unwrap_or_default()
    }

    /// The name `key` stands for.
    pub(crate) fn key(self, key: &Key) -> &'t str {
        match *key {
            Key::Static(name) => name,
            Key::Text(span) => self.str(span),
        }
    }
}

/// A value and the text its strings point into.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tree {
    text: String,
    pub(crate) root: Value,
}

impl Tree {
    /// An empty tree (a null root) to build by hand.
    pub(crate) fn new() -> Self {
        Tree::default()
    }

    /// Stores `text` and returns its span.
    pub(crate) fn push_str(&mut self, text: &str) -> Span {
        push_span(&mut self.text, text)
    }

    /// The text the tree's spans point into.
    pub(crate) fn text(&self) -> Text<'_> {
        Text(&self.text)
    }

    /// The tree's text, for [`to_tree_in`] to build the next tree in.
    pub(crate) fn into_text(self) -> String {
        self.text
    }

    /// The number of string bytes the tree holds, a hint for sizing the output.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The root as a `serde_json::Value`, for the testing view (wire format §14.2).
    ///
    /// `serde_json`'s value holds 64-bit integers and finite floats only: an integer beyond
    /// `u64`/`i64` becomes the nearest float, and NaN or an infinity becomes `null` (which is what
    /// the TOON text says too).
    pub(crate) fn into_json(self) -> serde_json::Value {
        let text = Text(&self.text);
        to_json(self.root, text)
    }
}

fn to_json(value: Value, text: Text<'_>) -> serde_json::Value {
    use serde_json::Value as Json;
    match value {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(b),
        Value::UInt(n) => u64::try_from(n).map_or_else(
            // Precision loss is the documented cost of showing a u128 in serde_json's model.
            #[allow(clippy::cast_precision_loss, reason = "documented: view only")]
            |_| float_json(n as f64),
            Json::from,
        ),
        Value::Int(n) => i64::try_from(n).map_or_else(
            #[allow(clippy::cast_precision_loss, reason = "documented: view only")]
            |_| float_json(n as f64),
            Json::from,
        ),
        Value::Float(x) => float_json(x),
        Value::String(span) => Json::String(text.str(span).to_owned()),
        Value::Array(items) => Json::Array(items.into_iter().map(|v| to_json(v, text)).collect()),
        Value::Object(members) => Json::Object(
            members
                .into_iter()
                .map(|(key, value)| (text.key(&key).to_owned(), to_json(value, text)))
                .collect(),
        ),
    }
}

fn float_json(x: f64) -> serde_json::Value {
    serde_json::Number::from_f64(x).map_or(serde_json::Value::Null, serde_json::Value::Number)
}

fn push_span(buffer: &mut String, text: &str) -> Span {
    let start = buffer.len();
    buffer.push_str(text);
    Span {
        start,
        end: buffer.len(),
    }
}

/// Builds the [`Tree`] of `value`.
pub(crate) fn to_tree<T: Serialize + ?Sized>(value: &T) -> Result<Tree, ToonError> {
    to_tree_in(value, String::new())
}

/// [`to_tree`] with its text in `text` (cleared first): the text of a tree written and done
/// with ([`Tree::into_text`]), so that trees built one after another grow one text, not one
/// each from nothing.
pub(crate) fn to_tree_in<T: Serialize + ?Sized>(
    value: &T,
    mut text: String,
) -> Result<Tree, ToonError> {
    text.clear();
    let mut build = Build {
        text,
        distinct: Vec::new(),
    };
    let root = value.serialize(ValueSerializer { tree: &mut build })?;
    Ok(Tree {
        text: build.text,
        root,
    })
}

/// What the builders of one tree share: the text its spans point into, and the field names of
/// the last struct found to have distinct names (see [`check_unique_fields`]).
struct Build {
    text: String,
    distinct: Vec<&'static str>,
}

/// Whether a member is named `name`. Members of one struct type pass the very `&'static str`
/// the derive wrote, so the address check settles the common case without comparing bytes; it
/// is only a shortcut: equal text is the rule. Inlined: the walk of a tree and every table row
/// call it once per member.
#[inline]
pub(crate) fn same_name(key: &str, name: &str) -> bool {
    std::ptr::eq(key, name) || key == name
}

/// Fails when two members share a name: a TOON decoder would keep one of them, so the text
/// would not decode to the value (wire format §5.10 P4).
fn check_unique(members: &Members, text: &str) -> Result<(), ToonError> {
    // Models have a handful of fields: pairwise comparison beats hashing there.
    const PAIRWISE_LIMIT: usize = 12;
    let text = Text(text);
    let duplicate = |key: &Key| ToonError::DuplicateKey(text.key(key).to_owned());
    if members.len() <= PAIRWISE_LIMIT {
        for (i, (key, _)) in members.iter().enumerate() {
            let name = text.key(key);
            if members[..i]
                .iter()
                .any(|(earlier, _)| text.key(earlier) == name)
            {
                return Err(duplicate(key));
            }
        }
        return Ok(());
    }
    let mut seen = std::collections::HashSet::with_capacity(members.len());
    for (key, _) in members {
        if !seen.insert(text.key(key)) {
            return Err(duplicate(key));
        }
    }
    Ok(())
}

/// The serde `Serializer` that builds a [`Value`], mapping the serde data model the way
/// `serde_json` does (unit → null, unit variant → its name, newtype variant → `{name: value}`,
/// bytes → a list of numbers, map keys → strings).
struct ValueSerializer<'t> {
    tree: &'t mut Build,
}

impl<'t> ser::Serializer for ValueSerializer<'t> {
    type Ok = Value;
    type Error = ToonError;
    type SerializeSeq = SeqBuilder<'t>;
    type SerializeTuple = SeqBuilder<'t>;
    type SerializeTupleStruct = SeqBuilder<'t>;
    type SerializeTupleVariant = VariantSeqBuilder<'t>;
    type SerializeMap = MapBuilder<'t>;
    type SerializeStruct = MapBuilder<'t>;
    type SerializeStructVariant = VariantMapBuilder<'t>;

    fn serialize_bool(self, v: bool) -> Result<Value, ToonError> {
        Ok(Value::Bool(v))
    }

    fn serialize_i8(self, v: i8) -> Result<Value, ToonError> {
        self.serialize_i128(i128::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<Value, ToonError> {
        self.serialize_i128(i128::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<Value, ToonError> {
        self.serialize_i128(i128::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<Value, ToonError> {
        self.serialize_i128(i128::from(v))
    }

    fn serialize_i128(self, v: i128) -> Result<Value, ToonError> {
        Ok(u128::try_from(v).map_or(Value::Int(v), Value::UInt))
    }

    fn serialize_u8(self, v: u8) -> Result<Value, ToonError> {
        Ok(Value::UInt(u128::from(v)))
    }

    fn serialize_u16(self, v: u16) -> Result<Value, ToonError> {
        Ok(Value::UInt(u128::from(v)))
    }

    fn serialize_u32(self, v: u32) -> Result<Value, ToonError> {
        Ok(Value::UInt(u128::from(v)))
    }

    fn serialize_u64(self, v: u64) -> Result<Value, ToonError> {
        Ok(Value::UInt(u128::from(v)))
    }

    fn serialize_u128(self, v: u128) -> Result<Value, ToonError> {
        Ok(Value::UInt(v))
    }

    fn serialize_f32(self, v: f32) -> Result<Value, ToonError> {
        // Widened like the JSON writer does, so both blocks show the same digits.
        Ok(Value::Float(f64::from(v)))
    }

    fn serialize_f64(self, v: f64) -> Result<Value, ToonError> {
        Ok(Value::Float(v))
    }

    fn serialize_char(self, v: char) -> Result<Value, ToonError> {
        Ok(Value::String(push_span(
            &mut self.tree.text,
            v.encode_utf8(&mut [0; 4]),
        )))
    }

    fn serialize_str(self, v: &str) -> Result<Value, ToonError> {
        Ok(Value::String(push_span(&mut self.tree.text, v)))
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<Value, ToonError> {
        Ok(Value::Array(
            v.iter().map(|&b| Value::UInt(u128::from(b))).collect(),
        ))
    }

    fn serialize_none(self) -> Result<Value, ToonError> {
        Ok(Value::Null)
    }

    see_through!();

    fn serialize_unit(self) -> Result<Value, ToonError> {
        Ok(Value::Null)
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, ToonError> {
        Ok(Value::Null)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, ToonError> {
        Ok(Value::String(push_span(&mut self.tree.text, variant)))
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, ToonError> {
        Ok(Value::Object(vec![(
            Key::Static(variant),
            value.serialize(self)?,
        )]))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder<'t>, ToonError> {
        Ok(SeqBuilder {
            tree: self.tree,
            items: Vec::with_capacity(len.unwrap_or(0)),
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder<'t>, ToonError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqBuilder<'t>, ToonError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSeqBuilder<'t>, ToonError> {
        Ok(VariantSeqBuilder {
            tree: self.tree,
            variant,
            items: Vec::with_capacity(len),
        })
    }

    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder<'t>, ToonError> {
        Ok(MapBuilder {
            tree: self.tree,
            members: Vec::with_capacity(len.unwrap_or(0)),
            next_key: None,
        })
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<MapBuilder<'t>, ToonError> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantMapBuilder<'t>, ToonError> {
        Ok(VariantMapBuilder {
            tree: self.tree,
            variant,
            members: Vec::with_capacity(len),
        })
    }
}

/// Collects the elements of a sequence or tuple.
pub(crate) struct SeqBuilder<'t> {
    tree: &'t mut Build,
    items: Vec<Value>,
}

impl ser::SerializeSeq for SeqBuilder<'_> {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToonError> {
        self.items
            .push(value.serialize(ValueSerializer { tree: self.tree })?);
        Ok(())
    }

    fn end(self) -> Result<Value, ToonError> {
        Ok(Value::Array(self.items))
    }
}

impl ser::SerializeTuple for SeqBuilder<'_> {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToonError> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<Value, ToonError> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for SeqBuilder<'_> {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToonError> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<Value, ToonError> {
        ser::SerializeSeq::end(self)
    }
}

/// Collects a tuple variant: `{variant: [elements]}`.
pub(crate) struct VariantSeqBuilder<'t> {
    tree: &'t mut Build,
    variant: &'static str,
    items: Vec<Value>,
}

impl ser::SerializeTupleVariant for VariantSeqBuilder<'_> {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToonError> {
        self.items
            .push(value.serialize(ValueSerializer { tree: self.tree })?);
        Ok(())
    }

    fn end(self) -> Result<Value, ToonError> {
        Ok(Value::Object(vec![(
            Key::Static(self.variant),
            Value::Array(self.items),
        )]))
    }
}

/// Collects the members of a map or struct.
pub(crate) struct MapBuilder<'t> {
    tree: &'t mut Build,
    members: Members,
    next_key: Option<Key>,
}

impl ser::SerializeMap for MapBuilder<'_> {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), ToonError> {
        self.next_key = Some(key.serialize(KeySerializer {
            text: &mut self.tree.text,
        })?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToonError> {
        // serde calls serialize_key before serialize_value; a hand-written impl that does not
        // breaks the SerializeMap contract, which we report rather than panic on.
        let key = self.next_key.take().ok_or_else(|| {
            <ToonError as ser::Error>::custom("serialize_value was called before serialize_key")
        })?;
        self.members
            .push((key, value.serialize(ValueSerializer { tree: self.tree })?));
        Ok(())
    }

    fn end(self) -> Result<Value, ToonError> {
        check_unique(&self.members, &self.tree.text)?;
        Ok(Value::Object(self.members))
    }
}

impl ser::SerializeStruct for MapBuilder<'_> {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ToonError> {
        self.members.push((
            Key::Static(key),
            value.serialize(ValueSerializer { tree: self.tree })?,
        ));
        Ok(())
    }

    fn end(self) -> Result<Value, ToonError> {
        check_unique_fields(&self.members, self.tree)?;
        Ok(Value::Object(self.members))
    }
}

/// [`check_unique`] for a struct's members: the rows of a list of one struct type repeat the
/// same field names, so a struct with the names of the last struct checked (held by the tree
/// being built, compared as text) is distinct without comparing its names pair by pair.
fn check_unique_fields(members: &Members, build: &mut Build) -> Result<(), ToonError> {
    let same = build.distinct.len() == members.len()
        && members
            .iter()
            .zip(&build.distinct)
            .all(|((key, _), seen)| matches!(key, Key::Static(name) if same_name(name, seen)));
    if same {
        return Ok(());
    }
    check_unique(members, &build.text)?;
    build.distinct.clear();
    let names = members.iter().map_while(|(key, _)| match key {
        Key::Static(name) => Some(*name),
        Key::Text(_) => None,
    });
    build.distinct.extend(names);
    if build.distinct.len() != members.len() {
        build.distinct.clear(); // A name in the text buffer: not remembered.
    }
    Ok(())
}

/// Collects a struct variant: `{variant: {members}}`.
pub(crate) struct VariantMapBuilder<'t> {
    tree: &'t mut Build,
    variant: &'static str,
    members: Members,
}

impl ser::SerializeStructVariant for VariantMapBuilder<'_> {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ToonError> {
        self.members.push((
            Key::Static(key),
            value.serialize(ValueSerializer { tree: self.tree })?,
        ));
        Ok(())
    }

    fn end(self) -> Result<Value, ToonError> {
        check_unique(&self.members, &self.tree.text)?;
        Ok(Value::Object(vec![(
            Key::Static(self.variant),
            Value::Object(self.members),
        )]))
    }
}

#[cfg(test)]
mod tests;
