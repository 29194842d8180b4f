//! `#[embed]`: child presenters of a model field (wire format §6.8): a presenter, an `Option`, a
//! `Vec`, a slice or a `Box` of one; de-duplication and the first-item UI rule.

use crate::support;

use fusion_runtime::Presenter;
use fusion_runtime::ui::{self, UiBlock};
use support::{assert_blocks, listing};

/// wire format V6: `Client` with a static rule.
#[derive(Presenter)]
#[rule("From child presenter")]
struct V6Client {
    name: &'static str,
}

/// wire format V6: `Order` with item UI, a static rule and a suggestion, embedding `Client`.
#[derive(Presenter)]
#[ui(Self::chart)]
#[rule("Rule 1")]
#[suggest(tool = "next.action", reason = "Do this next")]
struct V6Order {
    id: &'static str,
    #[embed]
    client: V6Client,
}

impl V6Order {
    fn chart(_: &Self) -> UiBlock {
        UiBlock::custom("echarts", "```echarts\n{}\n```")
    }
}

#[test]
fn v06_full_block_order() {
    let order = V6Order {
        id: "123",
        client: V6Client { name: "A" },
    };
    let response = order
        .present()
        .into_builder()
        .unwrap()
        .hint("Pay attention")
        .build();
    assert_blocks(
        &response,
        &[
            "{\n  \"id\": \"123\",\n  \"client\": {\n    \"name\": \"A\"\n  }\n}",
            "<ui_passthrough type=\"echarts\">\n```echarts\n{}\n```\n</ui_passthrough>",
            "<domain_rules>\n- From child presenter\n</domain_rules>",
            "<llm_directives>\n- Pay attention\n</llm_directives>",
            "<domain_rules>\n- Rule 1\n</domain_rules>",
            "<action_suggestions>\n- next.action: Do this next\n</action_suggestions>",
        ],
    );
}

/// wire format V29–V32 **Client**.
#[derive(Presenter)]
#[rule("Display company name prominently.")]
#[ui(markdown = "Client: {name}")]
#[suggest(tool = "clients.get", reason = "Open client")]
struct Client {
    name: &'static str,
}

/// wire format V29–V30 **Order**: an absent client is omitted from the wire form.
#[derive(Presenter)]
#[rule("Order rule")]
#[ui(markdown = "Order UI")]
#[suggest(tool = "orders.get", reason = "Open order")]
struct Order {
    id: &'static str,
    #[embed]
    #[serde(skip_serializing_if = "Option::is_none")]
    client: Option<Client>,
}

#[test]
fn v29_embed_single_value() {
    let order = Order {
        id: "O1",
        client: Some(Client { name: "Acme" }),
    };
    assert_blocks(
        &order.present().build().unwrap(),
        &[
            "{\n  \"id\": \"O1\",\n  \"client\": {\n    \"name\": \"Acme\"\n  }\n}",
            "<ui_passthrough type=\"markdown\">\nOrder UI\n</ui_passthrough>",
            "<ui_passthrough type=\"markdown\">\nClient: Acme\n</ui_passthrough>",
            "<domain_rules>\n- Display company name prominently.\n</domain_rules>",
            "<action_suggestions>\n- clients.get: Open client\n</action_suggestions>",
            "<domain_rules>\n- Order rule\n</domain_rules>",
            "<action_suggestions>\n- orders.get: Open order\n</action_suggestions>",
        ],
    );
}

#[test]
fn v30_embed_collection() {
    let orders = [
        Order {
            id: "O1",
            client: Some(Client { name: "Acme" }),
        },
        Order {
            id: "O2",
            client: Some(Client { name: "Beta" }),
        },
        Order {
            id: "O3",
            client: None,
        },
    ];
    assert_blocks(
        &Order::present_all(&orders).build().unwrap(),
        &[
            "[\n  {\n    \"id\": \"O1\",\n    \"client\": {\n      \"name\": \"Acme\"\n    }\n  },\n  {\n    \"id\": \"O2\",\n    \"client\": {\n      \"name\": \"Beta\"\n    }\n  },\n  {\n    \"id\": \"O3\"\n  }\n]",
            "<ui_passthrough type=\"markdown\">\nClient: Acme\n</ui_passthrough>",
            "<domain_rules>\n- Display company name prominently.\n</domain_rules>",
            "<action_suggestions>\n- clients.get: Open client\n</action_suggestions>",
            "<domain_rules>\n- Order rule\n</domain_rules>",
            "<action_suggestions>\n- orders.get: Open order\n</action_suggestions>",
        ],
    );
}

