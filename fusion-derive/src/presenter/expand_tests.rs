//! Expansion snapshots of `#[derive(Presenter)]`: what it generates for each attribute,
//! pretty-printed with prettyplease and compared with insta (snapshots in
//! `src/presenter/snapshots/`; `INSTA_UPDATE=always` once, review, commit).
//!
//! A module of the crate, like the tool derive's, because a proc-macro crate exports nothing
//! else to integration tests.

use quote::quote;

/// The pretty-printed expansion of `input`.
fn expand(input: proc_macro2::TokenStream) -> String {
    let input: syn::DeriveInput = syn::parse2(input).expect("the input parses");
    let output = super::derive(&input);
    let file: syn::File = syn::parse2(output).expect("the expansion parses as a file");
    prettyplease::unparse(&file)
}

#[test]
fn presenter_container_options() {
    insta::assert_snapshot!(expand(quote! {
        #[presenter(agent_limit = 50, context = AppCtx, name = "Bill", crate = ::fusion_runtime, field_enum = BillColumn)]
        pub struct Invoice {
            pub id: String,
            #[presenter(skip)]
            pub internal_margin_bps: u32,
        }
    }));
}

#[test]
fn rule_static_template_when_call_reveal() {
    insta::assert_snapshot!(expand(quote! {
        #[rule("amount_cents is in CENTS. Divide by 100.")]
        #[rule("Invoice {id} is overdue since {due_at}.", when = Self::is_overdue)]
        #[rule(call = Self::rules)]
        #[rule(text = "Card {card} {{literal}}", reveal(card))]
        struct Invoice {
            id: String,
            due_at: String,
            #[redact]
            card: String,
        }
    }));
}

#[test]
fn suggest_pair_template_call() {
    insta::assert_snapshot!(expand(quote! {
        #[suggest(tool = "billing.remind", reason = "Send a payment reminder", when = Self::is_open)]
        #[suggest(tool = "billing.get", reason = "Open {id}")]
        #[suggest(call = Self::suggestions)]
        struct Invoice {
            id: String,
        }
    }));
}

#[test]
fn rule_and_suggest_said_once_key_many_each() {
    insta::assert_snapshot!(expand(quote! {
        #[rule("SKU {sku} is low.", when = Self::low, key = sku, many = "SKUs {items} are low ({n}).")]
        #[rule("SKU {sku} is out.", when = Self::out, each)]
        #[suggest(tool = "stock.reorder", reason = "Reorder {sku}", many = "Reorder {items}")]
        struct Stock {
            id: u32,
            sku: String,
        }
    }));
}

#[test]
fn ui_call_markdown_summary() {
    insta::assert_snapshot!(expand(quote! {
        #[ui(Self::gauge)]
        #[ui(call = Self::table, when = Self::big)]
        #[ui(markdown = "Invoice **{id}**")]
        #[ui(summary = "{id}")]
        struct Invoice {
            id: String,
        }
    }));
}

#[test]
fn collection_rule_suggest_ui() {
    insta::assert_snapshot!(expand(quote! {
        #[collection_rule("Total: {n}")]
        #[collection_rule(call = Self::totals, when = Self::many)]
        #[collection_suggest(tool = "billing.export", reason = "Export {n} rows")]
        #[collection_suggest(call = Self::bulk)]
        #[collection_ui(Self::summary)]
        #[collection_ui(summary = "{n} invoices")]
        struct Invoice {
            id: String,
        }
    }));
}

#[test]
fn redact_censors() {
    insta::assert_snapshot!(expand(quote! {
        struct Account {
            #[redact]
            iban: Option<String>,
            #[redact]
            balance_cents: u64,
            #[redact(censor = "***")]
            pin: String,
            #[redact(with = mask_card)]
            cc: String,
            #[redact(with = mask_card)]
            backup_cc: Option<String>,
        }
    }));
}

#[test]
fn embed_shapes() {
    insta::assert_snapshot!(expand(quote! {
        struct Invoice<'a> {
            #[embed]
            customer: Customer,
            #[embed]
            lines: Vec<Line>,
            #[embed]
            previous: Option<Box<Invoice<'a>>>,
            #[embed]
            notes: &'a [Note],
        }
    }));
}

#[test]
fn serde_renames_and_skips() {
    insta::assert_snapshot!(expand(quote! {
        #[serde(rename_all = "camelCase", rename = "Bill", deny_unknown_fields)]
        struct Invoice {
            amount_cents: u64,
            #[serde(rename = "ID")]
            id: String,
            #[serde(skip)]
            cache: u32,
            #[serde(skip_serializing_if = "Option::is_none", default)]
            note: Option<String>,
        }
    }));
}

#[test]
fn generics_and_lifetimes() {
    insta::assert_snapshot!(expand(quote! {
        #[rule("Page {number}")]
        pub(crate) struct Page<'a, T, P: Display> where T: Clone {
            title: &'a str,
            number: P,
            #[embed]
            items: Vec<T>,
        }
    }));
}

#[test]
fn fallback_errors_and_stubs() {
    insta::assert_snapshot!(expand(quote! {
        #[presenter(agent_limt = 5)]
        #[rule("Invoice {idd}")]
        pub struct Invoice {
            id: String,
        }
    }));
}

#[test]
fn presenter_format_toon() {
    insta::assert_snapshot!(expand(quote! {
        #[presenter(format = toon)]
        pub struct InvoiceRow {
            pub id: String,
            pub amount_cents: u64,
        }
    }));
}

#[test]
fn ui_table_item_and_collection() {
    insta::assert_snapshot!(expand(quote! {
        #[ui(table(id, title, email))]
        #[collection_ui(table(id, tags))]
        struct Task {
            id: u32,
            #[serde(rename = "name")]
            title: String,
            #[redact]
            email: String,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            tags: Vec<String>,
        }
    }));
}

/// The field enum only on request: a bare `field_enum` names it `<Model>Field`, no option
/// generates none (the model's field type is then `NoField`), and a broken model keeps the stub
/// only when it asked for the enum.
#[test]
fn field_enum_only_on_request() {
    let asked = expand(quote! {
        #[presenter(field_enum)]
        struct Invoice { id: String }
    });
    assert!(asked.contains("enum InvoiceField {"), "{asked}");
    assert!(asked.contains("type Field = InvoiceField;"), "{asked}");
    assert!(
        asked.contains("impl ::core::str::FromStr for InvoiceField"),
        "{asked}"
    );

    let plain = expand(quote! {
        struct Invoice { id: String }
    });
    assert!(!plain.contains("enum InvoiceField"), "{plain}");
    assert!(plain.contains("type Field = __fusion::NoField;"), "{plain}");
    assert!(
        plain.contains("const WIRE_NAMES: &'static [&'static __fusion::str] = &[\"id\"];"),
        "{plain}"
    );

    let broken_asked = expand(quote! {
        #[presenter(field_enum)]
        #[rule("{nope}")]
        struct Invoice { id: String }
    });
    assert!(
        broken_asked.contains("enum InvoiceField {"),
        "{broken_asked}"
    );
    let broken = expand(quote! {
        #[rule("{nope}")]
        struct Invoice { id: String }
    });
    assert!(!broken.contains("enum InvoiceField"), "{broken}");
}
