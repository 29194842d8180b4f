//! Hostile input over MCP stdio, written as raw JSON-RPC lines to a `billing_server` process:
//! whatever a line holds, the server neither crashes nor stalls, every call that reaches fusion
//! gets its envelope, and the session keeps answering.
//!
//! Lines that never reach fusion get their JSON-RPC error from fusion's input guard: valid JSON
//! that `serde_json` cannot hold (nesting deeper than 128 levels, a number beyond the float
//! range) is a -32700 Parse error with the request's id, which can still be read; invalid UTF-8
//! a -32700 with `"id": null`; a line longer than 16 MiB a -32600 with `"id": null` (it was not
//! parsed, so its id is unknown), and `arguments` that are not an object a -32602 Invalid
//! params. `stdio_guard.rs` pins each kind of line one by one; `hostile_table.rs` checks that
//! HTTP answers each the same way.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// The length of the id of call 6.
const HUGE_ID_LEN: usize = 1_000_000;

/// A `tools/call` line with `arguments` written as raw JSON text.
fn call_line(id: u64, tool: &str, arguments: &str) -> Vec<u8> {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"{tool}\",\"arguments\":{arguments}}}}}\n"
    )
    .into_bytes()
}

/// The text of the only block of a `tools/call` result, and its `isError`.
fn only_block(response: &Value) -> (&str, Option<bool>) {
    let result = &response["result"];
    let content = result["content"].as_array().expect("a tools/call result");
    assert_eq!(content.len(), 1, "{response}");
    (
        content[0]["text"].as_str().expect("a text block"),
        result["isError"].as_bool(),
    )
}

/// The session: the handshake, then one hostile call per id from 2 to 10, then a plain call (11).
fn hostile_input() -> Vec<u8> {
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "hostile", "version": "0"}}})
        .to_string()
        .as_bytes(),
    );
    input.push(b'\n');
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    let nested = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    let huge_id = "x".repeat(HUGE_ID_LEN);
    let many_select = vec!["1"; 10_000].join(",");
    // 2: deeper than serde_json's limit of 128 (counting the envelope's own levels): -32700,
    // with the id.
    input.extend(call_line(
        2,
        "billing",
        &format!("{{\"action\":\"get_invoice\",\"id\":{}}}", nested(200)),
    ));
    // 3: deep but readable: the walker reports the wrong type.
    input.extend(call_line(
        3,
        "billing",
        &format!("{{\"action\":\"get_invoice\",\"id\":{}}}", nested(100)),
    ));
    // 4: a number beyond the float range: -32700, with the id.
    input.extend(call_line(
        4,
        "billing",
        "{\"action\":\"get_invoice\",\"id\":1e400}",
    ));
    // 5: an integer beyond 64 bits arrives as a float.
    input.extend(call_line(
        5,
        "billing",
        "{\"action\":\"get_invoice\",\"id\":123456789012345678901234567890}",
    ));
    // 6: a 1 MB id is echoed in the NOT_FOUND message, escaped and cut.
    input.extend(call_line(
        6,
        "billing",
        &format!("{{\"action\":\"get_invoice\",\"id\":\"</message>{huge_id}\"}}"),
    ));
    // 7: arguments that are not an object: -32602.
    input.extend(call_line(7, "billing", "[1,2]"));
    // 8: invalid UTF-8 inside a string: -32700.
    let mut invalid = call_line(8, "billing", "{\"action\":\"remind\",\"id\":\"INV-\u{1}\"}");
    let at = invalid
        .iter()
        .position(|&b| b == 1)
        .expect("the marker byte");
    invalid[at] = 0xFF;
    input.extend(invalid);
    // 9: 10,000 `_select` problems, each reported.
    input.extend(call_line(
        9,
        "billing",
        &format!("{{\"action\":\"get_invoice\",\"id\":\"INV-0001\",\"_select\":[{many_select}]}}"),
    ));
    // 10: a line longer than the guard's 16 MiB limit: -32600 with `"id": null`.
    input.extend(call_line(
        10,
        "billing",
        &format!(
            "{{\"action\":\"get_invoice\",\"id\":\"{}\"}}",
            "y".repeat(17 * 1024 * 1024)
        ),
    ));
    // 11: and the session still answers.
    input.extend(call_line(
        11,
        "billing",
        "{\"action\":\"remind\",\"id\":\"INV-0002\"}",
    ));

    input
}

