//! Wide rows of non-ASCII text: 15 fields per row, the text in Japanese, Chinese, Russian,
//! accented Latin (German, French, Spanish) and emoji, as an international shop's order list
//! reads. The case of issue #20 ("cost on real text"): the estimate of such text is counted one
//! character at a time where the billing data is counted in blocks.
//!
//! Shared by the `budget` bench (`#[path]` module, not a bench target) and the
//! `budget_report` and `token_calibration` programs of `fusion-examples`, which include this
//! file by path, so that the bench and the reports measure the same rows.
//!
//! Two presenters of the same fields: [`WideRow`] with no other blocks, and [`WideRowUi`] with
//! large ones (a table of every kept row, an item rule and suggestion per flagged row, a
//! collection rule and suggestion that count the rows).

#![allow(dead_code, reason = "each user takes part of the models")]

use fusion_runtime::Presenter;

/// One order with its 15 fields, no other blocks.
#[derive(Presenter, Clone, Debug)]
pub struct WideRow {
    /// The order number, from 1.
    pub id: u32,
    /// An ASCII article number.
    pub sku: String,
    /// Three words of the row's script.
    pub title: String,
    /// A name in the row's script.
    pub customer: String,
    /// A city in the row's script.
    pub city: String,
    /// Nine words and an emoji.
    pub note: String,
    /// Three words, comma-separated.
    pub tags: String,
    /// `paid`, `pending`, `shipped` or `returned`.
    pub status: String,
    /// The amount, in cents of `currency`.
    pub amount_cents: u64,
    /// An ISO 4217 code.
    pub currency: String,
    /// Items ordered.
    pub quantity: u32,
    /// An RFC 3339 timestamp.
    pub created_at: String,
    /// A carrier's name in the row's script.
    pub carrier: String,
    /// Stars or a thumb, as emoji.
    pub rating: String,
    /// Whether the order needs a look (a rule and a suggestion in [`WideRowUi`]).
    pub flagged: bool,
}

/// The same order with large other blocks: a table of the rows, a rule and a suggestion per
/// flagged row, a collection rule and suggestion.
#[derive(Presenter, Clone, Debug)]
#[rule(when = Self::is_flagged, text = "Order {id} for {customer} is flagged: {note}")]
#[suggest(tool = "orders.review", reason = "Review order {id} ({title})", when = Self::is_flagged)]
#[collection_rule("{n} orders shown; amounts are in cents of their currency.")]
#[collection_suggest(tool = "orders.export", reason = "Export the {n} orders")]
#[collection_ui(table(id, title, customer, city, status, amount_cents))]
pub struct WideRowUi {
    /// The order number, from 1.
    pub id: u32,
    /// An ASCII article number.
    pub sku: String,
    /// Three words of the row's script.
    pub title: String,
    /// A name in the row's script.
    pub customer: String,
    /// A city in the row's script.
    pub city: String,
    /// Nine words and an emoji.
    pub note: String,
    /// Three words, comma-separated.
    pub tags: String,
    /// `paid`, `pending`, `shipped` or `returned`.
    pub status: String,
    /// The amount, in cents of `currency`.
    pub amount_cents: u64,
    /// An ISO 4217 code.
    pub currency: String,
    /// Items ordered.
    pub quantity: u32,
    /// An RFC 3339 timestamp.
    pub created_at: String,
    /// A carrier's name in the row's script.
    pub carrier: String,
    /// Stars or a thumb, as emoji.
    pub rating: String,
    /// Whether the order needs a look (a rule and a suggestion in [`WideRowUi`]).
    pub flagged: bool,
}

impl WideRowUi {
    fn is_flagged(&self) -> bool {
        self.flagged
    }
}

impl From<&WideRow> for WideRowUi {
    fn from(row: &WideRow) -> Self {
        WideRowUi {
            id: row.id,
            sku: row.sku.clone(),
            title: row.title.clone(),
            customer: row.customer.clone(),
            city: row.city.clone(),
            note: row.note.clone(),
            tags: row.tags.clone(),
            status: row.status.clone(),
            amount_cents: row.amount_cents,
            currency: row.currency.clone(),
            quantity: row.quantity,
            created_at: row.created_at.clone(),
            carrier: row.carrier.clone(),
            rating: row.rating.clone(),
            flagged: row.flagged,
        }
    }
}

