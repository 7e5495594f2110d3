//! The EN 16931 sums a received document's stated amounts must satisfy: the closed
//! list of docs/peppol.md §4, each rule as `en16931::sums` writes it once (the UBL
//! writer's findings test the same functions), fed here with what the reader read.
//! A rule whose inputs include a value that cannot be read is not tested (the
//! `unreadable` check already says why); neither is one whose sums overflow the 28
//! digits of a `Decimal` (an `unreadable` check says so).

use super::facts::{Facts, LineFacts, Root, Subtotal};
use super::lexical::Indicator;
use super::Check;
use crate::en16931::sums::{self, Group, Index, Num, R120Line, Skip, EQUAL_08, R};
use std::collections::{BTreeSet, HashMap};

/// Every rule of the closed list; their texts, as the kit words them, are the one
/// table of rules (`en16931::message`).
pub const RULES: [&str; 17] = [
    "BR-CO-10",
    "BR-CO-11",
    "BR-CO-12",
    "BR-CO-13",
    "BR-CO-14",
    "BR-CO-15",
    "BR-CO-16",
    "BR-CO-17",
    "BR-S-08",
    "BR-S-09",
    "BR-Z-08",
    "BR-E-08",
    "BR-AE-08",
    "BR-IC-08",
    "BR-G-08",
    "BR-O-08",
    "PEPPOL-EN16931-R120",
];

/// A breakdown entry as the rules read it.
fn group(s: &Subtotal) -> Group {
    let c = &s.category;
    Group {
        taxable: s.taxable,
        tax: s.tax,
        // cac:TaxCategory[cac:TaxScheme/normalize-space(upper-case(cbc:ID))='VAT']/cbc:Percent
        vat_percent: (c.seen && c.is_vat()).then_some(c.percent),
    }
}

/// The rules of the closed list the document breaks, with the notes of the rules that
/// could not be tested for overflow.
pub(crate) fn run(f: &Facts) -> (BTreeSet<&'static str>, Vec<Check>) {
    let mut failed = BTreeSet::new();
    let mut notes = Vec::new();
    let mut record = |rule: &'static str, outcome: R<bool>| match outcome {
        Ok(true) | Err(Skip::Unreadable) => {}
        Ok(false) => {
            failed.insert(rule);
        }
        Err(Skip::Overflow) => {
            let msg = format!("{rule} cannot be tested: its amounts are too large to add up");
            if !notes.iter().any(|c: &Check| c.msg == msg) {
                notes.push(Check::unreadable(msg));
            }
        }
    };
    if let Some(t) = &f.totals {
        let doc_acs = |charge: bool| {
            f.allowance_charges
                .iter()
                .filter(move |ac| ac.is_charge() == Some(charge))
                .map(|ac| ac.amount)
        };
        record("BR-CO-10", sums::br_co_10(t, f.lines.iter().map(|l| l.net)));
        record("BR-CO-11", sums::br_co_11_12(t, false, doc_acs(false)));
        record("BR-CO-12", sums::br_co_11_12(t, true, doc_acs(true)));
        record("BR-CO-13", sums::br_co_13(t));
        record("BR-CO-16", sums::br_co_16(t));
    }
    for t in f.tax_totals.iter().filter(|t| !t.subtotals.is_empty()) {
        record(
            "BR-CO-14",
            sums::br_co_14(t.amount, t.subtotals.iter().map(|s| s.tax)),
        );
    }
    let by_currency = tax_amounts_by_currency(f);
    let mut tested = std::collections::HashSet::new();
    for currency in &f.currencies {
        if tested.insert(currency.as_str()) {
            let outcome = match (by_currency.get(currency.as_str()), &f.totals) {
                (Some(&(1, amount)), Some(t)) => sums::br_co_15(t, amount),
                _ => Ok(false),
            };
            record("BR-CO-15", outcome);
        }
    }
    let all_subtotals = f
        .tax_totals
        .iter()
        .flat_map(|t| t.subtotals.iter())
        .chain(f.nested_subtotals.iter());
    for s in all_subtotals {
        record("BR-CO-17", sums::br_co_17(group(s)));
    }
    let idx = index(f);
    for s in f.tax_totals.iter().flat_map(|t| t.subtotals.iter()) {
        let c = &s.category;
        if !c.seen || !c.is_vat() {
            continue;
        }
        let Some(id) = c.id.as_deref() else { continue };
        if id == "S" {
            record("BR-S-08", idx.br_s_08(group(s)));
            record("BR-S-09", sums::br_s_09(group(s)));
        } else if let Some((_, rule)) = EQUAL_08.iter().find(|(cat, _)| *cat == id) {
            record(rule, idx.br_x_08(id, s.taxable));
        }
    }
    for line in &f.lines {
        record("PEPPOL-EN16931-R120", r120(f.root, line));
    }
    (failed, notes)
}

/// PEPPOL-EN16931-R120 of a line: its quantity as the root names it, its allowances
/// and charges by the word of their indicator.
fn r120(root: Root, line: &LineFacts) -> R<bool> {
    let quantity = match root {
        Root::Invoice => line.invoiced_quantity,
        Root::CreditNote => line.credited_quantity,
    };
    let r120 = R120Line {
        net: line.net,
        quantity,
        price: line.price,
        base_quantity: line.base_quantity,
    };
    let acs = line.allowance_charges.iter().map(|ac| {
        let word = match ac.indicator {
            Some(Indicator::True) => Some(true),
            Some(Indicator::False) => Some(false),
            _ => None,
        };
        (word, ac.amount)
    });
    sums::r120(r120, acs)
}

/// The root `cac:TaxTotal/cbc:TaxAmount`s by `currencyID`: how many, and the first.
fn tax_amounts_by_currency(f: &Facts) -> HashMap<&str, (usize, Num)> {
    let mut map: HashMap<&str, (usize, Num)> = HashMap::new();
    for t in f.tax_totals.iter().filter(|t| t.amount.exists()) {
        if let Some(c) = t.currency.as_deref() {
            let e = map.entry(c).or_insert((0, t.amount));
            e.0 += 1;
        }
    }
    map
}

/// The sums of the "-08" rules over the document's lines and allowances (the
/// categories seen, by their stated id).
fn index(f: &Facts) -> Index<'_> {
    let mut idx = Index::new(
        f.lines.iter().any(|l| !l.credit),
        f.lines.iter().any(|l| l.credit),
    );
    for l in &f.lines {
        if let Some(id) = l.category.id.as_deref().filter(|_| l.category.seen) {
            idx.line(id, l.category.percent, l.credit, l.net);
        }
    }
    for ac in &f.allowance_charges {
        if let Some(id) = ac.category.id.as_deref().filter(|_| ac.category.seen) {
            idx.document_ac(id, ac.category.percent, ac.is_charge(), ac.amount);
        }
    }
    for ac in f.lines.iter().flat_map(|l| l.allowance_charges.iter()) {
        if let Some(id) = ac.category.id.as_deref().filter(|_| ac.category.seen) {
            idx.line_ac(id, ac.category.percent);
        }
    }
    idx
}
