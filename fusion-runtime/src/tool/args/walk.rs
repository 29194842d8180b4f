//! The argument walker (wire format §13.5–§13.6): checks a JSON value against a compiled shape and
//! collects every problem, in report order, with its path and what was sent.
//!
//! The walk also normalises what serde will read: an optional member sent as `null` is removed
//! (wire format §13.5: "an optional field accepts `null` as absent"), and an integral float in an
//! integer position (`5.0`) becomes the integer it denotes.

use serde_json::{Map, Number, Value};

/// How many problems one `<validation_error>` lists. wire format §13.6 reports every problem, but a
/// `_select` of a million non-strings (2 MB sent) would otherwise answer with an 88 MB envelope
/// built in hundreds of MB of memory: past this many, the walk stops and the envelope ends with
/// one line saying so (hardening, issue 6).
pub(crate) const MAX_PROBLEMS: usize = 100;

use super::problems::{Bound, Expected, JsonType, Problem, ProblemKind, describe_sent};
use super::shape::{Extra, ObjectShape, Shape, ShapeId, Shapes, enum_text, float_bound};
use crate::encode::echo::{ECHO_MAX_CHARS, cut};

/// A path from the arguments' root: member names and element indexes, each step borrowed from
/// its parent's frame, so a walk that finds nothing allocates nothing for paths; the text is
/// made only for a problem.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    step: Step<'a>,
}

/// One step of a [`Path`].
#[derive(Debug, Clone, Copy, Default)]
enum Step<'a> {
    /// The arguments as a whole.
    #[default]
    Root,
    /// A member the schema declares.
    Member(&'a str),
    /// A member name the caller chose: written cut past [`ECHO_MAX_CHARS`] characters (the
    /// attribute it lands in escapes it), so a huge key cannot make a huge envelope.
    CallerKey(&'a str),
    /// An element of a list.
    Index(usize),
}

impl<'a> Path<'a> {
    fn child(&'a self, step: Step<'a>) -> Path<'a> {
        Path {
            parent: Some(self),
            step,
        }
    }

    fn is_root(&self) -> bool {
        self.parent.is_none()
    }

    /// `a.b.0`, or `(root)` for the arguments as a whole.
    pub(crate) fn render(&self) -> String {
        if self.is_root() {
            return "(root)".to_owned();
        }
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(path) = at {
            steps.push(path.step);
            at = path.parent;
        }
        let mut text = String::new();
        for step in steps.iter().rev() {
            let segment = match step {
                Step::Root => continue,
                Step::Member(name) => std::borrow::Cow::Borrowed(*name),
                Step::CallerKey(name) => cut(name, ECHO_MAX_CHARS),
                Step::Index(index) => std::borrow::Cow::Owned(index.to_string()),
            };
            if !text.is_empty() {
                text.push('.');
            }
            text.push_str(&segment);
        }
        text
    }
}

/// Walks values against the shapes of one tool.
pub(crate) struct Walker<'a> {
    pub(crate) shapes: &'a Shapes,
}