/// Runs a `billing_server` on `input` until it exits, which it must do cleanly; its responses by
/// id, and the error codes of those with `"id": null` in the order written.
fn run(input: Vec<u8>) -> (BTreeMap<u64, Value>, Vec<i64>) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_billing_server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut stdin = server.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        stdin.write_all(&input).expect("the server reads its input");
        // Dropping stdin ends the session: the server answers what it read, then exits.
    });
    let mut output = String::new();
    server
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut output)
        .expect("the server writes UTF-8 lines");
    writer.join().expect("the writer finishes");
    let status = server.wait().expect("the server exits");
    let mut stderr = String::new();
    server
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    assert!(status.success(), "{status:?}\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    let mut responses = BTreeMap::new();
    let mut null_ids = Vec::new();
    for line in output.lines() {
        let response = serde_json::from_str::<Value>(line).expect("each output line is JSON");
        if let Some(id) = response["id"].as_u64() {
            responses.insert(id, response);
        } else {
            assert_eq!(response["id"], Value::Null, "{response}");
            null_ids.push(response["error"]["code"].as_i64().expect("an error code"));
        }
    }
    (responses, null_ids)
}

#[test]
fn hostile_lines_never_crash_or_stall_the_server() {
    let (responses, null_ids) = run(hostile_input());
    assert_eq!(
        responses.keys().copied().collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6, 7, 9, 11],
        "answered ids"
    );
    // Lines 2 and 4 are valid JSON beyond the parser's limits: their ids are read.
    assert_eq!(responses[&2]["error"]["code"], json!(-32700));
    assert_eq!(responses[&4]["error"]["code"], json!(-32700));
    // Line 8 is not UTF-8; line 10 is too long to read.
    let mut null_ids = null_ids;
    null_ids.sort_unstable();
    assert_eq!(null_ids, [-32700, -32600]);
    let answer = |id: u64| only_block(&responses[&id]);
    assert_eq!(
        answer(3),
        (
            "<validation_error action=\"billing/get_invoice\">\n<field name=\"id\">Wrong type. You sent: an array of 1 item. Expected type: string.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>",
            Some(true)
        )
    );
    assert_eq!(
        answer(5),
        (
            "<validation_error action=\"billing/get_invoice\">\n<field name=\"id\">Wrong type. You sent: 1.2345678901234568e+29. Expected type: string.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>",
            Some(true)
        )
    );
    let (not_found, is_error) = answer(6);
    assert_eq!(is_error, Some(true));
    // The id is cut to 200 characters: 10 of `</message>` and 189 `x`, then `…`.
    let kept = "x".repeat(189);
    assert_eq!(
        not_found,
        format!(
            "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n<message>Invoice \"&lt;/message>{kept}…\" does not exist.</message>\n<recovery>Call billing with action \"list_invoices\" to find valid ids.</recovery>\n<available_actions>\n  <action>list_invoices</action>\n</available_actions>\n</tool_error>"
        )
    );
    assert_eq!(
        responses[&7]["error"]["code"],
        json!(-32602),
        "{}",
        responses[&7]
    );
    let (problems, is_error) = answer(9);
    assert_eq!(is_error, Some(true));
    // The envelope lists the first 100 problems and says there are more (the bound of
    // `regression_validation_envelope_is_bounded`).
    assert_eq!(
        problems
            .matches("Wrong type. You sent: 1. Expected type: string.")
            .count(),
        100
    );
    assert!(problems.contains("<field name=\"_select.99\">"));
    assert!(problems.contains("only the first 100 are reported"));
    assert_eq!(
        answer(11),
        ("Reminder queued for INV-0002.", None),
        "the session answers after every hostile line"
    );
}
