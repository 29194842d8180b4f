//! The generic TOON encoder (wire format §9.4–§9.9) over the [`Value`] tree.
//!
//! One pass, writing straight into one `String`. Each function writes the rest of a line whose
//! start (indentation, or indentation and `- `) its caller already wrote, plus any lines below it.

use super::quote;
use super::value::{Key, Members, Text, Tree, Value, same_name};
use super::{Delimiter, ToonOptions};

/// Encodes `tree` as a TOON document (wire format §9.9).
pub(crate) fn encode_tree(tree: &Tree, options: &ToonOptions) -> String {
    let mut encoder = Encoder {
        // The strings plus about as much again for names, numbers and layout: one or two
        // reallocations at most for a typical table.
        out: String::with_capacity(tree.text_len() * 2 + 16),
        text: tree.text(),
        indent: options.indent(),
        delimiter: options.delimiter(),
        started: false,
    };
    encoder.root(&tree.root);
    encoder.out
}

/// Whether a root list whose first element is `first` is written element by element (wire
/// format §9.8) whatever elements follow: `first` is an object that is no row of a table (it
/// holds a list, or is empty), so no list starting with it is tabular (§9.6).
pub(crate) fn starts_element_list(first: &Tree) -> bool {
    matches!(&first.root, Value::Object(members) if schema_of(members, first.text()).is_none())
}

/// Appends the header of a root list of `len` elements written element by element: `[N]:`
/// with the delimiter shown as in every header (`[N|]:`).
pub(crate) fn push_list_header(out: &mut String, len: usize, options: &ToonOptions) {
    let mut encoder = Encoder::appending(out, Text::EMPTY, options);
    encoder.header(len, false);
    encoder.out.push(':');
    *out = encoder.out;
}

/// Appends `element` as an element of a root list (wire format §9.8): a line break, one
/// indentation step, `- `, the element and the lines below it, exactly as [`encode_tree`]
/// writes each element of such a list.
pub(crate) fn push_list_element(out: &mut String, element: &Tree, options: &ToonOptions) {
    let mut encoder = Encoder::appending(out, element.text(), options);
    encoder.list_item(&element.root, 1);
    *out = encoder.out;
}

/// The shape of a tabular list (wire format §9.6): the member names of the first element, each with
/// either a primitive column or a nested group of its own.
type Schema<'a> = Vec<(&'a str, Column<'a>)>;

enum Column<'a> {
    Leaf,
    Group(Schema<'a>),
}

struct Encoder<'t> {
    out: String,
    text: Text<'t>,
    indent: usize,
    delimiter: Delimiter,
    /// Whether a line was written, so the next one needs an LF before it.
    started: bool,
}

impl<'t> Encoder<'t> {
    /// An encoder that goes on writing after the text of `out` (taken; the caller puts it back),
    /// with a line already started.
    fn appending(out: &mut String, text: Text<'t>, options: &ToonOptions) -> Self {
        Encoder {
            out: std::mem::take(out),
            text,
            indent: options.indent(),
            delimiter: options.delimiter(),
            started: true,
        }
    }

    /// Starts a new line at `depth`.
    fn line(&mut self, depth: usize) {
        if self.started {
            self.out.push('\n');
        }
        self.started = true;
        let spaces = depth.saturating_mul(self.indent);
        self.out.extend(std::iter::repeat_n(' ', spaces));
    }

    fn root(&mut self, value: &'t Value) {
        match value {
            Value::Array(items) if items.is_empty() => {
                self.line(0);
                self.out.push_str("[]");
            }
            Value::Array(items) => {
                self.line(0);
                self.list(None, items, 0);
            }
            Value::Object(members) if members.is_empty() => {}
            Value::Object(members) => {
                if let Some(schema) = keyed_schema(members, self.text) {
                    self.line(0);
                    self.keyed(None, members, &schema, 0);
                } else {
                    self.members(members, 0);
                }
            }
            Value::String(span) => {
                self.line(0);
                let delimiter = self.delimiter.as_byte();
                quote::push_root_string(&mut self.out, self.text.str(*span), delimiter);
            }
            primitive => {
                self.line(0);
                self.token(primitive);
            }
        }
    }

    /// Each member as a field on its own line at `depth`.
    fn members(&mut self, members: &'t [(Key, Value)], depth: usize) {
        for (key, value) in members {
            self.line(depth);
            self.field(key, value, depth);
        }
    }

    fn key(&mut self, key: &Key) {
        quote::push_key(&mut self.out, self.text.key(key));
    }