impl Walker<'_> {
    /// Checks `value` against `id`, appending problems to `out`.
    pub(crate) fn check(
        &self,
        id: ShapeId,
        value: &mut Value,
        path: &Path<'_>,
        out: &mut Vec<Problem>,
    ) {
        match self.shapes.get(id) {
            Shape::Any => {}
            Shape::Null => {
                if !value.is_null() {
                    out.push(wrong_type(path, value, Expected::Type(JsonType::Object)));
                }
            }
            Shape::Bool => {
                if !value.is_boolean() {
                    out.push(wrong_type(path, value, Expected::Type(JsonType::Boolean)));
                }
            }
            Shape::Str {
                options,
                min_len,
                max_len,
            } => check_str(value, options.as_deref(), *min_len, *max_len, path, out),
            Shape::Integer { min, max } => check_integer(value, *min, *max, path, out),
            Shape::Number { min, max } => check_number(value, *min, *max, path, out),
            Shape::Enum(options) => {
                if !options.contains(value) {
                    let options: Vec<String> = options.iter().map(enum_text).collect();
                    out.push(Problem::new(
                        path.render(),
                        ProblemKind::InvalidEnum {
                            sent: describe_sent(value),
                            options,
                        },
                    ));
                }
            }
            Shape::Array {
                items,
                min_items,
                max_items,
            } => self.check_array(value, *items, *min_items, *max_items, path, out),
            Shape::Object(object) => {
                let Some(map) = value.as_object_mut() else {
                    out.push(wrong_type(path, value, Expected::Type(JsonType::Object)));
                    return;
                };
                self.check_members(object, map, path, out);
                self.check_unknown(object, map, path, &[], out);
            }
            Shape::Tagged { tag, variants } => self.check_tagged(tag, variants, value, path, out),
            Shape::Nullable(inner) => {
                if !value.is_null() {
                    self.check(*inner, value, path, out);
                }
            }
            Shape::Union(branches) => self.check_union(branches, value, path, out),
        }
    }

    fn check_array(
        &self,
        value: &mut Value,
        items: ShapeId,
        min_items: Option<u64>,
        max_items: Option<u64>,
        path: &Path<'_>,
        out: &mut Vec<Problem>,
    ) {
        let Some(elements) = value.as_array_mut() else {
            out.push(wrong_type(path, value, Expected::Type(JsonType::Array)));
            return;
        };
        let len = elements.len() as u64;
        let reason = match (min_items, max_items) {
            (Some(min), _) if len < min => {
                Some(format!("Must have at least {min} {}.", items_word(min)))
            }
            (_, Some(max)) if len > max => {
                Some(format!("Must have at most {max} {}.", items_word(max)))
            }
            _ => None,
        };
        for (index, element) in elements.iter_mut().enumerate() {
            if out.len() > MAX_PROBLEMS {
                break;
            }
            self.check(items, element, &path.child(Step::Index(index)), out);
        }
        if let Some(reason) = reason {
            out.push(Problem::new(
                path.render(),
                ProblemKind::Invalid {
                    sent: describe_sent(value),
                    reason,
                },
            ));
        }
    }

    /// The declared members of an object, in declaration order (wire format §13.6).
    pub(crate) fn check_members(
        &self,
        object: &ObjectShape,
        map: &mut Map<String, Value>,
        path: &Path<'_>,
        out: &mut Vec<Problem>,
    ) {
        for member in &object.members {
            let absent_null =
                matches!(map.get(&member.name), Some(Value::Null)) && !member.required;
            if absent_null {
                crate::tool::remove_in_order(map, &member.name);
                continue;
            }
            match map.get_mut(&member.name) {
                None if member.required => out.push(Problem::new(
                    path.child(Step::Member(&member.name)).render(),
                    ProblemKind::Missing {
                        expected: self.shapes.expected(member.shape),
                    },
                )),
                None => {}
                Some(value) => {
                    self.check(
                        member.shape,
                        value,
                        &path.child(Step::Member(&member.name)),
                        out,
                    );
                }
            }
        }
    }

    /// The members an object does not declare, in the order they were sent; `also_valid` names
    /// members handled elsewhere (the discriminator and `_select` at the root).
    pub(crate) fn check_unknown(
        &self,
        object: &ObjectShape,
        map: &mut Map<String, Value>,
        path: &Path<'_>,
        also_valid: &[&str],
        out: &mut Vec<Problem>,
    ) {
        let declared = |name: &str| {
            object.members.iter().any(|m| m.name == name) || also_valid.contains(&name)
        };
        match object.extra {
            Extra::Allow => {}
            Extra::Deny => {
                for name in map.keys() {
                    if out.len() > MAX_PROBLEMS {
                        break;
                    }
                    if !declared(name) {
                        out.push(Problem::new(
                            path.child(Step::CallerKey(name)).render(),
                            ProblemKind::UnknownField {
                                valid: Self::valid_fields(object, path, also_valid),
                            },
                        ));
                    }
                }
            }
            Extra::Check(shape) => {
                for (name, value) in map.iter_mut() {
                    if out.len() > MAX_PROBLEMS {
                        break;
                    }
                    if !declared(name) {
                        self.check(shape, value, &path.child(Step::CallerKey(name)), out);
                    }
                }
            }
        }
    }

    /// The valid member names of an object, for an unknown-field detail: at the root the
    /// caller's order (discriminator, fields, `_select`), elsewhere the declared members.
    fn valid_fields(object: &ObjectShape, path: &Path<'_>, also_valid: &[&str]) -> Vec<String> {
        let fields = object.members.iter().map(|m| m.name.clone());
        if path.is_root() {
            // At the root, `also_valid` is [discriminator?, "_select"?] and the discriminator
            // leads the list while `_select` closes it.
            let mut names = Vec::new();
            let (lead, tail): (Vec<&str>, Vec<&str>) = also_valid
                .iter()
                .partition(|name| **name != crate::tool::SELECT);
            names.extend(lead.into_iter().map(str::to_owned));
            names.extend(fields);
            names.extend(tail.into_iter().map(str::to_owned));
            names
        } else {
            fields.collect()
        }
    }

    fn check_tagged(
        &self,
        tag: &str,
        variants: &[(String, ShapeId)],
        value: &mut Value,
        path: &Path<'_>,
        out: &mut Vec<Problem>,
    ) {
        let Some(map) = value.as_object_mut() else {
            out.push(wrong_type(path, value, Expected::Type(JsonType::Object)));
            return;
        };
        let names: Vec<String> = variants.iter().map(|(name, _)| name.clone()).collect();
        let tag_path = path.child(Step::Member(tag));
        let chosen = match map.get(tag) {
            None | Some(Value::Null) => {
                out.push(Problem::new(
                    tag_path.render(),
                    ProblemKind::Missing {
                        expected: Expected::Options(names),
                    },
                ));
                return;
            }
            Some(Value::String(sent)) => variants.iter().find(|(name, _)| name == sent),
            Some(other) => {
                out.push(wrong_type(&tag_path, other, Expected::Options(names)));
                return;
            }
        };
        if let Some((_, id)) = chosen {
            self.check(*id, value, path, out);
        } else {
            let sent = map.get(tag).map(describe_sent).unwrap_or_default();
            out.push(Problem::new(
                tag_path.render(),
                ProblemKind::UnknownVariant {
                    sent,
                    variants: names,
                },
            ));
        }
    }

    fn check_union(
        &self,
        branches: &[ShapeId],
        value: &mut Value,
        path: &Path<'_>,
        out: &mut Vec<Problem>,
    ) {
        // The first branch that accepts the value wins, with its normalisation. Otherwise the
        // problems of the first branch whose JSON type fits are the most telling ones.
        let mut fitting = None;
        for branch in branches {
            let mut attempt = value.clone();
            let mut problems = Vec::new();
            self.check(*branch, &mut attempt, path, &mut problems);
            if problems.is_empty() {
                *value = attempt;
                return;
            }
            let type_fits = !problems.iter().any(|p| {
                p.path == path.render() && matches!(p.kind, ProblemKind::WrongType { .. })
            });
            if type_fits && fitting.is_none() {
                fitting = Some(problems);
            }
        }
        if let Some(problems) = fitting {
            out.extend(problems);
        } else {
            let expected = branches
                .first()
                .map_or(Expected::Type(JsonType::Object), |b| {
                    self.shapes.expected(*b)
                });
            out.push(wrong_type(path, value, expected));
        }
    }
}

