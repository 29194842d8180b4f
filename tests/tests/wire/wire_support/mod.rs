//! Shared by the wire tests: the models of wire format V6, with `Model` and `Presenter` written by hand
//! against the public API (the pattern for users who do not derive), and the V6 handler.

use fusion_runtime::present::Suggestions;
use fusion_runtime::present::{EmbedSink, Field, FieldMask, Model};
use fusion_runtime::ui::UiBlock;
use fusion_runtime::{Presenter, Suggestion, ToolResponse};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// The wire members of [`Client`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClientField {
    /// `name`
    Name,
}

impl Field for ClientField {
    const ALL: &'static [Self] = &[ClientField::Name];

    fn wire_name(self) -> &'static str {
        "name"
    }

    fn from_wire_name(name: &str) -> Option<Self> {
        (name == "name").then_some(ClientField::Name)
    }

    fn index(self) -> usize {
        0
    }
}

/// V6's `Client` {`name`}.
#[derive(Debug, Clone, Serialize)]
pub struct Client {
    pub name: String,
}

impl Model for Client {
    type Field = ClientField;
    const NAME: &'static str = "Client";
    const WIRE_NAMES: &'static [&'static str] = &["name"];

    fn serialize_selected<S: Serializer>(
        &self,
        selection: &FieldMask,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(selection.count(Self::WIRE_NAMES.len())))?;
        if selection.contains(ClientField::Name.index()) {
            map.serialize_entry("name", &self.name)?;
        }
        map.end()
    }
}

/// `Client` presenter: static rule `From child presenter`.
impl<Ctx: ?Sized> Presenter<Ctx> for Client {
    const STATIC_RULES: &'static [&'static str] = &["From child presenter"];
}

/// The wire members of [`Order`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrderField {
    /// `id`
    Id,
    /// `client`
    Client,
}

impl Field for OrderField {
    const ALL: &'static [Self] = &[OrderField::Id, OrderField::Client];

    fn wire_name(self) -> &'static str {
        match self {
            OrderField::Id => "id",
            OrderField::Client => "client",
        }
    }

    fn from_wire_name(name: &str) -> Option<Self> {
        match name {
            "id" => Some(OrderField::Id),
            "client" => Some(OrderField::Client),
            _ => None,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// V6's `Order` {`id`, `client`: embedded `Client`}.
#[derive(Debug, Clone, Serialize)]
pub struct Order {
    pub id: String,
    pub client: Client,
}

impl Model for Order {
    type Field = OrderField;
    const NAME: &'static str = "Order";
    const WIRE_NAMES: &'static [&'static str] = &["id", "client"];

    fn serialize_selected<S: Serializer>(
        &self,
        selection: &FieldMask,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(selection.count(Self::WIRE_NAMES.len())))?;
        if selection.contains(OrderField::Id.index()) {
            map.serialize_entry("id", &self.id)?;
        }
        if selection.contains(OrderField::Client.index()) {
            map.serialize_entry("client", &self.client)?;
        }
        map.end()
    }
}

/// `Order` presenter: item UI (custom `echarts`), static rule `Rule 1`, item suggestion
/// (`next.action`, `Do this next`), embed `client`.
impl<Ctx: ?Sized> Presenter<Ctx> for Order {
    const STATIC_RULES: &'static [&'static str] = &["Rule 1"];

    fn item_ui(&self, _ctx: &Ctx, out: &mut Vec<UiBlock>) {
        out.push(UiBlock::custom("echarts", "```echarts\n{}\n```"));
    }

    fn item_suggestions(&self, _ctx: &Ctx, out: &mut Suggestions) {
        out.push(Suggestion::new("next.action", "Do this next"));
    }

    fn embeds(&self, ctx: &Ctx, sink: &mut EmbedSink<'_>) {
        sink.single(&self.client, ctx);
    }
}

/// The V6 handler: presents `{"id":"123","client":{"name":"A"}}` and adds the hint
/// `Pay attention`.
pub fn v6_response() -> ToolResponse {
    let order = Order {
        id: "123".to_owned(),
        client: Client {
            name: "A".to_owned(),
        },
    };
    fusion_runtime::present::present(&order)
        .into_builder()
        .expect("the order serializes")
        .hint("Pay attention")
        .build()
}
