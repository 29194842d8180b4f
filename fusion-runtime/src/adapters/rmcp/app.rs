//! The MCP Apps view ([`crate::mcp_app`]) in the rmcp adapter: the `ui://` resource a
//! [`FusionServer`](super::FusionServer) lists and reads, and the `_meta` of the tools that
//! render with it.

use rmcp::ErrorData;
use rmcp::model::{
    JsonObject, ListResourcesResult, MetaObject, ReadResourceResult, Resource, ResourceContents,
};
use serde_json::Value;

use crate::adapters::mcp_app;

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// `{"ui": {"resourceUri": "ui://fusion/blocks"}}`, for a tool's `tools/list` entry.
pub(super) fn tool_meta() -> MetaObject {
    MetaObject(object(mcp_app::tool_meta()))
}

/// The `resources/list` answer: the view alone.
pub fn list() -> ListResourcesResult {
    let resource = Resource::new(mcp_app::URI, mcp_app::NAME)
        .with_title("fusion UI blocks")
        .with_description(mcp_app::DESCRIPTION)
        .with_mime_type(mcp_app::MIME_TYPE)
        .with_meta(MetaObject(object(mcp_app::resource_meta())));
    ListResourcesResult::with_all_items(vec![resource])
}

/// The `resources/read` answer for `uri`: the document with its `_meta.ui.csp`, or a
/// "resource not found" error naming the one URI there is.
pub fn read(uri: &str) -> Result<ReadResourceResult, ErrorData> {
    if uri != mcp_app::URI {
        return Err(ErrorData::resource_not_found(
            format!(
                "no resource `{uri}`: this server has one, `{}`",
                mcp_app::URI
            ),
            None,
        ));
    }
    Ok(ReadResourceResult::new(vec![
        ResourceContents::TextResourceContents {
            uri: mcp_app::URI.to_owned(),
            mime_type: Some(mcp_app::MIME_TYPE.to_owned()),
            text: mcp_app::HTML.to_owned(),
            meta: Some(MetaObject(object(mcp_app::resource_meta()))),
        },
    ]))
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use serde::ser::{SerializeMap, Serializer};
    use serde_json::json;

    use super::*;
    use crate::model::{Field, FieldMask, Model};
    use crate::tool::{ActionSpec, ToolDefinition, ToolSpec};
    use crate::{Call, ResponseBuilder, Tool, ToolSet};

    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    struct GaugeField;

    impl Field for GaugeField {
        const ALL: &'static [Self] = &[GaugeField];
        fn wire_name(self) -> &'static str {
            "value"
        }
        fn from_wire_name(name: &str) -> Option<Self> {
            (name == "value").then_some(GaugeField)
        }
        fn index(self) -> usize {
            0
        }
    }

    /// A model written by hand that declares UI, as the derive will for `#[ui]`.
    #[derive(Serialize)]
    struct Gauge {
        value: u32,
    }

    impl Model for Gauge {
        type Field = GaugeField;
        const NAME: &'static str = "Gauge";
        const WIRE_NAMES: &'static [&'static str] = &["value"];
        const DECLARES_UI: bool = true;
        fn serialize_selected<S: Serializer>(
            &self,
            selection: &FieldMask,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            let mut map = serializer.serialize_map(Some(selection.count(1)))?;
            if selection.contains(0) {
                map.serialize_entry("value", &self.value)?;
            }
            map.end()
        }
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct ShowGauge {}

    impl Tool for ShowGauge {
        fn spec() -> ToolSpec {
            ToolSpec::new("show_gauge").variant(ActionSpec::new().returns::<Gauge>())
        }
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Plain {}

    impl Tool for Plain {
        fn spec() -> ToolSpec {
            ToolSpec::new("plain")
        }
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Declared {}

    impl Tool for Declared {
        fn spec() -> ToolSpec {
            ToolSpec::new("declared").ui_app()
        }
    }

    fn listed<T: Tool>() -> rmcp::model::Tool {
        let definition = ToolDefinition::of::<T>().expect("the tool is defined");
        rmcp::model::Tool::from(&definition)
    }

    #[test]
    fn a_tool_names_the_view_when_it_returns_a_model_with_ui_or_says_so() {
        let expected = Some(MetaObject(object(
            json!({"ui": {"resourceUri": "ui://fusion/blocks"}}),
        )));
        assert_eq!(listed::<ShowGauge>().meta, expected);
        assert_eq!(listed::<Declared>().meta, expected);
        assert_eq!(listed::<Plain>().meta, None);
    }

    #[test]
    fn a_tool_set_marks_a_tool_by_name_and_refuses_an_unknown_one() {
        let answer = |_: Plain, _: &Call| ResponseBuilder::text("ok").build();
        let tools = ToolSet::new().tool(answer).expect("added");
        assert!(!tools.get("plain").is_some_and(ToolDefinition::ui_app));
        let tools = tools.ui_app("plain").expect("marked");
        assert!(tools.get("plain").is_some_and(ToolDefinition::ui_app));
        let error = tools.ui_app("nope").expect_err("no such tool");
        assert_eq!(
            error.to_string(),
            "tool `nope` cannot be defined: it is not in this tool set: add it before `ui_app`"
        );
    }

    #[test]
    fn the_resource_is_listed_and_read_with_its_csp() {
        let meta = json!({"ui": {"csp": {"resourceDomains": ["https://cdn.jsdelivr.net"]}}});
        let listed = serde_json::to_value(&list().resources).expect("serializes");
        assert_eq!(listed[0]["uri"], "ui://fusion/blocks");
        assert_eq!(listed[0]["mimeType"], "text/html;profile=mcp-app");
        assert_eq!(listed[0]["_meta"], meta);
        let read = serde_json::to_value(read(mcp_app::URI).expect("read")).expect("serializes");
        assert_eq!(read["contents"][0]["text"], mcp_app::HTML);
        assert_eq!(read["contents"][0]["mimeType"], "text/html;profile=mcp-app");
        assert_eq!(read["contents"][0]["_meta"], meta);
        let missing = super::read("ui://other").expect_err("unknown");
        assert_eq!(
            missing.message,
            "no resource `ui://other`: this server has one, `ui://fusion/blocks`"
        );
    }
}
