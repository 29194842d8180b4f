//! A crate that only presents models: `fusion-runtime` with `default-features = false` and the
//! feature `derive` alone. It shows what such a crate compiles (the model, the encoders, the
//! response and the presentation layers, not the tool layer, the budgets and the token estimate,
//! the testing view or the MCP App view) and that presenting needs nothing more.

use fusion_runtime::Presenter;
use fusion_runtime::present::Format;

/// A customer, embedded in an invoice; its email never reaches the wire.
#[derive(Presenter)]
#[rule("customer.email is redacted for privacy; never ask the user for it.")]
pub struct Customer {
    /// The customer's name.
    pub name: String,
    /// Redacted on the wire.
    #[redact]
    pub email: String,
}

/// An invoice with a rule, a conditional suggestion and an embedded customer.
#[derive(Presenter)]
#[presenter(agent_limit = 2)]
#[rule("amount_cents is in CENTS. Divide by 100.")]
#[suggest(tool = "billing.remind", reason = "Send a payment reminder", when = Self::is_overdue)]
pub struct Invoice {
    /// The invoice id.
    pub id: String,
    /// Who pays it.
    #[embed]
    pub customer: Customer,
    /// The amount in cents.
    pub amount_cents: u64,
    /// Whether it is overdue.
    pub overdue: bool,
}

impl Invoice {
    fn is_overdue(&self) -> bool {
        self.overdue
    }
}

/// The blocks of one invoice presented as JSON and of three presented as TOON (cut to the agent
/// limit of two).
///
/// # Errors
///
/// A value that cannot be written (none of these).
pub fn blocks() -> Result<(Vec<String>, Vec<String>), fusion_runtime::EncodeError> {
    let invoice = |id: &str, overdue| Invoice {
        id: id.into(),
        customer: Customer {
            name: "Acme".into(),
            email: "ap@acme.example".into(),
        },
        amount_cents: 4500,
        overdue,
    };
    let one = invoice("INV-1", true).present().build()?;
    let all = [
        invoice("INV-1", true),
        invoice("INV-2", false),
        invoice("INV-3", false),
    ];
    let many = Invoice::present_all(&all).format(Format::Toon).build()?;
    Ok((one.blocks().to_vec(), many.blocks().to_vec()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn presents_one_value_and_a_collection() {
        let (one, many) = super::blocks().unwrap();
        assert_eq!(
            one,
            [
                "{\n  \"id\": \"INV-1\",\n  \"customer\": {\n    \"name\": \"Acme\",\n    \"email\": \"[REDACTED]\"\n  },\n  \"amount_cents\": 4500,\n  \"overdue\": true\n}",
                "<domain_rules>\n- customer.email is redacted for privacy; never ask the user for it.\n</domain_rules>",
                "<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n</domain_rules>",
                "<action_suggestions>\n- billing.remind: Send a payment reminder\n</action_suggestions>",
            ]
        );
        assert_eq!(
            many[0],
            "[2|]{id|customer{name|email}|amount_cents|overdue}:\n  INV-1|Acme|\"[REDACTED]\"|4500|true\n  INV-2|Acme|\"[REDACTED]\"|4500|false"
        );
        assert!(
            many[1].contains("Dataset truncated. 2 shown, 1 hidden."),
            "{}",
            many[1]
        );
    }
}
