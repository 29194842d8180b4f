//! The static item rules of a model and of the models it embeds, collected once for a tool's
//! description (wire format §6.12): what a lean tool says in `tools/list` instead of in every
//! answer.

/// The static item rules of a tree of models, each text once, in the order met: a model's own
/// rules in declaration order, then those of each embedded field's model, depth first, in field
/// order (wire format §6.12).
///
/// `#[derive(Presenter)]` writes `Model::static_rules`, which fills one; a model met again (a
/// model embedded twice, or a cycle of models embedding each other) adds nothing.
///
/// ```
/// use fusion_runtime::present::StaticRules;
///
/// #[derive(fusion_runtime::Presenter)]
/// #[rule("qty is in units.")]
/// struct Line {
///     qty: u32,
/// }
///
/// #[derive(fusion_runtime::Presenter)]
/// #[rule("total is in cents.")]
/// struct Order {
///     total: u64,
///     #[embed]
///     lines: Vec<Line>,
/// }
///
/// assert_eq!(StaticRules::of::<Order>(), ["total is in cents.", "qty is in units."]);
/// ```
#[derive(Debug, Default)]
pub struct StaticRules {
    rules: Vec<&'static str>,
    /// The models met so far, by type name.
    met: Vec<&'static str>,
}

impl StaticRules {
    /// The rules collected, in order.
    pub(crate) fn into_vec(self) -> Vec<&'static str> {
        self.rules
    }

    /// Records the model `M` with its own static rules (texts already there are not repeated);
    /// returns whether `M` is met for the first time, that is, whether its embedded models are
    /// still to be visited.
    pub fn enter<M: ?Sized>(&mut self, own: &[&'static str]) -> bool {
        let name = std::any::type_name::<M>();
        if self.met.contains(&name) {
            return false;
        }
        self.met.push(name);
        for rule in own {
            if !self.rules.contains(rule) {
                self.rules.push(rule);
            }
        }
        true
    }
}
