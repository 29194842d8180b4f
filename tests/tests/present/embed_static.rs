//! `Presenter::STATIC_ONLY`: a parent presents a child whose presenter has nothing but static
//! item rules once per presentation, not once per item (wire format §6.8 would drop the repeats). The
//! shortcut must change nothing: the same presenters with `STATIC_ONLY = false` (the engine's
//! plain path) are the reference, on generated parents, children and grandparents, and on
//! collections fitted to a budget (whose fit then does not present the items one by one).

use std::borrow::Cow;

use fusion_runtime::present::Rules;
use fusion_runtime::present::{Children, Embed, EmbedSink, Field, FieldMask, Model, Present};
use fusion_runtime::ui::{self, UiBlock};
use fusion_runtime::{Presenter, ToolResponse};
use proptest::prelude::*;
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// The one wire member of every model here.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum NameField {
    Name,
}

impl Field for NameField {
    const ALL: &'static [Self] = &[NameField::Name];

    fn wire_name(self) -> &'static str {
        "name"
    }

    fn from_wire_name(name: &str) -> Option<Self> {
        (name == "name").then_some(NameField::Name)
    }

    fn index(self) -> usize {
        0
    }
}

/// `Serialize` and `Model` of a type with a `name: String` field.
macro_rules! named_model {
    ($($ty:ty => [$($generics:tt)*]),*) => {$(
        impl<$($generics)*> Serialize for $ty {
            fn serialize<W: Serializer>(&self, serializer: W) -> Result<W::Ok, W::Error> {
                self.serialize_selected(&FieldMask::ALL, serializer)
            }
        }

        impl<$($generics)*> Model for $ty {
            type Field = NameField;
            const NAME: &'static str = "Named";
            const WIRE_NAMES: &'static [&'static str] = &["name"];

            fn serialize_selected<W: Serializer>(
                &self,
                mask: &FieldMask,
                serializer: W,
            ) -> Result<W::Ok, W::Error> {
                let mut state = serializer.serialize_struct("Named", mask.count(1))?;
                if mask.contains(0) {
                    state.serialize_field("name", &self.name)?;
                }
                state.end()
            }
        }
    )*};
}

/// The rule lists of the static children, by `K`: 1 and 2 are equal lists of two types, 3 and 4
/// the same rules in two orders, 0 no rule at all (no block).
const RULES: [&[&str]; 5] = [
    &[],
    &["Rule A"],
    &["Rule A"],
    &["Rule A", "Rule B"],
    &["Rule B", "Rule A"],
];

/// A child with the static rules `RULES[K]` and nothing else.
#[derive(Clone, Debug)]
struct Child<const STATIC: bool, const K: usize> {
    name: String,
}

/// A child with UI and a dynamic rule: its blocks depend on the value. With an empty name its
/// rules block is the one of `Child<_, 1>`.
#[derive(Clone, Debug)]
struct Note {
    name: String,
}

/// A parent embedding every kind of child, with item UI of its own.
#[derive(Clone, Debug)]
struct Parent<const STATIC: bool> {
    name: String,
    a: Child<STATIC, 1>,
    b: Option<Child<STATIC, 2>>,
    c: Vec<Child<STATIC, 3>>,
    d: Vec<Child<STATIC, 0>>,
    e: Option<Child<STATIC, 4>>,
    note: Option<Note>,
}

/// A grandparent: the parents as a child collection.
#[derive(Clone, Debug)]
struct Top<const STATIC: bool> {
    name: String,
    parents: Vec<Parent<STATIC>>,
}

named_model!(
    Child<S, K> => [const S: bool, const K: usize],
    Note => [],
    Parent<S> => [const S: bool],
    Top<S> => [const S: bool]
);

impl<C: ?Sized, const S: bool, const K: usize> Presenter<C> for Child<S, K> {
    const STATIC_RULES: &'static [&'static str] = RULES[K];
    const STATIC_ONLY: bool = S;
}

