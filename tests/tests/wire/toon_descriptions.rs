//! wire format §16.9 tool description vectors V50–V53 (wire format §10).

use fusion_runtime::tool::description::{self, ActionDescriptor, Layout};

fn projects(layout: Layout, description: &str, actions: &[ActionDescriptor<'_>]) -> String {
    description::describe(layout, "projects", description, "action", actions)
}

#[test]
fn v50_toon_layout() {
    // `page` is optional, so it is not listed.
    let actions = [
        ActionDescriptor::new("list").description("List all"),
        ActionDescriptor::new("create")
            .description("Create one")
            .required(&["title", "owner_id"]),
    ];
    assert_eq!(
        projects(Layout::Toon, "Manage projects", &actions),
        "Manage projects. Select operation via the `action` parameter.\n\n[2|]{action|desc|required}:\n  list|List all|\"\"\n  create|Create one|title,owner_id"
    );
}

#[test]
fn v51_toon_layout_with_a_destructive_action() {
    let actions = [
        ActionDescriptor::new("list").description("List all"),
        ActionDescriptor::new("delete")
            .description("Delete permanently")
            .required(&["id"])
            .destructive(true),
    ];
    assert_eq!(
        projects(Layout::Toon, "Manage projects", &actions),
        "Manage projects. Select operation via the `action` parameter.\n\n[2|]{action|desc|required}:\n  list|List all|\"\"\n  delete|\"[DESTRUCTIVE] Delete permanently\"|id"
    );
}

#[test]
fn v52_plain_and_toon_layouts_description_ending_in_a_period() {
    let actions = [
        ActionDescriptor::new("list").description("List all"),
        ActionDescriptor::new("create")
            .description("Create one")
            .required(&["title", "owner_id"]),
        ActionDescriptor::new("purge").destructive(true),
        ActionDescriptor::new("ping"),
        ActionDescriptor::new("archive").required(&["id"]),
    ];
    assert_eq!(
        projects(Layout::Plain, "Manage projects.", &actions),
        "Manage projects. Select operation via the `action` parameter. Actions: list, create, purge, ping, archive\n\nWorkflow:\n- 'list': List all\n- 'create': Create one. Requires: title, owner_id\n- 'purge': [DESTRUCTIVE]\n- 'archive': Requires: id"
    );
    assert_eq!(
        projects(Layout::Toon, "Manage projects.", &actions),
        "Manage projects. Select operation via the `action` parameter.\n\n[5|]{action|desc|required}:\n  list|List all|\"\"\n  create|Create one|title,owner_id\n  purge|\"[DESTRUCTIVE]\"|\"\"\n  ping|\"\"|\"\"\n  archive|\"\"|id"
    );
}

/// The `billing` tool of BILLING.md, as descriptors (`list_invoices` and `export_invoices` have
/// optional inputs only).
const BILLING: [ActionDescriptor<'static>; 5] = [
    ActionDescriptor::new("get_invoice")
        .description("Fetch one invoice by id")
        .required(&["id"]),
    ActionDescriptor::new("list_invoices").description("List invoices, newest first"),
    ActionDescriptor::new("export_invoices").description("Export invoices as a compact table"),
    ActionDescriptor::new("remind")
        .description("Queue a payment reminder")
        .required(&["id"]),
    ActionDescriptor::new("void_invoice")
        .description("Void an invoice")
        .required(&["id", "reason"])
        .destructive(true),
];

#[test]
fn v53_billing_tool_description() {
    assert_eq!(
        description::toon("billing", "Manage invoices", "action", &BILLING),
        "Manage invoices. Select operation via the `action` parameter.\n\n[5|]{action|desc|required}:\n  get_invoice|Fetch one invoice by id|id\n  list_invoices|List invoices, newest first|\"\"\n  export_invoices|Export invoices as a compact table|\"\"\n  remind|Queue a payment reminder|id\n  void_invoice|\"[DESTRUCTIVE] Void an invoice\"|id,reason"
    );
    assert_eq!(
        description::plain("billing", "Manage invoices", "action", &BILLING),
        "Manage invoices. Select operation via the `action` parameter. Actions: get_invoice, list_invoices, export_invoices, remind, void_invoice\n\nWorkflow:\n- 'get_invoice': Fetch one invoice by id. Requires: id\n- 'list_invoices': List invoices, newest first\n- 'export_invoices': Export invoices as a compact table\n- 'remind': Queue a payment reminder. Requires: id\n- 'void_invoice': Void an invoice. Requires: id, reason [DESTRUCTIVE]"
    );
}

#[test]
fn plain_layout_without_workflow_and_description_periods() {
    // No action has a description, a required field or the destructive flag: no Workflow part.
    let bare = [ActionDescriptor::new("a"), ActionDescriptor::new("b")];
    assert_eq!(
        projects(Layout::Plain, "", &bare),
        "projects. Select operation via the `action` parameter. Actions: a, b"
    );
    // A description already ending in a period gets no second one before `Requires:`.
    let dotted = [ActionDescriptor::new("a")
        .description("Does a.")
        .required(&["x"])
        .destructive(true)];
    assert_eq!(
        projects(Layout::Plain, "P", &dotted),
        "P. Select operation via the `action` parameter. Actions: a\n\nWorkflow:\n- 'a': Does a. Requires: x [DESTRUCTIVE]"
    );
    // Required fields only, destructive: `Requires: x [DESTRUCTIVE]`.
    let required = [ActionDescriptor::new("a")
        .required(&["x"])
        .destructive(true)];
    assert_eq!(
        projects(Layout::Plain, "P", &required),
        "P. Select operation via the `action` parameter. Actions: a\n\nWorkflow:\n- 'a': Requires: x [DESTRUCTIVE]"
    );
}

#[test]
fn descriptor_accessors() {
    let action = BILLING[4];
    assert_eq!(action.key(), "void_invoice");
    assert_eq!(action.description_text(), "Void an invoice");
    assert_eq!(action.required_fields(), ["id", "reason"]);
    assert!(action.is_destructive());
    assert_eq!(
        description::flat("invoice_stats", "Totals per invoice status"),
        "Totals per invoice status"
    );
}