    /// A field (wire format §9.4) at `depth`, from its key on.
    fn field(&mut self, key: &Key, value: &'t Value, depth: usize) {
        match value {
            Value::Array(items) if items.is_empty() => {
                self.key(key);
                self.out.push_str(": []");
            }
            Value::Array(items) => self.list(Some(key), items, depth),
            Value::Object(members) if members.is_empty() => {
                self.key(key);
                self.out.push(':');
            }
            Value::Object(members) => {
                if let Some(schema) = keyed_schema(members, self.text) {
                    self.keyed(Some(key), members, &schema, depth);
                } else {
                    self.key(key);
                    self.out.push(':');
                    self.members(members, depth + 1);
                }
            }
            primitive => {
                self.key(key);
                self.out.push_str(": ");
                self.token(primitive);
            }
        }
    }

    /// A non-empty list with prefix `key` at `depth` (wire format §9.5), from the prefix on.
    fn list(&mut self, key: Option<&Key>, items: &'t [Value], depth: usize) {
        if let Some(key) = key {
            self.key(key);
        }
        if items.iter().all(Value::is_primitive) {
            self.header(items.len(), false);
            self.out.push_str(": ");
            self.tokens(items);
        } else if items.iter().all(is_primitive_list) {
            self.header(items.len(), false);
            self.out.push(':');
            for item in items {
                self.line(depth + 1);
                self.out.push_str("- ");
                if let Value::Array(inner) = item {
                    self.inline_list(inner);
                }
            }
        } else if let Some(schema) = tabular_schema(items.iter(), self.text) {
            self.header(items.len(), false);
            self.fields(&schema);
            self.out.push(':');
            for item in items {
                if let Value::Object(members) = item {
                    self.line(depth + 1);
                    self.row(members, &schema);
                }
            }
        } else {
            self.header(items.len(), false);
            self.out.push(':');
            for item in items {
                self.list_item(item, depth + 1);
            }
        }
    }

    /// `[M]: tokens` or `[0]:` for a list of primitives in a list item.
    fn inline_list(&mut self, items: &[Value]) {
        self.header(items.len(), false);
        self.out.push(':');
        if !items.is_empty() {
            self.out.push(' ');
            self.tokens(items);
        }
    }

    /// A keyed table (wire format §9.7) with prefix `key` at `depth`, from the prefix on.
    fn keyed(
        &mut self,
        key: Option<&Key>,
        members: &'t Members,
        schema: &Schema<'t>,
        depth: usize,
    ) {
        if let Some(key) = key {
            self.key(key);
        }
        self.header(members.len(), true);
        self.fields(schema);
        self.out.push(':');
        for (name, value) in members {
            if let Value::Object(inner) = value {
                self.line(depth + 1);
                self.key(name);
                self.out.push_str(": ");
                self.row(inner, schema);
            }
        }
    }

    /// A list element at `depth` (wire format §9.8), on a new line.
    fn list_item(&mut self, item: &'t Value, depth: usize) {
        self.line(depth);
        self.out.push('-');
        match item {
            Value::Array(inner) if inner.iter().all(Value::is_primitive) => {
                self.out.push(' ');
                self.inline_list(inner);
            }
            Value::Array(inner) => {
                self.out.push(' ');
                self.header(inner.len(), false);
                self.out.push(':');
                for element in inner {
                    self.list_item(element, depth + 1);
                }
            }
            Value::Object(members) => {
                // The first member is a field at depth + 1 whose first line sits behind `- `.
                if let Some(((key, value), rest)) = members.split_first() {
                    self.out.push(' ');
                    self.field(key, value, depth + 1);
                    self.members(rest, depth + 1);
                }
            }
            primitive => {
                self.out.push(' ');
                self.token(primitive);
            }
        }
    }

    /// `[N]`, `[N|]`, `[N<TAB>]`, or with `keyed` `[N:]`, `[N:|]`.
    fn header(&mut self, len: usize, keyed: bool) {
        quote::push_count(&mut self.out, len, keyed, self.delimiter);
    }

    /// `{a|b{c|d}|e}`.
    fn fields(&mut self, schema: &Schema<'_>) {
        self.out.push('{');
        for (i, (name, column)) in schema.iter().enumerate() {
            if i > 0 {
                self.out.push(self.delimiter.as_char());
            }
            quote::push_key(&mut self.out, name);
            if let Column::Group(inner) = column {
                self.fields(inner);
            }
        }
        self.out.push('}');
    }