/// -2^63 and 2^64 as floats (both exact): the integral floats a 64-bit integer can hold lie in
/// `[-2^63, 2^64)`.
const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;

/// The integers a JSON number of the arguments can carry exactly: `i64::MIN..=u64::MAX`.
const CARRIED: (i128, i128) = (-9_223_372_036_854_775_808, 18_446_744_073_709_551_615);

fn items_word(n: u64) -> &'static str {
    if n == 1 { "item" } else { "items" }
}

fn wrong_type(path: &Path<'_>, value: &Value, expected: Expected) -> Problem {
    Problem::new(
        path.render(),
        ProblemKind::WrongType {
            sent: describe_sent(value),
            expected,
        },
    )
}

fn check_str(
    value: &Value,
    options: Option<&[String]>,
    min_len: Option<u64>,
    max_len: Option<u64>,
    path: &Path<'_>,
    out: &mut Vec<Problem>,
) {
    let Value::String(text) = value else {
        let expected = match options {
            Some(options) => Expected::Options(options.to_vec()),
            None => Expected::Type(JsonType::String),
        };
        out.push(wrong_type(path, value, expected));
        return;
    };
    if let Some(options) = options {
        if !options.iter().any(|option| option == text) {
            out.push(Problem::new(
                path.render(),
                ProblemKind::InvalidEnum {
                    sent: describe_sent(value),
                    options: options.to_vec(),
                },
            ));
        }
        return;
    }
    let chars = text.chars().count() as u64;
    let reason = match (min_len, max_len) {
        (Some(min), _) if chars < min => Some(format!("Must be at least {min} characters long.")),
        (_, Some(max)) if chars > max => Some(format!("Must be at most {max} characters long.")),
        _ => None,
    };
    if let Some(reason) = reason {
        out.push(Problem::new(
            path.render(),
            ProblemKind::Invalid {
                sent: describe_sent(value),
                reason,
            },
        ));
    }
}

