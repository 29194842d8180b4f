//! `void_invoice` asks the person to confirm, end to end against real `billing_server`s:
//!
//! - stateless HTTP (revision 2026-07-28): an input-required result whose sealed `requestState`
//!   opens on another replica with the same keyring (`FUSION_STATE_KEYS`), also after the key
//!   was rotated (the old key still listed); a tampered state, one sealed for another call, and
//!   one sealed with a key the replica does not hold are refused with -32602; a client without
//!   the elicitation capability is not asked;
//! - a session over stdio: the server asks with `elicitation/create` and finishes the same call.
//!
//! - the official Python client (`clients/http/confirm.py`, its automatic input-required rounds
//!   with an elicitation callback) against one stateless server and one in session mode (then
//!   the server asks over the session); through nginx over two replicas: `scripts/scale-out.sh`.

use serde_json::{Value, json};

use super::http::{Server, exchange, python_mcp, run_client, status, typescript_sdk};
use super::stdio_guard::Session;

const OLD: &str = "old=0123456789abcdef0123456789abcdef-old-key";
const NEW: &str = "new=fedcba9876543210fedcba9876543210-new-key";

/// One stateless `tools/call` of `billing` (revision 2026-07-28) and its answer.
fn call(server: &Server, params: &Value) -> (String, Value) {
    let mut params = params.clone();
    params["name"] = json!("billing");
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": params.get("capabilities").cloned()
            .unwrap_or_else(|| json!({"elicitation": {}})),
        "io.modelcontextprotocol/clientInfo": {"name": "confirm", "version": "0"}});
    if let Some(object) = params.as_object_mut() {
        object.remove("capabilities");
    }
    let body =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).to_string();
    let address = server_address(server);
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: billing\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let response = exchange(server, request.as_bytes());
    let answer = response.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    (
        status(&response).to_owned(),
        serde_json::from_str(answer).unwrap_or_else(|_| panic!("a JSON body: {response}")),
    )
}

fn server_address(server: &Server) -> String {
    let head = super::http::head(server, "", 0);
    head.lines()
        .find_map(|line| line.strip_prefix("Host: "))
        .expect("a Host line")
        .to_owned()
}

fn void(id: &str) -> Value {
    json!({"arguments": {"action": "void_invoice", "id": id, "reason": "duplicate"}})
}

/// The first round: the state the server sealed.
fn ask(server: &Server, id: &str) -> String {
    let (code, answer) = call(server, &void(id));
    assert_eq!(code, "200", "{answer}");
    let result = &answer["result"];
    assert_eq!(result["resultType"], json!("input_required"), "{answer}");
    assert_eq!(
        result["inputRequests"]["confirm"]["params"]["message"],
        json!(format!("Void {id}? This cannot be undone."))
    );
    result["requestState"]
        .as_str()
        .expect("a sealed requestState")
        .to_owned()
}

/// The second round, confirmed, with `state`.
fn answer(server: &Server, id: &str, state: &str, confirm: bool) -> Value {
    let mut params = void(id);
    params["inputResponses"] =
        json!({"confirm": {"action": "accept", "content": {"confirm": confirm}}});
    params["requestState"] = json!(state);
    call(server, &params).1
}

fn text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("a text result: {answer}"))
}

