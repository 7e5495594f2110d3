//! The received view of a UBL, read from the one model of its bytes: the [`Dom`] the
//! rule engine judges. Each value of [`ReceivedDocument`] is found by its path below
//! the root, step by step through children named by namespace and local name
//! (whatever the prefixes), and filled in from the elements themselves: there is no
//! model of a UBL's facts between the `Dom` and the received document.
//!
//! Where EN 16931 has one value and the document states several, the first one in
//! document order is read: the first element for a number or a date, the first with
//! text that is not blank for a text. The bytes are read once, by [`Dom::read`] (no
//! DTD is read, no entity but the five predefined ones and character references is
//! ever resolved).
//!
//! The byte scanner that once read the most common UBL beside quick-xml (3.5× cheaper
//! than quick-xml alone) is gone: every received document is also judged by every rule
//! of the artefacts over the same `Dom`, which costs two orders of magnitude more than
//! either reading, so a second reader of the same bytes would save nothing measurable.

use super::{
    lexical, vat_code_of_category, Check, ReceivedAddress, ReceivedAllowanceCharge,
    ReceivedDocument, ReceivedLine, ReceivedParty, ReceivedType, ReceivedVatGroup, StatedTotals,
};
use crate::compute::AllowanceKind;
use crate::en16931::sums::{Num, Totals};
use crate::en16931::xpath::normalize_space;
use crate::en16931::{NS_CAC, NS_CBC, NS_CREDIT_NOTE, NS_INVOICE};
use crate::money::Currency;
use crate::ubl::dom::{Dom, NodeId};
use crate::vat::VatCode;
use chrono::NaiveDate;
use rust_decimal::{Decimal, RoundingStrategy};

/// One step of a path: a child's namespace URI and local name.
pub(super) type Step = (&'static str, &'static str);

/// A `cac:` step.
const fn cac(local: &'static str) -> Step {
    (NS_CAC, local)
}

/// A `cbc:` step.
const fn cbc(local: &'static str) -> Step {
    (NS_CBC, local)
}

/// The first answer of `f` over the elements at `path` below `from`, in document
/// order (`from` itself for an empty path).
pub(super) fn find<T>(
    dom: &Dom,
    from: NodeId,
    path: &[Step],
    f: &mut dyn FnMut(NodeId) -> Option<T>,
) -> Option<T> {
    let Some((&(ns, local), rest)) = path.split_first() else {
        return f(from);
    };
    dom.children(from)
        .filter(|&c| dom.is(c, ns, local))
        .find_map(|c| find(dom, c, rest, f))
}

/// Every element at `path` below `from`, in document order.
fn each(dom: &Dom, from: NodeId, path: &[Step]) -> Vec<NodeId> {
    let mut all = Vec::new();
    find::<()>(dom, from, path, &mut |n| {
        all.push(n);
        None
    });
    all
}

/// The longest stated text quoted in an `unreadable` message.
const QUOTE_MAX: usize = 40;

/// The text quoted in a message: at most [`QUOTE_MAX`] characters.
fn quote(text: &str) -> String {
    let t = lexical::trim(text);
    if t.chars().count() > QUOTE_MAX {
        let cut: String = t.chars().take(QUOTE_MAX).collect();
        format!("{cut:?}…")
    } else {
        format!("{t:?}")
    }
}

/// A text value: trimmed; empty is absent.
fn text_field(text: &str) -> Option<String> {
    let t = lexical::trim(text);
    (!t.is_empty()).then(|| t.to_owned())
}

/// A stated date: absent, unreadable, or read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Day {
    Absent,
    Bad,
    Val(NaiveDate),
}

impl Day {
    fn value(self) -> Option<NaiveDate> {
        match self {
            Day::Val(v) => Some(v),
            _ => None,
        }
    }
}

/// Where an unreadable value sits, for its message: nothing for the document level,
/// ` (line N)` for a line.
#[derive(Debug, Clone, Copy)]
struct Place(Option<usize>);

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(i) => write!(f, " (line {})", i + 1),
            None => Ok(()),
        }
    }
}

