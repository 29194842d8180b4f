//! The MCP Apps view of UI blocks: one HTML document that hosts with the MCP Apps extension
//! (`io.modelcontextprotocol/ui`) show next to a tool result, rendering its `<ui_passthrough>`
//! blocks for the person (charts, diagrams, tables, markdown, code). For a client that declares
//! the extension ([`renders_apps`]), the blocks travel in the result's `_meta["fusion/ui"]`
//! ([`UI_META_KEY`]) and not in the model's text (wire format §4.6); other clients get them as
//! text.
//!
//! The document (`assets/mcp-app.html`) speaks the extension's postMessage protocol itself and
//! loads its libraries (`ECharts`, `Mermaid`, `marked`, `DOMPurify`) from one CDN origin, each pinned to
//! a version and checked by its Subresource Integrity hash: [`RESOURCE_DOMAINS`] is that origin,
//! declared in the resource's `_meta.ui.csp` so that hosts let the document load them.
//!
//! The rmcp adapter serves it ([`URI`] in `resources/list` and `resources/read`) and names it in
//! the `tools/list` entry of every tool whose responses can carry UI blocks
//! ([`ToolDefinition::ui_app`](crate::tool::ToolDefinition::ui_app)).

use serde_json::{Value, json};

pub use crate::response::UI_META_KEY;

/// The extension's identifier, the key a client declares in `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";

/// Whether a client renders MCP Apps (wire format §4.6), from the settings it declares under
/// [`EXTENSION`] in `capabilities.extensions` (of `initialize`, or of the 2026-07-28 request's
/// `_meta["io.modelcontextprotocol/clientCapabilities"]`): `None` when it declares no such key.
/// It does when the settings' `mimeTypes` include [`MIME_TYPE`], the check the official SDK's
/// servers make (`getUiCapability(...)?.mimeTypes?.includes(RESOURCE_MIME_TYPE)`).
pub fn renders_apps(settings: Option<&serde_json::Map<String, Value>>) -> bool {
    let Some(settings) = settings else {
        return false;
    };
    match settings.get("mimeTypes") {
        Some(Value::Array(types)) => types.iter().any(|t| t.as_str() == Some(MIME_TYPE)),
        _ => false,
    }
}

/// The resource's URI.
pub const URI: &str = "ui://fusion/blocks";

/// The resource's name in `resources/list`.
pub const NAME: &str = "fusion-ui-blocks";

/// The resource's description in `resources/list`.
pub const DESCRIPTION: &str =
    "Renders the UI blocks of fusion tool results: charts, diagrams, tables, markdown and code.";

/// The MIME type of an MCP App document.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The document: a full HTML5 page.
pub const HTML: &str = include_str!("../../assets/mcp-app.html");

/// The origins the document loads scripts from (its `_meta.ui.csp.resourceDomains`): exactly
/// the origins of its library URLs. It connects nowhere, so it declares no `connectDomains`.
pub const RESOURCE_DOMAINS: &[&str] = &["https://cdn.jsdelivr.net"];

/// The `_meta` of the resource's contents: `{"ui": {"csp": {"resourceDomains": [...]}}}`.
pub fn resource_meta() -> Value {
    json!({"ui": {"csp": {"resourceDomains": RESOURCE_DOMAINS}}})
}

/// The `_meta` of a tool that renders with the view: `{"ui": {"resourceUri": URI}}`.
pub fn tool_meta() -> Value {
    json!({"ui": {"resourceUri": URI}})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `https://…/` origins of the `src` URLs in the document's library table.
    fn script_origins() -> Vec<&'static str> {
        let mut origins: Vec<&str> = HTML
            .split("src: \"")
            .skip(1)
            .filter_map(|rest| {
                let url = &rest[..rest.find('"')?];
                let host_end = url.strip_prefix("https://")?.find('/')? + "https://".len();
                Some(&url[..host_end])
            })
            .collect();
        origins.sort_unstable();
        origins.dedup();
        origins
    }

    #[test]
    fn the_document_is_a_full_html5_page() {
        assert!(HTML.starts_with("<!doctype html>\n<html lang=\"en\">"));
        assert!(HTML.trim_end().ends_with("</html>"));
        assert!(HTML.contains("<meta charset=\"utf-8\">"));
    }

    #[test]
    fn the_declared_origins_are_exactly_the_ones_the_document_loads_from() {
        assert_eq!(script_origins(), RESOURCE_DOMAINS);
        assert_eq!(
            resource_meta(),
            json!({"ui": {"csp": {"resourceDomains": ["https://cdn.jsdelivr.net"]}}})
        );
        assert!(!HTML.contains("connectDomains"));
    }

    #[test]
    fn every_library_is_pinned_and_integrity_checked() {
        let libraries = HTML.matches("src: \"https://").count();
        assert_eq!(libraries, 4, "echarts, mermaid, marked, dompurify");
        assert_eq!(HTML.matches("integrity: \"sha384-").count(), libraries);
        for rest in HTML.split("src: \"").skip(1) {
            let url = &rest[..rest.find('"').unwrap_or(0)];
            assert!(url.contains('@'), "{url} names no version");
            assert!(!url.contains("@latest") && !url.contains("/+esm"), "{url}");
        }
    }

    #[test]
    fn tools_name_the_resource() {
        assert_eq!(
            tool_meta(),
            json!({"ui": {"resourceUri": "ui://fusion/blocks"}})
        );
    }
}