#[test]
fn stateless_confirmation_opens_on_any_replica_sharing_the_keyring() {
    let a = Server::start_with_env(&["--instance", "a"], &[("FUSION_STATE_KEYS", OLD)]);
    let b = Server::start_with_env(&["--instance", "b"], &[("FUSION_STATE_KEYS", OLD)]);
    // Rotated: the new key signs, the old one still opens.
    let rotated = Server::start_with_env(
        &["--instance", "c"],
        &[("FUSION_STATE_KEYS", &format!("{NEW},{OLD}"))],
    );
    let only_new = Server::start_with_env(&[], &[("FUSION_STATE_KEYS", NEW)]);

    // Asked on a, answered on b.
    let state = ask(&a, "INV-0002");
    assert_eq!(
        text(&answer(&b, "INV-0002", &state, true)),
        "Invoice INV-0002 voided."
    );

    // Tampered: refused.
    let mut forged = ask(&a, "INV-0003");
    let last = forged.pop().unwrap_or('A');
    forged.push(if last == 'A' { 'B' } else { 'A' });
    let refused = answer(&b, "INV-0003", &forged, true);
    assert_eq!(refused["error"]["code"], json!(-32602), "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("requestState refused")),
        "{refused}"
    );

    // Sealed for another call (another invoice): refused.
    let other = answer(&b, "INV-0004", &ask(&a, "INV-0003"), true);
    assert_eq!(other["error"]["code"], json!(-32602), "{other}");

    // Sealed with the old key, opened after rotation; sealed with the new key, refused by a
    // replica that holds only the old one, and opened by one that holds the new one.
    let old_state = ask(&a, "INV-0005");
    assert_eq!(
        text(&answer(&rotated, "INV-0005", &old_state, true)),
        "Invoice INV-0005 voided."
    );
    let new_state = ask(&rotated, "INV-0006");
    let foreign = answer(&a, "INV-0006", &new_state, true);
    assert_eq!(foreign["error"]["code"], json!(-32602), "{foreign}");
    assert_eq!(
        text(&answer(&only_new, "INV-0006", &new_state, true)),
        "Invoice INV-0006 voided."
    );

    // Declined: nothing is voided.
    let declined = answer(&b, "INV-0007", &ask(&a, "INV-0007"), false);
    assert!(text(&declined).contains("NOT_CONFIRMED"), "{declined}");
    assert_eq!(declined["result"]["isError"], json!(false), "{declined}");

    // A client that cannot answer is not asked: the call goes on.
    let mut params = void("INV-0008");
    params["capabilities"] = json!({});
    let (_, direct) = call(&a, &params);
    assert_eq!(text(&direct), "Invoice INV-0008 voided.");

    // A replica without a keyring does not ask either.
    let keyless = Server::start(&[]);
    let (_, direct) = call(&keyless, &void("INV-0009"));
    assert_eq!(text(&direct), "Invoice INV-0009 voided.");
}

#[test]
fn a_session_asks_over_the_session_and_finishes_the_same_call() {
    let mut session = Session::start();
    session.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"confirm","version":"0"}}}"#);
    let _ = session.recv();
    session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    session.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"billing","arguments":{"action":"void_invoice","id":"INV-0002","reason":"duplicate"}}}"#);
    let request: Value = serde_json::from_str(&session.recv()).expect("a JSON line");
    assert_eq!(request["method"], json!("elicitation/create"), "{request}");
    assert_eq!(
        request["params"]["message"],
        json!("Void INV-0002? This cannot be undone.")
    );
    session.send(
        &json!({"jsonrpc": "2.0", "id": request["id"], "result": {"action": "accept",
            "content": {"confirm": true}}})
        .to_string(),
    );
    let done: Value = serde_json::from_str(&session.recv()).expect("a JSON line");
    assert_eq!(done["id"], json!(1), "{done}");
    assert_eq!(text(&done), "Invoice INV-0002 voided.");
    session.assert_alive();
    session.finish();
}

#[test]
fn the_python_client_confirms_stateless_and_in_sessions() {
    if !python_mcp() {
        return;
    }
    let keys = [("FUSION_STATE_KEYS", OLD)];
    let stateless = Server::start_with_env(&[], &keys);
    let run = run_client("python3", &["confirm.py", &stateless.url]);
    assert_eq!(run["problems"], json!([]), "{run}");
    let sessions = Server::start_with_env(&["--sessions"], &keys);
    let run = run_client("python3", &["confirm.py", &sessions.url, "--sessions"]);
    assert_eq!(run["problems"], json!([]), "{run}");
    assert_eq!(
        run["asked"],
        json!([
            "Void INV-0002? This cannot be undone.",
            "Void INV-0003? This cannot be undone."
        ]),
        "asked over the session: {run}"
    );
}

#[test]
fn the_typescript_client_confirms_stateless_and_in_sessions() {
    if !typescript_sdk() {
        return;
    }
    let keys = [("FUSION_STATE_KEYS", OLD)];
    let stateless = Server::start_with_env(&[], &keys);
    let run = run_client("node", &["confirm.mjs", &stateless.url]);
    assert_eq!(run["problems"], json!([]), "{run}");
    let sessions = Server::start_with_env(&["--sessions"], &keys);
    let run = run_client("node", &["confirm.mjs", &sessions.url, "--sessions"]);
    assert_eq!(run["problems"], json!([]), "{run}");
    assert_eq!(
        run["asked"],
        json!([
            "Void INV-0011? This cannot be undone.",
            "Void INV-0013? This cannot be undone."
        ]),
        "asked over the session: {run}"
    );
}