/// What a value is, for an `unreadable` message: a label and its place.
#[derive(Debug, Clone, Copy)]
struct What<'a>(&'a str, Place);

impl What<'static> {
    /// A document-level value.
    fn doc(label: &'static str) -> What<'static> {
        What(label, Place(None))
    }
}

impl std::fmt::Display for What<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

/// A VAT category as stated (`cac:TaxCategory`, `cac:ClassifiedTaxCategory`).
#[derive(Debug, Clone, Default)]
struct Category {
    /// `normalize-space(cbc:ID)`, null when empty.
    id: Option<String>,
    code: Option<VatCode>,
    /// `cbc:Percent`, null for not_subject.
    rate: Option<Decimal>,
    exemption_reason: Option<String>,
    exemption_reason_code: Option<String>,
}

/// The reading of one document: the `Dom`, and the `unreadable` notes found so far,
/// each with the element it is about.
struct Reader<'d> {
    dom: &'d Dom,
    notes: Vec<(NodeId, Check)>,
}

impl Reader<'_> {
    /// The first element at `path` below `from`.
    fn first(&self, from: NodeId, path: &[Step]) -> Option<NodeId> {
        find(self.dom, from, path, &mut Some)
    }

    /// The first text at `path` below `from` that is not blank, trimmed.
    fn text(&self, from: NodeId, path: &[Step]) -> Option<String> {
        let dom = self.dom;
        find(dom, from, path, &mut |n| text_field(&dom.string_value(n)))
    }

    /// The first text at `path`, with the value of its attribute `key` (trimmed, null
    /// when blank).
    fn text_with(
        &self,
        from: NodeId,
        path: &[Step],
        key: &str,
    ) -> (Option<String>, Option<String>) {
        let dom = self.dom;
        find(dom, from, path, &mut |n| {
            let text = text_field(&dom.string_value(n))?;
            Some((Some(text), dom.attribute(n, key).and_then(text_field)))
        })
        .unwrap_or_default()
    }

    /// The value an element states, read by `parse`; `None` with a note (`why`,
    /// then the quoted text) when the text is not one.
    fn parsed<T>(
        &mut self,
        n: NodeId,
        parse: fn(&str) -> Option<T>,
        why: std::fmt::Arguments<'_>,
    ) -> Option<T> {
        let text = self.dom.string_value(n);
        let value = parse(&text);
        if value.is_none() {
            let msg = format!("{why}: {}", quote(&text));
            self.notes.push((n, Check::unreadable(msg)));
        }
        value
    }

    /// The number an element states, with a note when it is not one.
    fn num_at(&mut self, at: Option<NodeId>, what: What<'_>) -> Num {
        let Some(n) = at else {
            return Num::Absent;
        };
        let why = format_args!("{what} is not a decimal number the crate can read");
        self.parsed(n, lexical::decimal, why)
            .map_or(Num::Bad, Num::Val)
    }

    /// The number of the first element at `path` below `from`.
    fn num(&mut self, from: NodeId, path: &[Step], what: What<'_>) -> Num {
        let at = self.first(from, path);
        self.num_at(at, what)
    }

    /// The date of the first element at `path` below `from`.
    fn day(&mut self, from: NodeId, path: &[Step], what: &str) -> Day {
        let Some(n) = self.first(from, path) else {
            return Day::Absent;
        };
        let why = format_args!("{what} is not a date (YYYY-MM-DD)");
        self.parsed(n, lexical::date, why)
            .map_or(Day::Bad, Day::Val)
    }

    /// A VAT category element, if there is one.
    fn category(&mut self, at: Option<NodeId>, what: What<'_>) -> Category {
        let Some(at) = at else {
            return Category::default();
        };
        let dom = self.dom;
        let id = self
            .first(at, &[cbc("ID")])
            .map(|n| normalize_space(&dom.string_value(n)).into_owned());
        let code = id.as_deref().and_then(vat_code_of_category);
        let percent = self.num(at, &[cbc("Percent")], what);
        Category {
            id: id.filter(|s| !s.is_empty()),
            code,
            rate: if code == Some(VatCode::NotSubject) {
                None
            } else {
                percent.value()
            },
            exemption_reason: self.text(at, &[cbc("TaxExemptionReason")]),
            exemption_reason_code: self.text(at, &[cbc("TaxExemptionReasonCode")]),
        }
    }

    /// An allowance or charge (`cac:AllowanceCharge`).
    fn allowance_charge(&mut self, at: NodeId, place: Place) -> ReceivedAllowanceCharge {
        let dom = self.dom;
        let kind = self
            .first(at, &[cbc("ChargeIndicator")])
            .and_then(|n| lexical::Indicator::of(&dom.string_value(n)).boolean())
            .map(|charge| {
                if charge {
                    AllowanceKind::Charge
                } else {
                    AllowanceKind::Allowance
                }
            });
        let amount = self.num(
            at,
            &[cbc("Amount")],
            What("the allowance or charge amount", place),
        );
        let rate = self.num(
            at,
            &[cbc("MultiplierFactorNumeric")],
            What("the allowance or charge percentage", place),
        );
        let category_at = self.first(at, &[cac("TaxCategory")]);
        let category = self.category(category_at, What("the allowance or charge VAT rate", place));
        ReceivedAllowanceCharge {
            kind,
            amount: amount.value(),
            rate: rate.value(),
            reason: self.text(at, &[cbc("AllowanceChargeReason")]),
            code: self.text(at, &[cbc("AllowanceChargeReasonCode")]),
            vat_category: category.id,
            vat_code: category.code,
            vat_rate: category.rate,
        }
    }

    /// The allowances and charges below `from` (the root or a line).
    fn allowance_charges(&mut self, from: NodeId, place: Place) -> Vec<ReceivedAllowanceCharge> {
        each(self.dom, from, &[cac("AllowanceCharge")])
            .into_iter()
            .map(|at| self.allowance_charge(at, place))
            .collect()
    }

    /// A party: `role` is `AccountingSupplierParty` or `AccountingCustomerParty`.
    fn party(&self, root: NodeId, role: &'static str) -> ReceivedParty {
        let (r, party) = (cac(role), cac("Party"));
        let at = |a: &'static str| self.text(root, &[r, party, cac("PostalAddress"), cbc(a)]);
        let address = ReceivedAddress {
            street: at("StreetName"),
            street2: at("AdditionalStreetName"),
            city: at("CityName"),
            postal_code: at("PostalZone"),
            province: at("CountrySubentity"),
            country_code: self.text(
                root,
                &[
                    r,
                    party,
                    cac("PostalAddress"),
                    cac("Country"),
                    cbc("IdentificationCode"),
                ],
            ),
        };
        let (endpoint_id, endpoint_scheme) =
            self.text_with(root, &[r, party, cbc("EndpointID")], "schemeID");
        let (legal_id, legal_id_scheme) = self.text_with(
            root,
            &[r, party, cac("PartyLegalEntity"), cbc("CompanyID")],
            "schemeID",
        );
        let dom = self.dom;
        // the CompanyID of the first PartyTaxScheme whose (first) scheme is VAT
        let vat_number = find(dom, root, &[r, party, cac("PartyTaxScheme")], &mut |pts| {
            let scheme = self.first(pts, &[cac("TaxScheme"), cbc("ID")])?;
            lexical::is_vat_scheme(&dom.string_value(scheme))
                .then(|| self.text(pts, &[cbc("CompanyID")]))
                .flatten()
        });
        let name = self
            .text(root, &[r, party, cac("PartyName"), cbc("Name")])
            .or_else(|| {
                self.text(
                    root,
                    &[r, party, cac("PartyLegalEntity"), cbc("RegistrationName")],
                )
            });
        ReceivedParty {
            address: (address != ReceivedAddress::default()).then_some(address),
            name,
            endpoint_scheme,
            endpoint_id,
            vat_number,
            legal_id,
            legal_id_scheme,
        }
    }

    /// BT-2, BT-9 (`cbc:DueDate`, else the first `cac:PaymentMeans/cbc:PaymentDueDate`),
    /// BT-7, BT-72, BT-73 and BT-74.
    fn dates(&mut self, root: NodeId) -> [Option<NaiveDate>; 6] {
        let due = self.day(root, &[cbc("DueDate")], "BT-9 Payment due date");
        let payment_due = self.day(
            root,
            &[cac("PaymentMeans"), cbc("PaymentDueDate")],
            "BT-9 Payment due date",
        );
        [
            self.day(root, &[cbc("IssueDate")], "BT-2 Invoice issue date")
                .value(),
            match due {
                Day::Absent => payment_due.value(),
                d => d.value(),
            },
            self.day(
                root,
                &[cbc("TaxPointDate")],
                "BT-7 Value added tax point date",
            )
            .value(),
            self.day(
                root,
                &[cac("Delivery"), cbc("ActualDeliveryDate")],
                "BT-72 Actual delivery date",
            )
            .value(),
            self.day(
                root,
                &[cac("InvoicePeriod"), cbc("StartDate")],
                "BT-73 Invoicing period start date",
            )
            .value(),
            self.day(
                root,
                &[cac("InvoicePeriod"), cbc("EndDate")],
                "BT-74 Invoicing period end date",
            )
            .value(),
        ]
    }

    /// The stated totals: the first `cac:LegalMonetaryTotal`'s.
    fn totals(&mut self, root: NodeId) -> Totals {
        let Some(at) = self.first(root, &[cac("LegalMonetaryTotal")]) else {
            return Totals::default();
        };
        let mut total = |local: &'static str, label: &'static str| {
            self.num(at, &[cbc(local)], What::doc(label))
        };
        Totals {
            line_extension: total(
                "LineExtensionAmount",
                "BT-106 Sum of Invoice line net amount",
            ),
            tax_exclusive: total(
                "TaxExclusiveAmount",
                "BT-109 Invoice total amount without VAT",
            ),
            tax_inclusive: total("TaxInclusiveAmount", "BT-112 Invoice total amount with VAT"),
            allowance_total: total(
                "AllowanceTotalAmount",
                "BT-107 Sum of allowances on document level",
            ),
            charge_total: total(
                "ChargeTotalAmount",
                "BT-108 Sum of charges on document level",
            ),
            prepaid: total("PrepaidAmount", "BT-113 Paid amount"),
            rounding: total("PayableRoundingAmount", "BT-114 Rounding amount"),
            payable: total("PayableAmount", "BT-115 Amount due for payment"),
        }
    }

    /// BT-110 (the `cbc:TaxAmount` of the first root `cac:TaxTotal` that states one
    /// with the document's currency as `currencyID`) and the VAT breakdown (the
    /// subtotals of the first root `cac:TaxTotal` that has any). Every root
    /// `cac:TaxTotal` is read.
    fn tax_totals(
        &mut self,
        root: NodeId,
        currency: Option<&str>,
    ) -> (Option<Decimal>, Vec<ReceivedVatGroup>) {
        let dom = self.dom;
        let mut tax_amount = None;
        let mut breakdown: Option<Vec<ReceivedVatGroup>> = None;
        for tt in each(dom, root, &[cac("TaxTotal")]) {
            let at = self.first(tt, &[cbc("TaxAmount")]);
            let amount = self.num_at(at, What::doc("BT-110 Invoice total VAT amount"));
            let stated_in = at.and_then(|n| dom.attribute(n, "currencyID").map(lexical::trim));
            if tax_amount.is_none() && currency.is_some() && stated_in == currency {
                tax_amount = Some(amount.value());
            }
            let groups: Vec<ReceivedVatGroup> = each(dom, tt, &[cac("TaxSubtotal")])
                .into_iter()
                .map(|s| self.vat_group(s))
                .collect();
            if breakdown.is_none() && !groups.is_empty() {
                breakdown = Some(groups);
            }
        }
        (tax_amount.flatten(), breakdown.unwrap_or_default())
    }

    /// A `cac:TaxSubtotal` (its first `cac:TaxCategory`).
    fn vat_group(&mut self, at: NodeId) -> ReceivedVatGroup {
        let taxable = self.num(
            at,
            &[cbc("TaxableAmount")],
            What::doc("BT-116 VAT category taxable amount"),
        );
        let tax = self.num(
            at,
            &[cbc("TaxAmount")],
            What::doc("BT-117 VAT category tax amount"),
        );
        let category_at = self.first(at, &[cac("TaxCategory")]);
        let c = self.category(category_at, What::doc("BT-119 VAT category rate"));
        ReceivedVatGroup {
            vat_code: c.code,
            vat_rate: c.rate,
            category: c.id,
            taxable_amount: taxable.value(),
            tax_amount: tax.value(),
            exemption_reason: c.exemption_reason,
            exemption_reason_code: c.exemption_reason_code,
        }
    }

    /// A quantity element (`cbc:InvoicedQuantity`, `cbc:CreditedQuantity`) of a line
    /// and its `unitCode`.
    fn quantity(
        &mut self,
        line: NodeId,
        local: &'static str,
        place: Place,
    ) -> (Num, Option<String>) {
        let at = self.first(line, &[cbc(local)]);
        let unit = at
            .and_then(|n| self.dom.attribute(n, "unitCode"))
            .and_then(text_field);
        (
            self.num_at(at, What("BT-129 Invoiced quantity", place)),
            unit,
        )
    }

    /// An item's properties by name (BT-160, BT-161), in the order their names first
    /// appear, each with its last value (absent: empty).
    fn properties(&self, line: NodeId) -> Vec<(String, String)> {
        let dom = self.dom;
        let all = each(dom, line, &[cac("Item"), cac("AdditionalItemProperty")]);
        if all.is_empty() {
            // no hash map for a line without properties (the common case)
            return Vec::new();
        }
        let mut out: Vec<(String, String)> = Vec::new();
        let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for p in all {
            let name = self.text(p, &[cbc("Name")]).unwrap_or_default();
            let value = self
                .first(p, &[cbc("Value")])
                .map(|n| lexical::trim(&dom.string_value(n)).to_owned())
                .unwrap_or_default();
            if let Some(slot) = seen.get(&name).and_then(|&i| out.get_mut(i)) {
                slot.1 = value;
            } else {
                seen.insert(name.clone(), out.len());
                out.push((name, value));
            }
        }
        out
    }

    /// A top-level line; the overflow of its subtotal is noted in `computed`.
    fn line(
        &mut self,
        at: NodeId,
        index: usize,
        doc: ReceivedType,
        minor: u32,
        computed: &mut Vec<Check>,
    ) -> ReceivedLine {
        let place = Place(Some(index));
        let invoiced = self.quantity(at, "InvoicedQuantity", place);
        let credited = self.quantity(at, "CreditedQuantity", place);
        let (preferred, other) = match doc {
            ReceivedType::PurchaseCreditNote => (credited, invoiced),
            _ => (invoiced, credited),
        };
        let (quantity, unit_code) = if preferred.0.exists() {
            preferred
        } else {
            other
        };
        let net = self.num(
            at,
            &[cbc("LineExtensionAmount")],
            What("BT-131 Invoice line net amount", place),
        );
        let price = self.num(
            at,
            &[cac("Price"), cbc("PriceAmount")],
            What("BT-146 Item net price", place),
        );
        let base_quantity = self.num(
            at,
            &[cac("Price"), cbc("BaseQuantity")],
            What("BT-149 Item price base quantity", place),
        );
        let unit_price = unit_price(price, base_quantity);
        let quantity = quantity.value();
        let subtotal = match (quantity, unit_price) {
            (Some(q), Some(p)) => {
                let s = q.checked_mul(p).map(|v| round_minor(v, minor));
                if s.is_none() {
                    computed.push(Check::unreadable(format!(
                        "the subtotal of line {} (quantity × unit price) is too large to compute",
                        index + 1
                    )));
                }
                s
            }
            _ => None,
        };
        let category_at = self.first(at, &[cac("Item"), cac("ClassifiedTaxCategory")]);
        let category = self.category(category_at, What("BT-152 Invoiced item VAT rate", place));
        ReceivedLine {
            quantity,
            unit_code,
            price_amount: price.value(),
            base_quantity: base_quantity.value(),
            unit_price,
            vat_category: category.id,
            vat_code: category.code,
            vat_rate: category.rate,
            item_name: self.text(at, &[cac("Item"), cbc("Name")]),
            item_description: self.text(at, &[cac("Item"), cbc("Description")]),
            item_identification: self.text(
                at,
                &[cac("Item"), cac("StandardItemIdentification"), cbc("ID")],
            ),
            product_code: self.text(
                at,
                &[cac("Item"), cac("SellersItemIdentification"), cbc("ID")],
            ),
            item_properties: self.properties(at),
            subtotal,
            total: net.value(),
            allowance_charges: self.allowance_charges(at, place),
        }
    }
}