/// A `_select` of a few members, text-heavy: what a narrower call asks for.
pub const SELECT: [&str; 5] = ["id", "title", "customer", "note", "status"];

/// `n` rows, the same on every run: the scripts take turns row by row (Japanese, Russian,
/// German, Chinese, French, emoji, Spanish), each row's text in one script with a few emoji.
pub fn wide_rows(n: usize) -> Vec<WideRow> {
    let mut random = Random(0x5EED_0020);
    (0..n)
        .map(|index| {
            let script = SCRIPTS[index % SCRIPTS.len()];
            let words = |random: &mut Random, count: usize| -> String {
                let mut text = String::new();
                for i in 0..count {
                    if i > 0 && script.spaced {
                        text.push(' ');
                    }
                    text.push_str(script.words[random.below(script.words.len())]);
                }
                text
            };
            let emoji = EMOJI[random.below(EMOJI.len())];
            let title = words(&mut random, 3);
            let mut note = words(&mut random, 9);
            note.push(' ');
            note.push_str(emoji);
            let tags = (0..3)
                .map(|_| script.words[random.below(script.words.len())])
                .collect::<Vec<_>>()
                .join(", ");
            WideRow {
                id: u32::try_from(index + 1).unwrap_or(u32::MAX),
                sku: format!("SKU-{:06}", random.below(1_000_000)),
                title,
                customer: script.names[random.below(script.names.len())].to_owned(),
                city: script.cities[random.below(script.cities.len())].to_owned(),
                note,
                tags,
                status: ["paid", "pending", "shipped", "returned"][random.below(4)].to_owned(),
                amount_cents: u64::try_from(random.below(2_000_000)).unwrap_or(0),
                currency: ["EUR", "JPY", "RUB", "CNY", "USD"][random.below(5)].to_owned(),
                quantity: u32::try_from(1 + random.below(40)).unwrap_or(1),
                created_at: format!(
                    "2026-{:02}-{:02}T{:02}:{:02}:00Z",
                    1 + random.below(12),
                    1 + random.below(28),
                    random.below(24),
                    random.below(60)
                ),
                carrier: script.carriers[random.below(script.carriers.len())].to_owned(),
                rating: ["⭐⭐⭐⭐⭐", "⭐⭐⭐⭐", "⭐⭐⭐", "👍", "👎"][random.below(5)]
                    .to_owned(),
                flagged: random.below(5) == 0,
            }
        })
        .collect()
}

/// The rows with the other blocks.
pub fn wide_rows_ui(n: usize) -> Vec<WideRowUi> {
    wide_rows(n).iter().map(WideRowUi::from).collect()
}

/// A small deterministic generator (xorshift64*).
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let next = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        usize::try_from((next >> 11) % bound as u64).unwrap_or(0)
    }
}

/// The words of one script.
#[derive(Clone, Copy)]
struct Script {
    words: &'static [&'static str],
    /// Whether words are written with spaces between them (not in Japanese and Chinese).
    spaced: bool,
    names: &'static [&'static str],
    cities: &'static [&'static str],
    carriers: &'static [&'static str],
}