/// wire format V31 **Contact**.
#[derive(Presenter)]
#[rule("Contacts are shared across teams.")]
struct Contact {
    name: &'static str,
}

/// wire format V31 `Shipment`: two embeds of one model, no declarations.
#[derive(Presenter)]
struct Shipment {
    id: &'static str,
    #[embed]
    billing_contact: Contact,
    #[embed]
    shipping_contact: Contact,
}

#[test]
fn v31_embed_de_duplication_inside_one_item() {
    let shipment = Shipment {
        id: "S1",
        billing_contact: Contact { name: "Ann" },
        shipping_contact: Contact { name: "Bob" },
    };
    assert_blocks(
        &shipment.present().build().unwrap(),
        &[
            "{\n  \"id\": \"S1\",\n  \"billing_contact\": {\n    \"name\": \"Ann\"\n  },\n  \"shipping_contact\": {\n    \"name\": \"Bob\"\n  }\n}",
            "<domain_rules>\n- Contacts are shared across teams.\n</domain_rules>",
        ],
    );
}

/// wire format V32: a parent that writes an absent client as `null`, no declarations of its own.
#[derive(Presenter)]
struct Parent {
    id: &'static str,
    #[embed]
    client: Option<Client>,
}

#[test]
fn v32_absent_embed_value() {
    let parent = Parent {
        id: "O1",
        client: None,
    };
    assert_blocks(
        &parent.present().build().unwrap(),
        &["{\n  \"id\": \"O1\",\n  \"client\": null\n}"],
    );
}

/// A line item with item UI and a collection UI, to see which one a parent shows.
#[derive(Presenter, Clone)]
#[rule("unit_price_cents is in CENTS. Divide by 100.")]
#[ui(markdown = "Line {sku}")]
#[collection_ui(summary = "{n} lines")]
#[presenter(agent_limit = 1)]
struct Line {
    sku: &'static str,
}

/// Every container shape `#[embed]` accepts.
#[derive(Presenter)]
struct Shapes<'a> {
    #[embed]
    vec: Vec<Line>,
    #[embed]
    slice: &'a [Line],
    #[embed]
    boxed: Box<Line>,
    #[embed]
    optional_vec: Option<Vec<Line>>,
}

#[test]
fn every_embed_shape_and_the_child_agent_limit() {
    let lines = [Line { sku: "A" }, Line { sku: "B" }];
    let shapes = Shapes {
        vec: Vec::new(),
        slice: &lines,
        boxed: Box::new(Line { sku: "C" }),
        optional_vec: Some(lines.to_vec()),
    };
    let response = shapes.present().build().unwrap();
    // The empty Vec says nothing (wire format §6.8); the slice is a collection cut by the
    // child's agent limit (its truncation summary is child UI), in the data block too (V100).
    insta::assert_snapshot!("embed_shapes", listing(&response));
    assert!(!response.blocks()[0].contains("\"sku\": \"B\""));
}

#[test]
fn child_ui_comes_from_the_first_parent_item_only() {
    let lines = [Line { sku: "Z" }];
    let items = [
        Shapes {
            vec: Vec::new(),
            slice: &[],
            boxed: Box::new(Line { sku: "first" }),
            optional_vec: None,
        },
        Shapes {
            vec: Vec::new(),
            slice: &lines,
            boxed: Box::new(Line { sku: "second" }),
            optional_vec: None,
        },
    ];
    let response = Shapes::present_all(&items).build().unwrap();
    let text = response.text();
    assert!(text.contains("Line first"));
    assert!(!text.contains("Line second"), "{}", listing(&response));
    assert!(
        !text.contains("1 lines"),
        "UI of a later item's child is dropped"
    );
}

/// A grandchild: `Invoice` embeds `Customer` which embeds `Address`.
#[derive(Presenter)]
#[rule("Addresses are postal.")]
#[ui(markdown = "Address in {city}")]
struct Address {
    city: &'static str,
}

