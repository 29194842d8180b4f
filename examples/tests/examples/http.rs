//! Streamable HTTP, end to end: the real `billing_server --http` on a free loopback port.
//!
//! - Clients no one here wrote, the official Python client (the `PyPI` package `mcp`) and the TypeScript SDK
//!   client (`@modelcontextprotocol/sdk`, installed in `clients/http` by `npm ci`), call every
//!   billing action (`clients/http/calls.json`), stateless and in rmcp's legacy session mode;
//!   every answer must equal the stdio server's answer to the same call sequence.
//! - Each safety default, with raw HTTP requests: a foreign `Origin` gets 403, a missing or wrong
//!   bearer token 401 with `WWW-Authenticate: Bearer`, an oversized body 413, a client that
//!   stops sending 408, and a call in flight at SIGTERM completes before the process exits 0.
//!
//! Outside CI, a client that is not installed is skipped with one line saying how to install
//! it; under `CI=true` nothing is skipped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_billing_server");

fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients/http")
}

/// A `billing_server --http` process on a free loopback port; killed when dropped.
pub(super) struct Server {
    child: Child,
    pub(super) url: String,
    address: String,
    stderr: Arc<Mutex<Vec<String>>>,
}

impl Server {
    pub(super) fn start(options: &[&str]) -> Server {
        Server::start_with_env(options, &[])
    }

    pub(super) fn start_with_env(options: &[&str], env: &[(&str, &str)]) -> Server {
        let mut command = Command::new(BINARY);
        command
            .args(["--http", "127.0.0.1:0"])
            .args(options)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (name, value) in env {
            command.env(name, value);
        }
        let mut child = command.spawn().expect("billing_server starts");
        let mut lines = BufReader::new(child.stderr.take().expect("stderr is piped")).lines();
        let mut url = None;
        for line in lines.by_ref() {
            let line = line.expect("stderr is UTF-8");
            if let Some(rest) = line.split(" at ").nth(1) {
                url = rest.split_whitespace().next().map(str::to_owned);
                break;
            }
            assert!(line.is_empty(), "billing_server failed to start: {line}");
        }
        let url = url.expect("billing_server prints the URL it serves");
        let address = url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
            .to_owned();
        // Keep reading stderr, so that the shutdown messages can be checked.
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                sink.lock().expect("not poisoned").push(line);
            }
        });
        Server {
            child,
            url,
            address,
            stderr,
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().expect("not poisoned").join("\n")
    }

    /// Sends SIGTERM.
    fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a client is present; outside CI, prints how to install it when it is not.
fn present(what: &str, available: bool, install: &str) -> bool {
    if available {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{what} is missing under CI=true: {install}"
    );
    eprintln!("skipped: {what} is not installed (install with: {install})");
    false
}

pub(super) fn python_mcp() -> bool {
    let found = Command::new("python3")
        .args(["-c", "import mcp"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    present("the Python mcp client", found, "pip install mcp")
}

pub(super) fn typescript_sdk() -> bool {
    let found = clients_dir()
        .join("node_modules/@modelcontextprotocol/sdk")
        .is_dir();
    present(
        "the TypeScript SDK client",
        found,
        "npm ci --prefix clients/http",
    )
}

/// Runs a client script; its stdout is one JSON document.
pub(super) fn run_client(program: &str, args: &[&str]) -> Value {
    let output = Command::new(program)
        .args(args)
        .current_dir(clients_dir())
        .output()
        .expect("the client runs");
    assert!(
        output.status.success(),
        "{program} {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the client prints JSON")
}

/// What every client compares: the content, `isError` (absent, true or false) and
/// `structuredContent` of each result.
fn comparable(result: &Value) -> Value {
    let mut kept = serde_json::Map::new();
    for key in ["content", "isError", "structuredContent", "error"] {
        if let Some(value) = result.get(key) {
            kept.insert(key.to_owned(), value.clone());
        }
    }
    Value::Object(kept)
}

/// The stdio server's answers to `calls.json`, in order, from a fresh process.
fn stdio_answers() -> Vec<Value> {
    let calls: Vec<(String, Value)> = serde_json::from_str(
        &std::fs::read_to_string(clients_dir().join("calls.json")).expect("calls.json"),
    )
    .expect("calls.json is a list of [name, arguments]");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let transport = TokioChildProcess::new(tokio::process::Command::new(BINARY))
            .expect("the stdio server starts");
        let client = ().serve(transport).await.expect("the MCP handshake succeeds");
        let mut answers = Vec::new();
        for (name, arguments) in calls {
            let Value::Object(arguments) = arguments else {
                panic!("arguments are objects");
            };
            let answer = match client
                .call_tool(CallToolRequestParams::new(name).with_arguments(arguments))
                .await
            {
                Ok(result) => serde_json::to_value(result).expect("a result serializes"),
                // A protocol error (an unknown tool), as the clients record it.
                Err(rmcp::ServiceError::McpError(error)) => {
                    json!({"error": {"code": error.code.0, "message": error.message}})
                }
                Err(error) => panic!("tools/call answers: {error}"),
            };
            answers.push(comparable(&answer));
        }
        answers
    })
}

