//! The MCP Apps view over MCP stdio: the real `billing_server` and `tasks_server` list and read
//! the `ui://` resource, declare the resources capability, and name the view on the tools whose
//! responses carry UI blocks, while the text blocks the model reads stay as they were.

use rmcp::model::{ReadResourceRequestParams, ResourceContents, Tool};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::process::Command;

const URI: &str = "ui://fusion/blocks";
const MIME: &str = "text/html;profile=mcp-app";
const DOCUMENT: &str = include_str!("../../../fusion-runtime/assets/mcp-app.html");

async fn start(binary: &str) -> RunningService<RoleClient, ()> {
    let transport = TokioChildProcess::new(Command::new(binary)).expect("the server starts");
    ().serve(transport)
        .await
        .expect("the MCP handshake succeeds")
}

fn meta(tool: &Tool) -> Value {
    serde_json::to_value(&tool.meta).expect("_meta serializes")
}

#[tokio::test(flavor = "current_thread")]
async fn billing_server_serves_the_view_and_names_it_on_billing() {
    let client = start(env!("CARGO_BIN_EXE_billing_server")).await;
    let info = client.peer_info().expect("the server introduced itself");
    assert!(
        info.capabilities.resources.is_some(),
        "resources capability"
    );

    let tools = client.list_all_tools().await.expect("tools/list answers");
    assert_eq!(meta(&tools[0]), json!({"ui": {"resourceUri": URI}}));
    assert_eq!(tools[1].name, "invoice_stats");
    assert_eq!(meta(&tools[1]), Value::Null, "no UI blocks, no view");

    let resources = client
        .list_all_resources()
        .await
        .expect("resources/list answers");
    let listed = serde_json::to_value(&resources).expect("serializes");
    assert_eq!(
        listed,
        json!([{
            "uri": URI,
            "name": "fusion-ui-blocks",
            "title": "fusion UI blocks",
            "description": "Renders the UI blocks of fusion tool results: charts, diagrams, tables, markdown and code.",
            "mimeType": MIME,
            "_meta": {"ui": {"csp": {"resourceDomains": ["https://cdn.jsdelivr.net"]}}}
        }])
    );

    let read = client
        .read_resource(ReadResourceRequestParams::new(URI))
        .await
        .expect("resources/read answers");
    let [
        ResourceContents::TextResourceContents {
            uri,
            mime_type,
            text,
            meta,
        },
    ] = read.contents.as_slice()
    else {
        panic!("one text content: {:?}", read.contents);
    };
    assert_eq!((uri.as_str(), mime_type.as_deref()), (URI, Some(MIME)));
    assert_eq!(text, DOCUMENT, "the document's bytes, as committed");
    assert_eq!(
        serde_json::to_value(meta).expect("serializes"),
        json!({"ui": {"csp": {"resourceDomains": ["https://cdn.jsdelivr.net"]}}})
    );

    let missing = client
        .read_resource(ReadResourceRequestParams::new("ui://fusion/nope"))
        .await
        .expect_err("an unknown resource is an error");
    assert!(
        missing.to_string().contains("ui://fusion/blocks"),
        "{missing}"
    );
    client.cancel().await.expect("the session closes");
}

#[tokio::test(flavor = "current_thread")]
async fn tasks_server_serves_the_same_view() {
    let client = start(env!("CARGO_BIN_EXE_tasks_server")).await;
    let tools = client.list_all_tools().await.expect("tools/list answers");
    assert_eq!(meta(&tools[0]), json!({"ui": {"resourceUri": URI}}));
    let read = client
        .read_resource(ReadResourceRequestParams::new(URI))
        .await
        .expect("resources/read answers");
    let ResourceContents::TextResourceContents { text, .. } = &read.contents[0] else {
        panic!("a text content");
    };
    assert_eq!(text, DOCUMENT);
    client.cancel().await.expect("the session closes");
}

/// The document's policy allows its one inline script by hash: an edit of the script without a
/// new hash would leave the view dead in every host (`node tests/browser/csp-hash.mjs` fixes it).
#[test]
fn the_document_policy_names_its_inline_script_by_hash() {
    let start = DOCUMENT.find("<script>").expect("an inline script") + "<script>".len();
    let end = DOCUMENT[start..].find("</script>").expect("closed") + start;
    let digest = Sha256::digest(&DOCUMENT.as_bytes()[start..end]);
    let wanted = format!("'sha256-{}'", base64(&digest));
    assert!(
        DOCUMENT.contains(&format!("script-src {wanted} https://cdn.jsdelivr.net;")),
        "stale script hash, wanted {wanted}: run `node tests/browser/csp-hash.mjs`"
    );
    assert_eq!(
        DOCUMENT.matches("<script").count(),
        1,
        "one script, no other inline code"
    );
    for forbidden in [
        "eval(",
        "new Function",
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "connectDomains",
    ] {
        assert!(
            !DOCUMENT.contains(forbidden),
            "the document uses {forbidden}"
        );
    }
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The text blocks and the `_meta` of one `billing` call by a client whose `initialize`
/// declares `capabilities`.
async fn get_invoice_as(capabilities: Value) -> (Vec<String>, Value) {
    let config: rmcp::model::ClientConfig = serde_json::from_value(json!({
        "protocolVersion": "2025-11-25",
        "capabilities": capabilities,
        "clientInfo": {"name": "fusion-test", "version": "0"}
    }))
    .expect("a client config");
    let transport = TokioChildProcess::new(Command::new(env!("CARGO_BIN_EXE_billing_server")))
        .expect("the server starts");
    let client = config.serve(transport).await.expect("the handshake");
    let arguments = json!({"action": "get_invoice", "id": "INV-0001"});
    let result = client
        .call_tool(
            rmcp::model::CallToolRequestParams::new("billing")
                .with_arguments(arguments.as_object().cloned().unwrap_or_default()),
        )
        .await
        .expect("tools/call answers");
    client.cancel().await.expect("the session closes");
    let result = serde_json::to_value(result).expect("serializes");
    let texts = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|block| block["text"].as_str().map(str::to_owned))
        .collect();
    (texts, result["_meta"].clone())
}

/// wire format §4.6 over stdio: a client that declares the MCP Apps extension gets the UI
/// blocks in `_meta["fusion/ui"]` and none in the model's text; one that does not (or declares
/// it without the app MIME type) gets today's text.
#[tokio::test(flavor = "current_thread")]
async fn ui_blocks_go_to_meta_only_for_a_client_that_renders_apps() {
    let apps = json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": [MIME]}}});
    let (texts, meta) = get_invoice_as(apps).await;
    let moved: Vec<&str> = meta["fusion/ui"]
        .as_array()
        .expect("the UI blocks in _meta")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(moved.len(), 1, "{meta}");
    assert!(moved[0].starts_with("<ui_passthrough type=\"echarts\""));
    assert!(!texts.iter().any(|t| t.starts_with("<ui_passthrough")));

    let (plain, meta) = get_invoice_as(json!({})).await;
    assert_eq!(meta, Value::Null);
    let ui: Vec<&String> = plain
        .iter()
        .filter(|t| t.starts_with("<ui_passthrough"))
        .collect();
    assert_eq!(ui, [moved[0]]);
    let rest: Vec<&String> = plain
        .iter()
        .filter(|t| !t.starts_with("<ui_passthrough"))
        .collect();
    assert_eq!(
        rest,
        texts.iter().collect::<Vec<_>>(),
        "the other blocks are the same bytes"
    );

    let other = json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html"]}}});
    let (texts, meta) = get_invoice_as(other).await;
    assert_eq!((texts, meta), (plain, Value::Null));
}
