//! `#[derive(Presenter)]` container options: `agent_limit`, `context`, `name`, `crate`,
//! `field_enum`; single values and collections (wire format §6), generics and lifetimes.

use crate::support;

use fusion_runtime::present::Model;
use fusion_runtime::{Presenter, Selection, ui};
use support::{INV_PAY, INV_RULES, INV_TABLE_45000, Inv, assert_blocks, listing};

#[test]
fn v21_single_value() {
    let response = Inv::new("INV-1", 45000, "pending")
        .present()
        .build()
        .unwrap();
    assert_blocks(
        &response,
        &[
            "{\n  \"id\": \"INV-1\",\n  \"amount_cents\": 45000,\n  \"status\": \"pending\"\n}",
            INV_TABLE_45000,
            INV_RULES,
            INV_PAY,
        ],
    );
}

#[test]
fn v22_collection_item_suggestions_from_every_item() {
    let items = [Inv::new("A", 100, "paid"), Inv::new("B", 200, "pending")];
    let response = Inv::present_all(&items).build().unwrap();
    assert_blocks(
        &response,
        &[
            "[\n  {\n    \"id\": \"A\",\n    \"amount_cents\": 100,\n    \"status\": \"paid\"\n  },\n  {\n    \"id\": \"B\",\n    \"amount_cents\": 200,\n    \"status\": \"pending\"\n  }\n]",
            INV_RULES,
            INV_PAY,
        ],
    );
}

/// wire format V23–V25 model: `{id: text, value: integer}`.
#[derive(Presenter)]
#[presenter(agent_limit = 2)]
#[collection_ui(Self::view)]
struct Limited {
    id: String,
    value: i64,
}

impl Limited {
    fn view(_: &[Self]) -> ui::UiBlock {
        ui::markdown("Collection view")
    }
}

#[test]
fn v24_agent_limit() {
    let items: Vec<Limited> = (0..5)
        .map(|i| Limited {
            id: format!("ITEM-{i}"),
            value: i * 100,
        })
        .collect();
    let response = Limited::present_all(&items).build().unwrap();
    assert_blocks(
        &response,
        &[
            "[\n  {\n    \"id\": \"ITEM-0\",\n    \"value\": 0\n  },\n  {\n    \"id\": \"ITEM-1\",\n    \"value\": 100\n  }\n]",
            "<ui_passthrough type=\"summary\">\n📊 **Summary**: ⚠️ Dataset truncated. 2 shown, 3 hidden. Use filters to narrow results.\n</ui_passthrough>",
            "<ui_passthrough type=\"markdown\">\nCollection view\n</ui_passthrough>",
        ],
    );
}

#[test]
fn agent_limit_leaves_short_collections_and_single_values_alone() {
    let items: Vec<Limited> = (0..2)
        .map(|i| Limited {
            id: format!("ITEM-{i}"),
            value: i,
        })
        .collect();
    let response = Limited::present_all(&items).build().unwrap();
    assert_eq!(response.blocks().len(), 2, "{}", listing(&response));
    assert_eq!(
        response.blocks()[1],
        "<ui_passthrough type=\"markdown\">\nCollection view\n</ui_passthrough>"
    );
    let single = items[0].present().build().unwrap();
    assert_eq!(
        single.blocks().len(),
        1,
        "collection UI never runs for a single value"
    );
}

/// wire format V25 model: `{id: text}`, agent limit 0.
#[derive(Presenter)]
#[presenter(agent_limit = 0)]
struct Nothing {
    id: String,
}

#[test]
fn v25_agent_limit_0() {
    let items: Vec<Nothing> = ["a", "b", "c"]
        .iter()
        .map(|id| Nothing {
            id: (*id).to_owned(),
        })
        .collect();
    let response = Nothing::present_all(&items).build().unwrap();
    assert_blocks(
        &response,
        &[
            "[]",
            "<ui_passthrough type=\"summary\">\n📊 **Summary**: ⚠️ Dataset truncated. 0 shown, 3 hidden. Use filters to narrow results.\n</ui_passthrough>",
        ],
    );
    assert_eq!(<Nothing as Model>::AGENT_LIMIT, Some(0));
}

/// The request context of [`Scoped`].
struct Tenant {
    name: &'static str,
    admin: bool,
}

/// A model whose callbacks read the request context.
#[derive(Presenter)]
#[presenter(context = Tenant, name = "ScopedInvoice")]
#[rule(call = Self::tenant_rule)]
#[rule("Admins may void invoices.", when = Self::is_admin)]
#[suggest(call = Self::admin_suggestions)]
#[ui(call = Self::banner)]
#[collection_ui(Self::count)]
#[collection_rule(call = Self::collection_rule)]
struct Scoped {
    id: u32,
}

