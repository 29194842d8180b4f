//! `Model::DECLARES_UI` as `#[derive(Presenter)]` sets it: whether presenting a model can
//! produce UI blocks, which makes a tool returning it name the MCP Apps view in `tools/list`.

use fusion_runtime::Presenter;
use fusion_runtime::present::Model;
use fusion_runtime::tool::{ActionSpec, ToolDefinition, ToolSpec};
use fusion_runtime::ui::{self, UiBlock};

#[derive(Presenter)]
struct Plain {
    id: String,
}

#[derive(Presenter)]
#[ui(Self::badge)]
struct WithUi {
    id: String,
}

impl WithUi {
    fn badge(&self) -> UiBlock {
        ui::markdown(&self.id)
    }
}

#[derive(Presenter)]
#[collection_ui(summary = "{n} items")]
struct WithCollectionUi {
    id: String,
}

/// The truncation summary of an agent limit is a UI block.
#[derive(Presenter)]
#[presenter(agent_limit = 2)]
struct Limited {
    id: String,
}

#[derive(Presenter)]
struct EmbedsUi {
    id: String,
    #[embed]
    children: Vec<WithUi>,
}

#[derive(Presenter)]
struct EmbedsPlain {
    id: String,
    #[embed]
    child: Option<Box<Plain>>,
}

#[derive(Presenter)]
struct EmbedsDeep {
    id: String,
    #[embed]
    inner: EmbedsUi,
}

/// A recursive model: its own embeds are left out (the constant cannot depend on itself).
#[derive(Presenter)]
struct Node {
    id: String,
    #[embed]
    children: Vec<Node>,
}

#[derive(Clone, Copy)]
struct Locale;

#[derive(Presenter)]
#[presenter(context = Locale)]
#[collection_ui(summary = "{n} prices")]
struct Price {
    id: String,
}

#[derive(Presenter)]
#[presenter(context = Locale)]
struct Priced {
    id: String,
    #[embed]
    price: Price,
}

/// The constant, read at run time (a test of a constant would otherwise be decided by the
/// compiler).
fn declares<M: Model>() -> bool {
    M::DECLARES_UI
}

#[test]
fn own_ui_declarations_and_agent_limits_declare_ui() {
    assert!(!declares::<Plain>());
    assert!(declares::<WithUi>());
    assert!(declares::<WithCollectionUi>());
    assert!(declares::<Limited>());
}

#[test]
fn embedded_children_carry_their_ui_up() {
    assert!(declares::<EmbedsUi>());
    assert!(!declares::<EmbedsPlain>());
    assert!(declares::<EmbedsDeep>());
    assert!(!declares::<Node>());
    assert!(declares::<Priced>(), "a child with the parent's context");
}

fn ui_app(spec: &ToolSpec) -> bool {
    let schema = serde_json::json!({"type": "object", "properties": {}});
    ToolDefinition::from_schema(spec, &schema)
        .expect("the tool is defined")
        .ui_app()
}

#[test]
fn a_tool_names_the_view_when_an_action_returns_a_model_with_ui() {
    let returns = |action: ActionSpec| ToolSpec::new("show").variant(action);
    assert!(ui_app(&returns(ActionSpec::new().returns::<WithUi>())));
    assert!(ui_app(&returns(
        ActionSpec::new().returns_all::<EmbedsDeep>()
    )));
    assert!(!ui_app(&returns(ActionSpec::new().returns::<Plain>())));
    assert!(!ui_app(&returns(ActionSpec::new())));
    assert!(ui_app(&returns(ActionSpec::new()).ui_app()), "said by hand");
}
