//! Allocations per render, counted by divan's `AllocProfiler` (a counting global allocator):
//! `alloc` rows are fresh allocations, `grow` rows reallocations, per iteration.
//!
//! - Models of 5, 20 and 80 fields with `#[derive(Presenter)]` (each with a static rule, a
//!   templated rule, a suggestion, a redacted field and an embedded child), rendered as a single
//!   value, a single value under `_select` of 2 fields, and a collection of 10: the count must
//!   not grow with the number of fields.
//! - The billing cases of the `presenter` bench, derived models.
//!
//! `cargo bench -p fusion-runtime --bench alloc` (timings here include the counting; use the
//! `presenter` bench for time).

use std::sync::LazyLock;

use divan::{Bencher, black_box};
use fusion_runtime::{Presenter, Selection, ToolResponse};

#[global_allocator]
static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();

#[path = "support/billing.rs"]
mod billing;

fn main() {
    divan::main();
}

/// A value made up for a field of a generated model.
trait Sample {
    fn sample(i: usize) -> Self;
}

impl Sample for String {
    fn sample(i: usize) -> Self {
        format!("text value {i}")
    }
}

impl Sample for u64 {
    fn sample(i: usize) -> Self {
        u64::try_from(i).unwrap_or(0) * 1_000 + 7
    }
}

impl Sample for u32 {
    fn sample(i: usize) -> Self {
        u32::try_from(i).unwrap_or(0) + 3
    }
}

impl Sample for f64 {
    fn sample(i: usize) -> Self {
        f64::from(u32::try_from(i).unwrap_or(0)) * 0.25 + 0.1
    }
}

impl Sample for bool {
    fn sample(i: usize) -> Self {
        i.is_multiple_of(2)
    }
}

/// The embedded child of every wide model.
#[derive(Presenter, Clone)]
#[rule("owner.email is redacted for privacy.")]
struct Owner {
    id: String,
    #[redact]
    email: String,
}

impl Sample for Owner {
    fn sample(i: usize) -> Self {
        Owner {
            id: format!("O-{i}"),
            email: format!("owner{i}@example.com"),
        }
    }
}

/// A model of `id`, `secret` (redacted), `owner` (embedded) and the listed fields.
macro_rules! wide {
    ($name:ident { $($field:ident: $ty:ty),* $(,)? }) => {
        #[derive(Presenter, Clone)]
        #[rule("Amounts are in CENTS. Divide by 100.")]
        #[rule("Record {id} needs a review.", when = Self::flagged)]
        #[suggest(tool = "records.review", reason = "Review the record", when = Self::flagged)]
        #[collection_ui(summary = "{n} records")]
        pub(crate) struct $name {
            id: String,
            #[redact]
            secret: String,
            #[embed]
            owner: Owner,
            $($field: $ty,)*
        }

        impl $name {
            fn flagged(&self) -> bool {
                self.id.ends_with('1')
            }
        }

        impl Sample for $name {
            fn sample(i: usize) -> Self {
                $name {
                    id: format!("R-{i:05}"),
                    secret: String::sample(i),
                    owner: Owner::sample(i),
                    $($field: Sample::sample(i),)*
                }
            }
        }
    };
}

// The fields beyond `id`, `secret` and `owner`: 5, 20 and 80 fields in all.
#[rustfmt::skip]
mod wide {
    use super::{Owner, Presenter, Sample};

    wide!(Wide5 {
        c01: u64, c02: String,
    });
    wide!(Wide20 {
        c01: u64, c02: String, c03: f64, c04: String, c05: bool, c06: u32, c07: String, c08: u64,
        c09: String, c10: f64, c11: String, c12: bool, c13: u32, c14: String, c15: u64,
        c16: String, c17: f64,
    });
    wide!(Wide80 {
        c01: u64, c02: String, c03: f64, c04: String, c05: bool, c06: u32, c07: String, c08: u64,
        c09: String, c10: f64, c11: String, c12: bool, c13: u32, c14: String, c15: u64,
        c16: String, c17: f64, c18: String, c19: bool, c20: u32, c21: String, c22: u64,
        c23: String, c24: f64, c25: String, c26: bool, c27: u32, c28: String, c29: u64,
        c30: String, c31: f64, c32: String, c33: bool, c34: u32, c35: String, c36: u64,
        c37: String, c38: f64, c39: String, c40: bool, c41: u32, c42: String, c43: u64,
        c44: String, c45: f64, c46: String, c47: bool, c48: u32, c49: String, c50: u64,
        c51: String, c52: f64, c53: String, c54: bool, c55: u32, c56: String, c57: u64,
        c58: String, c59: f64, c60: String, c61: bool, c62: u32, c63: String, c64: u64,
        c65: String, c66: f64, c67: String, c68: bool, c69: u32, c70: String, c71: u64,
        c72: String, c73: f64, c74: String, c75: bool, c76: u32, c77: String,
    });
}

