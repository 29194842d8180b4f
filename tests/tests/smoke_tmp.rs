use fusion_runtime::{Presenter, Selection, ui, UiBlock, Suggestion};

#[derive(Presenter)]
#[rule("CRITICAL: amount_cents is in CENTS. Divide by 100.")]
#[ui(Self::table)]
#[suggest(tool = "billing.pay", reason = "Offer immediate payment", when = Self::is_pending)]
pub struct Inv {
    pub id: String,
    pub amount_cents: u64,
    pub status: String,
}

impl Inv {
    fn table(&self) -> UiBlock {
        #[allow(clippy::cast_precision_loss)]
        let amount = self.amount_cents as f64 / 100.0;
        ui::table(["Field", "Value"], [[String::from("Amount"), format!("${amount:.2}")]])
    }
    fn is_pending(&self) -> bool {
        self.status == "pending"
    }
}

#[test]
fn v21() {
    let inv = Inv { id: "INV-1".into(), amount_cents: 45000, status: "pending".into() };
    let r = inv.present().build().unwrap();
    for b in r.blocks() { println!("{b}\n---"); }
    let sel = Selection::new(["status", "id"]);
    let r = inv.present().select(&sel).build().unwrap();
    println!("{:?}", r.blocks());
    let _ = Suggestion::new("a", "b");
}
