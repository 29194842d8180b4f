//! The expansion names everything by absolute path: deriving inside a module that shadows
//! `Option`, `Some`, `None`, `Result`, `Ok`, `Err`, `String`, `Vec`, `Box`, `core`, `std`'s
//! macros, `serde`, primitive type names and `fusion_runtime` itself changes nothing.

#[allow(
    dead_code,
    non_camel_case_types,
    unused_imports,
    unused_macros,
    reason = "the shadowing items exist only to be in scope"
)]
mod shadowed {
    pub struct Option;
    pub struct Some;
    pub struct None;
    pub struct Result;
    pub struct Ok;
    pub struct Err;
    pub struct String;
    pub struct Vec;
    pub struct Box;
    pub struct usize;
    pub struct str;
    pub struct bool;
    pub struct Cow;
    pub struct Display;
    pub mod core {}
    pub mod serde {}
    pub mod fusion_runtime {}
    macro_rules! format {
        ($($t:tt)*) => {
            compile_error!("the expansion used the user's `format!`")
        };
    }
    pub(crate) use format;

    pub struct Ctx {
        pub prefix: &'static ::core::primitive::str,
    }

    fn mask(value: &::core::primitive::str) -> ::std::string::String {
        ::std::format!("~{}", value.len())
    }

    #[derive(::fusion_runtime::Presenter)]
    #[rule("Child rule for {name}.")]
    #[ui(markdown = "Child {name}")]
    pub struct Child {
        pub name: &'static ::core::primitive::str,
    }

    #[derive(::fusion_runtime::Presenter)]
    #[presenter(agent_limit = 3, context = Ctx, name = "Shadowed", field_enum = ShadowedField)]
    #[serde(rename_all = "camelCase")]
    #[rule("Static rule.")]
    #[rule("Item {item_id} is shadowed.", when = Self::flagged)]
    #[rule(call = Self::rules)]
    #[suggest(tool = "x.get", reason = "Open {item_id}")]
    #[suggest(call = Self::suggestion)]
    #[ui(Self::block)]
    #[ui(summary = "{item_id}")]
    #[collection_rule("Total {n}.")]
    #[collection_suggest(tool = "x.list", reason = "{n} rows")]
    #[collection_ui(summary = "{n} shown")]
    #[ui(table(item_id, secret, pin, card, note), title = "Row")]
    #[collection_ui(table(item_id, label))]
    pub struct Model<'a, T: ::core::fmt::Display> {
        pub item_id: u32,
        pub label: T,
        #[redact]
        pub secret: ::core::option::Option<u8>,
        #[redact(censor = "***")]
        pub pin: &'a ::core::primitive::str,
        #[redact(with = mask)]
        pub card: ::std::string::String,
        #[serde(skip_serializing_if = "::core::option::Option::is_none")]
        pub note: ::core::option::Option<u8>,
        #[embed]
        pub child: ::core::option::Option<Child>,
        #[embed]
        pub children: ::std::vec::Vec<Child>,
        #[embed]
        pub boxed: ::std::boxed::Box<Child>,
        #[presenter(skip)]
        pub internal: u8,
    }

    impl<T: ::core::fmt::Display> Model<'_, T> {
        fn flagged(&self, _: &Ctx) -> ::core::primitive::bool {
            self.item_id > 1
        }

        fn rules(&self, ctx: &Ctx) -> ::std::vec::Vec<::std::string::String> {
            ::std::vec![::std::format!("{} {}", ctx.prefix, self.label)]
        }

        fn suggestion(&self) -> ::core::option::Option<::fusion_runtime::Suggestion> {
            (self.item_id > 0).then(|| ::fusion_runtime::Suggestion::new("x.more", "More"))
        }

        fn block(_: &Self) -> ::fusion_runtime::ui::UiBlock {
            ::fusion_runtime::ui::markdown("block")
        }
    }
}

use fusion_runtime::present::Field as _;

#[test]
fn deriving_among_shadowed_names_works() {
    let value = shadowed::Model {
        item_id: 2,
        label: "L",
        secret: Some(1),
        pin: "1234",
        card: "4111".to_owned(),
        note: None,
        child: Some(shadowed::Child { name: "c" }),
        children: vec![shadowed::Child { name: "d" }],
        boxed: Box::new(shadowed::Child { name: "e" }),
        internal: 9,
    };
    let ctx = shadowed::Ctx { prefix: "ctx" };
    let response = value.present().context(&ctx).build().unwrap();
    insta::assert_snapshot!("hygiene_single", response.text());
    let all = shadowed::Model::present_all(std::slice::from_ref(&value))
        .context(&ctx)
        .build()
        .unwrap();
    insta::assert_snapshot!("hygiene_collection", all.text());
    assert_eq!(shadowed::ShadowedField::ItemId.wire_name(), "itemId");
    assert_eq!(value.internal, 9);
}
