use fusion_runtime::Presenter;

struct Tenant {
    admin: bool,
}

#[derive(Presenter)]
#[rule("Admins may void invoices.", when = Self::is_admin)]
struct Invoice {
    id: String,
}

impl Invoice {
    fn is_admin(&self, tenant: &Tenant) -> bool {
        tenant.admin
    }
}

fn main() {}
