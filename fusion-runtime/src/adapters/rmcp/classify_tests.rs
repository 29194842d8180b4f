//! The classifier, line by line.

use super::*;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

fn gate() -> Gate {
    Gate::new(ProtocolVersion::KNOWN_VERSIONS.to_vec())
}

/// A gate whose session has begun (an `initialize` was forwarded).
fn begun(in_flight: &InFlight) -> Gate {
    let mut gate = gate();
    assert!(matches!(
        classify(INITIALIZE.as_bytes(), &mut gate, in_flight),
        Verdict::Forward(_)
    ));
    gate
}

fn answer(id: &str, code: i64, message: &str) -> Verdict {
    let message = serde_json::to_string(message).unwrap_or_default();
    Verdict::Answer(format!(
        r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":{message}}}}}"#
    ))
}

/// The verdict forwarding `lines`, as rmcp reads them.
fn forward(lines: &[&str]) -> Verdict {
    Verdict::Forward(
        lines
            .iter()
            .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}")))
            .collect(),
    )
}

fn sort(line: &[u8]) -> Verdict {
    let in_flight = InFlight::default();
    let mut gate = begun(&in_flight);
    classify(line, &mut gate, &in_flight)
}

#[test]
fn what_does_not_parse_is_a_parse_error_with_the_id_when_it_can_be_read() {
    let cases: [(&[u8], &str, &str); 5] = [
        (
            br#"{"jsonrpc":"#,
            "null",
            "Parse error: EOF while parsing a value at line 1 column 11",
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}",
            "null",
            "Parse error: invalid unicode code point at line 1 column 35",
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"\ud800"}"#,
            // A lone surrogate is in JSON's grammar (RFC 8259 §8.2): the id can be read.
            "1",
            "Parse error: unexpected end of hex escape at line 1 column 41",
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":1e400}}"#,
            // Valid JSON beyond the parser's limits: the id can be read.
            "1",
            "Parse error: number out of range at line 1 column 59",
        ),
        (
            b"hello",
            "null",
            "Parse error: expected value at line 1 column 1",
        ),
    ];
    for (line, id, message) in cases {
        assert_eq!(sort(line), answer(id, PARSE_ERROR, message));
    }
    let nested = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"x":{}{}}}}}"#,
        "[".repeat(126),
        "]".repeat(126)
    );
    assert_eq!(
        sort(nested.as_bytes()),
        answer(
            "1",
            PARSE_ERROR,
            "Parse error: recursion limit exceeded at line 1 column 180"
        )
    );
}

#[test]
fn invalid_requests_are_answered_with_the_id_when_it_is_valid() {
    let cases = [
        (
            "[1,2]",
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
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            "null",
            "`id` must be a string or an integer",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            "null",
            "`id` must be a string or an integer",
        ),
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            "1",
            "`jsonrpc` must be \"2.0\"",
        ),
        (
            r#"{"id":"a","method":"ping"}"#,
            "\"a\"",
            "`jsonrpc` must be \"2.0\"",
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":5}"#,
            "2",
            "`method` must be a string",
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"ping","result":{}}"#,
            "3",
            "a request has no `result` and no `error`",
        ),
    ];
    for (line, id, reason) in cases {
        assert_eq!(
            sort(line.as_bytes()),
            answer(id, INVALID_REQUEST, &format!("Invalid Request: {reason}")),
            "{line}"
        );
    }
}

#[test]
fn params_that_do_not_fit_a_known_method_are_invalid_params() {
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"billing","arguments":[1]}}"#,
            "Invalid params for tools/call: invalid type: sequence, expected a map",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}"#,
            "Invalid params for tools/call: missing field `name`",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":5}"#,
            "Invalid params for tools/call: `params` must be an object",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            "Invalid params for tools/call: missing field `name`",
        ),
    ];
    for (line, message) in cases {
        assert_eq!(
            sort(line.as_bytes()),
            answer("1", INVALID_PARAMS, message),
            "{line}"
        );
    }
}

