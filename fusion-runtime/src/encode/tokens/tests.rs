//! The fast paths of [`TokenTally::push`] against stepping every character.

use super::*;
use proptest::prelude::*;

/// The tally of `text` stepped one character at a time: what `push` must equal.
fn stepped(tally: &mut TokenTally, text: &str) {
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(&lead) = bytes.get(at) {
        let (class, width) = classify(lead, bytes.get(at + 1).copied().unwrap_or(0));
        tally.step(class);
        at += width;
    }
}

/// Characters of every class and the transitions between them.
fn text() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        "([a-z]{1,9}|[A-Z]{1,4}|[0-9]{1,5}|[ ]{1,6}|[\\n\\r]{1,3}|[\"{}:,_\\-\\[\\]|]{1,4}|\t|é|ж|日|、|（|→|😬){0,40}",
    )
    .expect("a valid pattern")
}

proptest! {
    #[test]
    fn pushing_runs_equals_stepping_every_character(a in text(), b in text()) {
        let (mut fast, mut slow) = (TokenTally::new(), TokenTally::new());
        fast.push(&a);
        stepped(&mut slow, &a);
        prop_assert_eq!(fast, slow);
        fast.push(&b);
        stepped(&mut slow, &b);
        prop_assert_eq!(fast, slow);
        prop_assert_eq!(fast.tokens(), slow.tokens());
    }
}

#[test]
fn pushing_runs_equals_stepping_on_a_json_block() {
    let text = "[\n  {\n    \"id\": \"INV-0001\",\n    \"amountCents\": 826199,\n    \"note\": \"Überfällig 😬 ABCdef\"\n  }\n]\n\n  \r\n x";
    let (mut fast, mut slow) = (TokenTally::new(), TokenTally::new());
    fast.push(text);
    stepped(&mut slow, text);
    assert_eq!(fast, slow);
}