    /// The cells of one row, depth-first in header order, joined by the delimiter.
    fn row(&mut self, members: &'t Members, schema: &Schema<'t>) {
        let mut first = true;
        self.cells(members, schema, &mut first);
    }

    fn cells(&mut self, members: &'t Members, schema: &Schema<'t>, first: &mut bool) {
        for (i, (name, column)) in schema.iter().enumerate() {
            let Some(value) = member(members, i, name, self.text) else {
                continue; // Eligibility checked every name; unreachable.
            };
            if let (Column::Group(inner), Value::Object(nested)) = (column, value) {
                self.cells(nested, inner, first);
            } else {
                if !*first {
                    self.out.push(self.delimiter.as_char());
                }
                *first = false;
                self.token(value);
            }
        }
    }

    /// Primitive tokens joined by the delimiter.
    fn tokens(&mut self, items: &[Value]) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push(self.delimiter.as_char());
            }
            self.token(item);
        }
    }

    /// The token of a primitive (wire format §9.3); lists and objects never reach here.
    fn token(&mut self, value: &Value) {
        match value {
            Value::Null => self.out.push_str("null"),
            Value::Bool(true) => self.out.push_str("true"),
            Value::Bool(false) => self.out.push_str("false"),
            Value::UInt(n) => quote::push_integer(&mut self.out, *n),
            Value::Int(n) => quote::push_integer(&mut self.out, *n),
            Value::Float(x) => quote::push_float(&mut self.out, *x),
            Value::String(span) => {
                let delimiter = self.delimiter.as_byte();
                quote::push_string(&mut self.out, self.text.str(*span), delimiter);
            }
            Value::Array(_) | Value::Object(_) => {}
        }
    }
}

/// A list whose elements are all primitives (an empty list included).
fn is_primitive_list(value: &Value) -> bool {
    matches!(value, Value::Array(items) if items.iter().all(Value::is_primitive))
}

/// The member named `name`, looked up first at `index` (where it sits when the element has the
/// first element's order, the common case).
#[allow(
    clippy::inline_always,
    reason = "every cell of every row asks it: out of line it cost the tree path 5% (callgrind)"
)]
#[inline(always)]
fn member<'v>(members: &'v Members, index: usize, name: &str, text: Text<'_>) -> Option<&'v Value> {
    match members.get(index) {
        Some((key, value)) if same_name(text.key(key), name) => Some(value),
        _ => members
            .iter()
            .find_map(|(key, value)| same_name(text.key(key), name).then_some(value)),
    }
}

/// The schema of a tabular-eligible list of elements (wire format §9.6), or `None`.
fn tabular_schema<'v, I>(mut elements: I, text: Text<'v>) -> Option<Schema<'v>>
where
    I: Iterator<Item = &'v Value> + Clone,
{
    let Some(Value::Object(first)) = elements.next() else {
        return None;
    };
    let schema = schema_of(first, text)?;
    elements
        .all(
            |element| matches!(element, Value::Object(members) if conforms(members, &schema, text)),
        )
        .then_some(schema)
}

/// The schema of a keyed-eligible object (wire format §9.7), or `None`.
fn keyed_schema<'v>(members: &'v Members, text: Text<'v>) -> Option<Schema<'v>> {
    if members.len() < 2 {
        return None;
    }
    tabular_schema(members.iter().map(|(_, value)| value), text)
}

/// The shape of one element: `None` if it is empty or holds a list or an empty object.
fn schema_of<'v>(members: &'v Members, text: Text<'v>) -> Option<Schema<'v>> {
    if members.is_empty() {
        return None;
    }
    members
        .iter()
        .map(|(name, value)| {
            let column = match value {
                Value::Object(inner) => Column::Group(schema_of(inner, text)?),
                Value::Array(_) => return None,
                _ => Column::Leaf,
            };
            Some((text.key(name), column))
        })
        .collect()
}

/// Whether an element has exactly the schema's names (in any order) with conforming columns.
fn conforms(members: &Members, schema: &Schema<'_>, text: Text<'_>) -> bool {
    // Member names are unique (the value builder refuses duplicates and JSON objects have none),
    // so equal counts plus every schema name found means equal name sets.
    members.len() == schema.len()
        && schema.iter().enumerate().all(|(i, (name, column))| {
            match (column, member(members, i, name, text)) {
                (Column::Leaf, Some(value)) => value.is_primitive(),
                (Column::Group(inner), Some(Value::Object(nested))) => {
                    conforms(nested, inner, text)
                }
                _ => false,
            }
        })
}