/// The net price per one unit: BT-146 / BT-149, rounded half away from zero to 6
/// decimals (BT-146 itself when BT-149 is absent, 0 or 1).
fn unit_price(price: Num, base: Num) -> Option<Decimal> {
    match (price, base) {
        (Num::Val(p), Num::Absent) => Some(p),
        (Num::Val(p), Num::Val(b)) if b.is_zero() || b == Decimal::ONE => Some(p),
        (Num::Val(p), Num::Val(b)) => p.checked_div(b).map(|q| {
            q.round_dp_with_strategy(6, RoundingStrategy::MidpointAwayFromZero)
                .normalize()
        }),
        _ => None,
    }
}

/// Rounds half away from zero to `minor` decimals, at exactly that scale.
fn round_minor(v: Decimal, minor: u32) -> Decimal {
    let mut r = v.round_dp_with_strategy(minor, RoundingStrategy::MidpointAwayFromZero);
    if r.is_zero() {
        r.set_sign_positive(true);
    }
    r.rescale(minor);
    r
}

/// BT-112 (+ BT-114 when stated): the document's total; a sum past the decimal range
/// is `None` with an `unreadable` check saying why.
fn total_amount(t: &Totals, computed: &mut Vec<Check>) -> Option<Decimal> {
    match (t.tax_inclusive, t.rounding) {
        (Num::Val(a), Num::Absent) => Some(a),
        (Num::Val(a), Num::Val(r)) => {
            let sum = a.checked_add(r);
            if sum.is_none() {
                computed.push(Check::unreadable(
                    "BT-112 + BT-114 (total_amount) is too large to add up".into(),
                ));
            }
            sum
        }
        _ => None,
    }
}