use wide::{Wide5, Wide20, Wide80};

static SELECT_2: LazyLock<Selection> = LazyLock::new(|| Selection::new(["id", "c01"]));

/// One value (index 1: its templated rule and suggestion apply).
#[divan::bench(types = [Wide5, Wide20, Wide80])]
fn fields_single<T: Sample + Presenter + Sync>(bencher: Bencher<'_, '_>) {
    bencher
        .with_inputs(|| T::sample(1))
        .bench_local_refs(|value| {
            fusion_runtime::present::present(value)
                .build()
                .expect("writes")
        });
}

/// One value under `_select: ["id", "c01"]`.
#[divan::bench(types = [Wide5, Wide20, Wide80])]
fn fields_single_select_2<T: Sample + Presenter + Sync>(bencher: Bencher<'_, '_>) {
    let selection = &*SELECT_2;
    bencher
        .with_inputs(|| T::sample(1))
        .bench_local_refs(|value| {
            fusion_runtime::present::present(value)
                .select(selection)
                .build()
                .expect("writes")
        });
}

/// A collection of 10 values (one of them flagged).
#[divan::bench(types = [Wide5, Wide20, Wide80])]
fn fields_collection_10<T: Sample + Presenter + Sync>(bencher: Bencher<'_, '_>) {
    bencher
        .with_inputs(|| (0..10).map(T::sample).collect::<Vec<T>>())
        .bench_local_refs(|values| {
            fusion_runtime::present::present_all(values.as_slice())
                .build()
                .expect("writes")
        });
}

/// The billing cases of the `presenter` bench, derived models.
mod billing_cases {
    use super::billing::{derived, invoices};
    use super::{LazyLock, Selection, ToolResponse, black_box};

    static LIST: LazyLock<Vec<derived::Invoice>> = LazyLock::new(|| invoices(120, false));
    static ALL: LazyLock<Vec<derived::InvoiceAll>> = LazyLock::new(|| invoices(10_000, true));
    static SELECTION: LazyLock<Selection> = LazyLock::new(|| Selection::new(["id", "status"]));

    #[divan::bench]
    fn one_invoice(bencher: divan::Bencher<'_, '_>) {
        let invoice = &LIST[0];
        bencher.bench(|| black_box(invoice).present().build().expect("writes"));
    }

    #[divan::bench]
    fn one_invoice_select_2(bencher: divan::Bencher<'_, '_>) {
        let invoice = &LIST[0];
        let selection = &*SELECTION;
        bencher.bench(|| {
            black_box(invoice)
                .present()
                .select(selection)
                .build()
                .expect("writes")
        });
    }

    #[divan::bench]
    fn list_120_limit_50(bencher: divan::Bencher<'_, '_>) {
        let list = &**LIST;
        bencher.bench(|| -> ToolResponse {
            derived::Invoice::present_all(black_box(list))
                .build()
                .expect("writes")
        });
    }

    /// The gauge callback of one invoice alone (application code, part of `one_invoice`).
    #[divan::bench]
    fn one_invoice_gauge_alone(bencher: divan::Bencher<'_, '_>) {
        bencher.bench(|| super::billing::gauge(black_box(8261.99)));
    }

    #[divan::bench(sample_count = 20)]
    fn list_10000_no_limit(bencher: divan::Bencher<'_, '_>) {
        let all = &**ALL;
        bencher.bench(|| -> ToolResponse {
            derived::InvoiceAll::present_all(black_box(all))
                .build()
                .expect("writes")
        });
    }
}