impl<C: ?Sized> Presenter<C> for Note {
    const STATIC_RULES: &'static [&'static str] = &["Rule A"];

    fn item_ui(&self, _: &C, out: &mut Vec<UiBlock>) {
        out.push(ui::markdown(format!("Note {}", self.name)));
    }

    fn item_rules(&self, _: &C, out: &mut Rules) {
        if !self.name.is_empty() {
            out.push(Cow::Owned(format!("Note rule {}", self.name)));
        }
    }
}

impl<C: ?Sized, const S: bool> Presenter<C> for Parent<S> {
    fn item_ui(&self, _: &C, out: &mut Vec<UiBlock>) {
        out.push(ui::markdown(format!("Parent {}", self.name)));
    }

    fn embeds(&self, ctx: &C, sink: &mut EmbedSink<'_>) {
        sink.embed(self.b.children(), ctx);
        sink.embed(self.note.children(), ctx);
        sink.embed(self.a.children(), ctx);
        sink.embed(self.c.children(), ctx);
        sink.embed(self.d.children(), ctx);
        sink.embed(self.e.children(), ctx);
    }
}

impl<C: ?Sized, const S: bool> Presenter<C> for Top<S> {
    const STATIC_RULES: &'static [&'static str] = &["Top rule"];

    fn embeds(&self, ctx: &C, sink: &mut EmbedSink<'_>) {
        sink.embed(self.parents.children(), ctx);
    }
}

/// `Embed` of a single child value.
macro_rules! embed_single {
    ($($ty:ty => [$($generics:tt)*]),*) => {$(
        impl<$($generics)*> Embed for $ty {
            type Model = Self;

            fn children(&self) -> Children<'_, Self> {
                Children::One(self)
            }
        }
    )*};
}

embed_single!(
    Child<S, K> => [const S: bool, const K: usize],
    Note => [],
    Parent<S> => [const S: bool]
);

/// The same parent with the shortcut off, the reference.
fn plain(parent: &Parent<true>) -> Parent<false> {
    fn child<const K: usize>(c: &Child<true, K>) -> Child<false, K> {
        Child {
            name: c.name.clone(),
        }
    }
    Parent {
        name: parent.name.clone(),
        a: child(&parent.a),
        b: parent.b.as_ref().map(child),
        c: parent.c.iter().map(child).collect(),
        d: parent.d.iter().map(child).collect(),
        e: parent.e.as_ref().map(child),
        note: parent.note.clone(),
    }
}

/// Blocks and every part of the testing view.
fn everything(response: &ToolResponse) -> String {
    format!("{:?} {:?}", response.blocks(), response.view())
}

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(vec![String::new(), "x".to_owned(), "y".to_owned()])
}

fn child<const K: usize>() -> impl Strategy<Value = Child<true, K>> {
    name().prop_map(|name| Child { name })
}