impl StatedTotals {
    /// The totals as stated (each `None` when absent or unreadable).
    fn of(t: &Totals) -> StatedTotals {
        StatedTotals {
            line_extension_amount: t.line_extension.value(),
            allowance_total_amount: t.allowance_total.value(),
            charge_total_amount: t.charge_total.value(),
            tax_exclusive_amount: t.tax_exclusive.value(),
            tax_inclusive_amount: t.tax_inclusive.value(),
            prepaid_amount: t.prepaid.value(),
            payable_rounding_amount: t.rounding.value(),
            payable_amount: t.payable.value(),
        }
    }
}

/// The root's children named `a` or `b` in the `cbc`/`cac` namespace `ns`.
fn either(dom: &Dom, root: NodeId, ns: &str, a: &str, b: &str) -> Vec<NodeId> {
    dom.children(root)
        .filter(|&c| dom.is(c, ns, a) || dom.is(c, ns, b))
        .collect()
}

/// The received document a UBL Invoice or CreditNote states; the `not_ubl` message
/// when the root is neither. `xml` is the text as received.
pub(super) fn read(dom: &Dom, xml: &str) -> Result<ReceivedDocument, String> {
    let root = dom.root();
    let doc_type = match (dom.namespace_uri(root), dom.name(root)) {
        (NS_INVOICE, "Invoice") => ReceivedType::PurchaseInvoice,
        (NS_CREDIT_NOTE, "CreditNote") => ReceivedType::PurchaseCreditNote,
        (ns, local) => {
            return Err(format!(
                "the root element is {local:?} in the namespace {ns:?}, not a UBL 2.1 Invoice or CreditNote"
            ))
        }
    };
    let mut r = Reader {
        dom,
        notes: Vec::new(),
    };
    // what is computed from the stated values, noted after what cannot be read
    let mut computed = Vec::new();
    let currency = r
        .first(root, &[cbc("DocumentCurrencyCode")])
        .and_then(|n| text_field(&dom.string_value(n)));
    let minor = currency
        .as_deref()
        .and_then(Currency::from_code)
        .map_or(2, Currency::minor_unit);
    let t = r.totals(root);
    let totals = StatedTotals::of(&t);
    let total_amount = total_amount(&t, &mut computed);
    let (tax_amount, vat_breakdown) = r.tax_totals(root, currency.as_deref());
    let [issue_date, due_date, tax_point_date, delivery_date, period_start, period_end] =
        r.dates(root);
    let mut lines = Vec::new();
    for (i, at) in either(dom, root, NS_CAC, "InvoiceLine", "CreditNoteLine")
        .into_iter()
        .enumerate()
    {
        lines.push(r.line(at, i, doc_type, minor, &mut computed));
    }
    let payment_remittance = r.text(root, &[cac("PaymentMeans"), cbc("PaymentID")]);
    let mut doc = ReceivedDocument {
        doc_type,
        type_code: either(dom, root, NS_CBC, "InvoiceTypeCode", "CreditNoteTypeCode")
            .into_iter()
            .find_map(|n| text_field(&dom.string_value(n))),
        document_number: r.text(root, &[cbc("ID")]),
        order_number: r.text(root, &[cac("OrderReference"), cbc("ID")]),
        despatch_reference: r.text(root, &[cac("DespatchDocumentReference"), cbc("ID")]),
        buyer_reference: r.text(root, &[cbc("BuyerReference")]),
        issue_date,
        due_date,
        tax_point_date,
        delivery_date,
        period_start,
        period_end,
        is_remittance_structured: payment_remittance
            .as_deref()
            .is_some_and(super::is_structured_communication),
        payment_remittance,
        currency,
        totals,
        tax_exclusive_amount: totals.tax_exclusive_amount,
        tax_amount,
        total_amount,
        paid_amount: match t.prepaid {
            Num::Absent => Some(Decimal::ZERO),
            n => n.value(),
        },
        remaining_amount: totals.payable_amount,
        lines,
        allowance_charges: r.allowance_charges(root, Place(None)),
        vat_breakdown,
        supplier: r.party(root, "AccountingSupplierParty"),
        customer: r.party(root, "AccountingCustomerParty"),
        checks: Check::of_rules(dom),
        xml: Some(xml.to_owned()),
        xml_available: true,
        // docs/files.md §2: a UBL has a PDF from the start,
        // the one it embeds or one rendered from what it states.
        pdf_available: true,
    };
    // the notes in document order (a stable sort keeps one element's notes in order)
    r.notes.sort_by_key(|(n, _)| *n);
    doc.checks.extend(r.notes.into_iter().map(|(_, c)| c));
    doc.checks.extend(computed);
    Ok(doc)
}

#[cfg(test)]
mod tests;
