//! Asynchronous fusion handlers inside rmcp servers, in process (rmcp's client and server over
//! an in-memory duplex pipe): `route_async` in a `#[tool_router]` server and `tool_async` in a
//! `FusionServer`. A handler that awaits answers; one that fails or panics while its future is
//! polled answers `INTERNAL_ERROR` (wire format §13.7) and the server keeps serving.

use fusion_runtime::rmcp::FusionServer;
use fusion_runtime::{Call, ToolSet};
use fusion_runtime::{Presenter, Tool};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

const INTERNAL_ERROR: &str = "<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n<message>[jobs/{action}] The action failed with an internal error.</message>\n<recovery>This may be a transient failure. Retry the call once; if it fails again, tell the user the action is unavailable.</recovery>\n</tool_error>";

#[derive(Presenter)]
struct Job {
    id: String,
    #[redact]
    owner: String,
}

/// Run jobs
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "jobs", select)]
enum Jobs {
    /// Fetch a job
    #[fusion(returns = Job, structured)]
    Get { id: String },
    /// Fail
    Fail,
    /// Panic after awaiting
    Panic,
}

type Answer = Result<fusion_runtime::ToolResponse, Box<dyn std::error::Error + Send + Sync>>;

async fn jobs(action: Jobs, call: Call) -> Answer {
    // A real suspension point: the future is pending once before it answers.
    tokio::task::yield_now().await;
    match action {
        Jobs::Get { id } => Ok(call
            .present(&Job {
                id,
                owner: "ada@example.com".into(),
            })
            .build()?),
        Jobs::Fail => Err("the queue at 10.0.0.7 refused the job".into()),
        Jobs::Panic => {
            tokio::task::yield_now().await;
            panic!("a secret panic in the future")
        }
    }
}

/// A plain rmcp server with one fusion tool added by `route_async`.
#[derive(Clone)]
struct Host {
    greeting: std::sync::Arc<String>,
    tool_router: ToolRouter<Host>,
}

#[tool_router]
impl Host {
    /// Say hello
    #[tool]
    fn hello(&self) -> String {
        self.greeting.to_string()
    }
}

impl Host {
    fn new() -> Self {
        let route = fusion_runtime::rmcp::route_async(|_: &Self, action: Jobs, call: Call| {
            jobs(action, call)
        })
        .unwrap();
        Host {
            greeting: std::sync::Arc::new("hello".into()),
            tool_router: Self::tool_router().with_route(route),
        }
    }
}

#[tool_handler(router = self.tool_router, name = "host")]
impl ServerHandler for Host {}

/// Serves `server` on one end of an in-memory pipe and connects a client to the other.
async fn connect<S: ServerHandler>(server: S) -> RunningService<RoleClient, ()> {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = server.serve(server_end).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    ().serve(client_end)
        .await
        .expect("the MCP handshake succeeds")
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &str,
    arguments: Value,
) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments))
        .await
        .expect("tools/call answers")
}

fn text(result: &CallToolResult) -> Vec<String> {
    result
        .content
        .iter()
        .map(|block| block.as_text().expect("text blocks").text.clone())
        .collect()
}

/// The three outcomes, the same through either server.
async fn check(client: &RunningService<RoleClient, ()>) {
    let got = call(
        client,
        "jobs",
        json!({"action": "get", "id": "J-1", "_select": ["owner"]}),
    )
    .await;
    assert_eq!(text(&got), ["{\n  \"owner\": \"[REDACTED]\"\n}"]);
    assert_eq!(got.structured_content, Some(json!({"owner": "[REDACTED]"})));
    assert_eq!(got.is_error, None);

    for action in ["fail", "panic"] {
        let failed = call(client, "jobs", json!({"action": action})).await;
        assert_eq!(text(&failed), [INTERNAL_ERROR.replace("{action}", action)]);
        assert_eq!(failed.is_error, Some(true));
    }

    // Still serving after the panic.
    let again = call(client, "jobs", json!({"action": "get", "id": "J-2"})).await;
    assert_eq!(
        again.structured_content,
        Some(json!({"id": "J-2", "owner": "[REDACTED]"}))
    );
}

#[tokio::test(flavor = "current_thread")]
async fn route_async_in_a_tool_router_server() {
    let client = connect(Host::new()).await;
    check(&client).await;
    // The rmcp tool next to it is untouched.
    assert_eq!(text(&call(&client, "hello", json!({})).await), ["hello"]);
    client.cancel().await.expect("the session closes");
}

#[tokio::test(flavor = "current_thread")]
async fn tool_async_in_a_fusion_server() {
    let tools = ToolSet::new().tool_async(jobs).unwrap();
    let client = connect(FusionServer::new("jobs", tools)).await;
    check(&client).await;
    client.cancel().await.expect("the session closes");
}

/// A report whose presentation carries a UI block.
#[derive(Presenter)]
#[ui(markdown = "Report {id}")]
struct Report {
    id: String,
}

/// Fetch a report
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(name = "report", returns = Report)]
struct GetReport {
    id: String,
}

/// A plain rmcp server with fusion tools added by `route` and `route_async`.
#[derive(Clone)]
struct Reports {
    tool_router: ToolRouter<Reports>,
}

#[tool_router(allow_empty)]
impl Reports {}

impl Reports {
    fn new() -> Self {
        let route = fusion_runtime::rmcp::route(|_: &Self, input: GetReport, call: &Call| {
            call.present(&Report { id: input.id }).build()
        })
        .unwrap();
        Reports {
            tool_router: Self::tool_router().with_route(route),
        }
    }
}

#[tool_handler(router = self.tool_router, name = "reports")]
impl ServerHandler for Reports {}

/// wire format §4.6 through `route` in a plain rmcp server: the UI block goes to `_meta` for a
/// client that declares the MCP Apps extension, and stays text for one that does not.
#[tokio::test(flavor = "current_thread")]
async fn route_moves_ui_blocks_to_meta_for_a_client_that_renders_apps() {
    for apps in [true, false] {
        let capabilities = if apps {
            json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}})
        } else {
            json!({})
        };
        let config: rmcp::model::ClientConfig = serde_json::from_value(json!({
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities,
            "clientInfo": {"name": "fusion-test", "version": "0"}
        }))
        .expect("a client config");
        let (server_end, client_end) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            let running = Reports::new()
                .serve(server_end)
                .await
                .expect("the server starts");
            let _ = running.waiting().await;
        });
        let client = config.serve(client_end).await.expect("the handshake");
        let Value::Object(arguments) = json!({"id": "R-1"}) else {
            unreachable!()
        };
        let result = client
            .call_tool(CallToolRequestParams::new("report").with_arguments(arguments))
            .await
            .expect("tools/call answers");
        let texts: Vec<String> = result
            .content
            .iter()
            .filter_map(|block| block.as_text().map(|t| t.text.clone()))
            .collect();
        let ui = "<ui_passthrough type=\"markdown\">\nReport R-1\n</ui_passthrough>";
        let meta = serde_json::to_value(&result.meta).expect("serializes");
        if apps {
            assert_eq!(texts, ["{\n  \"id\": \"R-1\"\n}"]);
            assert_eq!(meta, json!({"fusion/ui": [ui]}));
        } else {
            assert_eq!(texts, ["{\n  \"id\": \"R-1\"\n}", ui]);
            assert_eq!(meta, Value::Null);
        }
        client.cancel().await.expect("the session closes");
    }
}