fn parent() -> impl Strategy<Value = Parent<true>> {
    (
        name(),
        child::<1>(),
        prop::option::of(child::<2>()),
        prop::collection::vec(child::<3>(), 0..3),
        prop::collection::vec(child::<0>(), 0..2),
        prop::option::of(child::<4>()),
        prop::option::of(name().prop_map(|name| Note { name })),
    )
        .prop_map(|(name, a, b, c, d, e, note)| Parent {
            name,
            a,
            b,
            c,
            d,
            e,
            note,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn static_children_give_the_blocks_of_the_plain_engine(
        parents in prop::collection::vec(parent(), 0..5),
    ) {
        let reference: Vec<Parent<false>> = parents.iter().map(plain).collect();
        let fast = Parent::present_all(&parents).build().unwrap();
        let slow = Parent::present_all(&reference).build().unwrap();
        prop_assert_eq!(everything(&fast), everything(&slow));
        if let Some(first) = parents.first() {
            let fast = first.present().build().unwrap();
            let slow = reference[0].present().build().unwrap();
            prop_assert_eq!(everything(&fast), everything(&slow));
        }
        let top = Top { name: "t".to_owned(), parents: parents.clone() };
        let top_reference = Top { name: "t".to_owned(), parents: reference };
        let fast = top.present().build().unwrap();
        let slow = top_reference.present().build().unwrap();
        prop_assert_eq!(everything(&fast), everything(&slow));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// A budget's fit of a collection of a static-only presenter takes the other blocks of any
    /// prefix without presenting its items one by one: the same response as the plain path's.
    #[test]
    fn a_fitted_static_collection_gives_the_response_of_the_plain_engine(
        names in prop::collection::vec("[a-z ]{0,40}", 0..60),
        budget in 10usize..600,
    ) {
        let fast: Vec<Child<true, 3>> = names.iter().map(|name| Child { name: name.clone() }).collect();
        let slow: Vec<Child<false, 3>> = names.iter().map(|name| Child { name: name.clone() }).collect();
        let fast = Child::present_all(&fast).max_tokens(budget).build().unwrap();
        let slow = Child::present_all(&slow).max_tokens(budget).build().unwrap();
        prop_assert_eq!(everything(&fast), everything(&slow));
    }
}

#[test]
fn a_static_child_in_every_item_gives_its_block_once() {
    let parent = |name: &str| Parent::<true> {
        name: name.to_owned(),
        a: Child {
            name: "a".to_owned(),
        },
        b: None,
        c: vec![
            Child {
                name: "c".to_owned()
            };
            3
        ],
        d: Vec::new(),
        e: None,
        note: None,
    };
    let response = Parent::present_all(&[parent("p1"), parent("p2")])
        .build()
        .unwrap();
    assert_eq!(
        &response.blocks()[1..],
        [
            "<domain_rules>\n- Rule A\n</domain_rules>",
            "<domain_rules>\n- Rule A\n- Rule B\n</domain_rules>",
        ]
    );
}

/// `Presenter::STATIC_RULES_BLOCK`: the derive writes the rules block of a static-only model at
/// compile time when it can; it must be the block the engine writes for those rules (here: the
/// last block of presenting the model alone), and absent when escaping or de-duplication would
/// change it.
mod static_rules_block {
    use fusion_runtime::Presenter;
    use fusion_runtime::present::Present;

    #[derive(Presenter)]
    #[rule("amount_cents is in CENTS. Divide by 100.")]
    #[rule("Second rule: \"quoted\" & 'apostrophes' > fine")]
    struct Plain {
        name: String,
    }

    #[derive(Presenter)]
    #[rule("Never write </domain_rules> here.")]
    struct TagStart {
        name: String,
    }

    #[derive(Presenter)]
    #[rule("Line one\nline two")]
    struct LineBreak {
        name: String,
    }

    #[derive(Presenter)]
    #[rule("Same rule")]
    #[rule("Same rule")]
    struct Repeated {
        name: String,
    }

    #[derive(Presenter)]
    struct NoRules {
        name: String,
    }

    fn rules_block<T: Presenter>(value: &T) -> String {
        let response = value.present().build().expect("writes");
        response.blocks().last().cloned().expect("a rules block")
    }

    #[test]
    fn written_by_the_derive_as_the_engine_writes_it() {
        let plain = Plain { name: "x".into() };
        assert_eq!(
            <Plain as Presenter>::STATIC_RULES_BLOCK,
            Some(rules_block(&plain).as_str())
        );
        assert!(<TagStart as Presenter>::STATIC_RULES_BLOCK.is_none());
        assert!(<LineBreak as Presenter>::STATIC_RULES_BLOCK.is_none());
        assert!(<Repeated as Presenter>::STATIC_RULES_BLOCK.is_none());
        assert!(<NoRules as Presenter>::STATIC_RULES_BLOCK.is_none());
        let _ = (
            TagStart {
                name: String::new(),
            }
            .name,
            LineBreak {
                name: String::new(),
            }
            .name,
            Repeated {
                name: String::new(),
            }
            .name,
            NoRules {
                name: String::new(),
            }
            .name,
        );
    }
}
