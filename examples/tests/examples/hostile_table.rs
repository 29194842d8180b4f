//! One table of hostile inputs, sent to the real `billing_server` over stdio (one line each)
//! and over Streamable HTTP (one POST body each): every row gets the same JSON-RPC answer on
//! both (or none on both: a notification is never answered, HTTP says 202), with the HTTP
//! status the transport specification gives (400 for a body that is not a JSON-RPC request,
//! never a 5xx), and both servers go on answering afterwards.
//!
//! Both transports classify raw input in one place (`fusion_runtime`'s input guard), so a row
//! that differs is a bug in the guard or in what surrounds it.

use serde_json::{Value, json};

use super::http::{Server, exchange, head, status};
use super::stdio_guard::Session;

/// What a row must get.
enum Expect {
    /// A JSON-RPC error with this id and code, and this HTTP status.
    Error(Value, i64, &'static str),
    /// A result (or rmcp's own error) with this id; HTTP 200.
    Answer(Value),
    /// Nothing on stdio; 202 Accepted without a body over HTTP.
    Silence,
}

/// The rows: a name, the input, and what it gets.
#[allow(clippy::too_many_lines, reason = "one table, a row per kind of input")]
fn table() -> Vec<(&'static str, Vec<u8>, Expect)> {
    let nested = |levels: usize| format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
    let call = |id: &str, arguments: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"billing","arguments":{arguments}}}}}"#
        )
        .into_bytes()
    };
    let null = Value::Null;
    vec![
        (
            "malformed JSON",
            br#"{"jsonrpc":"2.0","id":1,"method":"#.to_vec(),
            Expect::Error(null.clone(), -32700, "400"),
        ),
        (
            "not JSON at all",
            b"hello".to_vec(),
            Expect::Error(null.clone(), -32700, "400"),
        ),
        (
            "invalid UTF-8",
            b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"\xff\"}".to_vec(),
            Expect::Error(null.clone(), -32700, "400"),
        ),
        (
            "nested deeper than the parser allows, id readable",
            call(
                "3",
                &format!(r#"{{"action":"get_invoice","id":{}}}"#, nested(200)),
            ),
            Expect::Error(json!(3), -32700, "400"),
        ),
        (
            "a number beyond f64, id readable",
            call("\"four\"", r#"{"action":"get_invoice","id":1e400}"#),
            Expect::Error(json!("four"), -32700, "400"),
        ),
        (
            "a batch",
            br#"[{"jsonrpc":"2.0","id":5,"method":"ping"}]"#.to_vec(),
            Expect::Error(null.clone(), -32600, "400"),
        ),
        (
            "not an object",
            b"5".to_vec(),
            Expect::Error(null.clone(), -32600, "400"),
        ),
        (
            "an id that is an object",
            br#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#.to_vec(),
            Expect::Error(null.clone(), -32600, "400"),
        ),
        (
            "jsonrpc is not 2.0",
            br#"{"jsonrpc":"1.0","id":6,"method":"ping"}"#.to_vec(),
            Expect::Error(json!(6), -32600, "400"),
        ),
        (
            "no method, result or error",
            br#"{"jsonrpc":"2.0","id":7}"#.to_vec(),
            Expect::Error(json!(7), -32600, "400"),
        ),
        (
            "method is not a string",
            br#"{"jsonrpc":"2.0","id":8,"method":1}"#.to_vec(),
            Expect::Error(json!(8), -32600, "400"),
        ),
        (
            "tools/call arguments not an object",
            call("9", "[1]"),
            Expect::Error(json!(9), -32602, "200"),
        ),
        (
            "tools/call without a name",
            br#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"arguments":{}}}"#
                .to_vec(),
            Expect::Error(json!(10), -32602, "200"),
        ),
        (
            "params not an object",
            br#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":5}"#.to_vec(),
            Expect::Error(json!(11), -32602, "200"),
        ),
        (
            "an unknown tool (a protocol error over MCP, wire format §13.3)",
            br#"{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#
                .to_vec(),
            Expect::Error(json!(15), -32602, "200"),
        ),
        (
            "a malformed notification",
            br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#.to_vec(),
            Expect::Silence,
        ),
        (
            "a notification with the wrong version",
            br#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#.to_vec(),
            Expect::Silence,
        ),
        (
            "params null",
            br#"{"jsonrpc":"2.0","id":12,"method":"ping","params":null}"#.to_vec(),
            Expect::Answer(json!(12)),
        ),
        (
            "deep but within the parser's limits",
            call(
                "13",
                &format!(r#"{{"action":"get_invoice","id":{}}}"#, nested(100)),
            ),
            Expect::Answer(json!(13)),
        ),
        (
            "a byte order mark",
            b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"ping\"}".to_vec(),
            Expect::Answer(json!(14)),
        ),
    ]
}

/// The body of an HTTP/1.1 response (`Content-Length` or chunked).
fn body_of(response: &str) -> String {
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((response, ""));
    if !head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        return body.to_owned();
    }
    let mut rest = body;
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
    out
}

#[test]
fn every_hostile_row_is_answered_alike_over_stdio_and_http() {
    let mut session = Session::initialized();
    let server = Server::start(&[]);
    for (name, input, expect) in table() {
        // stdio: one line; its answer, or none (a ping is answered next).
        session.send_bytes(&input);
        let stdio = match expect {
            Expect::Silence => None,
            _ => Some(session.recv()),
        };
        session.assert_alive();
        // HTTP: one POST.
        let mut request = head(&server, "", input.len()).into_bytes();
        request.extend_from_slice(&input);
        let response = exchange(&server, &request);
        let body = body_of(&response);
        let http_code = status(&response).to_owned();
        match (&expect, stdio) {
            (Expect::Silence, None) => {
                assert_eq!(http_code, "202", "{name}: {response}");
                assert!(body.is_empty(), "{name}: {response}");
            }
            (Expect::Error(id, code, http_status), Some(stdio)) => {
                let stdio: Value = serde_json::from_str(&stdio).expect("a JSON line");
                let http: Value = serde_json::from_str(&body)
                    .unwrap_or_else(|_| panic!("{name}: a JSON body: {response}"));
                assert_eq!(stdio, http, "{name}: the same answer on both");
                assert_eq!(&stdio["id"], id, "{name}: {stdio}");
                assert_eq!(stdio["error"]["code"], json!(code), "{name}: {stdio}");
                assert_eq!(http_code, *http_status, "{name}: {response}");
            }
            (Expect::Answer(id), Some(stdio)) => {
                let stdio: Value = serde_json::from_str(&stdio).expect("a JSON line");
                let http: Value = serde_json::from_str(&body)
                    .unwrap_or_else(|_| panic!("{name}: a JSON body: {response}"));
                assert_eq!(stdio, http, "{name}: the same answer on both");
                assert_eq!(&stdio["id"], id, "{name}: {stdio}");
                assert_eq!(http_code, "200", "{name}: {response}");
            }
            _ => unreachable!("stdio is read for every row but the silent ones"),
        }
        // The HTTP server still answers.
        let ping = br#"{"jsonrpc":"2.0","id":99,"method":"ping"}"#;
        let mut request = head(&server, "", ping.len()).into_bytes();
        request.extend_from_slice(ping);
        let response = exchange(&server, &request);
        assert_eq!(status(&response), "200", "{name}: then a ping: {response}");
    }
    session.finish();
}

/// What only HTTP can send wrong: an empty body, a broken chunk, a body shorter than its
/// `Content-Length`, a bearer scheme in capitals.
#[test]
fn http_framing_mistakes_are_4xx_with_a_json_rpc_error() {
    let server = Server::start(&[]);
    let empty = exchange(&server, head(&server, "", 0).as_bytes());
    assert_eq!(status(&empty), "400", "{empty}");
    let body: Value = serde_json::from_str(&body_of(&empty)).expect("a JSON-RPC error");
    assert_eq!(body["error"]["code"], json!(-32700), "{body}");
    assert_eq!(body["id"], Value::Null, "{body}");

    let chunked =
        head(&server, "Transfer-Encoding: chunked\r\n", 0).replace("Content-Length: 0\r\n", "");
    let broken = exchange(
        &server,
        format!("{chunked}zz\r\nnot a chunk\r\n0\r\n\r\n").as_bytes(),
    );
    assert!(
        broken.is_empty() || status(&broken).starts_with('4'),
        "{broken}"
    );

    // Fewer bytes than announced, then the client stops sending.
    let mut stream = std::net::TcpStream::connect(server_address(&server)).expect("connects");
    stream
        .set_read_timeout(Some(std::time::Duration::from_mins(1)))
        .expect("a timeout");
    let short = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    std::io::Write::write_all(&mut stream, head(&server, "", short.len() + 50).as_bytes())
        .expect("sent");
    std::io::Write::write_all(&mut stream, short).expect("sent");
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut response = Vec::new();
    let _ = std::io::Read::read_to_end(&mut stream, &mut response);
    let response = String::from_utf8_lossy(&response);
    assert!(
        response.is_empty() || status(&response).starts_with('4'),
        "{response}"
    );
}

fn server_address(server: &Server) -> String {
    let head = head(server, "", 0);
    head.lines()
        .find_map(|line| line.strip_prefix("Host: "))
        .expect("a Host line")
        .to_owned()
}
