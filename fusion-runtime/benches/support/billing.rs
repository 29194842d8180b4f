//! The billing models of BILLING.md twice: with `#[derive(Presenter)]` and written by hand
//! against the runtime API (`Model`, `Presenter`, `Embed`), plus the fixture data.
//!
//! Shared by the `presenter` and `alloc` benches (`#[path]` module, not a bench target).
//! Each invoice model comes in two variants: `Invoice` with the agent limit of BILLING.md (50)
//! and `InvoiceAll` without it, so a collection of 10,000 really presents every invoice.

#![allow(dead_code, reason = "each bench uses part of the models")]

use fusion_runtime::ui::UiBlock;

/// The fixture, embedded at compile time (the benches never read files at run time).
const FIXTURE: &str = include_str!("../../../examples/data/billing.json");

/// The fixture's first `n` invoices, cycled past its 120; with `renumber`, every copy gets a new
/// id `INV-00001`, `INV-00002`, ... so that 10,000 invoices are 10,000 distinct invoices (their
/// overdue rules do not collapse into the 14 of the fixture).
pub fn invoices<T: Clone + serde::de::DeserializeOwned + Renumber>(
    n: usize,
    renumber: bool,
) -> Vec<T> {
    #[derive(serde::Deserialize)]
    struct Fixture<T> {
        invoices: Vec<T>,
    }
    let fixture: Fixture<T> = serde_json::from_str(FIXTURE).expect("the fixture parses");
    let mut out: Vec<T> = fixture.invoices.iter().cycle().take(n).cloned().collect();
    if renumber {
        for (i, invoice) in out.iter_mut().enumerate() {
            invoice.set_id(format!("INV-{:05}", i + 1));
        }
    }
    out
}

/// Gives an invoice a new id.
pub trait Renumber {
    /// Sets the id.
    fn set_id(&mut self, id: String);
}

/// The echarts config of the BILLING.md gauge, typed: `ui::echarts` takes any `Serialize`
/// config and writes it straight into the block (the same bytes as the `json!` config of
/// [`gauge_config_json`], which the bench checks).
#[derive(serde::Serialize)]
pub struct GaugeConfig {
    series: [GaugeSeries; 1],
}

/// One series of [`GaugeConfig`].
#[derive(serde::Serialize)]
struct GaugeSeries {
    #[serde(rename = "type")]
    kind: &'static str,
    data: [GaugeValue; 1],
}

/// The one data point of [`GaugeSeries`].
#[derive(serde::Serialize)]
struct GaugeValue {
    value: f64,
}

/// The echarts config of the BILLING.md gauge.
pub fn gauge_config(value: f64) -> GaugeConfig {
    GaugeConfig {
        series: [GaugeSeries {
            kind: "gauge",
            data: [GaugeValue { value }],
        }],
    }
}

/// The same config as a `serde_json::Value`, built as the examples build it (`json!`).
pub fn gauge_config_json(value: f64) -> serde_json::Value {
    serde_json::json!({
        "series": [{"type": "gauge", "data": [{"value": value}]}]
    })
}

/// The BILLING.md gauge.
pub fn gauge(value: f64) -> UiBlock {
    fusion_runtime::ui::echarts(gauge_config(value))
        .title("Amount (EUR)")
        .width(fusion_runtime::ui::Width::Half)
        .priority(1)
}

/// The BILLING.md collection summary.
pub fn summary<'a>(statuses: impl Iterator<Item = &'a str>) -> UiBlock {
    let (mut n, mut paid, mut pending, mut overdue) = (0, 0, 0, 0);
    for status in statuses {
        n += 1;
        match status {
            "paid" => paid += 1,
            "pending" => pending += 1,
            _ => overdue += 1,
        }
    }
    fusion_runtime::ui::summary(format!(
        "{n} invoices: {paid} paid, {pending} pending, {overdue} overdue"
    ))
}

/// The billing models with `#[derive(Presenter)]`.
pub mod derived {
    use fusion_runtime::Presenter;
    use fusion_runtime::ui::UiBlock;

