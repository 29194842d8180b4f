//! Expansion snapshots of `#[derive(Tool)]`, pretty-printed with prettyplease and compared with
//! insta (snapshots in `src/tool/snapshots/`).

use quote::quote;

/// The pretty-printed expansion of `input`.
fn expand(input: proc_macro2::TokenStream) -> String {
    let input: syn::DeriveInput = syn::parse2(input).expect("the input parses");
    let output = super::derive(&input);
    let file: syn::File = syn::parse2(output).expect("the expansion parses as a file");
    prettyplease::unparse(&file)
}

#[test]
fn discriminated_tool() {
    insta::assert_snapshot!(expand(quote! {
        #[serde(tag = "action", rename_all = "snake_case")]
        #[fusion(name = "billing", description = "Manage invoices", select, toon, output = Stats)]
        pub enum Billing {
            /// Fetch one invoice by id
            #[fusion(returns = Invoice, read_only)]
            GetInvoice { id: String },
            #[serde(skip)]
            Internal,
            #[fusion(description = "Void an invoice", destructive)]
            VoidInvoice { id: String, reason: String },
        }
    }));
}

#[test]
fn flat_tool_with_generics_and_crate_path() {
    insta::assert_snapshot!(expand(quote! {
        #[fusion(crate = ::my_fusion, returns = "Page<Invoice>", read_only)]
        pub struct InvoiceSearch<Q: Clone> {
            query: Q,
        }
    }));
}

#[test]
fn mistakes_give_errors_and_a_stub() {
    insta::assert_snapshot!(expand(quote! {
        #[fusion(name = "x", toon = 1)]
        pub enum Untagged {
            A { id: String },
        }
    }));
}

#[test]
fn structured_actions_and_collections() {
    // Not every action is structured: no output schema is generated.
    insta::assert_snapshot!(expand(quote! {
        #[serde(tag = "action")]
        #[fusion(select)]
        enum Billing {
            #[fusion(returns = Invoice, structured)]
            Get { id: String },
            #[fusion(returns = [Invoice])]
            List,
        }
    }));
}

#[test]
fn structured_flat_tool_generates_its_output_schema() {
    insta::assert_snapshot!(expand(quote! {
        #[fusion(returns = Invoice, structured, select)]
        struct GetInvoice {
            id: String,
        }
    }));
}
