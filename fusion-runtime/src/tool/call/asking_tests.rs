//! The call's questions to the user (elicitation): what a handler is answered.

use super::*;
use serde_json::json;

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
struct Choice {
    format: String,
}

fn call(elicitation: bool, answers: &[(&str, Value)]) -> Call {
    Call::new("billing", Some("export".to_owned()), Selection::default()).with_asking(Asking {
        elicitation,
        sampling: false,
        answers: answers
            .iter()
            .map(|(key, value)| ((*key).to_owned(), value.clone()))
            .collect(),
    })
}

#[test]
fn confirm_asks_then_goes_on_or_stops() {
    assert!(
        call(false, &[]).confirm("Sure?").is_none(),
        "cannot ask: goes on"
    );
    let asked = call(true, &[]).confirm("Sure?").expect("asks");
    assert_eq!(
        asked
            .asks()
            .map(|asks| asks.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["confirm".to_owned()])
    );
    let yes = json!({"action": "accept", "content": {"confirm": true}});
    assert!(call(true, &[("confirm", yes)]).confirm("Sure?").is_none());
    let no = json!({"action": "decline"});
    let stopped = call(true, &[("confirm", no)])
        .confirm("Sure?")
        .expect("stops");
    assert!(
        stopped.text().contains("NOT_CONFIRMED"),
        "{}",
        stopped.text()
    );
    assert!(stopped.asks().is_none());
}

#[test]
fn form_asks_with_the_schema_and_reads_the_answer() {
    let Err(asked) = call(true, &[]).form::<Choice>("choice", "Which format?") else {
        panic!("asks");
    };
    let Some(Ask::Form { schema, .. }) = asked.asks().and_then(|asks| asks.get("choice")) else {
        panic!("a form");
    };
    assert_eq!(schema["properties"]["format"]["type"], json!("string"));
    let answer = json!({"action": "accept", "content": {"format": "csv"}});
    let read = call(true, &[("choice", answer)]).form::<Choice>("choice", "Which format?");
    assert!(
        matches!(&read, Ok(choice) if choice.format == "csv"),
        "{:?}",
        read.err().map(|response| response.text())
    );
    let Err(unavailable) = call(false, &[]).form::<Choice>("choice", "Which format?") else {
        panic!("cannot ask");
    };
    assert!(unavailable.text().contains("INPUT_UNAVAILABLE"));
}