impl Scoped {
    fn tenant_rule(&self, tenant: &Tenant) -> String {
        format!("Invoice {} belongs to tenant {}.", self.id, tenant.name)
    }

    fn is_admin(_: &Self, tenant: &Tenant) -> bool {
        tenant.admin
    }

    fn admin_suggestions(&self, tenant: &Tenant) -> Option<fusion_runtime::Suggestion> {
        tenant.admin.then(|| {
            fusion_runtime::Suggestion::new(
                "billing.void_invoice",
                format!("Admins can void {}", self.id),
            )
        })
    }

    fn banner(&self, tenant: &Tenant) -> ui::UiBlock {
        ui::markdown(format!("Tenant: {} (invoice {})", tenant.name, self.id))
    }

    fn count(items: &[Self], tenant: &Tenant) -> ui::UiBlock {
        ui::summary(format!("{} invoices of {}", items.len(), tenant.name))
    }

    fn collection_rule(items: &[Self], tenant: &Tenant) -> Vec<String> {
        items
            .iter()
            .map(|i| format!("{} sees {}", tenant.name, i.id))
            .collect()
    }
}

#[test]
fn context_reaches_every_callback() {
    let admin = Tenant {
        name: "acme",
        admin: true,
    };
    let response = Scoped { id: 7 }.present().context(&admin).build().unwrap();
    insta::assert_snapshot!("context_single_admin", listing(&response));
    let user = Tenant {
        name: "beta",
        admin: false,
    };
    let items = [Scoped { id: 1 }, Scoped { id: 2 }];
    let response = Scoped::present_all(&items).context(&user).build().unwrap();
    insta::assert_snapshot!("context_collection_user", listing(&response));
}

#[test]
fn name_sets_the_model_name() {
    assert_eq!(<Scoped as Model>::NAME, "ScopedInvoice");
    assert_eq!(<Inv as Model>::NAME, "Inv");
}

/// `field_enum` and `crate` options.
#[derive(Presenter)]
#[presenter(field_enum = Columns, crate = ::fusion_runtime)]
struct Renamed {
    left: u8,
    right_side: u8,
}

#[test]
fn field_enum_and_crate_options() {
    use fusion_runtime::present::Field;
    assert_eq!(Columns::ALL, &[Columns::Left, Columns::RightSide]);
    assert_eq!(Columns::RightSide.wire_name(), "right_side");
    let value = Renamed {
        left: 1,
        right_side: 2,
    };
    let response = value
        .present()
        .select(&Selection::new(["right_side"]))
        .build()
        .unwrap();
    assert_eq!(response.blocks()[0], "{\n  \"right_side\": 2\n}");
    assert_eq!(value.left, 1);
}

/// A generic model with a lifetime, an embedded generic list and a generic templated field.
#[derive(Presenter)]
#[rule("Page {number} of results.")]
struct Page<'a, T, P: std::fmt::Display> {
    title: &'a str,
    number: P,
    #[embed]
    items: Vec<T>,
}

#[derive(Presenter, Clone)]
#[rule("Rows are read-only.")]
struct Row {
    n: u32,
}

#[test]
fn generics_and_lifetimes() {
    let title = String::from("Rows");
    let page = Page {
        title: &title,
        number: 3_u8,
        items: vec![Row { n: 1 }, Row { n: 2 }],
    };
    let response = page.present().build().unwrap();
    assert_blocks(
        &response,
        &[
            "{\n  \"title\": \"Rows\",\n  \"number\": 3,\n  \"items\": [\n    {\n      \"n\": 1\n    },\n    {\n      \"n\": 2\n    }\n  ]\n}",
            "<domain_rules>\n- Rows are read-only.\n</domain_rules>",
            "<domain_rules>\n- Page 3 of results.\n</domain_rules>",
        ],
    );
}

#[test]
fn a_model_without_context_presents_under_any_context() {
    struct Anything;
    let response = Inv::new("INV-1", 45000, "pending")
        .present()
        .context(&Anything)
        .build()
        .unwrap();
    assert_eq!(response.blocks()[1], INV_TABLE_45000);
    let response = Inv::new("INV-1", 45000, "pending")
        .present()
        .context("a str context")
        .build()
        .unwrap();
    assert_eq!(response.blocks().len(), 4);
}
