//! Arbitrary bytes as tool arguments: the first byte picks the tool (and whether the arguments
//! are absent), the rest is read as JSON. Whatever it holds, the call must answer with the
//! handler's response or an error envelope (wire format §13.8): no panic, no `INTERNAL_ERROR`, and no
//! validation error that comes from serde refusing what the argument walker accepted.
//!
//! Tools: the billing example's `billing` and `invoice_stats` with their real handlers, and
//! `shapes` (nested objects, arrays of arrays, a tagged union, maps, integer ranges, floats,
//! optional values, a free JSON value, `_select`).

#![no_main]

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use fusion_examples::{BillingApp, Store};
use fusion_runtime::{Call, Presenter, Tool, ToolSet};
use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use serde_json::Value;

#[derive(Presenter, Debug)]
struct Shape {
    id: u64,
    label: String,
}

#[allow(dead_code)]
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Point {
    x: i32,
    #[schemars(range(min = -10, max = 10))]
    y: i8,
}

#[allow(dead_code)]
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Fill {
    Solid { color: String },
    Gradient { stops: Vec<f32>, angle: Option<u16> },
    None,
}

#[allow(dead_code)]
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
#[fusion(name = "shapes", select)]
enum Shapes {
    #[fusion(returns = Shape)]
    Draw {
        points: Vec<Point>,
        fill: Fill,
        grid: Option<Vec<Vec<u8>>>,
        tags: Option<BTreeMap<String, i64>>,
        #[schemars(range(min = 1, max = 100))]
        scale: Option<u32>,
    },
    #[fusion(returns = Shape)]
    Get { id: u64 },
    Annotate {
        note: String,
        weight: f64,
        extra: Option<Value>,
    },
}

fn tools() -> &'static ToolSet {
    static TOOLS: OnceLock<ToolSet> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let app = Arc::new(BillingApp::new(Store::load().expect("the fixture loads")));
        let stats = app.clone();
        ToolSet::new()
            .tool(move |action: fusion_examples::Billing, call: &Call| app.billing(action, call))
            .expect("billing is defined")
            .tool(move |input: fusion_examples::InvoiceStatsInput, call: &Call| {
                stats.invoice_stats(input, call)
            })
            .expect("invoice_stats is defined")
            .tool(|action: Shapes, call: &Call| match action {
                Shapes::Get { id } => call
                    .present(&Shape {
                        id,
                        label: "s".into(),
                    })
                    .build()
                    .map_err(|e| e.to_string()),
                other => Ok(fusion_runtime::ResponseBuilder::text(format!("{other:?}")).build()),
            })
            .expect("shapes is defined")
            .on_internal_error(|failure| panic!("INTERNAL_ERROR: {failure}"))
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, json)) = data.split_first() else {
        return;
    };
    let Ok(value) = serde_json::from_slice::<Value>(json) else {
        return;
    };
    let name = ["billing", "invoice_stats", "shapes"][usize::from(selector & 0x03) % 3];
    let arguments = (selector & 0x80 == 0).then_some(value);
    let response = tools().call(name, arguments);
    let blocks = response.blocks();
    assert!(!blocks.is_empty(), "a response without blocks");
    let first = &blocks[0];
    assert!(!first.is_empty(), "an empty first block");
    if first.starts_with("<validation_error") {
        assert_eq!(response.is_error(), Some(true));
        assert!(
            !first.contains("<field name=\"(root)\">Invalid value."),
            "serde refused what the walker accepted:\n{first}"
        );
    } else if first.starts_with("<tool_error") {
        assert!(response.is_error().is_some());
        assert!(!first.contains("INTERNAL_ERROR"), "{first}");
    } else {
        assert_eq!(response.is_error(), None);
    }
});