#[derive(Presenter)]
#[rule("Customers are companies.")]
struct Customer {
    name: &'static str,
    #[embed]
    address: Address,
}

#[derive(Presenter)]
#[rule("Invoice rule.")]
struct Invoice {
    id: u32,
    #[embed]
    customer: Customer,
}

#[test]
fn grandchildren_come_first_inside_the_child() {
    let invoices = [
        Invoice {
            id: 1,
            customer: Customer {
                name: "Acme",
                address: Address { city: "Berlin" },
            },
        },
        Invoice {
            id: 2,
            customer: Customer {
                name: "Beta",
                address: Address { city: "Paris" },
            },
        },
    ];
    let response = Invoice::present_all(&invoices).build().unwrap();
    insta::assert_snapshot!("embed_grandchildren", listing(&response));
    assert!(
        !response.text().contains("Paris\n</ui"),
        "a grandchild's UI counts as UI"
    );
}

/// A child that needs a context, embedded by a parent with the same context.
struct Locale {
    currency: &'static str,
}

#[derive(Presenter)]
#[presenter(context = Locale)]
#[rule(call = Self::currency_rule)]
struct Money {
    cents: u64,
}

impl Money {
    fn currency_rule(&self, locale: &Locale) -> String {
        format!("{} cents: amounts are in {}.", self.cents, locale.currency)
    }
}

#[derive(Presenter)]
#[presenter(context = Locale)]
struct Priced {
    #[embed]
    total: Money,
}

#[test]
fn embedded_children_receive_the_context() {
    let priced = Priced {
        total: Money { cents: 5 },
    };
    let locale = Locale { currency: "EUR" };
    let response = priced.present().context(&locale).build().unwrap();
    assert_blocks(
        &response,
        &[
            "{\n  \"total\": {\n    \"cents\": 5\n  }\n}",
            "<domain_rules>\n- 5 cents: amounts are in EUR.\n</domain_rules>",
        ],
    );
    let _: Vec<UiBlock> = vec![ui::markdown("unused")];
}

/// Counts how often its UI function runs.
static CHILD_UI_CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[derive(Presenter)]
#[ui(Self::counted)]
#[rule("Counted child.")]
struct CountedChild {
    n: u32,
}

impl CountedChild {
    fn counted(&self) -> UiBlock {
        CHILD_UI_CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        ui::markdown(format!("child {}", self.n))
    }
}

#[derive(Presenter)]
struct CountedParent {
    #[embed]
    child: CountedChild,
}

#[test]
fn child_ui_of_later_items_is_not_even_evaluated() {
    let parents: Vec<CountedParent> = (0..3)
        .map(|n| CountedParent {
            child: CountedChild { n },
        })
        .collect();
    let response = CountedParent::present_all(&parents).build().unwrap();
    assert_eq!(CHILD_UI_CALLS.load(std::sync::atomic::Ordering::Relaxed), 1);
    assert_eq!(
        &response.blocks()[1..],
        [
            "<ui_passthrough type=\"markdown\">\nchild 0\n</ui_passthrough>",
            "<domain_rules>\n- Counted child.\n</domain_rules>",
        ]
    );
}

/// wire format V100: an embedded collection is cut to the child's agent limit in the data
/// block too, so data, UI, rules and suggestions describe the same items (wire format §6.8).
#[derive(Presenter)]
#[presenter(agent_limit = 2)]
#[rule(when = Self::is_late, text = "Task {title} is late.")]
struct V100Task {
    title: &'static str,
    late: bool,
}

impl V100Task {
    fn is_late(&self) -> bool {
        self.late
    }
}

/// wire format V100: a project embedding its tasks, and a portfolio embedding projects.
#[derive(Presenter)]
struct V100Project {
    name: &'static str,
    #[embed]
    tasks: Vec<V100Task>,
}

#[derive(Presenter)]
struct V100Portfolio {
    #[embed]
    projects: Vec<V100Project>,
}

fn v100_project() -> V100Project {
    let task = |title, late| V100Task { title, late };
    V100Project {
        name: "P",
        tasks: vec![task("a", false), task("b", true), task("c", true)],
    }
}

