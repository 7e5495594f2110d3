//! # invoicing-core
//!
//! The deterministic core of a JSON invoicing API for Belgian companies on the Peppol
//! network: it validates, computes and moves through their states the documents of a
//! company (sale and purchase invoices, credit notes, proformas). Servers link it to
//! decide every rule; client developers and test suites run the same rules offline
//! through its in-memory [`simulator`].
//!
//! The crate is pure: no clock, no file, no network, no randomness. "Today", the
//! company's settings, its relations and journals and the stored documents are handed
//! in through [`context::Context`]; the same inputs give the same outputs, byte for
//! byte.
//!
//! ## The rules, in the order of the computation
//!
//! 1. **Reading numbers** ([`number`]): JSON numbers and decimal strings are read digit
//!    by digit into a `Decimal`; no float ever touches an amount. `0.1` stays `0.1`,
//!    `1e2` is 100, and quantities, prices and rates are echoed with the scale sent.
//! 2. **Validation** ([`validate`]): every field of a body is checked for its shape
//!    (type, length in characters, range, decimal places, pattern), and every error
//!    is collected with its location, such as `["body", "lines", 3, "quantity"]`.
//! 3. **Lines** ([`compute`], docs/decisions.md §3 steps 1-4): subtotal =
//!    round(quantity × unit price); each line allowance/charge is a fixed amount or a
//!    rate of the subtotal (rates never compound); total = subtotal − allowances +
//!    charges; the line's tax is informative.
//! 4. **VAT groups** ([`vat`], [`compute`]): lines are grouped by (VAT code, rate) in
//!    order of first appearance, rates compared as numbers.
//! 5. **Document allowances and charges** ([`allocation`]): each is spread over the
//!    groups in proportion to their bases, exact to the minor unit (floor, then the
//!    largest remainders, ties to the earlier group); every base must be positive.
//! 6. **Group taxes and totals**: taxable = base − allowance shares + charge shares;
//!    tax = round(taxable × rate) per group, 0 for exempt codes; tax-exclusive total,
//!    tax and total are sums. A negative total is refused; every computed amount must
//!    stay below 10^15 ([`money`]).
//! 7. **Payment**: remaining = total − paid; the payment status follows from the paid
//!    amount, which may not exceed the total.
//! 8. **Numbering and communication** ([`numbering`], [`remittance`]): the number is
//!    drawn in the journal's window (never, yearly, monthly restart), and the Belgian
//!    structured communication `+++DDD/DDDD/DDDDD+++` is built from its digits.
//! 9. **Due date** ([`terms`]): `<days>-<basis>` terms (`df`, `fm`, `mf`) applied to
//!    the issue date.
//! 10. **Lifecycle** ([`lifecycle`]): create, PATCH (the edit lock, the number's window)
//!     and send (Peppol state moves), with permissions checked first.
//!
//! Rounding is half away from zero to the currency's ISO 4217 minor unit, wherever an
//! amount is made: the line subtotal; an allowance/charge amount (a rate's product, and
//! a fixed amount too: the typed core accepts one with more decimals than the currency
//! has, which requests refuse); the line tax; the group tax. Every sum is exact.
//!
//! ## Example
//!
//! ```
//! use invoicing_core::compute::{compute, AllowanceCharge, AllowanceKind, AllowanceValue, LinePricing};
//! use invoicing_core::money::Currency;
//! use invoicing_core::vat::VatCode;
//! use rust_decimal::Decimal;
//!
//! let line = |q: i64, price: &str, rate: i64| LinePricing {
//!     quantity: Decimal::new(q, 0),
//!     unit_price: price.parse().unwrap(),
//!     vat_code: VatCode::Standard,
//!     vat_rate: Some(Decimal::new(rate, 0)),
//!     allowance_charges: vec![],
//! };
//! let discount = AllowanceCharge {
//!     kind: AllowanceKind::Allowance,
//!     value: AllowanceValue::Amount(Decimal::new(10, 0)),
//!     reason: Some("Loyalty".into()),
//!     code: None,
//! };
//! let doc = compute(
//!     Currency::EUR,
//!     &[line(1, "33.33", 21), line(1, "33.33", 6), line(1, "33.34", 12)],
//!     &[discount],
//! )?;
//! // 10.00 spread as 3.33 / 3.33 / 3.34: no cent lost
//! let shares: Vec<String> = doc.allowance_charges[0].shares.iter().map(ToString::to_string).collect();
//! assert_eq!(shares, ["3.33", "3.33", "3.34"]);
//! assert_eq!(doc.tax_amount.to_string(), "11.70");
//! assert_eq!(doc.total_amount.to_string(), "101.70");
//! # Ok::<(), Vec<invoicing_core::compute::ComputeError>>(())
//! ```
//!
//! ## For servers: numbering, storage errors, stored form
//!
//! **The application core.** Every operation of the interface is [`app::dispatch`]
//! (and [`app::tick`] for the asynchronous world) over an [`app::Store`] the server
//! implements on its storage: the [`context::Context`] the rules read, plus documents,
//! files, ids, counters and the documents that wait. The simulator is that core over
//! memory ([`simulator::Memory`]); `examples/server/` is that core over PostgreSQL and
//! SQLite. What follows is what a store must guarantee.
//!
//! **Which call draws a number.** Only [`lifecycle::create`] draws: it reads the
//! journal's counter state through [`context::Context::next_sequence`] (the next
//! sequence of the window that holds the issue date), applies the counter rule
//! [`numbering::draw`] (journal, state, issue date → number and next state), and
//! returns the drawn number in [`lifecycle::Created::number`] (journal, window,
//! sequence and `next`). PATCH, send and the back office never draw; a sandbox create
//! draws but must not commit.
//!
//! **What must happen in one transaction.** Reading the counter state, storing the
//! created document ([`stored::StoredDocument::store`]) and writing the counter's
//! `next` for that journal and window: one write transaction, begun before
//! `next_sequence` is read (SQLite `BEGIN IMMEDIATE`, or `SELECT … FOR UPDATE` of the
//! counter row). A refused create (any error) writes nothing. A created document
//! whose send on creation failed (`send_failed`) is stored and numbered all the same.
//!
//! **When two creates race.** The transaction serialises them: the second reads the
//! state the first wrote, so numbers are unique and contiguous. A server that cannot
//! serialise (optimistic storage) must make the counter write conditional on the
//! state it read (`UPDATE … SET next = ? WHERE next = ?`) and, when no row changed,
//! roll back and run the whole create again; it never stores a document whose number
//! it did not commit.
//!
//! **An exhausted counter.** A state of `u64::MAX` has no next state: the create is
//! refused with 422 `journal_counter_exhausted` at `["body", "journal_id"]` (the
//! journal id as `input`, the window in `ctx`), never a repeated number.
//!
//! **Storage errors.** The lookups of [`context::Context`] return
//! `Result<Option<T>, ContextError>`: `Ok(None)` is a record that does not exist (a
//! 422 such as `relation_not_found`), `Err` a storage failure, answered 500
//! `internal_error` at `[]`, alone (no 4xx beside it, no storage detail in the
//! message; docs/decisions.md §8 is silent on 500, this code is the crate's).
//!
//! ## Decisions taken where the specification is silent
//!
//! - Line text fields (item name, description, unit code, section name, identifiers)
//!   have no length limit of their own; only the interface's limits are enforced.
//! - A PATCH that changes the relation while a delivery location stays attached that
//!   belongs to another relation is refused at `["body", "delivery_location_id"]`.
//! - A back-office state override that sets a paid amount above the total reads as
//!   `paid`. A PATCH re-derives the payment status only when it changes the paid
//!   amount or the total, so a status set by the back office otherwise stays.
//! - A PATCH that changes the currency refuses stored amounts it does not resend
//!   (paid_amount, fixed allowances/charges) when they have more decimals than the new
//!   currency allows (`decimal_max_places` at their place): never a silent rounding.
//! - Under the edit lock, a field whose value is itself refused (an unknown delivery
//!   location, a too-long reference) gets its own error alone, not `document_locked`
//!   besides.
//! - `send_peppol` and body booleans are read alike: no trimming, the lax values of
//!   docs/decisions.md §9 in any case.
//! - Payment terms are echoed as sent: `007-df` is 7 days and is written `007-df`.
//! - Peppol ([`peppol`]): a `peppol_id` whose value after the `:` is blank writes no
//!   `cbc:EndpointID` (as one without `:`); an item property whose name is blank is
//!   not written (a property has no place without a name), one whose value is blank is
//!   written without `cbc:Value` (BR-54); a party with no key at all is written as an
//!   empty `cac:Party` and found as PEPPOL-EN16931-R008 at `["company"]` or
//!   `["relation"]`; item property values that are not strings are written as their
//!   JSON text; finding messages are the artefacts' texts, `[ID]-` prefix included (as the
//!   validator words them and as received documents' `checks` do).
//! - The national rules of the Peppol layer that apply when the seller is not Belgian
//!   (NL-R, DE-R, DK-R, SE-R, NO-R, IS-R, IT-R) are computed as the artefacts test them
//!   (none in self-billing, whose artefact has none). The Greek rules (GR-R), which read
//!   a Greek-format document number (`TIN|DD/MM/YYYY|count|type|…|…`), are the rule
//!   engine's own on the document as written, for a seller Greek by its VAT prefix
//!   (`GR`, `EL`) or, without a VAT number, by its address; a Greek seller's document
//!   always has GR-R-004-1 (a MARK number, which the crate never writes) when its
//!   address is Greek.
//! - The typed core computes with any `Decimal`; requests are limited to 6 decimals on
//!   quantities and prices, so every product is exact within rust_decimal's 28 digits.
//! - Received documents: the reader's own decisions (encodings, first occurrences,
//!   unreadable values, the order of `checks`) are listed in [`received`].
//! - Files ([`files`], [`pdf`], [`attachment`]): the multipart reader's decisions (bare
//!   LF accepted, a repeated header or parameter refused, `filename=""` present but
//!   invalid) are listed in [`files`]. The UBL embeds the document's own PDF when the
//!   company embeds it and the document has one available (`pdf_available`): a
//!   document whose PATCH made its PDF stale is written without it until the next
//!   `TICK`. The simulator renders a PDF when it is first asked for (or just before
//!   the document changes) from the state and the default branding the document had
//!   when its `pdf_available` turned true: the bytes a render at the `TICK` would
//!   have made, without holding a PDF per document nobody asked for. A received UBL
//!   without a PDF of its own is rendered on a plain page, in the company's language,
//!   when it is received; the first embedded object that is a PDF counts (one that
//!   does not decode is skipped). The PDF shows amounts in the document's currency
//!   only: an invoice in another currency does not show its VAT in EUR (the
//!   interface has no exchange rate). Line breaks in descriptions, the legal notice
//!   and the footer start new lines; any other control or format character, a
//!   private-use or non-character, and a character the font lacks print as U+FFFD.
#![forbid(unsafe_code)]

pub mod allocation;
pub mod app;
pub mod attachment;
pub mod compute;
pub mod context;
pub mod document;
pub mod en16931;
pub mod error;
pub mod files;
pub mod http;
mod iso4217;
pub mod json;
pub mod language;
pub mod lifecycle;
pub mod money;
pub mod number;
pub mod numbering;
pub mod party;
pub mod pdf;
pub mod peppol;
pub mod received;
pub mod remittance;
pub mod requests;
pub mod simulator;
pub mod stored;
#[cfg(any(test, feature = "proptest"))]
pub mod strategies;
pub mod terms;
pub mod ubl;
pub mod unicode;
pub mod validate;
pub mod vat;
pub mod wire;

/// The README's library example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
