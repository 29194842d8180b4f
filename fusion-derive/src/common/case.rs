//! Case conversion in one place: serde's `rename_all` rules (applied exactly as serde applies
//! them to field names), the `snake_case` of a type name, and the `r#` of raw identifiers.

use syn::Ident;

/// serde's `rename_all` rules, applied to field names exactly as serde does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

impl RenameRule {
    /// Every rule under the name serde gives it.
    pub const ALL: &'static [(&'static str, RenameRule)] = &[
        ("lowercase", RenameRule::Lower),
        ("UPPERCASE", RenameRule::Upper),
        ("PascalCase", RenameRule::Pascal),
        ("camelCase", RenameRule::Camel),
        ("snake_case", RenameRule::Snake),
        ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
        ("kebab-case", RenameRule::Kebab),
        ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
    ];

    /// The rule serde calls `name`.
    pub fn from_name(name: &str) -> Option<RenameRule> {
        RenameRule::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, rule)| *rule)
    }

    /// Applies the rule to a variant name (serde's `apply_to_variant`): the name an action's
    /// discriminator value has.
    pub fn apply_to_variant(self, variant: &str) -> String {
        let snake = || {
            let mut snake = String::new();
            for (i, ch) in variant.char_indices() {
                if i > 0 && ch.is_uppercase() {
                    snake.push('_');
                }
                snake.push(ch.to_ascii_lowercase());
            }
            snake
        };
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut chars = variant.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_lowercase().to_string() + chars.as_str()
                })
            }
            RenameRule::Snake => snake(),
            RenameRule::ScreamingSnake => snake().to_ascii_uppercase(),
            RenameRule::Kebab => snake().replace('_', "-"),
            RenameRule::ScreamingKebab => snake().to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// Applies the rule to a field name (serde's `apply_to_field`).
    pub fn apply(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply(field);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => pascal,
                }
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// `InvoiceStats` → `invoice_stats`, `HTTPProbe` → `http_probe` (a type name as a tool name).
pub fn snake_case(type_name: &str) -> String {
    let mut out = String::with_capacity(type_name.len() + 4);
    let chars: Vec<char> = type_name.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let after_lower =
                i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let before_lower = i > 0
                && chars.get(i + 1).is_some_and(|n| n.is_lowercase())
                && chars[i - 1].is_uppercase();
            if after_lower || before_lower {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(*c);
        }
    }
    out
}

/// The identifier as users read it: `r#type` is `type`.
pub fn unraw(ident: &Ident) -> String {
    let text = ident.to_string();
    text.strip_prefix("r#").map_or(text.clone(), str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_rules_match_serde() {
        let cases = [
            (RenameRule::Lower, "amount_cents"),
            (RenameRule::Upper, "AMOUNT_CENTS"),
            (RenameRule::Pascal, "AmountCents"),
            (RenameRule::Camel, "amountCents"),
            (RenameRule::Snake, "amount_cents"),
            (RenameRule::ScreamingSnake, "AMOUNT_CENTS"),
            (RenameRule::Kebab, "amount-cents"),
            (RenameRule::ScreamingKebab, "AMOUNT-CENTS"),
        ];
        for (rule, expected) in cases {
            assert_eq!(rule.apply("amount_cents"), expected, "{rule:?}");
        }
        assert_eq!(RenameRule::from_name("camelCase"), Some(RenameRule::Camel));
        assert_eq!(RenameRule::from_name("camel"), None);
    }

    #[test]
    fn default_tool_names() {
        assert_eq!(snake_case("InvoiceStats"), "invoice_stats");
        assert_eq!(snake_case("Billing"), "billing");
        assert_eq!(snake_case("HTTPProbe"), "http_probe");
        assert_eq!(snake_case("V2Tool"), "v2_tool");
    }

    #[test]
    fn raw_identifiers_lose_their_prefix() {
        let raw: Ident = syn::parse_quote!(r#type);
        assert_eq!(unraw(&raw), "type");
        let plain: Ident = syn::parse_quote!(id);
        assert_eq!(unraw(&plain), "id");
    }
}
