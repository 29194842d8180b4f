//! The stdio guard against the real `billing_server`: every kind of input that used to stop,
//! confuse or stall the server, one line at a time, each with its exact JSON-RPC answer (or
//! none) and a `ping` after it that must still be answered.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stdio-guard","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
// The billing tools use the MCP Apps view, so the server declares resources too.
const INITIALIZE_ANSWER: &str = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"resources":{},"tools":{}},"serverInfo":{"name":"billing","version":"0.1.0"}}}"#;

/// Only a guard against a hung test: a server that never answers fails the test instead of
/// stalling it. No assertion depends on timing.
const HANG_GUARD: Duration = Duration::from_mins(2);

/// A running `billing_server`, spoken to line by line.
pub(super) struct Session {
    server: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    pings: u64,
}

impl Session {
    /// A server, not yet initialized.
    pub(super) fn start() -> Self {
        let mut server = Command::new(env!("CARGO_BIN_EXE_billing_server"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let stdin = server.stdin.take();
        let stdout = server.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Session {
            server,
            stdin,
            lines,
            pings: 1000,
        }
    }

    /// A server past the handshake.
    pub(super) fn initialized() -> Self {
        let mut session = Session::start();
        session.send(INITIALIZE);
        assert_eq!(session.recv(), INITIALIZE_ANSWER);
        session.send(INITIALIZED);
        session.assert_alive();
        session
    }

    pub(super) fn send_bytes(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("the input is open");
        stdin.write_all(line).expect("the server reads");
        stdin.write_all(b"\n").expect("the server reads");
        stdin.flush().expect("the server reads");
    }

    pub(super) fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    /// The next line the server writes.
    pub(super) fn recv(&self) -> String {
        self.lines
            .recv_timeout(HANG_GUARD)
            .expect("the server answers")
    }

    /// A `ping` is answered next: nothing was answered for the lines before it, and the
    /// session goes on.
    pub(super) fn assert_alive(&mut self) {
        self.pings += 1;
        let id = self.pings;
        self.send(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#));
        assert_eq!(
            self.recv(),
            format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)
        );
    }

    /// `line` is answered with exactly `answer`, and the session goes on.
    fn assert_answer(&mut self, line: &str, answer: &str) {
        self.send(line);
        assert_eq!(self.recv(), answer, "the answer to {line}");
        self.assert_alive();
    }

    /// `line` gets no answer, and the session goes on.
    fn assert_silent(&mut self, line: &str) {
        self.send(line);
        self.assert_alive();
    }

    /// Ends the input: the server writes nothing more and exits with success.
    pub(super) fn finish(mut self) {
        drop(self.stdin.take());
        let status = self.server.wait().expect("the server exits");
        let mut stderr = String::new();
        if let Some(mut pipe) = self.server.stderr.take() {
            pipe.read_to_string(&mut stderr).expect("stderr");
        }
        assert!(status.success(), "{status:?}\n{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        let rest: Vec<String> = self.lines.try_iter().collect();
        assert!(rest.is_empty(), "unexpected lines: {rest:?}");
    }
}

fn error(id: &str, code: i64, message: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":{}}}}}"#,
        Value::from(message)
    )
}

#[test]
fn notifications_and_responses_before_initialize_are_ignored() {
    for first in [
        INITIALIZED,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#,
        r#"{"jsonrpc":"2.0","method":"not/a/notification/of/mcp"}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"no"}}"#,
    ] {
        let mut session = Session::start();
        session.assert_silent(first);
        session.send(INITIALIZE);
        assert_eq!(session.recv(), INITIALIZE_ANSWER, "after {first}");
        session.assert_silent(INITIALIZED);
        session.finish();
    }
}

#[test]
fn lines_that_do_not_parse_get_a_parse_error() {
    let mut session = Session::initialized();
    let parse_error = |reason: &str| error("null", -32700, &format!("Parse error: {reason}"));
    session.assert_answer(
        r#"{"jsonrpc":"2.0","id":1,"method":"#,
        &parse_error("EOF while parsing a value at line 1 column 33"),
    );
    session.send_bytes(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}");
    assert_eq!(
        session.recv(),
        parse_error("invalid unicode code point at line 1 column 35")
    );
    session.assert_alive();
    // Valid JSON beyond what the parser holds: the id can be read, and the answer carries it.
    let parse_error = |reason: &str| error("1", -32700, &format!("Parse error: {reason}"));
    session.assert_answer(
        r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\ud800"}}"#,
        &parse_error("unexpected end of hex escape at line 1 column 62"),
    );
    let nested = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"x":{}{}}}}}"#,
        "[".repeat(126),
        "]".repeat(126)
    );
    session.assert_answer(
        &nested,
        &parse_error("recursion limit exceeded at line 1 column 180"),
    );
    session.assert_answer(
        r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":1e400}}"#,
        &parse_error("number out of range at line 1 column 59"),
    );
    session.finish();
}