#[test]
fn requests_reach_rmcp_under_unique_ids_and_are_remembered() {
    let in_flight = InFlight::default();
    let mut gate = begun(&in_flight);
    let ping = br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;
    let first = classify(ping, &mut gate, &in_flight);
    let second = classify(ping, &mut gate, &in_flight);
    assert_eq!(
        first,
        forward(&[r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#])
    );
    assert_eq!(
        second,
        forward(&[r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#])
    );
    assert_eq!(in_flight.restore(3), Some(serde_json::json!(7)));
    // `"params": null` is read as no params.
    assert_eq!(
        classify(
            br#"{"jsonrpc":"2.0","id":"x","method":"tools/list","params":null}"#,
            &mut gate,
            &in_flight
        ),
        forward(&[r#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#])
    );
    // Unknown methods are rmcp's to answer (-32601).
    assert!(matches!(
        classify(
            br#"{"jsonrpc":"2.0","id":1,"method":"nope"}"#,
            &mut gate,
            &in_flight
        ),
        Verdict::Forward(_)
    ));
    // Blank lines, a carriage return and a byte order mark are what rmcp accepts too.
    assert_eq!(classify(b"  \r", &mut gate, &in_flight), Verdict::Ignore);
    assert!(matches!(
        classify(
            b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r",
            &mut gate,
            &in_flight
        ),
        Verdict::Forward(_)
    ));
}

#[test]
fn notifications_and_responses_before_the_session_are_dropped() {
    let in_flight = InFlight::default();
    let mut gate = gate();
    for line in [
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
        r#"{"jsonrpc":"2.0","method":"foo/bar"}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":1,"message":"x"}}"#,
    ] {
        assert_eq!(
            classify(line.as_bytes(), &mut gate, &in_flight),
            Verdict::Ignore
        );
    }
    // A ping is answered before the session without beginning it.
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    assert!(matches!(
        classify(ping, &mut gate, &in_flight),
        Verdict::Forward(_)
    ));
    let initialized = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(
        classify(initialized, &mut gate, &in_flight),
        Verdict::Ignore
    );
    let _ = classify(INITIALIZE.as_bytes(), &mut gate, &in_flight);
    assert!(matches!(
        classify(initialized, &mut gate, &in_flight),
        Verdict::Forward(_)
    ));
}

#[test]
fn a_request_with_complete_metadata_begins_a_stateless_session() {
    let in_flight = InFlight::default();
    let mut gate = gate();
    let list = br#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"a","version":"1"}}}}"#;
    let bare = br#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#;
    let notification = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let _ = classify(bare, &mut gate, &in_flight);
    assert_eq!(
        classify(notification, &mut gate, &in_flight),
        Verdict::Ignore
    );
    let _ = classify(list, &mut gate, &in_flight);
    assert!(matches!(
        classify(notification, &mut gate, &in_flight),
        Verdict::Forward(_)
    ));
}

#[test]
fn notifications_are_never_answered_and_cancellations_follow_the_ids() {
    let in_flight = InFlight::default();
    let mut gate = begun(&in_flight);
    for line in [
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":5}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
        r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":42}}"#,
    ] {
        assert_eq!(
            classify(line.as_bytes(), &mut gate, &in_flight),
            Verdict::Ignore,
            "{line}"
        );
    }
    let call = br#"{"jsonrpc":"2.0","id":"c","method":"tools/list"}"#;
    let _ = classify(call, &mut gate, &in_flight);
    let _ = classify(call, &mut gate, &in_flight);
    assert_eq!(
        classify(
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c","reason":"r"}}"#,
            &mut gate,
            &in_flight
        ),
        forward(&[r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"r"}}"#, r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"r"}}"#])
    );
    assert_eq!(in_flight.len(), 1, "only the initialize request is left");
}

#[test]
fn long_reasons_are_cut() {
    let name = "n".repeat(1000);
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":{{"{name}":1}}}}}}"#
    );
    let Verdict::Answer(answer) = sort(line.as_bytes()) else {
        panic!("an invalid params answer");
    };
    assert!(answer.len() < 400, "{answer}");
    assert_eq!(
        too_long(10),
        Verdict::Answer(
            Rejection::new(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: the line is longer than 10 bytes".to_owned()
            )
            .to_json()
        )
    );
}
