//! Hardening property 2 (redaction): sentinel values in redacted fields never appear anywhere a
//! response can be read: its serialized `CallToolResult`, its block texts, its `Debug` output,
//! the `Debug` output of its builder, and the testing view (data and JSON) — whether the model is
//! at the top level, embedded, in a collection, under `_select`, written as TOON (presented,
//! `toon_success`, the compile-time table path, the generic encoder) or as `structuredContent`,
//! and whether the value comes from a presenter, a plain serializable wrapper or the tool layer
//! (wire format §8.2–§8.4). The billing tool's fixture emails are checked the same way over every action.
//!
//! Each redacted text is `hostile prefix + core + hostile suffix`, the core an alphanumeric
//! marker that survives every escaping, so a leak in any form shows as the core; each redacted
//! number is a 16-digit value whose digits appear nowhere else.

use crate::harden_support;

use std::sync::Arc;

use fusion_examples::{BillingApp, Store};
use fusion_runtime::present::Format;
use fusion_runtime::toon::{self, ToonOptions};
use fusion_runtime::ui::{self, UiBlock};
use fusion_runtime::{
    Call, Json, Presenter, ResponseBuilder, Selection, Tool, ToolResponse, ToolSet, success,
    success_structured,
};
use harden_support::{config, light};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A contact, embedded in accounts.
#[derive(Presenter, Debug, Clone)]
#[rule("Contact {name}")]
#[ui(markdown = "Contact: {name}")]
#[suggest(tool = "contact.get", reason = "{name}")]
struct Contact {
    name: String,
    #[redact]
    email: String,
    #[redact(censor = "<hidden>")]
    #[serde(rename = "phoneNumber")]
    phone: Option<String>,
}

/// A card, embedded as a list.
#[derive(Presenter, Debug, Clone)]
#[presenter(agent_limit = 2)]
#[collection_ui(summary = "{n} cards")]
struct Card {
    brand: String,
    #[redact(with = Self::mask)]
    number: String,
}

impl Card {
    fn mask(number: &str) -> String {
        format!("{} characters", number.chars().count())
    }
}

/// A model held whole by a redacted field: the field is replaced, model and all.
#[derive(Presenter, Debug, Clone)]
struct Profile {
    nickname: String,
    score: u64,
}

/// A generic model: its redaction applies whatever `T` is.
#[derive(Presenter, Debug, Clone)]
struct Sealed<T: Serialize> {
    label: String,
    #[redact]
    inner: T,
}

/// The account: every censor, every field shape, embeds of each kind.
#[derive(Presenter, Debug, Clone)]
#[presenter(agent_limit = 3)]
#[rule("Account of {holder}")]
#[suggest(tool = "account.get", reason = "Open {holder}")]
#[ui(Self::overview)]
#[collection_ui(summary = "{n} accounts")]
struct Account {
    holder: String,
    #[redact]
    iban: String,
    #[redact]
    #[serde(skip_serializing_if = "Option::is_none")]
    pin: Option<String>,
    #[redact(censor = "***")]
    cvv: String,
    #[redact]
    balance_cents: u64,
    #[redact]
    history: Vec<String>,
    #[redact]
    profile: Profile,
    #[embed]
    contact: Contact,
    #[embed]
    backup: Option<Contact>,
    #[embed]
    cards: Vec<Card>,
    sealed: Sealed<Vec<String>>,
    #[serde(skip_serializing)]
    internal_note: String,
    #[presenter(skip)]
    internal_code: String,
}

impl Account {
    fn overview(&self) -> UiBlock {
        ui::table(
            ["holder", "cards"],
            [[self.holder.clone(), self.cards.len().to_string()]],
        )
    }
}

/// The wire names of `Account`, for selections.
const ACCOUNT_NAMES: [&str; 12] = [
    "holder",
    "iban",
    "pin",
    "cvv",
    "balance_cents",
    "history",
    "profile",
    "contact",
    "backup",
    "cards",
    "sealed",
    "nope",
];

/// The markers a leak would show.
#[derive(Debug, Default)]
struct Secrets {
    texts: Vec<String>,
    numbers: Vec<String>,
}

impl Secrets {
    fn check(&self, channel: &str, haystack: &str) -> Result<(), TestCaseError> {
        // Every text core starts with the marker, which nothing else holds: one search finds any
        // of them, and only a hit names the secret.
        let marked = self.texts.iter().all(|t| t.starts_with(MARKER));
        if !marked || haystack.contains(MARKER) {
            let leaked: Vec<&String> = self
                .texts
                .iter()
                .filter(|s| haystack.contains(s.as_str()))
                .collect();
            prop_assert!(
                leaked.is_empty(),
                "{leaked:?} leaked into {channel}:\n{haystack}"
            );
        }
        for number in &self.numbers {
            prop_assert!(
                !haystack.contains(number.as_str()),
                "{number} leaked into {channel}:\n{haystack}"
            );
        }
        Ok(())
    }

