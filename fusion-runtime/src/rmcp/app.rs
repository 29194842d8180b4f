//! The MCP Apps view ([`crate::mcp_app`]) in the rmcp adapter: the `ui://` resource a
//! [`FusionServer`](super::FusionServer) lists and reads, and the `_meta` of the tools that
//! render with it.

use rmcp::ErrorData;
use rmcp::model::{
    JsonObject, ListResourcesResult, MetaObject, ReadResourceResult, Resource, ResourceContents,
};
use serde_json::Value;

use crate::mcp_app;

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
pub(super) fn list() -> ListResourcesResult {
    let resource = Resource::new(mcp_app::URI, mcp_app::NAME)
        .with_title("fusion UI blocks")
        .with_description(mcp_app::DESCRIPTION)
        .with_mime_type(mcp_app::MIME_TYPE)
        .with_meta(MetaObject(object(mcp_app::resource_meta())));
    ListResourcesResult::with_all_items(vec![resource])
}

/// The `resources/read` answer for `uri`: the document with its `_meta.ui.csp`, or a
/// "resource not found" error naming the one URI there is.
pub(super) fn read(uri: &str) -> Result<ReadResourceResult, ErrorData> {
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
