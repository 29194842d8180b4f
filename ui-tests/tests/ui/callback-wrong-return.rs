use fusion_runtime::Presenter;

struct Tenant {
    admin: bool,
}

// Each callback kind with a return type it cannot take, and a callback of a model with a
// context whose signature fits neither form: each reported at the callback, naming only
// public traits.
#[derive(Presenter)]
#[presenter(context = Tenant)]
#[suggest(call = Self::next)]
#[ui(Self::chart)]
#[rule("Admins may void it.", when = Self::is_admin)]
struct Invoice {
    id: String,
}

impl Invoice {
    fn next(&self) -> &'static str {
        "billing.pay"
    }

    fn chart(&self, _tenant: &Tenant) -> String {
        self.id.clone()
    }

    fn is_admin(&self, tenant: &Tenant) -> Option<bool> {
        Some(tenant.admin)
    }
}

fn main() {}