    #[derive(Presenter, serde::Deserialize, Clone)]
    #[rule("customer.email is redacted for privacy; never ask the user for it.")]
    pub struct Customer {
        pub id: String,
        pub name: String,
        #[redact]
        pub email: String,
        pub country: String,
    }

    #[derive(Presenter, serde::Deserialize, Clone)]
    #[rule("unit_price_cents is in CENTS. Divide by 100.")]
    pub struct InvoiceLine {
        pub sku: String,
        pub description: String,
        pub qty: u32,
        pub unit_price_cents: u64,
    }

    /// The Invoice of BILLING.md, once per agent limit.
    macro_rules! invoice {
        ($(#[$limit:meta])* $name:ident) => {
            #[derive(Presenter, serde::Deserialize, Clone)]
            $(#[$limit])*
            #[rule("amount_cents is in CENTS. Divide by 100.")]
            // `each`: one line per overdue invoice, as the by-hand presenter pushes them (wire
            // format §6.10), so both do the same work.
            #[rule("Invoice {id} is overdue since {due_at}: mention it first.", when = Self::is_overdue, each)]
            #[suggest(tool = "billing.remind", reason = "Send a payment reminder", when = Self::is_open)]
            #[suggest(
                tool = "billing.void_invoice",
                reason = "Void it if it cannot be collected",
                when = Self::is_open
            )]
            #[ui(Self::gauge)]
            #[collection_ui(Self::summary)]
            pub struct $name {
                pub id: String,
                #[embed]
                pub customer: Customer,
                pub amount_cents: u64,
                pub currency: String,
                pub status: String,
                pub issued_at: String,
                pub due_at: String,
                #[embed]
                pub lines: Vec<InvoiceLine>,
                #[presenter(skip)]
                #[allow(dead_code, reason = "read from the data, never shown (BILLING.md)")]
                pub internal_margin_bps: u32,
            }

            impl $name {
                fn is_overdue(&self) -> bool {
                    self.status == "overdue"
                }

                fn is_open(&self) -> bool {
                    self.status == "pending" || self.status == "overdue"
                }

                #[allow(clippy::cast_precision_loss, reason = "a chart value")]
                fn gauge(&self) -> UiBlock {
                    super::gauge(self.amount_cents as f64 / 100.0)
                }

                fn summary(items: &[Self]) -> UiBlock {
                    super::summary(items.iter().map(|i| i.status.as_str()))
                }
            }

            impl super::Renumber for $name {
                fn set_id(&mut self, id: String) {
                    self.id = id;
                }
            }
        };
    }

    invoice!(
        #[presenter(agent_limit = 50)]
        Invoice
    );
    invoice!(InvoiceAll);
}

/// The same presenters written by hand against the runtime API.
pub mod by_hand {
    use std::borrow::Cow;

    use fusion_runtime::present::{Embed, EmbedSink, Field, FieldMask, Model, Rules, Suggestions};
    use fusion_runtime::ui::UiBlock;
    use fusion_runtime::{Presenter, Suggestion};
    use serde::ser::{SerializeStruct, Serializer};