    /// Every channel of a response.
    fn check_response(&self, label: &str, response: &ToolResponse) -> Result<(), TestCaseError> {
        self.check(&format!("{label}: CallToolResult"), &response.to_json())?;
        self.check(&format!("{label}: blocks"), &response.text())?;
        self.check(&format!("{label}: Debug"), &format!("{response:?}"))?;
        self.check(
            &format!("{label}: Debug (pretty)"),
            &format!("{response:#?}"),
        )?;
        let view = response.view();
        let data = view.data();
        let data_text = match data.as_value() {
            Some(value) => value.to_string(),
            None => data.as_text().unwrap_or_default().to_owned(),
        };
        self.check(&format!("{label}: view data"), &data_text)?;
        self.check(&format!("{label}: view"), &view.to_json().to_string())?;
        if let Some(structured) = response.structured_content() {
            self.check(
                &format!("{label}: structuredContent"),
                &structured.to_string(),
            )?;
        }
        Ok(())
    }
}

/// The start of every secret text's core.
const MARKER: &str = "ZQX";

/// A secret text: hostile prefix and suffix around an alphanumeric core.
fn secret_text(tag: &'static str) -> impl Strategy<Value = (String, String)> {
    (light(), any::<u64>(), light()).prop_map(move |(prefix, core, suffix)| {
        let core = format!("{MARKER}{tag}{core:016X}");
        (format!("{prefix}{core}{suffix}"), core)
    })
}

/// A secret number: 16 digits starting with 97, which no other value here has.
fn secret_number() -> impl Strategy<Value = u64> {
    9_700_000_000_000_000_u64..9_799_999_999_999_999
}

fn contact(secrets_tag: &'static str) -> impl Strategy<Value = (Contact, Vec<String>)> {
    (
        light(),
        secret_text(secrets_tag),
        prop::option::of(secret_text(secrets_tag)),
    )
        .prop_map(|(name, (email, email_core), phone)| {
            let mut cores = vec![email_core];
            let phone = phone.map(|(phone, core)| {
                cores.push(core);
                phone
            });
            (Contact { name, email, phone }, cores)
        })
}

fn card() -> impl Strategy<Value = (Card, String)> {
    (light(), secret_text("CARD"))
        .prop_map(|(brand, (number, core))| (Card { brand, number }, core))
}

/// An account and the markers of its secrets.
fn account() -> impl Strategy<Value = (Account, Secrets)> {
    (
        (
            light(),
            secret_text("IBAN"),
            prop::option::of(secret_text("PIN")),
            secret_text("CVV"),
            secret_number(),
            prop::collection::vec(secret_text("HIST"), 0..3),
        ),
        (
            (light(), secret_number()),
            contact("MAIL"),
            prop::option::of(contact("BACK")),
            prop::collection::vec(card(), 0..4),
            (light(), prop::collection::vec(secret_text("SEAL"), 0..3)),
            (secret_text("NOTE"), secret_text("CODE")),
        ),
    )
        .prop_map(
            |(
                (holder, iban, pin, cvv, balance, history),
                ((nickname, score), contact, backup, cards, (label, sealed), (note, code)),
            )| {
                let mut secrets = Secrets::default();
                secrets.texts.push(iban.1);
                secrets.texts.extend(pin.as_ref().map(|p| p.1.clone()));
                secrets.texts.push(cvv.1);
                secrets.numbers.push(balance.to_string());
                secrets
                    .texts
                    .extend(history.iter().map(|(_, core)| core.clone()));
                secrets.numbers.push(score.to_string());
                secrets.texts.extend(contact.1.iter().cloned());
                if let Some(backup) = &backup {
                    secrets.texts.extend(backup.1.iter().cloned());
                }
                secrets
                    .texts
                    .extend(cards.iter().map(|(_, core)| core.clone()));
                secrets
                    .texts
                    .extend(sealed.iter().map(|(_, core)| core.clone()));
                secrets.texts.push(note.1);
                secrets.texts.push(code.1);
                let account = Account {
                    holder,
                    iban: iban.0,
                    pin: pin.map(|p| p.0),
                    cvv: cvv.0,
                    balance_cents: balance,
                    history: history.into_iter().map(|(text, _)| text).collect(),
                    profile: Profile { nickname, score },
                    contact: contact.0,
                    backup: backup.map(|b| b.0),
                    cards: cards.into_iter().map(|(card, _)| card).collect(),
                    sealed: Sealed {
                        label,
                        inner: sealed.into_iter().map(|(text, _)| text).collect(),
                    },
                    internal_note: note.0,
                    internal_code: code.0,
                };
                (account, secrets)
            },
        )
}

