//! What the caller hands in (docs/decisions.md §1): today and the clock for `create_date`,
//! the company's settings, its relations, journals and delivery locations, and the
//! permissions of the client. The core reads the world only through [`Context`]; a
//! server implements it over its database, the simulator over its in-memory world.

pub use crate::error::ContextError;
use crate::language::Language;
pub use crate::numbering::Journal;
use crate::numbering::{JournalCategory, Window};
pub use crate::party::RelationKind;
use crate::party::{Address, Party};
use crate::terms::PaymentTerms;
use crate::vat::VatCode;
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc, Weekday};
use std::collections::BTreeMap;

/// The company's settings that the rules read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Company {
    /// Whether self-billing (purchase invoices and credit notes) is enabled.
    pub self_billing: bool,
    /// The legal notice a sale invoice takes when it sends none.
    pub legal_notice: Option<String>,
    /// The company's own exemption mention per exempt VAT code; it replaces the
    /// standard wording, the VATEX code stays.
    pub exemption_mentions: BTreeMap<VatCode, String>,
    /// The currencies the company accepts; `None` means every active ISO 4217 code.
    pub currencies: Option<Vec<String>>,
    /// Name, VAT and enterprise numbers, Peppol id, address, bank account, e-mail:
    /// what the UBL document names the company by (docs/peppol.md §1).
    pub party: Party,
    /// Whether a Peppol send of a document with findings is refused (docs/peppol.md §3).
    pub enforce_peppol_rules: bool,
    /// The language of the company's documents: the PDF's labels and the standard
    /// exemption wordings (docs/files.md §2). Default `en`.
    pub language: Language,
    /// Whether the UBL embeds the document's own PDF first among its additional
    /// document references (docs/files.md §3). Default true.
    pub embed_pdf_in_ubl: bool,
    /// The company's legal form (`BV`, `NV`, `SRL` …), printed in the PDF's footer.
    pub legal_form: Option<String>,
    /// The register that keeps the company (`RPR Gent`), printed in the PDF's footer.
    pub register: Option<String>,
}

impl Default for Company {
    /// No self-billing, notice, mentions or party; every currency; rules not
    /// enforced; English; the PDF embedded in the UBL.
    fn default() -> Self {
        Company {
            self_billing: false,
            legal_notice: None,
            exemption_mentions: BTreeMap::new(),
            currencies: None,
            party: Party::default(),
            enforce_peppol_rules: false,
            language: Language::En,
            embed_pdf_in_ubl: true,
            legal_form: None,
            register: None,
        }
    }
}

impl Company {
    /// Whether the company accepts this (already ISO-valid) currency code.
    pub fn accepts_currency(&self, code: &str) -> bool {
        self.currencies
            .as_ref()
            .is_none_or(|list| list.iter().any(|c| c == code))
    }
}

/// A third party a document is issued to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relation {
    /// Opaque identifier (companies and contacts share one identifier space).
    pub id: String,
    /// Company or contact.
    pub kind: RelationKind,
    /// The relation's payment terms (companies only).
    pub payment_terms: Option<PaymentTerms>,
    /// Whether the relation can receive on the Peppol network.
    pub peppol: bool,
    /// What the UBL document names the relation by (docs/peppol.md §1; its `bic` is not
    /// read).
    pub party: Party,
}

/// A saved delivery address, as far as the rules and the UBL writer read it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryLocation {
    /// Opaque identifier.
    pub id: String,
    /// The third party it belongs to.
    pub relation_id: String,
    /// Its name (the delivery party's name in UBL).
    pub name: Option<String>,
    /// Its address.
    pub address: Option<Address>,
    /// Its identifier, such as a GLN.
    pub identifier: Option<String>,
    /// The ISO 6523 scheme of the identifier, such as `0088`.
    pub identifier_scheme: Option<String>,
}

/// What a client may do: `c` (create) and `u` (update and send).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Permissions {
    /// `c`: create documents.
    pub create: bool,
    /// `u`: update and send documents.
    pub update: bool,
}

impl Permissions {
    /// Both `c` and `u`.
    pub const ALL: Permissions = Permissions {
        create: true,
        update: true,
    };
}

/// The world as the rules see it. Every method is a pure read; the lookups are
/// fallible so that a server's storage error answers 500 `internal_error` (see
/// [`ContextError`]), while `Ok(None)` is the record that does not exist (a 422 such
/// as `relation_not_found`). The simulator's [`crate::simulator::World`] never fails.
pub trait Context {
    /// Today, in the company's calendar.
    fn today(&self) -> NaiveDate;
    /// The clock for `create_date`.
    fn now(&self) -> DateTime<Utc>;
    /// The company's settings.
    fn company(&self) -> &Company;
    /// The relation with this id.
    fn relation(&self, id: &str) -> Result<Option<Relation>, ContextError>;
    /// The journal with this id.
    fn journal(&self, id: &str) -> Result<Option<Journal>, ContextError>;
    /// The company's default journal for a category.
    fn default_journal(&self, category: JournalCategory) -> Result<Option<Journal>, ContextError>;
    /// The delivery location with this id.
    fn delivery_location(&self, id: &str) -> Result<Option<DeliveryLocation>, ContextError>;
    /// The next sequence number of `journal`'s counter in `window` (1 for a window
    /// never drawn in). A server reads it inside the write transaction that stores
    /// the created document (see the crate docs, "Numbering").
    fn next_sequence(&self, journal: &Journal, window: Window) -> Result<u64, ContextError>;
}

/// The date in Belgium at the instant `now`: "today" for a server that runs on the
/// real clock (the crate has none: it is handed the instant). Belgium is UTC+1, and
/// UTC+2 from the last Sunday of March at 01:00 UTC to the last Sunday of October at
/// 01:00 UTC (the EU's summer time, Directive 2000/84/EC).
///
/// ```
/// use chrono::{DateTime, Utc};
/// use invoicing_core::context::belgian_date;
/// let at = |t: &str| DateTime::parse_from_rfc3339(t).unwrap().with_timezone(&Utc);
/// assert_eq!(belgian_date(at("2026-11-24T23:00:00Z")).to_string(), "2026-11-25");
/// assert_eq!(belgian_date(at("2026-07-01T21:59:59Z")).to_string(), "2026-07-01");
/// ```
pub fn belgian_date(now: DateTime<Utc>) -> NaiveDate {
    let year = now.year();
    let switch = |month| {
        last_sunday(year, month)
            .and_hms_opt(1, 0, 0)
            .map(|t| t.and_utc())
    };
    let summer = match (switch(3), switch(10)) {
        (Some(start), Some(end)) => now >= start && now < end,
        _ => false,
    };
    let offset = Duration::hours(if summer { 2 } else { 1 });
    now.checked_add_signed(offset).unwrap_or(now).date_naive()
}

/// The last Sunday of a month (March or October: never December).
fn last_sunday(year: i32, month: u32) -> NaiveDate {
    let first_of_next = NaiveDate::from_ymd_opt(year, month + 1, 1).unwrap_or_default();
    let mut day = first_of_next.pred_opt().unwrap_or_default();
    while day.weekday() != Weekday::Sun {
        day = day.pred_opt().unwrap_or_default();
    }
    day
}

#[cfg(test)]
mod tests;