fn check_client_run(run: &Value, sessions: bool) {
    assert_eq!(run["tools"], json!(["billing", "invoice_stats"]));
    assert_eq!(
        run["session"],
        json!(sessions),
        "{} client: session header",
        run["client"]
    );
    let answers: Vec<Value> = run["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(comparable)
        .collect();
    let expected = stdio_answers();
    assert_eq!(answers.len(), expected.len());
    for (index, (got, want)) in answers.iter().zip(&expected).enumerate() {
        assert_eq!(got, want, "{} client, call {index}", run["client"]);
    }
}

#[test]
fn python_client_stateless() {
    if !python_mcp() {
        return;
    }
    let server = Server::start(&[]);
    let run = run_client("python3", &["client.py", &server.url, "auto"]);
    assert_eq!(run["protocol"], "2026-07-28");
    check_client_run(&run, false);
}

#[test]
fn python_client_legacy_sessions() {
    if !python_mcp() {
        return;
    }
    let server = Server::start(&["--sessions"]);
    let run = run_client("python3", &["client.py", &server.url, "legacy"]);
    check_client_run(&run, true);
}

#[test]
fn typescript_client_stateless() {
    if !typescript_sdk() {
        return;
    }
    let server = Server::start(&[]);
    let run = run_client("node", &["client.mjs", &server.url]);
    check_client_run(&run, false);
}

#[test]
fn typescript_client_legacy_sessions() {
    if !typescript_sdk() {
        return;
    }
    let server = Server::start(&["--sessions"]);
    let run = run_client("node", &["client.mjs", &server.url]);
    check_client_run(&run, true);
}

#[test]
fn a_client_with_the_token_is_served() {
    if !python_mcp() {
        return;
    }
    let server = Server::start_with_env(
        &["--token-env", "FUSION_TEST_TOKENS"],
        &[("FUSION_TEST_TOKENS", "old-token, s3cr3t-token")],
    );
    let run = run_client(
        "python3",
        &["client.py", &server.url, "auto", "s3cr3t-token"],
    );
    check_client_run(&run, false);
}

// ---- raw HTTP: the safety defaults -------------------------------------------------------

const CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"billing","arguments":{"action":"remind","id":"INV-0002"}}}"#;

/// The head of a POST to `/mcp` with `extra` header lines and a `Content-Length`.
pub(super) fn head(server: &Server, extra: &str, length: usize) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nConnection: close\r\n{extra}Content-Length: {length}\r\n\r\n",
        server.address
    )
}

fn connect(server: &Server) -> TcpStream {
    let stream = TcpStream::connect(&server.address).expect("the server accepts connections");
    // Generous: only a server that never answers hits it.
    stream
        .set_read_timeout(Some(Duration::from_mins(1)))
        .expect("a read timeout");
    stream
}

/// Sends `request` whole and returns the response (status line, headers, body) as text.
pub(super) fn exchange(server: &Server, request: &[u8]) -> String {
    let mut stream = connect(server);
    stream.write_all(request).expect("the request is sent");
    read_all(&mut stream)
}

fn read_all(stream: &mut TcpStream) -> String {
    let mut response = Vec::new();
    // A reset after the server answered early (with the body unread) still leaves the answer.
    let _ = stream.read_to_end(&mut response);
    String::from_utf8_lossy(&response).into_owned()
}

fn post(server: &Server, extra: &str, body: &str) -> String {
    exchange(
        server,
        format!("{}{body}", head(server, extra, body.len())).as_bytes(),
    )
}

pub(super) fn status(response: &str) -> &str {
    response.split(' ').nth(1).unwrap_or("(no response)")
}