fn accounts() -> impl Strategy<Value = (Vec<Account>, Secrets)> {
    prop::collection::vec(account(), 0..5).prop_map(|pairs| {
        let mut all = Secrets::default();
        let mut accounts = Vec::new();
        for (account, secrets) in pairs {
            accounts.push(account);
            all.texts.extend(secrets.texts);
            all.numbers.extend(secrets.numbers);
        }
        (accounts, all)
    })
}

fn selection() -> impl Strategy<Value = Selection> {
    prop::collection::vec(prop::sample::select(ACCOUNT_NAMES.to_vec()), 0..4)
        .prop_map(Selection::new)
}

/// A plain serializable value holding models: the models redact themselves inside it.
#[derive(Serialize)]
struct Export<'a> {
    title: &'static str,
    accounts: &'a [Account],
    first: Option<&'a Account>,
}

/// A tool whose handler presents accounts through the tool layer, with the call's `_select`.
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "accounts", select)]
enum Accounts {
    #[fusion(returns = Account)]
    Get {
        index: usize,
    },
    #[fusion(returns = Account)]
    List,
    Export,
    Stats,
}

fn accounts_tool(accounts: Vec<Account>) -> ToolSet {
    ToolSet::new()
        .tool(move |action: Accounts, call: &Call| match action {
            Accounts::Get { index } => match accounts.get(index) {
                Some(account) => call.present(account).build().map_err(|e| e.to_string()),
                None => Ok(ResponseBuilder::text("none").build()),
            },
            Accounts::List => call
                .present_all(&accounts)
                .build()
                .map_err(|e| e.to_string()),
            Accounts::Export => toon::success_table(&accounts).map_err(|e| e.to_string()),
            Accounts::Stats => success_structured(&Export {
                title: "stats",
                accounts: &accounts,
                first: accounts.first(),
            })
            .map_err(|e| e.to_string()),
        })
        .unwrap()
        .on_internal_error(|failure| panic!("INTERNAL_ERROR: {failure}"))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn presented_single_values_never_show_a_secret(
        (account, secrets) in account(),
        selection in selection(),
        format in prop::sample::select(vec![Format::Json, Format::Toon]),
    ) {
        let presentation = account.present().select(&selection).format(format);
        let builder = presentation.into_builder().unwrap();
        secrets.check("builder Debug", &format!("{builder:?}"))?;
        secrets.check_response("present", &builder.build())?;
        // The redacted wire form itself, through any serializer.
        secrets.check("serde_json", &serde_json::to_string(&account).unwrap())?;
        secrets.check("serde_json::Value", &serde_json::to_value(&account).unwrap().to_string())?;
        secrets.check("toon::encode", &toon::encode(&account, &ToonOptions::default()).unwrap())?;
    }

    #[test]
    fn presented_collections_never_show_a_secret(
        (accounts, secrets) in accounts(),
        selection in selection(),
        format in prop::sample::select(vec![Format::Json, Format::Toon]),
    ) {
        let response = Account::present_all(&accounts)
            .select(&selection)
            .format(format)
            .build()
            .unwrap();
        secrets.check_response("present_all", &response)?;
    }

    #[test]
    fn every_other_wire_channel_never_shows_a_secret((accounts, secrets) in accounts()) {
        let export = Export { title: "export", accounts: &accounts, first: accounts.first() };
        secrets.check_response("success", &success(&export).unwrap())?;
        secrets.check_response("success_structured", &success_structured(&export).unwrap())?;
        secrets.check_response("toon_success", &toon::success(&export).unwrap())?;
        secrets.check_response("toon_success (list)", &toon::success(&accounts).unwrap())?;
        secrets.check_response("toon_success_table", &toon::success_table(&accounts).unwrap())?;
        secrets.check(
            "toon::encode_table",
            &toon::encode_table(&accounts, &ToonOptions::pipe()).unwrap(),
        )?;
        secrets.check_response("Json", &fusion_runtime::IntoToolResponse::into_tool_response(Json(&export)).unwrap())?;
        let builder = ResponseBuilder::json(&accounts).unwrap().rule("r");
        secrets.check("json builder Debug", &format!("{builder:?}"))?;
        secrets.check_response("json builder", &builder.build())?;
    }

    #[test]
    fn the_tool_layer_never_shows_a_secret(
        (accounts, secrets) in accounts(),
        action in prop::sample::select(vec!["get", "list", "export", "stats"]),
        index in 0_usize..5,
        select in prop::collection::vec(prop::sample::select(ACCOUNT_NAMES[..11].to_vec()), 0..4),
    ) {
        let tools = accounts_tool(accounts);
        let mut arguments = json!({"action": action, "_select": select});
        if action == "get" {
            arguments["index"] = json!(index);
        }
        let response = tools.call("accounts", Some(arguments));
        prop_assert_ne!(response.is_error(), Some(true), "{}", response.text());
        secrets.check_response("tool", &response)?;
    }
}