    /// A field enum written by hand.
    macro_rules! fields {
        ($name:ident { $($variant:ident = $wire:literal),* }) => {
            #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
            pub enum $name { $($variant),* }

            impl Field for $name {
                const ALL: &'static [Self] = &[$(Self::$variant),*];

                fn wire_name(self) -> &'static str {
                    match self { $(Self::$variant => $wire),* }
                }

                fn from_wire_name(name: &str) -> Option<Self> {
                    match name { $($wire => Some(Self::$variant),)* _ => None }
                }

                fn index(self) -> usize {
                    self as usize
                }
            }
        };
    }

    fields!(CustomerField { Id = "id", Name = "name", Email = "email", Country = "country" });
    fields!(LineField { Sku = "sku", Description = "description", Qty = "qty", UnitPriceCents = "unit_price_cents" });
    fields!(InvoiceField {
        Id = "id", Customer = "customer", AmountCents = "amount_cents", Currency = "currency",
        Status = "status", IssuedAt = "issued_at", DueAt = "due_at", Lines = "lines"
    });

    #[derive(serde::Deserialize, Clone)]
    pub struct Customer {
        pub id: String,
        pub name: String,
        #[allow(dead_code, reason = "redacted: never written")]
        pub email: String,
        pub country: String,
    }

    impl serde::Serialize for Customer {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.serialize_selected(&FieldMask::ALL, serializer)
        }
    }

    impl Model for Customer {
        type Field = CustomerField;
        const NAME: &'static str = "Customer";
        const WIRE_NAMES: &'static [&'static str] = &["id", "name", "email", "country"];

        fn serialize_selected<S: Serializer>(
            &self,
            mask: &FieldMask,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            let mut state = serializer.serialize_struct("Customer", mask.count(4))?;
            if mask.contains(0) {
                state.serialize_field("id", &self.id)?;
            }
            if mask.contains(1) {
                state.serialize_field("name", &self.name)?;
            }
            if mask.contains(2) {
                state.serialize_field("email", "[REDACTED]")?;
            }
            if mask.contains(3) {
                state.serialize_field("country", &self.country)?;
            }
            state.end()
        }
    }

    impl<C: ?Sized> Presenter<C> for Customer {
        const STATIC_RULES: &'static [&'static str] =
            &["customer.email is redacted for privacy; never ask the user for it."];
        const STATIC_ONLY: bool = true;
        // As the derive writes it (the bench checks that both write the same blocks).
        const STATIC_RULES_BLOCK: Option<&'static str> = Some(
            "<domain_rules>\n- customer.email is redacted for privacy; never ask the user for it.\n</domain_rules>",
        );
    }

    impl<C: ?Sized> Embed<C> for Customer {
        fn embed_into(&self, ctx: &C, sink: &mut EmbedSink<'_>) {
            sink.single(self, ctx);
        }
    }

    #[derive(serde::Deserialize, Clone)]
    pub struct InvoiceLine {
        pub sku: String,
        pub description: String,
        pub qty: u32,
        pub unit_price_cents: u64,
    }

    impl serde::Serialize for InvoiceLine {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.serialize_selected(&FieldMask::ALL, serializer)
        }
    }

    impl Model for InvoiceLine {
        type Field = LineField;
        const NAME: &'static str = "InvoiceLine";
        const WIRE_NAMES: &'static [&'static str] =
            &["sku", "description", "qty", "unit_price_cents"];

        fn serialize_selected<S: Serializer>(
            &self,
            mask: &FieldMask,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            let mut state = serializer.serialize_struct("InvoiceLine", mask.count(4))?;
            if mask.contains(0) {
                state.serialize_field("sku", &self.sku)?;
            }
            if mask.contains(1) {
                state.serialize_field("description", &self.description)?;
            }
            if mask.contains(2) {
                state.serialize_field("qty", &self.qty)?;
            }
            if mask.contains(3) {
                state.serialize_field("unit_price_cents", &self.unit_price_cents)?;
            }
            state.end()
        }
    }

    impl<C: ?Sized> Presenter<C> for InvoiceLine {
        const STATIC_RULES: &'static [&'static str] =
            &["unit_price_cents is in CENTS. Divide by 100."];
        const STATIC_ONLY: bool = true;
        const STATIC_RULES_BLOCK: Option<&'static str> =
            Some("<domain_rules>\n- unit_price_cents is in CENTS. Divide by 100.\n</domain_rules>");
    }

    /// The Invoice of BILLING.md; `LIMITED` selects the agent limit of 50.
    #[derive(serde::Deserialize, Clone)]
    pub struct Invoice<const LIMITED: bool = true> {
        pub id: String,
        pub customer: Customer,
        pub amount_cents: u64,
        pub currency: String,
        pub status: String,
        pub issued_at: String,
        pub due_at: String,
        pub lines: Vec<InvoiceLine>,
        #[allow(dead_code, reason = "read from the data, never shown (BILLING.md)")]
        pub internal_margin_bps: u32,
    }

    /// The Invoice without an agent limit.
    pub type InvoiceAll = Invoice<false>;

    impl<const LIMITED: bool> super::Renumber for Invoice<LIMITED> {
        fn set_id(&mut self, id: String) {
            self.id = id;
        }
    }

    impl<const LIMITED: bool> serde::Serialize for Invoice<LIMITED> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.serialize_selected(&FieldMask::ALL, serializer)
        }
    }

    impl<const LIMITED: bool> Model for Invoice<LIMITED> {
        type Field = InvoiceField;
        const AGENT_LIMIT: Option<usize> = if LIMITED { Some(50) } else { None };
        const NAME: &'static str = "Invoice";
        const WIRE_NAMES: &'static [&'static str] = &[
            "id",
            "customer",
            "amount_cents",
            "currency",
            "status",
            "issued_at",
            "due_at",
            "lines",
        ];

        fn serialize_selected<S: Serializer>(
            &self,
            mask: &FieldMask,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            let mut state = serializer.serialize_struct("Invoice", mask.count(8))?;
            if mask.contains(0) {
                state.serialize_field("id", &self.id)?;
            }
            if mask.contains(1) {
                state.serialize_field("customer", &self.customer)?;
            }
            if mask.contains(2) {
                state.serialize_field("amount_cents", &self.amount_cents)?;
            }
            if mask.contains(3) {
                state.serialize_field("currency", &self.currency)?;
            }
            if mask.contains(4) {
                state.serialize_field("status", &self.status)?;
            }
            if mask.contains(5) {
                state.serialize_field("issued_at", &self.issued_at)?;
            }
            if mask.contains(6) {
                state.serialize_field("due_at", &self.due_at)?;
            }
            if mask.contains(7) {
                state.serialize_field("lines", &self.lines)?;
            }
            state.end()
        }
    }

    impl<const LIMITED: bool> Invoice<LIMITED> {
        fn is_open(&self) -> bool {
            self.status == "pending" || self.status == "overdue"
        }
    }

    impl<C: ?Sized, const LIMITED: bool> Presenter<C> for Invoice<LIMITED> {
        const STATIC_RULES: &'static [&'static str] = &["amount_cents is in CENTS. Divide by 100."];

        #[allow(clippy::cast_precision_loss, reason = "a chart value")]
        fn item_ui(&self, _: &C, out: &mut Vec<UiBlock>) {
            out.push(super::gauge(self.amount_cents as f64 / 100.0));
        }

        fn item_rules(&self, _: &C, out: &mut Rules) {
            if self.status == "overdue" {
                out.push(Cow::Owned(format!(
                    "Invoice {} is overdue since {}: mention it first.",
                    self.id, self.due_at
                )));
            }
        }

        fn item_suggestions(&self, _: &C, out: &mut Suggestions) {
            if self.is_open() {
                out.push(Suggestion::new("billing.remind", "Send a payment reminder"));
                out.push(Suggestion::new(
                    "billing.void_invoice",
                    "Void it if it cannot be collected",
                ));
            }
        }

        fn collection_ui(items: &[Self], _: &C, out: &mut Vec<UiBlock>) {
            out.push(super::summary(items.iter().map(|i| i.status.as_str())));
        }

        fn embeds(&self, ctx: &C, sink: &mut EmbedSink<'_>) {
            // As the derive writes it: a member `_select` leaves out presents no embed.
            if sink.selected(1) {
                self.customer.embed_into(ctx, sink);
            }
            if sink.selected(7) {
                self.lines.embed_into(ctx, sink);
            }
        }
    }

    impl<C: ?Sized, const LIMITED: bool> Embed<C> for Invoice<LIMITED> {
        fn embed_into(&self, ctx: &C, sink: &mut EmbedSink<'_>) {
            sink.single(self, ctx);
        }
    }
}