/// wire format §4.6 over Streamable HTTP, stateless: a request whose `_meta` carries the
/// 2026-07-28 client capabilities with the MCP Apps extension gets the UI blocks in
/// `_meta["fusion/ui"]`; one without gets them as text.
#[test]
fn ui_blocks_go_to_meta_for_a_request_that_declares_the_apps_extension() {
    let server = Server::start(&[]);
    let call = |meta: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"billing","arguments":{{"action":"get_invoice","id":"INV-0001"}}{meta}}}}}"#
        )
    };
    let declared = r#","_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}}"#;
    let apps = post(&server, "", &call(declared));
    assert_eq!(status(&apps), "200", "{apps}");
    assert!(
        apps.contains(r#""_meta":{"fusion/ui":["<ui_passthrough type=\"echarts\""#),
        "{apps}"
    );
    assert!(
        !apps.contains(r#"{"type":"text","text":"<ui_passthrough"#),
        "{apps}"
    );
    let plain = post(&server, "", &call(""));
    assert_eq!(status(&plain), "200", "{plain}");
    assert!(!plain.contains("fusion/ui"), "{plain}");
    assert!(
        plain.contains(r#"{"type":"text","text":"<ui_passthrough type=\"echarts\""#),
        "{plain}"
    );
}

#[test]
fn a_foreign_origin_gets_403_and_no_origin_passes() {
    let server = Server::start(&["--allow-origin", "https://app.example.com"]);
    let foreign = post(&server, "Origin: http://evil.example\r\n", CALL);
    assert_eq!(status(&foreign), "403", "{foreign}");
    let allowed = post(&server, "Origin: https://app.example.com\r\n", CALL);
    assert_eq!(status(&allowed), "200", "{allowed}");
    let without = post(&server, "", CALL);
    assert_eq!(status(&without), "200", "{without}");
    assert!(
        without.contains("Reminder queued for INV-0002."),
        "{without}"
    );
    // By default, pages served from this machine pass and others do not.
    let default = Server::start(&[]);
    let local = post(&default, "Origin: http://localhost:6274\r\n", CALL);
    assert_eq!(status(&local), "200", "{local}");
    let foreign = post(&default, "Origin: http://evil.example\r\n", CALL);
    assert_eq!(status(&foreign), "403", "{foreign}");
    // DNS rebinding: a loopback server reached under another name.
    let rebound = head(&server, "", CALL.len()).replacen(&server.address, "attacker.example", 1);
    let rebound = exchange(&server, format!("{rebound}{CALL}").as_bytes());
    assert_eq!(status(&rebound), "403", "{rebound}");
}

#[test]
fn a_missing_or_wrong_token_gets_401_with_a_bearer_challenge() {
    let dir = std::env::temp_dir().join(format!("fusion-http-tokens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let file = dir.join("tokens");
    std::fs::write(&file, "# one per line\nright-token\n").expect("the token file");
    let server = Server::start(&["--token-file", file.to_str().expect("UTF-8 path")]);
    for extra in [
        "",
        "Authorization: Bearer wrong-token\r\n",
        "Authorization: Basic cmlnaHQtdG9rZW4=\r\n",
    ] {
        let response = post(&server, extra, CALL);
        assert_eq!(status(&response), "401", "{extra}: {response}");
        assert!(
            response
                .to_ascii_lowercase()
                .contains("www-authenticate: bearer realm=\"mcp\""),
            "{response}"
        );
    }
    let right = post(&server, "Authorization: Bearer right-token\r\n", CALL);
    assert_eq!(status(&right), "200", "{right}");
    assert!(right.contains("Reminder queued for INV-0002."), "{right}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_oversized_body_gets_413() {
    let server = Server::start(&["--max-body", "1024"]);
    let padding = "x".repeat(2000);
    let large = CALL.replace("INV-0002", &padding);
    let response = post(&server, "", &large);
    assert_eq!(status(&response), "413", "{response}");
    // Without a Content-Length (chunked), the limit holds while the body is read.
    let mut chunked = head(&server, "Transfer-Encoding: chunked\r\n", 0)
        .replace("Content-Length: 0\r\n", "")
        .into_bytes();
    for _ in 0..3 {
        chunked.extend_from_slice(format!("{:x}\r\n{padding}\r\n", padding.len()).as_bytes());
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let response = exchange(&server, &chunked);
    assert_eq!(status(&response), "413", "{response}");
    let small = post(&server, "", CALL);
    assert_eq!(status(&small), "200", "{small}");
}

#[test]
fn a_client_that_stops_sending_is_timed_out() {
    let server = Server::start(&["--request-timeout-ms", "500"]);
    // The headers, then half the body, then nothing.
    let mut stream = connect(&server);
    stream
        .write_all(head(&server, "", CALL.len()).as_bytes())
        .expect("the head is sent");
    stream
        .write_all(&CALL.as_bytes()[..CALL.len() / 2])
        .expect("half the body is sent");
    let response = read_all(&mut stream);
    assert_eq!(status(&response), "408", "{response}");
    assert!(response.contains("Request Timeout"), "{response}");
    // Half a head: the connection is closed without an answer to a request never made.
    let mut stream = connect(&server);
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .expect("half a head is sent");
    let response = read_all(&mut stream);
    assert!(!response.contains(" 200 "), "{response}");
    // The server still answers others.
    let still_serving = post(&server, "", CALL);
    assert_eq!(status(&still_serving), "200", "{still_serving}");
}

#[test]
fn sigterm_during_a_call_lets_it_complete() {
    let mut server = Server::start(&[]);
    let mut stream = connect(&server);
    stream
        .write_all(head(&server, "", CALL.len()).as_bytes())
        .expect("the head is sent");
    let (first, rest) = CALL.as_bytes().split_at(CALL.len() / 2);
    stream.write_all(first).expect("half the body is sent");
    // Let the server read the head, so that the request is in flight.
    std::thread::sleep(Duration::from_millis(500));
    server.terminate();
    let mut waited = 0;
    while !server.stderr().contains("shutting down") && waited < 100 {
        std::thread::sleep(Duration::from_millis(100));
        waited += 1;
    }
    assert!(
        server
            .stderr()
            .contains("shutting down: 1 request(s) in flight"),
        "{}",
        server.stderr()
    );
    // New connections are refused once shutting down.
    assert!(TcpStream::connect(&server.address).is_err());
    stream
        .write_all(rest)
        .expect("the rest of the body is sent");
    let response = read_all(&mut stream);
    assert_eq!(status(&response), "200", "{response}");
    assert!(
        response.contains("Reminder queued for INV-0002."),
        "{response}"
    );
    let exit = server.child.wait().expect("the server exits");
    assert!(exit.success(), "{exit}");
    // The reader thread may lag the exit by a moment.
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        server.stderr().contains("every request finished"),
        "{}",
        server.stderr()
    );
}

/// One `billing get_invoice INV-0001` by a third-party client (`apps.py`, `apps.mjs`) over
/// `transport` (`stdio` or `http`), declaring the MCP Apps extension or not: the text blocks and
/// the `_meta` of the result.
fn apps_call(
    program: &str,
    script: &str,
    (transport, options): (&str, &[&str]),
    apps: bool,
) -> (Vec<String>, Value) {
    let server = (transport == "http").then(|| Server::start(options));
    let target = server.as_ref().map_or(BINARY, |s| s.url.as_str());
    let declare = if apps { "apps" } else { "plain" };
    let run = run_client(program, &[script, transport, target, declare]);
    let texts = run["texts"]
        .as_array()
        .expect("texts")
        .iter()
        .map(|t| t.as_str().expect("a text").to_owned())
        .collect();
    (texts, run["meta"].clone())
}

/// wire format §4.6 with the official clients, both ways: with the extension the UI blocks are in
/// `_meta["fusion/ui"]` and the text holds none; without it, the same blocks are text and there
/// is no `_meta`; every other block is the same bytes. `options` start the HTTP server.
fn check_apps_negotiation(program: &str, script: &str, transport: &str, options: &[&str]) {
    let (texts, meta) = apps_call(program, script, (transport, options), true);
    let moved: Vec<String> = meta["fusion/ui"]
        .as_array()
        .unwrap_or_else(|| panic!("{program} {transport}: no fusion/ui in {meta}"))
        .iter()
        .filter_map(|t| t.as_str().map(str::to_owned))
        .collect();
    assert_eq!(moved.len(), 1, "{meta}");
    assert!(moved[0].starts_with("<ui_passthrough type=\"echarts\""));
    assert!(!texts.iter().any(|t| t.starts_with("<ui_passthrough")));
    let (plain, meta) = apps_call(program, script, (transport, options), false);
    assert!(
        meta.is_null() || meta.get("fusion/ui").is_none(),
        "{program} {transport}: {meta}"
    );
    let (ui, rest): (Vec<String>, Vec<String>) = plain
        .into_iter()
        .partition(|t| t.starts_with("<ui_passthrough"));
    assert_eq!(ui, moved);
    assert_eq!(rest, texts);
}

#[test]
fn python_client_apps_negotiation_over_stdio_and_http() {
    if !python_mcp() {
        return;
    }
    // Revision 2026-07-28: the capabilities ride in each request's `_meta`, stateless.
    check_apps_negotiation("python3", "apps.py", "stdio", &[]);
    check_apps_negotiation("python3", "apps.py", "http", &[]);
}

#[test]
fn typescript_client_apps_negotiation_over_stdio_and_http() {
    if !typescript_sdk() {
        return;
    }
    check_apps_negotiation("node", "apps.mjs", "stdio", &[]);
    // This client speaks 2025-11-25: its capabilities come with `initialize`, which only a
    // session keeps.
    check_apps_negotiation("node", "apps.mjs", "http", &["--sessions"]);
    // A stateless server never learns them, so the client gets today's text (wire format §4.6).
    let server = Server::start(&[]);
    let run = run_client("node", &["apps.mjs", "http", &server.url, "apps"]);
    assert!(run["meta"].is_null(), "{run}");
    assert!(run["texts"].as_array().is_some_and(|t| {
        t.iter()
            .any(|t| t.as_str().is_some_and(|t| t.starts_with("<ui_passthrough")))
    }));
}