/// Every text of `value` (member names and strings), for the fixture's emails.
fn emails(store: &Store) -> Vec<String> {
    let mut emails: Vec<String> = store
        .invoices()
        .map(|invoice| invoice.customer.email.clone())
        .collect();
    emails.sort();
    emails.dedup();
    emails
}

fn billing_call() -> impl Strategy<Value = Value> {
    let id = (1_u32..=120).prop_map(|n| format!("INV-{n:04}"));
    let status = prop::option::of(prop::sample::select(vec!["paid", "pending", "overdue"]));
    let select = prop::collection::vec(
        prop::sample::select(vec![
            "amount_cents",
            "currency",
            "customer",
            "due_at",
            "id",
            "issued_at",
            "lines",
            "status",
        ]),
        0..3,
    );
    prop_oneof![
        (id.clone(), select.clone())
            .prop_map(|(id, s)| json!({"action": "get_invoice", "id": id, "_select": s})),
        (status.clone(), select.clone(), prop::option::of((1_u32..=15).prop_map(|n| format!("CUS-{n:03}"))))
            .prop_map(|(status, s, customer)| json!({"action": "list_invoices", "status": status, "customer_id": customer, "_select": s})),
        status.prop_map(|status| json!({"action": "export_invoices", "status": status})),
        id.clone().prop_map(|id| json!({"action": "remind", "id": id})),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// The billing fixture's customer emails never leave the server, over every read action.
    #[test]
    fn billing_never_shows_a_customer_email(calls in prop::collection::vec(billing_call(), 1..4)) {
        let store = Store::load().unwrap();
        let secrets = Secrets { texts: emails(&store), numbers: Vec::new() };
        prop_assert!(secrets.texts.len() > 5);
        let tools = fusion_examples::tools(Arc::new(BillingApp::new(store))).unwrap();
        for arguments in calls {
            let response = tools.call("billing", Some(arguments));
            secrets.check_response("billing", &response)?;
        }
        let stats = tools.call("invoice_stats", None);
        secrets.check_response("invoice_stats", &stats)?;
    }
}

/// The generators do put secrets where the properties look: a fixed account, written in clear
/// by a plain serde mirror, shows every marker (so a property that found none would fail).
#[test]
fn the_secrets_are_in_the_clear_values() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    #[derive(Serialize)]
    struct Clear<'a> {
        iban: &'a str,
        pin: Option<&'a str>,
        cvv: &'a str,
        balance: u64,
        history: &'a [String],
        score: u64,
        emails: Vec<&'a str>,
        phones: Vec<Option<&'a str>>,
        cards: Vec<&'a str>,
        sealed: &'a [String],
        note: &'a str,
        code: &'a str,
    }

    let mut runner = TestRunner::deterministic();
    for _ in 0..20 {
        let (account, secrets) = account().new_tree(&mut runner).unwrap().current();
        let contacts: Vec<&Contact> = std::iter::once(&account.contact)
            .chain(account.backup.as_ref())
            .collect();
        let clear = serde_json::to_string(&Clear {
            iban: &account.iban,
            pin: account.pin.as_deref(),
            cvv: &account.cvv,
            balance: account.balance_cents,
            history: &account.history,
            score: account.profile.score,
            emails: contacts.iter().map(|c| c.email.as_str()).collect(),
            phones: contacts.iter().map(|c| c.phone.as_deref()).collect(),
            cards: account.cards.iter().map(|c| c.number.as_str()).collect(),
            sealed: &account.sealed.inner,
            note: &account.internal_note,
            code: &account.internal_code,
        })
        .unwrap();
        for secret in secrets.texts.iter().chain(&secrets.numbers) {
            assert!(clear.contains(secret.as_str()), "{secret} not in {clear}");
        }
        // And the wire form shows none of them.
        let wire = serde_json::to_string(&account).unwrap();
        assert!(secrets.texts.iter().all(|s| !wire.contains(s.as_str())));
        assert_eq!(
            serde_json::from_str::<Value>(&wire).unwrap()["iban"],
            json!("[REDACTED]")
        );
    }
}