#[test]
fn v100_embedded_collection_cut_to_the_child_limit_in_the_data_too() {
    let response = v100_project().present().build().unwrap();
    assert_blocks(
        &response,
        &[
            "{\n  \"name\": \"P\",\n  \"tasks\": [\n    {\n      \"title\": \"a\",\n      \"late\": false\n    },\n    {\n      \"title\": \"b\",\n      \"late\": true\n    }\n  ]\n}",
            "<ui_passthrough type=\"summary\">\n📊 **Summary**: ⚠️ Dataset truncated. 2 shown, 1 hidden. Use filters to narrow results.\n</ui_passthrough>",
            "<domain_rules>\n- Task b is late.\n</domain_rules>",
        ],
    );
}

#[test]
fn the_embedded_cut_holds_at_every_depth_with_a_selection_and_in_toon() {
    let portfolio = V100Portfolio {
        projects: vec![v100_project()],
    };
    let plain = serde_json::to_value(&portfolio).unwrap();
    assert_eq!(plain["projects"][0]["tasks"].as_array().unwrap().len(), 2);

    let selection = fusion_runtime::Selection::new(["tasks"]);
    let selected = v100_project().present().select(&selection).build().unwrap();
    let data: serde_json::Value = serde_json::from_str(&selected.blocks()[0]).unwrap();
    assert_eq!(
        data,
        serde_json::json!({"tasks": [{"title": "a", "late": false}, {"title": "b", "late": true}]})
    );

    let toon = v100_project()
        .present()
        .format(fusion_runtime::present::Format::Toon)
        .build()
        .unwrap();
    assert!(!toon.blocks()[0].contains("c|"), "{}", toon.blocks()[0]);
    assert!(toon.blocks()[0].contains("tasks[2"), "{}", toon.blocks()[0]);
}

/// A tagged note: a static rule, a generated table of tags and a suggestion, as in the issue's
/// notes vault.
#[derive(Presenter, Clone)]
#[rule("Tags are lowercase; search by tag with notes.search_tag.")]
#[collection_ui(table(name))]
#[suggest(tool = "notes.search_tag", reason = "Search by this tag")]
struct Tag {
    name: &'static str,
}

/// A search answer: a total and the tags it touched.
#[derive(Presenter)]
#[rule("total counts every match, not only the ones shown.")]
struct TagSearch {
    total: u32,
    #[embed]
    tags: Vec<Tag>,
    #[embed]
    top: Option<Tag>,
}

#[test]
fn an_empty_embed_says_nothing() {
    let search = TagSearch {
        total: 0,
        tags: Vec::new(),
        top: None,
    };
    assert_blocks(
        &search.present().build().unwrap(),
        &[
            "{\n  \"total\": 0,\n  \"tags\": [],\n  \"top\": null\n}",
            "<domain_rules>\n- total counts every match, not only the ones shown.\n</domain_rules>",
        ],
    );
    // A top-level empty collection still speaks: its static rules and collection UI say how to
    // read "nothing found" (wire format §6.8, V23, V27).
    let response = Tag::present_all(&[]).build().unwrap();
    assert_eq!(response.view().rules().len(), 1);
    assert_eq!(response.view().ui().len(), 1);
}

#[test]
fn a_deselected_embed_says_nothing() {
    let search = TagSearch {
        total: 2,
        tags: vec![Tag { name: "rust" }, Tag { name: "mcp" }],
        top: Some(Tag { name: "rust" }),
    };
    let total = fusion_runtime::Selection::new(["total"]);
    assert_blocks(
        &search.present().select(&total).build().unwrap(),
        &[
            "{\n  \"total\": 2\n}",
            "<domain_rules>\n- total counts every match, not only the ones shown.\n</domain_rules>",
        ],
    );
    // Selecting `top` brings back its child's blocks, and only its own (`tags` stays silent).
    let top = fusion_runtime::Selection::new(["top"]);
    let response = search.present().select(&top).build().unwrap();
    assert_eq!(
        response.blocks()[0],
        "{\n  \"top\": {\n    \"name\": \"rust\"\n  }\n}"
    );
    assert!(
        response
            .text()
            .contains("notes.search_tag: Search by this tag")
    );
    assert!(
        !response.text().contains("| name |"),
        "the collection UI of `tags`"
    );
    // Without a selection every embed speaks.
    let whole = search.present().build().unwrap();
    assert!(
        whole
            .text()
            .contains("| name |\n| --- |\n| rust |\n| mcp |")
    );
}