#[test]
fn invalid_requests_get_invalid_request_with_an_id() {
    let mut session = Session::initialized();
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            "null",
            "`id` must be a string or an integer",
        ),
        (
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
            "null",
            "`id` must be a string or an integer",
        ),
        (
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            "null",
            "batches are not supported: send one JSON-RPC message per line",
        ),
        (
            "[]",
            "null",
            "batches are not supported: send one JSON-RPC message per line",
        ),
        ("5", "null", "a JSON-RPC message is a JSON object"),
        (
            r#"{"foo":"boo"}"#,
            "null",
            "a message has a `method` (a request or a notification) or a `result` or an `error` (a response)",
        ),
        (
            r#"{"jsonrpc":"2.0","method":1,"params":"bar"}"#,
            "null",
            "`method` must be a string",
        ),
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            "1",
            "`jsonrpc` must be \"2.0\"",
        ),
        (
            r#"{"id":"no-version","method":"ping"}"#,
            "\"no-version\"",
            "`jsonrpc` must be \"2.0\"",
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":5}"#,
            "2",
            "`method` must be a string",
        ),
    ];
    for (line, id, reason) in cases {
        session.assert_answer(
            line,
            &error(id, -32600, &format!("Invalid Request: {reason}")),
        );
    }
    session.finish();
}

#[test]
fn tools_call_with_bad_params_gets_invalid_params() {
    let mut session = Session::initialized();
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"billing","arguments":[1,2]}}"#,
            "invalid type: sequence, expected a map",
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"billing","arguments":"x"}}"#,
            "invalid type: string \"x\", expected a map",
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#,
            "missing field `name`",
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":5}"#,
            "`params` must be an object",
        ),
    ];
    for (line, reason) in cases {
        let id = serde_json::from_str::<Value>(line).expect("a test line")["id"].to_string();
        session.assert_answer(
            line,
            &error(
                &id,
                -32602,
                &format!("Invalid params for tools/call: {reason}"),
            ),
        );
    }
    // An unknown method is still rmcp's -32601.
    session.assert_answer(
        r#"{"jsonrpc":"2.0","id":5,"method":"nope"}"#,
        &error("5", -32601, "nope"),
    );
    session.finish();
}

#[test]
fn notifications_are_never_answered() {
    let mut session = Session::initialized();
    for line in [
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":5}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/unknown","params":[1]}"#,
        r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#,
        r#"{"method":"anything"}"#,
        INITIALIZED,
        // The client answering a request the server never sent.
        r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
        "",
    ] {
        session.assert_silent(line);
    }
    session.finish();
}

/// The `content[0].text` of a `tools/call` answer with id `id`.
fn call_text(line: &str, id: &Value) -> String {
    let answer: Value = serde_json::from_str(line).expect("a JSON answer");
    assert_eq!(&answer["id"], id, "{line}");
    answer["result"]["content"][0]["text"]
        .as_str()
        .expect("a text block")
        .to_owned()
}

#[test]
fn requests_in_flight_that_share_an_id_each_get_an_answer() {
    let mut session = Session::initialized();
    let call = |action: &str| {
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
            "name": "billing", "arguments": {"action": action, "id": "INV-0001"}}})
        .to_string()
    };
    // Both are sent before either is answered.
    session.send(&call("get_invoice"));
    session.send(&call("remind"));
    let mut texts = [session.recv(), session.recv()].map(|line| call_text(&line, &json!(7)));
    texts.sort();
    assert!(texts[0].starts_with("<tool_error"), "{texts:?}");
    assert!(texts[1].starts_with('{'), "{texts:?}");
    session.assert_alive();
    // And string ids that share a value.
    session.send(r#"{"jsonrpc":"2.0","id":"x","method":"ping"}"#);
    session.send(r#"{"jsonrpc":"2.0","id":"x","method":"ping"}"#);
    for _ in 0..2 {
        assert_eq!(session.recv(), r#"{"jsonrpc":"2.0","id":"x","result":{}}"#);
    }
    session.finish();
}

#[test]
fn a_line_longer_than_the_limit_is_answered_without_being_kept() {
    let mut session = Session::initialized();
    let long = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"x":"{}"}}}}"#,
        "y".repeat(fusion_runtime::rmcp::MAX_LINE_BYTES)
    );
    session.assert_answer(
        &long,
        &error(
            "null",
            -32600,
            "Invalid Request: the line is longer than 16777216 bytes",
        ),
    );
    session.finish();
}

#[test]
fn a_huge_tool_name_gets_a_small_answer() {
    let mut session = Session::initialized();
    let name = "&".repeat(15_000_000);
    session.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": name, "arguments": {}}})
        .to_string(),
    );
    let answer = session.recv();
    // 15 MB in, well under 1 KB out: the name cut to 199 `&` and `…`, in the message and the data.
    assert!(answer.len() < 1000, "{} bytes", answer.len());
    let answer: Value = serde_json::from_str(&answer).expect("a JSON line");
    assert_eq!(answer["id"], json!(1));
    assert_eq!(
        answer["error"]["code"],
        json!(-32602),
        "an unknown tool: {answer}"
    );
    assert_eq!(
        answer["error"]["message"],
        json!(format!(
            "Unknown tool \"{}…\": check the available tools via tools/list and call a valid one.",
            "&".repeat(199)
        ))
    );
    session.assert_alive();
    session.finish();
}

#[test]
fn requests_in_flight_at_the_end_of_the_input_are_answered() {
    let mut session = Session::initialized();
    session.send(r#"{"jsonrpc":"2.0","id":"last","method":"tools/list"}"#);
    drop(session.stdin.take());
    let answer: Value = serde_json::from_str(&session.recv()).expect("a JSON answer");
    assert_eq!(answer["id"], json!("last"));
    assert_eq!(answer["result"]["tools"][0]["name"], json!("billing"));
    session.finish();
}