const SCRIPTS: [Script; 7] = [
    Script {
        words: &[
            "配送",
            "注文",
            "確認",
            "商品",
            "お客様",
            "返品",
            "在庫",
            "倉庫",
            "発送済み",
            "請求書",
            "支払い",
            "ありがとうございます",
            "至急",
            "東京",
            "ギフト包装",
            "キャンセル",
            "。",
            "、",
            "明日",
            "午前中",
        ],
        spaced: false,
        names: &["山田太郎", "佐藤花子", "鈴木一郎", "高橋美咲", "田中健太"],
        cities: &["東京都", "大阪市", "横浜市", "名古屋市", "札幌市"],
        carriers: &["ヤマト運輸", "佐川急便", "日本郵便"],
    },
    Script {
        words: &[
            "заказ",
            "доставка",
            "клиент",
            "оплачен",
            "склад",
            "возврат",
            "срочно",
            "подарок",
            "упаковка",
            "счёт",
            "курьер",
            "завтра",
            "утром",
            "товар",
            "проверить",
            "адрес",
            "Москва",
            "скидка",
        ],
        spaced: true,
        names: &[
            "Иван Петров",
            "Мария Смирнова",
            "Алексей Кузнецов",
            "Ольга Попова",
        ],
        cities: &["Москва", "Санкт-Петербург", "Новосибирск", "Екатеринбург"],
        carriers: &["Почта России", "СДЭК", "Boxberry"],
    },
    Script {
        words: &[
            "Bestellung",
            "Lieferung",
            "für",
            "Größe",
            "Rücksendung",
            "überfällig",
            "Kundin",
            "grün",
            "Straße",
            "schön",
            "Versand",
            "Geschenk",
            "Verpackung",
            "morgen",
            "früh",
            "bitte",
            "prüfen",
            "Menge",
        ],
        spaced: true,
        names: &[
            "Jürgen Müller",
            "Anna Schäfer",
            "Björn Weiß",
            "Sören Köhler",
        ],
        cities: &["München", "Köln", "Düsseldorf", "Zürich", "Nürnberg"],
        carriers: &["DHL", "Hermes", "Deutsche Post"],
    },
    Script {
        words: &[
            "订单",
            "发货",
            "客户",
            "已付款",
            "仓库",
            "退货",
            "加急",
            "礼品",
            "包装",
            "发票",
            "快递",
            "明天",
            "上午",
            "商品",
            "检查",
            "地址",
            "北京",
            "折扣",
            "，",
            "。",
        ],
        spaced: false,
        names: &["王伟", "李娜", "张敏", "刘洋", "陈静"],
        cities: &["北京市", "上海市", "广州市", "深圳市", "成都市"],
        carriers: &["顺丰速运", "中通快递", "京东物流"],
    },
    Script {
        words: &[
            "commande",
            "livrée",
            "à",
            "réception",
            "client",
            "élevé",
            "reçu",
            "déjà",
            "très",
            "façade",
            "été",
            "emballage",
            "cadeau",
            "demain",
            "matin",
            "vérifier",
            "adresse",
            "remise",
        ],
        spaced: true,
        names: &[
            "Hélène Dubois",
            "François Lefèvre",
            "Chloé Moreau",
            "Jérôme Fournier",
        ],
        cities: &["Montréal", "Besançon", "Orléans", "Genève", "Nîmes"],
        carriers: &["La Poste", "Chronopost", "Colissimo"],
    },
    Script {
        words: &[
            "📦", "🚚", "✅", "🎁", "⚠️", "🔥", "💳", "🧾", "order", "gift", "fast", "🙏", "👍",
            "😊", "🛒", "⏳", "📧", "🏷️",
        ],
        spaced: true,
        names: &["Alex 🦊", "Sam ✨", "Jo 🌸", "Kim 🎧"],
        cities: &["Berlin 🇩🇪", "Tokyo 🇯🇵", "Paris 🇫🇷", "Madrid 🇪🇸"],
        carriers: &["DHL 🚚", "UPS 📦", "FedEx ✈️"],
    },
    Script {
        words: &[
            "pedido",
            "envío",
            "está",
            "devolución",
            "señora",
            "según",
            "mañana",
            "rápido",
            "dirección",
            "paquete",
            "regalo",
            "revisión",
            "también",
            "más",
            "cliente",
            "pagado",
            "almacén",
            "descuento",
        ],
        spaced: true,
        names: &["José Núñez", "María Peña", "Íñigo Ibáñez", "Lucía Martín"],
        cities: &["Logroño", "Málaga", "Córdoba", "León", "Cádiz"],
        carriers: &["Correos", "SEUR", "MRW"],
    },
];

/// Emoji a note ends with.
const EMOJI: [&str; 10] = ["🎉", "😬", "📦", "🚀", "❤️", "🙏", "✅", "⚠️", "🇯🇵", "👩‍💼"];
