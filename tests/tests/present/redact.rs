//! `#[redact]`: the default censor, a fixed censor, a censor function; redaction on every wire
//! channel, at every depth, after selection (wire format §8).

use crate::support;

use fusion_runtime::ui::{self, UiBlock};
use fusion_runtime::{Presenter, ResponseBuilder, Selection};
use support::assert_blocks;

/// wire format §16.7 **Card**.
#[derive(Presenter)]
struct Card {
    #[redact]
    number: String,
    exp: String,
}

/// wire format §16.7 **Person**.
#[derive(Presenter)]
#[ui(Self::card_ui)]
#[rule("Rules see ssn {ssn}", reveal(ssn))]
struct Person {
    name: String,
    #[redact]
    ssn: String,
    card: Card,
}

impl Person {
    fn card_ui(&self) -> UiBlock {
        ui::markdown(format!("UI sees {}", &self.card.number[..4]))
    }
}

fn person() -> Person {
    Person {
        name: "Ana".into(),
        ssn: "123-45-6789".into(),
        card: Card {
            number: "4111111111111111".into(),
            exp: "12/30".into(),
        },
    }
}

const UI_SEES: &str = "<ui_passthrough type=\"markdown\">\nUI sees 4111\n</ui_passthrough>";
const RULES_SEE: &str = "<domain_rules>\n- Rules see ssn 123-45-6789\n</domain_rules>";

#[test]
fn v39_wire_redacted_ui_and_rules_clear() {
    assert_blocks(
        &person().present().build().unwrap(),
        &[
            "{\n  \"name\": \"Ana\",\n  \"ssn\": \"[REDACTED]\",\n  \"card\": {\n    \"number\": \"[REDACTED]\",\n    \"exp\": \"12/30\"\n  }\n}",
            UI_SEES,
            RULES_SEE,
        ],
    );
}

#[test]
fn v40_redaction_after_selection() {
    let selection = Selection::new(["name", "card"]);
    assert_blocks(
        &person().present().select(&selection).build().unwrap(),
        &[
            "{\n  \"name\": \"Ana\",\n  \"card\": {\n    \"number\": \"[REDACTED]\",\n    \"exp\": \"12/30\"\n  }\n}",
            UI_SEES,
            RULES_SEE,
        ],
    );
}

fn mask_card(cc: &str) -> String {
    format!("****-{}", &cc[cc.len() - 4..])
}

/// wire format V41 model: every censor variant.
#[derive(Presenter)]
struct Account {
    holder: String,
    #[redact]
    iban: Option<String>,
    #[redact]
    balance_cents: u64,
    #[redact(censor = "***")]
    pin: String,
    #[redact(with = mask_card)]
    cc: String,
    #[redact]
    tags: Vec<String>,
}

fn account(iban: Option<&str>) -> Account {
    Account {
        holder: "Ana".into(),
        iban: iban.map(str::to_owned),
        balance_cents: 1200,
        pin: "1234".into(),
        cc: "4111111111111234".into(),
        tags: vec!["vip".into()],
    }
}

#[test]
fn v41_censor_variants() {
    let response = ResponseBuilder::json(&account(None)).unwrap().build();
    assert_blocks(
        &response,
        &[
            "{\n  \"holder\": \"Ana\",\n  \"iban\": null,\n  \"balance_cents\": \"[REDACTED]\",\n  \"pin\": \"***\",\n  \"cc\": \"****-1234\",\n  \"tags\": \"[REDACTED]\"\n}",
        ],
    );
}

#[test]
fn a_present_optional_value_is_censored() {
    let value = serde_json::to_value(account(Some("DE89 3704"))).unwrap();
    assert_eq!(value["iban"], "[REDACTED]");
}

/// Optional fields with a fixed censor and a censor function, and a redacted nested model.
#[derive(Presenter)]
struct Optionals {
    #[redact(censor = "<hidden>")]
    code: Option<u32>,
    #[redact(with = Self::last_two)]
    phone: Option<String>,
    #[redact]
    card: Card,
    #[redact(with = |n: &u64| n / 1000 * 1000)]
    rounded: u64,
}

impl Optionals {
    fn last_two(phone: &str) -> String {
        format!("…{}", &phone[phone.len() - 2..])
    }
}

#[test]
fn optional_censors_and_a_redacted_model_field() {
    let some = Optionals {
        code: Some(7),
        phone: Some("+49 30 1234".into()),
        card: Card {
            number: "4111".into(),
            exp: "01/29".into(),
        },
        rounded: 12_345,
    };
    assert_eq!(
        serde_json::to_string(&some).unwrap(),
        r#"{"code":"<hidden>","phone":"…34","card":"[REDACTED]","rounded":12000}"#
    );
    let none = Optionals {
        code: None,
        phone: None,
        ..some
    };
    assert_eq!(
        serde_json::to_string(&none).unwrap(),
        r#"{"code":null,"phone":null,"card":"[REDACTED]","rounded":12000}"#
    );
}

#[test]
fn every_wire_channel_is_redacted() {
    let expected_number = "\"number\": \"[REDACTED]\"";
    // Presented, plain JSON block, serde_json, a list, the testing view.
    let presented = person().present().build().unwrap();
    assert!(presented.blocks()[0].contains(expected_number));
    let plain = ResponseBuilder::json(&person()).unwrap().build();
    assert!(plain.blocks()[0].contains(expected_number));
    let many = ResponseBuilder::json(&vec![person(), person()])
        .unwrap()
        .build();
    assert_eq!(many.blocks()[0].matches(expected_number).count(), 2);
    let value = serde_json::to_value(person()).unwrap();
    assert_eq!(value["ssn"], "[REDACTED]");
    assert_eq!(value["card"]["number"], "[REDACTED]");
    let view = presented.view();
    let data = view.data();
    assert_eq!(data.as_value().unwrap()["ssn"], "[REDACTED]");
    assert!(!presented.to_json().contains("123-45-6789\""));
    assert!(!plain.text().contains("4111111111111111"));
}