fn check_integer(
    value: &mut Value,
    min: Option<i128>,
    max: Option<i128>,
    path: &Path<'_>,
    out: &mut Vec<Problem>,
) {
    let Value::Number(number) = value else {
        out.push(wrong_type(path, value, Expected::Type(JsonType::Integer)));
        return;
    };
    let exact = number
        .as_i64()
        .map(i128::from)
        .or_else(|| number.as_u64().map(i128::from));
    let n = if let Some(n) = exact {
        n
    } else {
        let x = number.as_f64().unwrap_or(f64::NAN);
        if !x.is_finite() || x.fract() != 0.0 {
            out.push(wrong_type(path, value, Expected::Type(JsonType::Integer)));
            return;
        }
        // An integral float (`5.0`) is the integer it denotes, as long as a 64-bit JSON number
        // can hold it. Beyond that no typed input can read it (serde reads integers from
        // 64-bit JSON numbers, so even an `i128` field refuses the float), whatever the field's
        // own bounds: it is out of the range the arguments can carry.
        if !(-TWO_POW_63..TWO_POW_64).contains(&x) {
            out.push(Problem::new(
                path.render(),
                ProblemKind::OutOfRange {
                    sent: describe_sent(value),
                    min: Some(Bound::Int(min.map_or(CARRIED.0, |m| m.max(CARRIED.0)))),
                    max: Some(Bound::Int(max.map_or(CARRIED.1, |m| m.min(CARRIED.1)))),
                },
            ));
            return;
        }
        #[allow(
            clippy::cast_possible_truncation,
            reason = "x is integral and within [-2^63, 2^64), which i128 holds exactly"
        )]
        let n = x as i128;
        if let Ok(i) = i64::try_from(n) {
            *value = Value::Number(Number::from(i));
        } else if let Ok(u) = u64::try_from(n) {
            *value = Value::Number(Number::from(u));
        }
        n
    };
    let below = min.is_some_and(|min| n < min);
    let above = max.is_some_and(|max| n > max);
    if below || above {
        out.push(Problem::new(
            path.render(),
            ProblemKind::OutOfRange {
                sent: describe_sent(value),
                min: min.map(Bound::Int),
                max: max.map(Bound::Int),
            },
        ));
    }
}

fn check_number(
    value: &Value,
    min: Option<f64>,
    max: Option<f64>,
    path: &Path<'_>,
    out: &mut Vec<Problem>,
) {
    let Some(x) = value.as_f64() else {
        out.push(wrong_type(path, value, Expected::Type(JsonType::Number)));
        return;
    };
    let below = min.is_some_and(|min| x < min);
    let above = max.is_some_and(|max| x > max);
    if below || above {
        out.push(Problem::new(
            path.render(),
            ProblemKind::OutOfRange {
                sent: describe_sent(value),
                min: min.map(float_bound),
                max: max.map(float_bound),
            },
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::shape::Compiler;
    use super::*;
    use serde_json::json;

    fn problems(schema: &Value, mut value: Value) -> (Vec<String>, Value) {
        let mut compiler = Compiler::new(schema);
        let id = compiler.compile(schema).unwrap();
        let shapes = compiler.finish();
        let mut out = Vec::new();
        Walker { shapes: &shapes }.check(id, &mut value, &Path::default(), &mut out);
        let lines = out
            .iter()
            .map(|p| format!("{}: {}", p.path, p.kind))
            .collect();
        (lines, value)
    }

    #[test]
    fn nested_members_then_unknown_ones() {
        let schema = json!({
            "type": "object",
            "properties": {
                "lines": {"type": "array", "items": {"type": "object", "properties": {"qty": {"type": "integer", "format": "uint16", "minimum": 0}}, "required": ["qty"], "additionalProperties": false}},
                "note": {"type": ["string", "null"]}
            },
            "required": ["lines"],
            "additionalProperties": false
        });
        let (lines, value) = problems(
            &schema,
            json!({"zzz": 1, "note": null, "lines": [{"qty": 2.0}, {"qty": 1.5}, {"q": 1}]}),
        );
        assert_eq!(
            lines,
            [
                "lines.1.qty: Wrong type. You sent: 1.5. Expected type: integer.",
                "lines.2.qty: Missing required field. Expected type: integer.",
                "lines.2.q: Unknown field. Valid fields: 'qty'.",
                "(root): Unknown field. Valid fields: 'lines', 'note'."
                    .replace("(root)", "zzz")
                    .as_str(),
            ]
        );
        // The integral float became an integer, and the optional null member is gone.
        assert_eq!(value["lines"][0]["qty"], json!(2));
        assert!(value.get("note").is_none());
    }

    #[test]
    fn required_null_is_a_wrong_type_and_unions_pick_the_fitting_branch() {
        let schema = json!({
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "v": {"anyOf": [{"type": "integer", "format": "uint8", "minimum": 0}, {"type": "string"}]}
            },
            "required": ["id", "v"]
        });
        let (lines, _) = problems(&schema, json!({"id": null, "v": 300}));
        assert_eq!(
            lines,
            [
                "id: Wrong type. You sent: null. Expected type: string.",
                "v: Out of range. You sent: 300. Must be between 0 and 255.",
            ]
        );
        let (lines, _) = problems(&schema, json!({"id": "a", "v": true}));
        assert_eq!(
            lines,
            ["v: Wrong type. You sent: true. Expected type: integer."]
        );
    }

    #[test]
    fn tag_missing_and_of_the_wrong_type() {
        let schema = json!({"oneOf": [
            {"type": "object", "properties": {"kind": {"type": "string", "const": "card"}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"type": "string", "const": "transfer"}}, "required": ["kind"]}
        ]});
        let (lines, _) = problems(&schema, json!({}));
        assert_eq!(
            lines,
            [
                "(root).kind: Missing required field. Valid options: 'card', 'transfer'."
                    .replace("(root).", "")
            ]
        );
        let (lines, _) = problems(&schema, json!({"kind": 3}));
        assert_eq!(
            lines,
            ["kind: Wrong type. You sent: 3. Valid options: 'card', 'transfer'."]
        );
    }
}
