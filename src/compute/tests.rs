//! Tests of the computation, one per rule of docs/decisions.md §3, and its properties.
//!
//! The unit tests name their rule in a comment; the worked examples of
//! `shared/spec/examples` (001, 005, 011) are reproduced with their exact figures. The
//! properties at the end state their invariant in words; one of them checks `compute`
//! against a second, independent implementation written here with plain integer
//! arithmetic (no `Decimal` arithmetic, no `allocation` module).

use super::*;
use crate::money::AMOUNT_LIMIT;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------

fn d(s: &str) -> Decimal {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn jpy() -> Currency {
    Currency::from_code("JPY").expect("JPY is an active ISO 4217 code")
}

fn kwd() -> Currency {
    Currency::from_code("KWD").expect("KWD is an active ISO 4217 code")
}

fn line(
    quantity: &str,
    unit_price: &str,
    vat_code: VatCode,
    vat_rate: Option<&str>,
) -> LinePricing {
    LinePricing {
        quantity: d(quantity),
        unit_price: d(unit_price),
        vat_code,
        vat_rate: vat_rate.map(d),
        allowance_charges: vec![],
    }
}

/// A standard-rated line.
fn std_line(quantity: &str, unit_price: &str, rate: &str) -> LinePricing {
    line(quantity, unit_price, VatCode::Standard, Some(rate))
}

fn with(mut line: LinePricing, allowance_charges: &[AllowanceCharge]) -> LinePricing {
    line.allowance_charges = allowance_charges.to_vec();
    line
}

fn ac(kind: AllowanceKind, value: AllowanceValue) -> AllowanceCharge {
    AllowanceCharge {
        kind,
        value,
        reason: None,
        code: None,
    }
}

fn allowance(amount: &str) -> AllowanceCharge {
    ac(AllowanceKind::Allowance, AllowanceValue::Amount(d(amount)))
}

fn charge(amount: &str) -> AllowanceCharge {
    ac(AllowanceKind::Charge, AllowanceValue::Amount(d(amount)))
}

fn allowance_rate(rate: &str) -> AllowanceCharge {
    ac(AllowanceKind::Allowance, AllowanceValue::Rate(d(rate)))
}

fn charge_rate(rate: &str) -> AllowanceCharge {
    ac(AllowanceKind::Charge, AllowanceValue::Rate(d(rate)))
}

fn ok(currency: Currency, lines: &[LinePricing], acs: &[AllowanceCharge]) -> Computation {
    compute(currency, lines, acs).unwrap_or_else(|e| panic!("expected a computation, got {e:?}"))
}

fn errs(currency: Currency, lines: &[LinePricing], acs: &[AllowanceCharge]) -> Vec<ComputeError> {
    match compute(currency, lines, acs) {
        Ok(c) => panic!("expected an error, got {c:?}"),
        Err(e) => e,
    }
}

/// The (code, position) of each error, in order.
fn codes_at(errors: &[ComputeError]) -> Vec<(ErrorCode, Position)> {
    errors.iter().map(|e| (e.code, e.position)).collect()
}

/// Amounts as written: the string comparison pins the scale too (`4.20`, not `4.2`).
fn texts<'a>(values: impl IntoIterator<Item = &'a Decimal>) -> Vec<String> {
    values.into_iter().map(ToString::to_string).collect()
}

fn group_taxable(c: &Computation) -> Vec<String> {
    texts(c.groups.iter().map(|g| &g.taxable_amount))
}

fn group_tax(c: &Computation) -> Vec<String> {
    texts(c.groups.iter().map(|g| &g.tax_amount))
}

fn group_base(c: &Computation) -> Vec<String> {
    texts(c.groups.iter().map(|g| &g.base))
}

/// 10^15 written in full, the bound of docs/decisions.md §2.
const LIMIT: &str = "1000000000000000";

// ---------------------------------------------------------------------------------
// §3.1 subtotal
// ---------------------------------------------------------------------------------

#[test]
fn subtotal_is_quantity_times_price_rounded_half_away_from_zero() {
    // docs/decisions.md §3.1: line.subtotal = round_m(quantity × unit_price), half away from zero
    let c = ok(
        Currency::EUR,
        &[
            std_line("2", "9.99", "21"),
            std_line("0.5", "0.25", "21"),
            std_line("1", "0.124999", "21"),
            std_line("3", "0.005", "21"),
            std_line("10", "1", "21"),
            std_line("0", "12.50", "21"),
        ],
        &[],
    );
    let subtotals = texts(c.lines.iter().map(|l| &l.subtotal));
    assert_eq!(
        subtotals,
        ["19.98", "0.13", "0.12", "0.02", "10.00", "0.00"]
    );
}

#[test]
fn negative_quantity_rounds_away_from_zero() {
    // docs/decisions.md §3.1 and §2: -0.5 × 0.25 = -0.125 → -0.13 (half-even or half-up give -0.12)
    let c = ok(
        Currency::EUR,
        &[
            std_line("10", "1", "21"),
            std_line("-0.5", "0.25", "21"),
            std_line("-0.001", "1", "21"),
        ],
        &[],
    );
    assert_eq!(c.lines[1].subtotal.to_string(), "-0.13");
    // -0.001 → 0.00, never -0.00 (docs/decisions.md §2)
    assert_eq!(c.lines[2].subtotal.to_string(), "0.00");
}

// ---------------------------------------------------------------------------------
// §3.2 line allowances and charges
// ---------------------------------------------------------------------------------

#[test]
fn line_rates_apply_to_the_subtotal_and_do_not_compound() {
    // docs/decisions.md §3.2: a rate applies to the line subtotal; several rates do not compound
    let two_tens = with(
        std_line("1", "100", "21"),
        &[allowance_rate("10"), allowance_rate("10")],
    );
    let c = ok(Currency::EUR, &[two_tens], &[]);
    assert_eq!(texts(&c.lines[0].allowance_charges), ["10.00", "10.00"]);
    assert_eq!(c.lines[0].total.to_string(), "80.00"); // 20 off, not 19 (compounded)

    // a rate charge after a rate allowance is still a rate of the subtotal
    let up_and_down = with(
        std_line("1", "100", "21"),
        &[allowance_rate("10"), charge_rate("10")],
    );
    let c = ok(Currency::EUR, &[up_and_down], &[]);
    assert_eq!(texts(&c.lines[0].allowance_charges), ["10.00", "10.00"]);
    assert_eq!(c.lines[0].total.to_string(), "100.00");
}

#[test]
fn line_rate_amount_is_rounded_half_away_from_zero() {
    // docs/decisions.md §3.2: round_m(subtotal × rate / 100); 33.33 × 15 % = 4.9995 → 5.00
    let l = with(std_line("1", "33.33", "21"), &[allowance_rate("15")]);
    let c = ok(Currency::EUR, &[l], &[]);
    assert_eq!(c.lines[0].allowance_charges[0].to_string(), "5.00");
    assert_eq!(c.lines[0].total.to_string(), "28.33");
    // on a negative subtotal: -0.13 × 50 % = -0.065 → -0.07
    let l = with(std_line("-0.5", "0.25", "21"), &[allowance_rate("50")]);
    let c = ok(Currency::EUR, &[std_line("1", "1", "21"), l], &[]);
    assert_eq!(c.lines[1].allowance_charges[0].to_string(), "-0.07");
    assert_eq!(c.lines[1].total.to_string(), "-0.06");
}

#[test]
fn line_fixed_allowance_and_charge_are_taken_in_full() {
    // docs/decisions.md §3.2: a fixed amount is taken in full, carried with the minor unit's decimals
    let l = with(
        std_line("5", "10", "21"),
        &[allowance("5"), charge("2.5"), allowance("0.010")],
    );
    let c = ok(Currency::EUR, &[l], &[]);
    assert_eq!(
        texts(&c.lines[0].allowance_charges),
        ["5.00", "2.50", "0.01"]
    );
    assert_eq!(c.lines[0].total.to_string(), "47.49");
}

// ---------------------------------------------------------------------------------
// §3.3 line total, §3.4 line tax
// ---------------------------------------------------------------------------------

#[test]
fn line_total_is_subtotal_minus_allowances_plus_charges() {
    // docs/decisions.md §3.3: line.total = subtotal − Σ line allowances + Σ line charges
    let l = with(
        std_line("3", "33.33", "21"),
        &[
            allowance_rate("10"),
            charge("1.50"),
            allowance("0.99"),
            charge_rate("2.5"),
        ],
    );
    let c = ok(Currency::EUR, &[l], &[]);
    let amounts = &c.lines[0];
    assert_eq!(amounts.subtotal.to_string(), "99.99");
    // 10 % of 99.99 = 9.999 → 10.00; 2.5 % of 99.99 = 2.49975 → 2.50
    assert_eq!(
        texts(&amounts.allowance_charges),
        ["10.00", "1.50", "0.99", "2.50"]
    );
    assert_eq!(amounts.total.to_string(), "93.00"); // 99.99 − 10.00 + 1.50 − 0.99 + 2.50
}

#[test]
fn line_tax_is_rounded_on_the_line_total() {
    // docs/decisions.md §3.4: line.tax_amount = round_m(line.total × vat_rate / 100)
    let discounted = with(std_line("1", "100", "21"), &[allowance("0.02")]);
    let c = ok(
        Currency::EUR,
        &[
            std_line("2", "9.99", "21"),
            std_line("-0.5", "0.25", "21"),
            discounted,
        ],
        &[],
    );
    // 19.98 × 21 % = 4.1958 → 4.20; -0.13 × 21 % = -0.0273 → -0.03; 99.98 × 21 % = 20.9958 → 21.00
    assert_eq!(
        texts(c.lines.iter().map(|l| &l.tax_amount)),
        ["4.20", "-0.03", "21.00"]
    );
}

#[test]
fn line_tax_is_zero_for_every_exempt_code_and_not_subject() {
    // docs/decisions.md §3.4: 0 for every exempt code and for not_subject (and zero_rated at 0 %)
    let lines = [
        line("2", "50", VatCode::ZeroRated, Some("0")),
        line("2", "50", VatCode::Exempted, Some("0")),
        line("2", "50", VatCode::ReverseCharge, Some("0")),
        line("2", "50", VatCode::IntraCommunity, Some("0")),
        line("2", "50", VatCode::Export, Some("0")),
        line("2", "50", VatCode::NotSubject, None),
    ];
    for currency in [Currency::EUR, jpy(), kwd()] {
        let c = ok(currency, &lines, &[allowance_rate("10")]);
        let zero = Decimal::new(0, currency.minor_unit()).to_string();
        for (i, l) in c.lines.iter().enumerate() {
            assert_eq!(l.tax_amount.to_string(), zero, "{currency} line {i}");
        }
        assert_eq!(c.groups.len(), 6, "{currency}: one group per code");
        for g in &c.groups {
            assert_eq!(g.tax_amount.to_string(), zero, "{currency} {}", g.vat_code);
        }
        assert_eq!(c.tax_amount.to_string(), zero);
        assert_eq!(c.total_amount, c.tax_exclusive_amount);
        assert_eq!(c.total_amount, d("540")); // 600 − 10 %
    }
    // the code decides, not the rate: the typed core, which takes any decimal, taxes an
    // exempt line handed a rate at 0 all the same
    let odd = [
        line("1", "100", VatCode::Exempted, Some("21")),
        line("1", "100", VatCode::ZeroRated, Some("6")),
        line("1", "100", VatCode::ReverseCharge, Some("21")),
    ];
    let c = ok(Currency::EUR, &odd, &[]);
    assert_eq!(
        texts(c.lines.iter().map(|l| &l.tax_amount)),
        ["0.00", "0.00", "0.00"]
    );
    assert_eq!(group_tax(&c), ["0.00", "0.00", "0.00"]);
}

// ---------------------------------------------------------------------------------
// §3.5 VAT groups
// ---------------------------------------------------------------------------------

#[test]
fn vat_groups_are_keyed_by_code_and_rate_in_order_of_first_appearance() {
    // docs/decisions.md §3.5: lines grouped by (vat_code, vat_rate), in order of first appearance;
    // group.base = Σ line.total; document line total = Σ group.base
    let c = ok(
        Currency::EUR,
        &[
            std_line("1", "10", "6"),
            std_line("1", "20", "21"),
            std_line("1", "1", "6"),
            std_line("1", "30", "12"),
            std_line("1", "2", "21"),
            std_line("1", "3", "12"),
        ],
        &[],
    );
    let rates: Vec<String> = c
        .groups
        .iter()
        .map(|g| g.vat_rate.map(|r| r.to_string()).unwrap_or_default())
        .collect();
    assert_eq!(rates, ["6", "21", "12"]);
    assert_eq!(group_base(&c), ["11.00", "22.00", "33.00"]);
    assert_eq!(c.line_total.to_string(), "66.00");
}

#[test]
fn rates_compare_as_numbers_and_the_group_answers_the_rate_as_first_written() {
    // docs/decisions.md §8 and §9: 21 and 21.00 are one group, which answers the rate as first written
    let c = ok(
        Currency::EUR,
        &[
            std_line("1", "10", "21.00"),
            std_line("1", "5", "21"),
            std_line("1", "1", "21.0"),
        ],
        &[],
    );
    assert_eq!(c.groups.len(), 1);
    assert_eq!(
        c.groups[0].vat_rate.map(|r| r.to_string()).as_deref(),
        Some("21.00")
    );
    assert_eq!(c.groups[0].base.to_string(), "16.00");
    assert_eq!(c.groups[0].tax_amount.to_string(), "3.36");

    let c = ok(
        Currency::EUR,
        &[std_line("1", "10", "21"), std_line("1", "5", "21.00")],
        &[],
    );
    assert_eq!(c.groups.len(), 1);
    assert_eq!(
        c.groups[0].vat_rate.map(|r| r.to_string()).as_deref(),
        Some("21")
    );
}

#[test]
fn the_vat_code_is_part_of_the_group_key() {
    // docs/decisions.md §3.5: an exempt line without a rate (rate 0) does NOT group with a
    // zero_rated line at 0: the code is part of the key. Exempt rates 0 and 0.00 are one group.
    let c = ok(
        Currency::EUR,
        &[
            line("1", "10", VatCode::Exempted, Some("0")),
            line("1", "20", VatCode::ZeroRated, Some("0")),
            line("1", "30", VatCode::IntraCommunity, Some("0")),
            line("1", "1", VatCode::Exempted, Some("0.00")),
            line("1", "40", VatCode::NotSubject, None),
            line("1", "2", VatCode::ZeroRated, Some("0.0")),
        ],
        &[],
    );
    let keys: Vec<(VatCode, Option<String>)> = c
        .groups
        .iter()
        .map(|g| (g.vat_code, g.vat_rate.map(|r| r.to_string())))
        .collect();
    assert_eq!(
        keys,
        [
            (VatCode::Exempted, Some("0".to_owned())),
            (VatCode::ZeroRated, Some("0".to_owned())),
            (VatCode::IntraCommunity, Some("0".to_owned())),
            (VatCode::NotSubject, None),
        ]
    );
    assert_eq!(group_base(&c), ["11.00", "22.00", "30.00", "40.00"]);
}

// ---------------------------------------------------------------------------------
// §3.6 document allowances and charges
// ---------------------------------------------------------------------------------

#[test]
fn document_rate_applies_to_the_document_line_total_and_does_not_compound() {
    // docs/decisions.md §3.6: a rate is a percentage of the document line total (Σ group.base)
    let c = ok(
        Currency::EUR,
        &[std_line("1", "60", "21"), std_line("1", "40", "6")],
        &[
            allowance_rate("10"),
            allowance_rate("10"),
            charge_rate("33.3333"),
        ],
    );
    let amounts = texts(c.allowance_charges.iter().map(|a| &a.amount));
    // 10 % of 100 twice (not 10 + 9); 33.3333 % of 100 = 33.3333 → 33.33
    assert_eq!(amounts, ["10.00", "10.00", "33.33"]);
    assert_eq!(texts(&c.allowance_charges[0].shares), ["6.00", "4.00"]);
    assert_eq!(c.allowance_total.to_string(), "20.00");
    assert_eq!(c.charge_total.to_string(), "33.33");
    assert_eq!(c.tax_exclusive_amount.to_string(), "113.33");
}

#[test]
fn document_fixed_amount_is_carried_with_the_minor_unit_decimals() {
    // docs/decisions.md §2: fixed allowance amounts are written with the minor unit's decimals
    let c = ok(
        Currency::EUR,
        &[std_line("1", "100", "21")],
        &[allowance("10"), charge("0.500")],
    );
    assert_eq!(
        texts(c.allowance_charges.iter().map(|a| &a.amount)),
        ["10.00", "0.50"]
    );
    assert_eq!(texts(&c.allowance_charges[0].shares), ["10.00"]);
}

#[test]
fn document_allowance_is_spread_by_largest_remainder() {
    // docs/decisions.md §3.6: floor every share, hand the units left over to the largest
    // remainders: 10.00 over 33.33 / 33.33 / 33.34 → 3.33 / 3.33 / 3.34 (no cent lost)
    let c = ok(
        Currency::EUR,
        &[
            std_line("1", "33.33", "21"),
            std_line("1", "33.33", "6"),
            std_line("1", "33.34", "12"),
        ],
        &[allowance("10")],
    );
    assert_eq!(
        texts(&c.allowance_charges[0].shares),
        ["3.33", "3.33", "3.34"]
    );
    assert_eq!(
        texts(c.groups.iter().map(|g| &g.allowance_total)),
        ["3.33", "3.33", "3.34"]
    );
}

#[test]
fn largest_remainder_ties_go_to_the_earlier_group() {
    // docs/decisions.md §3.6: ties → the earlier group
    let lines = [
        std_line("1", "1", "21"),
        std_line("1", "1", "12"),
        std_line("1", "1", "6"),
    ];
    let c = ok(
        Currency::EUR,
        &lines,
        &[allowance("0.01"), allowance("0.02"), allowance("0.04")],
    );
    assert_eq!(
        texts(&c.allowance_charges[0].shares),
        ["0.01", "0.00", "0.00"]
    );
    assert_eq!(
        texts(&c.allowance_charges[1].shares),
        ["0.01", "0.01", "0.00"]
    );
    assert_eq!(
        texts(&c.allowance_charges[2].shares),
        ["0.02", "0.01", "0.01"]
    );
    // each allowance is spread on its own: Σ shares per group 0.04 / 0.02 / 0.01, not a joint spread of 0.07
    assert_eq!(
        texts(c.groups.iter().map(|g| &g.allowance_total)),
        ["0.04", "0.02", "0.01"]
    );
}

#[test]
fn document_charges_are_spread_the_same_way() {
    // docs/decisions.md §3.6-7: a charge is spread like an allowance, and added to the taxable amount
    let c = ok(
        Currency::EUR,
        &[
            std_line("1", "33.33", "21"),
            std_line("1", "33.33", "6"),
            std_line("1", "33.34", "12"),
        ],
        &[charge("10")],
    );
    assert_eq!(
        texts(&c.allowance_charges[0].shares),
        ["3.33", "3.33", "3.34"]
    );
    assert_eq!(
        texts(c.groups.iter().map(|g| &g.charge_total)),
        ["3.33", "3.33", "3.34"]
    );
    assert_eq!(group_taxable(&c), ["36.66", "36.66", "36.68"]);
    // 7.6986 → 7.70; 2.1996 → 2.20; 4.4016 → 4.40
    assert_eq!(group_tax(&c), ["7.70", "2.20", "4.40"]);
    assert_eq!(c.total_amount.to_string(), "124.30");
}

#[test]
fn vat_group_not_positive_when_a_document_allowance_meets_a_group_not_above_zero() {
    // docs/decisions.md §3.6: with a document allowance/charge, every group.base must be > 0,
    // the error naming the group
    let lines = [
        std_line("10", "1", "21"),
        std_line("-3", "0.25", "6"),
        line("1", "0", VatCode::Exempted, Some("0")),
    ];
    let e = errs(Currency::EUR, &lines, &[allowance("1")]);
    assert_eq!(
        codes_at(&e),
        [
            (ErrorCode::VatGroupNotPositive, Position::AllowanceCharges),
            (ErrorCode::VatGroupNotPositive, Position::AllowanceCharges),
        ]
    );
    assert_eq!(
        e[0].group,
        Some((VatCode::Standard, Some(d("6")), d("-0.75")))
    );
    assert_eq!(e[1].group, Some((VatCode::Exempted, Some(d("0")), d("0"))));
    insta::assert_snapshot!(e[0], @"vat_group_not_positive at AllowanceCharges: the vat group standard at rate 6 totals -0.75, not a positive amount: put the discount or charge on the lines");
    // a charge alone triggers it too, and a rate one as well
    let e = errs(Currency::EUR, &lines, &[charge_rate("5")]);
    assert!(e.iter().all(|e| e.code == ErrorCode::VatGroupNotPositive));
    // a not_subject group is named with rate none
    let e = errs(
        Currency::EUR,
        &[
            std_line("1", "5", "21"),
            line("-1", "1", VatCode::NotSubject, None),
        ],
        &[charge("1")],
    );
    assert_eq!(e[0].group, Some((VatCode::NotSubject, None, d("-1"))));
    assert!(e[0].message.contains("at rate none"), "{}", e[0].message);
}

#[test]
fn a_negative_group_is_allowed_without_document_allowances() {
    // docs/decisions.md §3.6: the positivity rule applies only when a document allowance/charge exists
    let c = ok(
        Currency::EUR,
        &[std_line("10", "1", "21"), std_line("-3", "0.25", "6")],
        &[],
    );
    assert_eq!(group_base(&c), ["10.00", "-0.75"]);
    assert_eq!(group_tax(&c), ["2.10", "-0.05"]);
    // line allowances are not document allowances: they do not trigger it either
    let l = with(std_line("1", "1", "6"), &[allowance("2")]);
    let c = ok(Currency::EUR, &[std_line("10", "1", "21"), l], &[]);
    assert_eq!(group_base(&c), ["10.00", "-1.00"]);
}

// ---------------------------------------------------------------------------------
// §3.7 group taxable and tax
// ---------------------------------------------------------------------------------

#[test]
fn group_tax_is_rounded_per_group_not_per_line() {
    // docs/decisions.md §3.7: group.tax = round_m(taxable × rate / 100); the line taxes are informative.
    // Two lines of 0.05 at 10 %: 0.005 each → 0.01 each on the lines, but the group
    // 0.10 × 10 % = 0.010 → 0.01, not 0.02.
    let c = ok(
        Currency::EUR,
        &[std_line("1", "0.05", "10"), std_line("1", "0.05", "10")],
        &[],
    );
    assert_eq!(
        texts(c.lines.iter().map(|l| &l.tax_amount)),
        ["0.01", "0.01"]
    );
    assert_eq!(group_tax(&c), ["0.01"]);
    assert_eq!(c.tax_amount.to_string(), "0.01");
    assert_eq!(c.total_amount.to_string(), "0.11");
}

#[test]
fn group_taxable_is_base_minus_allowance_shares_plus_charge_shares() {
    // docs/decisions.md §3.7: group.taxable = base − its allowance shares + its charge shares
    let c = ok(
        Currency::EUR,
        &[
            std_line("1", "75", "21"),
            line("1", "25", VatCode::IntraCommunity, Some("0")),
        ],
        &[allowance("10"), charge_rate("2"), allowance_rate("1")],
    );
    // 10.00 → 7.50 / 2.50; 2 % of 100 = 2.00 → 1.50 / 0.50; 1 % = 1.00 → 0.75 / 0.25
    assert_eq!(
        texts(c.groups.iter().map(|g| &g.allowance_total)),
        ["8.25", "2.75"]
    );
    assert_eq!(
        texts(c.groups.iter().map(|g| &g.charge_total)),
        ["1.50", "0.50"]
    );
    assert_eq!(group_taxable(&c), ["68.25", "22.75"]);
    // 68.25 × 21 % = 14.3325 → 14.33; intra_community 0
    assert_eq!(group_tax(&c), ["14.33", "0.00"]);
}

// ---------------------------------------------------------------------------------
// §3.8 totals, §3.9 negative total
// ---------------------------------------------------------------------------------

#[test]
fn totals_identities() {
    // docs/decisions.md §3.8: tax_exclusive = Σ taxable = line total − allowances + charges;
    // tax = Σ group.tax; total = tax_exclusive + tax
    let c = ok(
        Currency::EUR,
        &[
            std_line("3", "19.99", "21"),
            with(std_line("2", "5.55", "6"), &[allowance_rate("5")]),
            line("1", "12", VatCode::Export, Some("0")),
        ],
        &[allowance("3"), charge("4.99"), allowance_rate("2.5")],
    );
    let sum = |f: fn(&VatGroup) -> Decimal| c.groups.iter().map(f).sum::<Decimal>();
    assert_eq!(
        c.line_total,
        c.lines.iter().map(|l| l.total).sum::<Decimal>()
    );
    assert_eq!(c.line_total, sum(|g| g.base));
    assert_eq!(c.tax_exclusive_amount, sum(|g| g.taxable_amount));
    assert_eq!(
        c.tax_exclusive_amount,
        c.line_total - c.allowance_total + c.charge_total
    );
    assert_eq!(c.tax_amount, sum(|g| g.tax_amount));
    assert_eq!(c.total_amount, c.tax_exclusive_amount + c.tax_amount);
    // and the figures: 59.97 + 10.54 (11.10 − 0.56) + 12.00 = 82.51; 2.5 % = 2.06275 → 2.06
    assert_eq!(c.line_total.to_string(), "82.51");
    assert_eq!(c.allowance_total.to_string(), "5.06");
    assert_eq!(c.charge_total.to_string(), "4.99");
    assert_eq!(c.tax_exclusive_amount.to_string(), "82.44");
}

#[test]
fn negative_total_is_refused() {
    // docs/decisions.md §3.9: a negative total_amount is refused (issue a credit note)
    let e = errs(Currency::EUR, &[std_line("-1", "10", "21")], &[]);
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::NegativeTotal, Position::Document)]
    );
    insta::assert_snapshot!(e[0], @"negative_total at Document: the total amount -12.10 is negative: issue a credit note instead");
    // a fixed document allowance above the total: the groups are positive, the total is not
    let e = errs(
        Currency::EUR,
        &[std_line("1", "10", "21")],
        &[allowance("20")],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::NegativeTotal, Position::Document)]
    );
    // a total of exactly 0 is not negative
    let c = ok(
        Currency::EUR,
        &[std_line("1", "10", "21")],
        &[allowance("10")],
    );
    assert_eq!(c.total_amount.to_string(), "0.00");
    let c = ok(
        Currency::EUR,
        &[std_line("1", "10", "21"), std_line("-1", "10", "21")],
        &[],
    );
    assert_eq!(c.total_amount.to_string(), "0.00");
}

// ---------------------------------------------------------------------------------
// §2 the 10^15 bound
// ---------------------------------------------------------------------------------

#[test]
fn the_bound_is_exclusive_and_applies_after_rounding() {
    // docs/decisions.md §2: a computed amount whose magnitude would reach 10^15 is refused
    assert_eq!(AMOUNT_LIMIT, d(LIMIT));
    let c = ok(
        Currency::EUR,
        &[line(
            "1",
            "999999999999999.99",
            VatCode::Exempted,
            Some("0"),
        )],
        &[],
    );
    assert_eq!(c.total_amount.to_string(), "999999999999999.99");
    for price in [LIMIT, "999999999999999.995"] {
        let e = errs(
            Currency::EUR,
            &[line("1", price, VatCode::Exempted, Some("0"))],
            &[],
        );
        assert_eq!(
            codes_at(&e),
            [(ErrorCode::AmountOutOfRange, Position::Line(0))],
            "{price}"
        );
    }
    // negative magnitudes too
    let e = errs(
        Currency::EUR,
        &[line("-1", LIMIT, VatCode::Exempted, Some("0"))],
        &[],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Line(0))]
    );
}

#[test]
fn amount_out_of_range_for_a_subtotal() {
    // docs/decisions.md §2: the largest valid quantity and price give 9.99999998 × 10^17
    let e = errs(
        Currency::EUR,
        &[std_line("999999999", "999999999", "21")],
        &[],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Line(0))]
    );
    assert!(
        e[0].message.starts_with("line subtotal"),
        "{}",
        e[0].message
    );
    // every line in error is reported, the others not
    let big = std_line("999999999", "999999999", "21");
    let e = errs(
        Currency::EUR,
        &[big.clone(), std_line("1", "1", "21"), big],
        &[],
    );
    assert_eq!(
        codes_at(&e),
        [
            (ErrorCode::AmountOutOfRange, Position::Line(0)),
            (ErrorCode::AmountOutOfRange, Position::Line(2)),
        ]
    );
}

#[test]
fn amount_out_of_range_for_a_line_total() {
    // docs/decisions.md §2: 9 × 10^14 + a charge of 10^14 = 10^15, refused at the line
    let l = with(
        line("1", "900000000000000", VatCode::Exempted, Some("0")),
        &[charge("100000000000000")],
    );
    let e = errs(Currency::EUR, &[std_line("1", "1", "21"), l], &[]);
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Line(1))]
    );
    assert!(e[0].message.starts_with("line total"), "{}", e[0].message);
}

#[test]
fn amount_out_of_range_for_a_line_tax() {
    // docs/decisions.md §2: the (informative) line tax is bounded too; a rate above 100 only
    // reaches the typed core, which takes any decimal
    let e = errs(
        Currency::EUR,
        &[std_line("1", "800000000000000", "150")],
        &[],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Line(0))]
    );
    assert!(e[0].message.starts_with("line tax"), "{}", e[0].message);
}

#[test]
fn amount_out_of_range_for_an_allowance_amount() {
    // docs/decisions.md §2: an allowance/charge amount is bounded, on a line and on the document
    let l = with(
        std_line("1", "1", "21"),
        &[charge(LIMIT), allowance("1"), allowance(LIMIT)],
    );
    let e = errs(Currency::EUR, &[l], &[]);
    assert_eq!(
        codes_at(&e),
        [
            (
                ErrorCode::AmountOutOfRange,
                Position::LineAllowanceCharge(0, 0)
            ),
            (
                ErrorCode::AmountOutOfRange,
                Position::LineAllowanceCharge(0, 2)
            ),
        ]
    );
    insta::assert_snapshot!(e[0], @"amount_out_of_range at LineAllowanceCharge(0, 0): allowance/charge amount 1000000000000000.00 reaches the 10^15 bound");
    let e = errs(
        Currency::EUR,
        &[std_line("1", "1", "21")],
        &[allowance("1"), charge(LIMIT)],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::AllowanceCharge(1))]
    );
    // a rate of a large subtotal (typed core: rate above 100)
    let l = with(
        std_line("1", "900000000000000", "21"),
        &[charge_rate("200")],
    );
    let e = errs(Currency::EUR, &[l], &[]);
    assert_eq!(
        codes_at(&e),
        [(
            ErrorCode::AmountOutOfRange,
            Position::LineAllowanceCharge(0, 0)
        )]
    );
}

#[test]
fn amount_out_of_range_for_a_group_base() {
    // docs/decisions.md §2: two lines of 6 × 10^14 make a group base of 1.2 × 10^15, while a
    // negative line elsewhere keeps the document line total in range
    let e = errs(
        Currency::EUR,
        &[
            std_line("1", "600000000000000", "21"),
            std_line("1", "600000000000000", "21"),
            std_line("-1", "600000000000000", "6"),
        ],
        &[],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Document)]
    );
    assert!(
        e[0].message.starts_with("vat group base"),
        "{}",
        e[0].message
    );
}

#[test]
fn amount_out_of_range_for_a_group_taxable_amount() {
    // docs/decisions.md §2: a charge share lifts a group's taxable amount to the bound
    let e = errs(
        Currency::EUR,
        &[line("1", "600000000000000", VatCode::Exempted, Some("0"))],
        &[charge("400000000000000")],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Document)]
    );
    assert!(
        e[0].message.starts_with("vat group taxable amount"),
        "{}",
        e[0].message
    );
}

#[test]
fn amount_out_of_range_for_a_group_tax() {
    // docs/decisions.md §2: each line tax 6 × 10^14 is in range, the group's 1.2 × 10^15 is not
    // (rate 150: typed core only)
    let e = errs(
        Currency::EUR,
        &[
            std_line("1", "400000000000000", "150"),
            std_line("1", "400000000000000", "150"),
        ],
        &[],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Document)]
    );
    assert!(
        e[0].message.starts_with("vat group tax"),
        "{}",
        e[0].message
    );
}

#[test]
fn amount_out_of_range_for_the_tax_exclusive_amount() {
    // docs/decisions.md §2: Σ taxable reaches the bound while every group stays below it
    let e = errs(
        Currency::EUR,
        &[
            line("1", "450000000000000", VatCode::Exempted, Some("0")),
            line("1", "450000000000000", VatCode::Export, Some("0")),
        ],
        &[charge("200000000000000")],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Document)]
    );
    assert!(
        e[0].message.starts_with("tax exclusive amount"),
        "{}",
        e[0].message
    );
}

#[test]
fn amount_out_of_range_for_the_tax_amount() {
    // docs/decisions.md §2: group taxes 9 × 10^14 and 8.91 × 10^14 sum beyond the bound (valid rates)
    let e = errs(
        Currency::EUR,
        &[
            std_line("1", "900000000000000", "100"),
            std_line("1", "900000000000000", "99"),
            line("-1", "900000000000000", VatCode::Exempted, Some("0")),
        ],
        &[],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Document)]
    );
    assert!(e[0].message.starts_with("tax amount"), "{}", e[0].message);
}

#[test]
fn amount_out_of_range_for_the_total() {
    // docs/decisions.md §2: 9 × 10^14 + 21 % = 1.089 × 10^15
    let e = errs(
        Currency::EUR,
        &[std_line("1", "900000000000000", "21")],
        &[],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Document)]
    );
    assert!(e[0].message.starts_with("total amount"), "{}", e[0].message);
}

// ---------------------------------------------------------------------------------
// §2 minor units: JPY (0 decimals), KWD (3 decimals)
// ---------------------------------------------------------------------------------

#[test]
fn jpy_rounds_to_whole_yen() {
    // docs/decisions.md §2: every amount is rounded to the ISO 4217 minor unit (JPY 0)
    let c = ok(
        jpy(),
        &[
            std_line("3", "33.5", "21"),
            std_line("1", "100", "12"),
            std_line("-0.5", "1", "21"),
            std_line("1", "99", "6"),
        ],
        &[allowance("10")],
    );
    // 100.5 → 101; -0.5 → -1 (away from zero)
    assert_eq!(
        texts(c.lines.iter().map(|l| &l.subtotal)),
        ["101", "100", "-1", "99"]
    );
    // 101 × 21 % = 21.21 → 21; 12; -0.21 → 0; 5.94 → 6
    assert_eq!(
        texts(c.lines.iter().map(|l| &l.tax_amount)),
        ["21", "12", "0", "6"]
    );
    assert_eq!(group_base(&c), ["100", "100", "99"]);
    // 10 over 100/100/99: 3.344 / 3.344 / 3.311 → 3 + 3 + 3, one left to the earlier of the tied largest
    assert_eq!(texts(&c.allowance_charges[0].shares), ["4", "3", "3"]);
    assert_eq!(group_taxable(&c), ["96", "97", "96"]);
    // 20.16 → 20; 11.64 → 12; 5.76 → 6
    assert_eq!(group_tax(&c), ["20", "12", "6"]);
    assert_eq!(c.tax_exclusive_amount.to_string(), "289");
    assert_eq!(c.total_amount.to_string(), "327");
}

#[test]
fn kwd_rounds_to_three_decimals() {
    // docs/decisions.md §2: KWD has 3 decimals
    let c = ok(
        kwd(),
        &[
            std_line("1", "1.2345", "21"),
            std_line("1", "0.0005", "21"),
            std_line("2", "1.0005", "6"),
        ],
        &[allowance("0.001"), charge_rate("10")],
    );
    assert_eq!(
        texts(c.lines.iter().map(|l| &l.subtotal)),
        ["1.235", "0.001", "2.001"]
    );
    // 1.235 × 21 % = 0.25935 → 0.259; 0.00021 → 0.000; 0.12006 → 0.120
    assert_eq!(
        texts(c.lines.iter().map(|l| &l.tax_amount)),
        ["0.259", "0.000", "0.120"]
    );
    assert_eq!(group_base(&c), ["1.236", "2.001"]);
    // 10 % of 3.237 = 0.3237 → 0.324
    assert_eq!(
        texts(c.allowance_charges.iter().map(|a| &a.amount)),
        ["0.001", "0.324"]
    );
    // 0.001 over 1.236 / 2.001 → 0 / 1 (remainders 1236 < 2001)
    assert_eq!(texts(&c.allowance_charges[0].shares), ["0.000", "0.001"]);
    // 0.324 over 1.236 / 2.001: 123.71 / 200.29 units → floors 123 / 200, the unit left over
    // to the larger remainder (.71) → 0.124 / 0.200
    assert_eq!(texts(&c.allowance_charges[1].shares), ["0.124", "0.200"]);
    assert_eq!(group_taxable(&c), ["1.360", "2.200"]);
    // 0.2856 → 0.286; 0.132
    assert_eq!(group_tax(&c), ["0.286", "0.132"]);
    assert_eq!(c.total_amount.to_string(), "3.978");
}

// ---------------------------------------------------------------------------------
// §3.10 payment status
// ---------------------------------------------------------------------------------

#[test]
fn payment_status_is_derived_from_paid_and_total() {
    // docs/decisions.md §3.10: paid 0 → unpaid; 0 < paid < total → partial; paid = total > 0 → paid
    let total = d("24.18");
    assert_eq!(PaymentStatus::derive(d("0"), total), PaymentStatus::Unpaid);
    assert_eq!(
        PaymentStatus::derive(d("0.00"), total),
        PaymentStatus::Unpaid
    );
    assert_eq!(
        PaymentStatus::derive(d("0.01"), total),
        PaymentStatus::Partial
    );
    assert_eq!(
        PaymentStatus::derive(d("24.17"), total),
        PaymentStatus::Partial
    );
    assert_eq!(
        PaymentStatus::derive(d("24.18"), total),
        PaymentStatus::Paid
    );
    assert_eq!(
        PaymentStatus::derive(d("24.180"), total),
        PaymentStatus::Paid
    );
    // a total of 0 with nothing paid is unpaid, not paid
    assert_eq!(
        PaymentStatus::derive(d("0"), d("0.00")),
        PaymentStatus::Unpaid
    );
    for s in [
        PaymentStatus::Unpaid,
        PaymentStatus::Partial,
        PaymentStatus::Paid,
        PaymentStatus::Unknown,
    ] {
        assert_eq!(PaymentStatus::parse(s.as_str()), Some(s));
    }
    assert_eq!(PaymentStatus::parse("Paid"), None);
}

// ---------------------------------------------------------------------------------
// Worked examples (shared/spec/examples)
// ---------------------------------------------------------------------------------

#[test]
fn example_001_single_line() {
    // examples/001: 2 × 9.99 = 19.98; VAT 4.1958 → 4.20; total 24.18; paid 0 → unpaid
    let c = ok(Currency::EUR, &[std_line("2", "9.99", "21")], &[]);
    let l = &c.lines[0];
    assert_eq!(
        texts([&l.subtotal, &l.total, &l.tax_amount]),
        ["19.98", "19.98", "4.20"]
    );
    assert_eq!(c.groups.len(), 1);
    assert_eq!(
        (c.groups[0].vat_code, c.groups[0].vat_code.category()),
        (VatCode::Standard, "S")
    );
    assert_eq!(c.groups[0].vat_rate, Some(d("21")));
    assert_eq!(group_taxable(&c), ["19.98"]);
    assert_eq!(group_tax(&c), ["4.20"]);
    assert_eq!(
        texts([&c.tax_exclusive_amount, &c.tax_amount, &c.total_amount]),
        ["19.98", "4.20", "24.18"]
    );
    let paid = d("0");
    assert_eq!((c.total_amount - paid).to_string(), "24.18");
    assert_eq!(
        PaymentStatus::derive(paid, c.total_amount),
        PaymentStatus::Unpaid
    );
}

#[test]
fn example_005_document_allowance_loses_no_cent() {
    // examples/005: bases 33.33 / 33.33 / 33.34 (21 %, 6 %, 12 %), allowance 10 →
    // 3.33 / 3.33 / 3.34; taxable 30.00 each; VAT 6.30 + 1.80 + 3.60 = 11.70; total 101.70
    let c = ok(
        Currency::EUR,
        &[
            std_line("1", "33.33", "21"),
            std_line("1", "33.33", "6"),
            std_line("1", "33.34", "12"),
        ],
        &[allowance("10")],
    );
    assert_eq!(c.allowance_charges[0].amount.to_string(), "10.00");
    let rates: Vec<Option<Decimal>> = c.groups.iter().map(|g| g.vat_rate).collect();
    assert_eq!(rates, [Some(d("21")), Some(d("6")), Some(d("12"))]);
    assert_eq!(group_taxable(&c), ["30.00", "30.00", "30.00"]);
    assert_eq!(group_tax(&c), ["6.30", "1.80", "3.60"]);
    assert_eq!(
        texts([&c.tax_exclusive_amount, &c.tax_amount, &c.total_amount]),
        ["90.00", "11.70", "101.70"]
    );
    assert_eq!(
        PaymentStatus::derive(d("0"), c.total_amount),
        PaymentStatus::Unpaid
    );
}

#[test]
fn example_011_half_away_from_zero_negative_quantity() {
    // examples/011: -0.5 × 0.25 = -0.125 → -0.13, VAT -0.0273 → -0.03; -3 × 0.25 = -0.75,
    // VAT -0.045 → -0.05; S21 9.87 → 2.07; S6 -0.75 → -0.05 (allowed: no document
    // allowance); tax_exclusive 9.12, VAT 2.02, total 11.14
    let c = ok(
        Currency::EUR,
        &[
            std_line("10", "1", "21"),
            std_line("-0.5", "0.25", "21"),
            std_line("-3", "0.25", "6"),
        ],
        &[],
    );
    assert_eq!(
        texts(c.lines.iter().map(|l| &l.subtotal)),
        ["10.00", "-0.13", "-0.75"]
    );
    assert_eq!(
        texts(c.lines.iter().map(|l| &l.total)),
        ["10.00", "-0.13", "-0.75"]
    );
    assert_eq!(
        texts(c.lines.iter().map(|l| &l.tax_amount)),
        ["2.10", "-0.03", "-0.05"]
    );
    assert_eq!(group_taxable(&c), ["9.87", "-0.75"]);
    assert_eq!(group_tax(&c), ["2.07", "-0.05"]);
    assert_eq!(
        texts([&c.tax_exclusive_amount, &c.tax_amount, &c.total_amount]),
        ["9.12", "2.02", "11.14"]
    );
    assert_eq!(
        PaymentStatus::derive(d("0"), c.total_amount),
        PaymentStatus::Unpaid
    );
}

#[test]
fn compute_iter_equals_compute() {
    // the iterator entry point is the same computation
    let lines = [std_line("2", "9.99", "21"), std_line("-0.5", "0.25", "6")];
    assert_eq!(
        compute_iter(Currency::EUR, lines.iter(), &[]),
        compute(Currency::EUR, &lines, &[])
    );
}

// ---------------------------------------------------------------------------------
// The reference: a second, independent implementation in plain integer arithmetic
// ---------------------------------------------------------------------------------

/// 10^n as an integer.
fn pow10(n: u32) -> i128 {
    10_i128.pow(n)
}

/// `n / den` rounded half away from zero (`den > 0`).
fn div_round(n: i128, den: i128) -> i128 {
    let q = n / den;
    let r = n % den;
    if 2 * r.abs() >= den {
        q + n.signum()
    } else {
        q
    }
}

/// `mantissa / 10^scale` in minor units of `m` decimals, rounded half away from zero.
fn units(mantissa: i128, scale: u32, m: u32) -> i128 {
    if scale >= m {
        div_round(mantissa, pow10(scale - m))
    } else {
        mantissa * pow10(m - scale)
    }
}

/// `base × rate / 100` in minor units, rounded half away from zero.
fn percent_units(base: i128, rate: Decimal) -> i128 {
    div_round(base * rate.mantissa(), 100 * pow10(rate.scale()))
}

/// The rate as a number: mantissa and scale with trailing zeros removed.
fn rate_key(rate: Option<Decimal>) -> RateKey {
    rate.map(|r| {
        let (mut m, mut s) = (r.mantissa(), r.scale());
        while s > 0 && m % 10 == 0 {
            m /= 10;
            s -= 1;
        }
        (m, s)
    })
}

/// The amount of an allowance/charge on `base`, in minor units.
fn ac_units(value: AllowanceValue, base: i128, m: u32) -> i128 {
    match value {
        AllowanceValue::Amount(a) => units(a.mantissa(), a.scale(), m),
        AllowanceValue::Rate(r) => percent_units(base, r),
    }
}

/// Largest-remainder spread, written with plain loops: floor each share, then give one
/// unit at a time to the largest remainder not yet served (the earliest on a tie).
fn spread(amount: i128, weights: &[i128]) -> Vec<i128> {
    let mut total = 0;
    for w in weights {
        total += w;
    }
    let mut shares = Vec::new();
    let mut remainders = Vec::new();
    let mut handed = 0;
    for w in weights {
        shares.push(amount * w / total);
        remainders.push(amount * w % total);
        handed += amount * w / total;
    }
    let mut served = vec![false; weights.len()];
    let mut left = amount - handed;
    while left > 0 {
        let mut best: Option<usize> = None;
        for i in 0..weights.len() {
            let better = match best {
                None => true,
                Some(b) => remainders[i] > remainders[b],
            };
            if !served[i] && better {
                best = Some(i);
            }
        }
        let b = best.expect("fewer units left over than groups");
        shares[b] += 1;
        served[b] = true;
        left -= 1;
    }
    shares
}

#[derive(Debug)]
struct RefLine {
    subtotal: i128,
    allowance_charges: Vec<i128>,
    total: i128,
    tax: i128,
}

#[derive(Debug)]
struct RefGroup {
    code: VatCode,
    rate: Option<Decimal>,
    key: RateKey,
    base: i128,
    allowances: i128,
    charges: i128,
    taxable: i128,
    tax: i128,
}

/// The reference's document, every amount in minor units.
#[derive(Debug)]
struct Reference {
    lines: Vec<RefLine>,
    groups: Vec<RefGroup>,
    allowance_charges: Vec<(i128, Vec<i128>)>,
    line_total: i128,
    allowance_total: i128,
    charge_total: i128,
    tax_exclusive: i128,
    tax: i128,
    total: i128,
}

type Found = Vec<(ErrorCode, Position)>;

/// A rate compared as a number: mantissa and scale without trailing zeros.
type RateKey = Option<(i128, u32)>;

/// One line's exact amounts, unbounded: (subtotal, allowance amounts, total, tax).
fn reference_line(line: &LinePricing, m: u32) -> (i128, Vec<i128>, i128, i128) {
    let q = line.quantity;
    let p = line.unit_price;
    let subtotal = units(q.mantissa() * p.mantissa(), q.scale() + p.scale(), m);
    let mut amounts = Vec::new();
    let mut total = subtotal;
    for ac in &line.allowance_charges {
        let a = ac_units(ac.value, subtotal, m);
        amounts.push(a);
        match ac.kind {
            AllowanceKind::Allowance => total -= a,
            AllowanceKind::Charge => total += a,
        }
    }
    let tax = if line.vat_code == VatCode::Standard {
        percent_units(total, line.vat_rate.unwrap_or_default())
    } else {
        0
    };
    (subtotal, amounts, total, tax)
}

/// The whole computation again, stage by stage as docs/decisions.md §3 lists it. On an error
/// it answers what it found at the first stage that failed; a negative total also hands
/// back the computed document.
// One of the crate's allowed long functions: an independent second implementation of
// the computation kept in one piece, its stages in the order of the rules, so that it
// reads against them line by line; split, it would mirror `compute`'s own helpers.
#[allow(clippy::too_many_lines)]
fn reference(
    currency: Currency,
    lines: &[LinePricing],
    acs: &[AllowanceCharge],
) -> Result<Reference, (Found, Option<Box<Reference>>)> {
    let m = currency.minor_unit();
    let limit = pow10(15 + m);
    let inside = |u: i128| u.abs() < limit;
    let aor = ErrorCode::AmountOutOfRange;

    // Lines: every error of every line.
    let mut found = Vec::new();
    let mut ref_lines = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let (subtotal, amounts, total, tax) = reference_line(line, m);
        if !inside(subtotal) {
            found.push((aor, Position::Line(i)));
            continue;
        }
        let mut bad = false;
        for (j, a) in amounts.iter().enumerate() {
            if !inside(*a) {
                found.push((aor, Position::LineAllowanceCharge(i, j)));
                bad = true;
            }
        }
        if bad {
            continue;
        }
        if !inside(total) || !inside(tax) {
            found.push((aor, Position::Line(i)));
            continue;
        }
        ref_lines.push(RefLine {
            subtotal,
            allowance_charges: amounts,
            total,
            tax,
        });
    }
    if !found.is_empty() {
        return Err((found, None));
    }

    // Groups, by a linear search on (code, rate as a number).
    let mut groups: Vec<RefGroup> = Vec::new();
    let mut line_total = 0;
    for (line, amounts) in lines.iter().zip(&ref_lines) {
        let key = rate_key(line.vat_rate);
        let mut at = None;
        for (g, group) in groups.iter().enumerate() {
            if group.code == line.vat_code && group.key == key {
                at = Some(g);
            }
        }
        let g = if let Some(g) = at {
            g
        } else {
            groups.push(RefGroup {
                code: line.vat_code,
                rate: line.vat_rate,
                key,
                base: 0,
                allowances: 0,
                charges: 0,
                taxable: 0,
                tax: 0,
            });
            groups.len() - 1
        };
        groups[g].base += amounts.total;
        line_total += amounts.total;
    }
    for g in &groups {
        if !inside(g.base) {
            found.push((aor, Position::Document));
        }
    }
    if !inside(line_total) {
        found.push((aor, Position::Document));
    }
    if !found.is_empty() {
        return Err((found, None));
    }

    // Document allowances and charges.
    let mut doc = Vec::new();
    let mut allowance_total = 0;
    let mut charge_total = 0;
    if !acs.is_empty() {
        for g in &groups {
            if g.base <= 0 {
                found.push((ErrorCode::VatGroupNotPositive, Position::AllowanceCharges));
            }
        }
        let mut amounts = Vec::new();
        for (j, ac) in acs.iter().enumerate() {
            let a = ac_units(ac.value, line_total, m);
            if !inside(a) {
                found.push((aor, Position::AllowanceCharge(j)));
            }
            amounts.push(a);
        }
        if !found.is_empty() {
            return Err((found, None));
        }
        let weights: Vec<i128> = groups.iter().map(|g| g.base).collect();
        for (ac, a) in acs.iter().zip(amounts) {
            let shares = spread(a, &weights);
            for (g, s) in groups.iter_mut().zip(&shares) {
                match ac.kind {
                    AllowanceKind::Allowance => g.allowances += s,
                    AllowanceKind::Charge => g.charges += s,
                }
            }
            match ac.kind {
                AllowanceKind::Allowance => allowance_total += a,
                AllowanceKind::Charge => charge_total += a,
            }
            doc.push((a, shares));
        }
    }

    // Group taxable and tax, totals: the first amount out of range answers alone.
    let out = || Err((vec![(aor, Position::Document)], None));
    let mut tax_exclusive = 0;
    let mut tax = 0;
    for g in &mut groups {
        g.taxable = g.base - g.allowances + g.charges;
        if !inside(g.taxable) {
            return out();
        }
        g.tax = if g.code == VatCode::Standard {
            percent_units(g.taxable, g.rate.unwrap_or_default())
        } else {
            0
        };
        if !inside(g.tax) {
            return out();
        }
        tax_exclusive += g.taxable;
        tax += g.tax;
    }
    if !inside(tax_exclusive) || !inside(tax) || !inside(tax_exclusive + tax) {
        return out();
    }
    let r = Reference {
        lines: ref_lines,
        groups,
        allowance_charges: doc,
        line_total,
        allowance_total,
        charge_total,
        tax_exclusive,
        tax,
        total: tax_exclusive + tax,
    };
    if r.total < 0 {
        return Err((
            vec![(ErrorCode::NegativeTotal, Position::Document)],
            Some(Box::new(r)),
        ));
    }
    // docs/decisions.md §2: the sums of the document allowances and of the charges are
    // computed amounts too, checked after the total (as `compute` does)
    if !inside(r.allowance_total) || !inside(r.charge_total) {
        return out();
    }
    Ok(r)
}

/// Asserts that `value` is exactly `expected` minor units, written with the minor unit's scale.
fn assert_units(value: Decimal, expected: i128, m: u32, what: &str) {
    assert_eq!(
        value.scale(),
        m,
        "{what}: {value} is not written with {m} decimals"
    );
    assert_eq!(
        value.mantissa(),
        expected,
        "{what}: {value} is not {expected} minor units"
    );
}

/// Asserts that the computation and the reference agree on every field.
fn assert_agree(c: &Computation, r: &Reference, currency: Currency) {
    let m = currency.minor_unit();
    assert_eq!(c.currency, currency);
    assert_eq!(c.lines.len(), r.lines.len());
    for (i, (cl, rl)) in c.lines.iter().zip(&r.lines).enumerate() {
        assert_units(cl.subtotal, rl.subtotal, m, &format!("line {i} subtotal"));
        assert_eq!(cl.allowance_charges.len(), rl.allowance_charges.len());
        for (j, (a, ra)) in cl
            .allowance_charges
            .iter()
            .zip(&rl.allowance_charges)
            .enumerate()
        {
            assert_units(*a, *ra, m, &format!("line {i} allowance/charge {j}"));
        }
        assert_units(cl.total, rl.total, m, &format!("line {i} total"));
        assert_units(cl.tax_amount, rl.tax, m, &format!("line {i} tax"));
    }
    assert_eq!(c.groups.len(), r.groups.len(), "number of groups");
    for (g, (cg, rg)) in c.groups.iter().zip(&r.groups).enumerate() {
        assert_eq!(cg.vat_code, rg.code, "group {g} code");
        // as first written: the same text, not only the same number
        assert_eq!(
            cg.vat_rate.map(|v| v.to_string()),
            rg.rate.map(|v| v.to_string()),
            "group {g} rate"
        );
        assert_units(cg.base, rg.base, m, &format!("group {g} base"));
        assert_units(
            cg.allowance_total,
            rg.allowances,
            m,
            &format!("group {g} allowances"),
        );
        assert_units(
            cg.charge_total,
            rg.charges,
            m,
            &format!("group {g} charges"),
        );
        assert_units(
            cg.taxable_amount,
            rg.taxable,
            m,
            &format!("group {g} taxable"),
        );
        assert_units(cg.tax_amount, rg.tax, m, &format!("group {g} tax"));
    }
    assert_eq!(c.allowance_charges.len(), r.allowance_charges.len());
    for (j, (ca, (ra, rs))) in c
        .allowance_charges
        .iter()
        .zip(&r.allowance_charges)
        .enumerate()
    {
        assert_units(ca.amount, *ra, m, &format!("document allowance/charge {j}"));
        assert_eq!(ca.shares.len(), rs.len());
        for (g, (s, rs)) in ca.shares.iter().zip(rs).enumerate() {
            assert_units(
                *s,
                *rs,
                m,
                &format!("document allowance/charge {j} share {g}"),
            );
        }
    }
    assert_units(c.line_total, r.line_total, m, "line total");
    assert_units(c.allowance_total, r.allowance_total, m, "allowance total");
    assert_units(c.charge_total, r.charge_total, m, "charge total");
    assert_units(
        c.tax_exclusive_amount,
        r.tax_exclusive,
        m,
        "tax exclusive amount",
    );
    assert_units(c.tax_amount, r.tax, m, "tax amount");
    assert_units(c.total_amount, r.total, m, "total amount");
}

#[test]
fn the_reference_reproduces_the_worked_examples() {
    // the reference itself is checked on examples 005 and 011 before it judges compute
    let lines = [
        std_line("1", "33.33", "21"),
        std_line("1", "33.33", "6"),
        std_line("1", "33.34", "12"),
    ];
    let r = reference(Currency::EUR, &lines, &[allowance("10")]).expect("example 005 computes");
    assert_eq!(r.allowance_charges[0].1, [333, 333, 334]);
    assert_eq!((r.tax_exclusive, r.tax, r.total), (9000, 1170, 10170));
    let lines = [
        std_line("10", "1", "21"),
        std_line("-0.5", "0.25", "21"),
        std_line("-3", "0.25", "6"),
    ];
    let r = reference(Currency::EUR, &lines, &[]).expect("example 011 computes");
    assert_eq!((r.tax_exclusive, r.tax, r.total), (912, 202, 1114));
    assert_eq!(spread(1, &[1, 1, 1]), [1, 0, 0]);
    assert_eq!(spread(2, &[1, 2, 1, 2]), [0, 1, 0, 1]);
}

// ---------------------------------------------------------------------------------
// Generators: only valid inputs (docs/decisions.md §3, §4)
// ---------------------------------------------------------------------------------

/// A decimal `mantissa / 10^scale` with scale `0..=max_scale` and magnitude in `[lo, hi]`
/// (whole numbers).
fn decimal_in(lo: i64, hi: i64, max_scale: u32) -> impl Strategy<Value = Decimal> {
    (0..=max_scale).prop_flat_map(move |s| {
        let f = 10_i64.pow(s);
        (lo * f..=hi * f).prop_map(move |m| Decimal::new(m, s))
    })
}

/// |q| ≤ 999999999, at most 6 decimals; mostly small and positive so that most
/// documents stay below 10^15 and their groups positive, some negative (returns, and
/// groups that are not positive), some large (so that sums of lines, not only single
/// lines, reach the bound).
fn quantity() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        24 => decimal_in(0, 100, 6),
        2 => decimal_in(-100, 100, 6),
        1 => decimal_in(-10_000, 10_000, 3),
        1 => decimal_in(-999_999_999, 999_999_999, 6),
        2 => decimal_in(100_000, 1_000_000, 2),
    ]
}

/// 0 ≤ p ≤ 999999999, at most 6 decimals (BR-27).
fn unit_price() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        6 => decimal_in(0, 1_000, 6),
        3 => decimal_in(0, 100_000, 2),
        1 => decimal_in(0, 999_999_999, 6),
    ]
}

/// 0 < rate ≤ 100, at most 4 decimals: the usual rates (written several ways, so that
/// groups merge) or any.
fn rate() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        6 => prop::sample::select(vec!["21", "21.00", "12", "6", "6.0", "100", "0.0001", "5.5"]).prop_map(d),
        2 => (1_i64..=1_000_000).prop_map(|m| Decimal::new(m, 4)),
        1 => (1_i64..=1_000_000).prop_map(|m| Decimal::new(m, 4).normalize()),
    ]
}

/// A VAT code of the seven input codes with its rate rule: standard 0 < r ≤ 100; the
/// exempt codes and zero_rated 0 (written 0, 0.0 or 0.00); not_subject none.
fn vat() -> impl Strategy<Value = (VatCode, Option<Decimal>)> {
    let zero_rate = prop::sample::select(vec![
        VatCode::ZeroRated,
        VatCode::Exempted,
        VatCode::ReverseCharge,
        VatCode::IntraCommunity,
        VatCode::Export,
    ]);
    prop_oneof![
        6 => rate().prop_map(|r| (VatCode::Standard, Some(r))),
        2 => (zero_rate, 0_u32..=2).prop_map(|(c, s)| (c, Some(Decimal::new(0, s)))),
        1 => Just((VatCode::NotSubject, None)),
    ]
}

/// An allowance/charge before the currency is known: a fixed amount is built from its
/// mantissa, a wanted scale (capped at the minor unit) and trailing zeros (`10.000` is a
/// valid EUR amount, docs/decisions.md §2).
#[derive(Debug, Clone)]
enum ValueSpec {
    Fixed {
        mantissa: i64,
        scale: u32,
        trailing: u32,
    },
    Rate(Decimal),
}

#[derive(Debug, Clone)]
struct AcSpec {
    charge: bool,
    value: ValueSpec,
}

fn ac_spec() -> impl Strategy<Value = AcSpec> {
    let value = prop_oneof![
        (1_i64..=2_000, 0_u32..=3, 0_u32..=2).prop_map(|(mantissa, scale, trailing)| {
            ValueSpec::Fixed {
                mantissa,
                scale,
                trailing,
            }
        }),
        rate().prop_map(ValueSpec::Rate),
    ];
    (any::<bool>(), value).prop_map(|(charge, value)| AcSpec { charge, value })
}

fn build_ac(spec: &AcSpec, m: u32) -> AllowanceCharge {
    let kind = if spec.charge {
        AllowanceKind::Charge
    } else {
        AllowanceKind::Allowance
    };
    let value = match spec.value {
        ValueSpec::Fixed {
            mantissa,
            scale,
            trailing,
        } => {
            let s = scale.min(m);
            AllowanceValue::Amount(Decimal::new(mantissa * 10_i64.pow(trailing), s + trailing))
        }
        ValueSpec::Rate(r) => AllowanceValue::Rate(r),
    };
    ac(kind, value)
}

/// A document's pricing: currency, lines and document allowances/charges.
#[derive(Debug, Clone)]
struct Doc {
    currency: Currency,
    lines: Vec<LinePricing>,
    acs: Vec<AllowanceCharge>,
}

/// A document whose lines draw their quantities and prices from the given strategies.
fn document_with(
    quantity: BoxedStrategy<Decimal>,
    unit_price: BoxedStrategy<Decimal>,
) -> impl Strategy<Value = Doc> {
    let currency = prop::sample::select(vec!["EUR", "JPY", "KWD"])
        .prop_map(|c| Currency::from_code(c).expect("active code"));
    let line_acs = prop_oneof![2 => Just(vec![]), 1 => prop::collection::vec(ac_spec(), 1..=2)];
    let line = (quantity, unit_price, vat(), line_acs);
    (
        currency,
        prop::collection::vec(line, 1..=8),
        prop::collection::vec(ac_spec(), 0..=5),
    )
        .prop_map(|(currency, lines, acs)| {
            let m = currency.minor_unit();
            let lines = lines
                .into_iter()
                .map(
                    |(quantity, unit_price, (vat_code, vat_rate), acs)| LinePricing {
                        quantity,
                        unit_price,
                        vat_code,
                        vat_rate,
                        allowance_charges: acs.iter().map(|a| build_ac(a, m)).collect(),
                    },
                )
                .collect();
            let acs = acs.iter().map(|a| build_ac(a, m)).collect();
            Doc {
                currency,
                lines,
                acs,
            }
        })
}

/// Valid documents: mostly everyday ones, and one in five with lines of 10^13 to 10^15
/// (quantities up to 999999, prices up to 999999999), so that sums of lines, group
/// taxes and totals reach the 10^15 bound as well as single lines.
fn document() -> impl Strategy<Value = Doc> {
    let large_quantity = prop_oneof![
        5 => decimal_in(100_000, 999_999, 2),
        1 => decimal_in(-999_999, -100_000, 0),
    ];
    prop_oneof![
        4 => document_with(quantity().boxed(), unit_price().boxed()),
        1 => document_with(large_quantity.boxed(), decimal_in(100_000_000, 999_999_999, 2).boxed()),
    ]
}

/// Every amount of a computation, with what it is.
fn all_amounts(c: &Computation) -> Vec<(String, Decimal)> {
    let mut v = Vec::new();
    for (i, l) in c.lines.iter().enumerate() {
        v.push((format!("line {i} subtotal"), l.subtotal));
        v.push((format!("line {i} total"), l.total));
        v.push((format!("line {i} tax"), l.tax_amount));
        for (j, a) in l.allowance_charges.iter().enumerate() {
            v.push((format!("line {i} allowance/charge {j}"), *a));
        }
    }
    for (g, group) in c.groups.iter().enumerate() {
        v.push((format!("group {g} base"), group.base));
        v.push((format!("group {g} allowances"), group.allowance_total));
        v.push((format!("group {g} charges"), group.charge_total));
        v.push((format!("group {g} taxable"), group.taxable_amount));
        v.push((format!("group {g} tax"), group.tax_amount));
    }
    for (j, a) in c.allowance_charges.iter().enumerate() {
        v.push((format!("document allowance/charge {j}"), a.amount));
        for (g, s) in a.shares.iter().enumerate() {
            v.push((format!("document allowance/charge {j} share {g}"), *s));
        }
    }
    v.push(("line total".into(), c.line_total));
    v.push(("allowance total".into(), c.allowance_total));
    v.push(("charge total".into(), c.charge_total));
    v.push(("tax exclusive amount".into(), c.tax_exclusive_amount));
    v.push(("tax amount".into(), c.tax_amount));
    v.push(("total amount".into(), c.total_amount));
    v
}

/// The exact base of each (code, rate) key, from the reference's unbounded line totals.
fn exact_bases(doc: &Doc) -> Vec<(VatCode, RateKey, i128)> {
    let m = doc.currency.minor_unit();
    let mut bases: Vec<(VatCode, RateKey, i128)> = Vec::new();
    for line in &doc.lines {
        let (_, _, total, _) = reference_line(line, m);
        let key = rate_key(line.vat_rate);
        if let Some(b) = bases
            .iter_mut()
            .find(|b| b.0 == line.vat_code && b.1 == key)
        {
            b.2 += total;
        } else {
            bases.push((line.vat_code, key, total));
        }
    }
    bases
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// docs/decisions.md §3.8: tax_exclusive = Σ line totals − Σ document allowances +
    /// Σ document charges = Σ group taxable; total = tax_exclusive + tax; tax = Σ group tax;
    /// the document line total is Σ line totals and Σ group bases.
    #[test]
    fn totals_identities_hold(doc in document()) {
        if let Ok(c) = compute(doc.currency, &doc.lines, &doc.acs) {
            let line_totals: Decimal = c.lines.iter().map(|l| l.total).sum();
            let allowances: Decimal = doc.acs.iter().zip(&c.allowance_charges)
                .filter(|(a, _)| a.kind == AllowanceKind::Allowance).map(|(_, x)| x.amount).sum();
            let charges: Decimal = doc.acs.iter().zip(&c.allowance_charges)
                .filter(|(a, _)| a.kind == AllowanceKind::Charge).map(|(_, x)| x.amount).sum();
            prop_assert_eq!(c.line_total, line_totals);
            prop_assert_eq!(c.line_total, c.groups.iter().map(|g| g.base).sum::<Decimal>());
            prop_assert_eq!(c.tax_exclusive_amount, line_totals - allowances + charges);
            prop_assert_eq!(c.tax_exclusive_amount, c.groups.iter().map(|g| g.taxable_amount).sum::<Decimal>());
            prop_assert_eq!(c.tax_amount, c.groups.iter().map(|g| g.tax_amount).sum::<Decimal>());
            prop_assert_eq!(c.total_amount, c.tax_exclusive_amount + c.tax_amount);
            prop_assert_eq!(c.allowance_total, allowances);
            prop_assert_eq!(c.charge_total, charges);
            prop_assert!(c.total_amount >= Decimal::ZERO);
        }
    }

    /// docs/decisions.md §3.6: each document allowance/charge is spread on its own; its shares
    /// are never negative, sum to its amount, and each lies within one minor unit of its
    /// exact proportion amount × base / line total.
    #[test]
    fn shares_sum_to_the_amount_and_stay_within_one_unit(doc in document()) {
        if let Ok(c) = compute(doc.currency, &doc.lines, &doc.acs) {
            let cur = doc.currency;
            let total = cur.to_minor_units(c.line_total).expect("line total in minor units");
            for a in &c.allowance_charges {
                prop_assert_eq!(a.shares.iter().copied().sum::<Decimal>(), a.amount);
                let amount = cur.to_minor_units(a.amount).expect("amount in minor units");
                for (s, g) in a.shares.iter().zip(&c.groups) {
                    let share = cur.to_minor_units(*s).expect("share in minor units");
                    let base = cur.to_minor_units(g.base).expect("base in minor units");
                    prop_assert!(share >= 0);
                    // |share − amount × base / total| < 1, multiplied out by total > 0
                    prop_assert!((share * total - amount * base).abs() < total,
                        "share {} of {} on base {} of {}", s, a.amount, g.base, c.line_total);
                }
            }
        }
    }

    /// docs/decisions.md §2: every computed amount has exactly the currency's minor-unit
    /// decimals (EUR 2, JPY 0, KWD 3), so none has more.
    #[test]
    fn every_amount_has_the_minor_unit_decimals(doc in document()) {
        if let Ok(c) = compute(doc.currency, &doc.lines, &doc.acs) {
            let m = doc.currency.minor_unit();
            for (what, v) in all_amounts(&c) {
                prop_assert!(doc.currency.fits_minor_unit(v), "{} {} has more than {} decimals", what, v, m);
                prop_assert_eq!(v.scale(), m, "{} {}", what, v);
            }
        }
    }

    /// docs/decisions.md §1: the same input gives the same output, errors included.
    #[test]
    fn computing_twice_gives_the_same_output(doc in document()) {
        let first = compute(doc.currency, &doc.lines, &doc.acs);
        let second = compute(doc.currency, &doc.lines.clone(), &doc.acs.clone());
        prop_assert_eq!(first, second);
    }

    /// docs/decisions.md §3 as a whole: a second, independent implementation (integer minor
    /// units, plain loops, its own largest-remainder spread) agrees with `compute` on
    /// every field of every line, group, allowance and total, scale included, and on
    /// the list of errors (code and position) when there are some.
    #[test]
    fn agrees_with_an_independent_reference(doc in document()) {
        let c = compute(doc.currency, &doc.lines, &doc.acs);
        match (c, reference(doc.currency, &doc.lines, &doc.acs)) {
            (Ok(c), Ok(r)) => assert_agree(&c, &r, doc.currency),
            (Err(e), Err((found, _))) => prop_assert_eq!(codes_at(&e), found),
            (c, r) => prop_assert!(false, "compute {:?} but the reference {:?}", c, r),
        }
    }

    /// docs/decisions.md §2, §3.6, §3.9: an error is one of the codes the computation may
    /// answer, and only for a cause the input really has: vat_group_not_positive only
    /// when a document allowance/charge exists and the named group's exact base is ≤ 0;
    /// negative_total only alone and for an exact total below 0; amount_out_of_range at a
    /// line only when one of that line's exact amounts reaches 10^15.
    #[test]
    fn errors_are_legitimate(doc in document()) {
        let Err(errors) = compute(doc.currency, &doc.lines, &doc.acs) else { return Ok(()) };
        let m = doc.currency.minor_unit();
        let limit = pow10(15 + m);
        prop_assert!(!errors.is_empty());
        for e in &errors {
            match e.code {
                ErrorCode::VatGroupNotPositive => {
                    prop_assert!(!doc.acs.is_empty());
                    prop_assert_eq!(e.position, Position::AllowanceCharges);
                    let (code, rate, base) = e.group.expect("the group is named");
                    let exact = exact_bases(&doc);
                    let found = exact.iter().find(|b| b.0 == code && b.1 == rate_key(rate));
                    let (_, _, exact_base) = found.expect("the named group exists");
                    prop_assert!(*exact_base <= 0);
                    prop_assert_eq!(doc.currency.to_minor_units(base), Some(*exact_base));
                }
                ErrorCode::NegativeTotal => {
                    prop_assert_eq!(errors.len(), 1);
                    let r = reference(doc.currency, &doc.lines, &doc.acs);
                    let Err((_, Some(r))) = r else { panic!("the reference finds no negative total: {r:?}") };
                    prop_assert!(r.total < 0);
                }
                ErrorCode::AmountOutOfRange => match e.position {
                    Position::Line(i) => {
                        let (s, _, t, x) = reference_line(&doc.lines[i], m);
                        prop_assert!(s.abs() >= limit || t.abs() >= limit || x.abs() >= limit);
                    }
                    Position::LineAllowanceCharge(i, j) => {
                        let (_, a, _, _) = reference_line(&doc.lines[i], m);
                        prop_assert!(a[j].abs() >= limit);
                    }
                    Position::AllowanceCharge(j) => {
                        let line_total: i128 = doc.lines.iter().map(|l| reference_line(l, m).2).sum();
                        prop_assert!(ac_units(doc.acs[j].value, line_total, m).abs() >= limit);
                    }
                    Position::Document | Position::AllowanceCharges => {
                        let r = reference(doc.currency, &doc.lines, &doc.acs);
                        let Err((found, _)) = r else { panic!("the reference finds nothing out of range: {r:?}") };
                        prop_assert!(found.contains(&(ErrorCode::AmountOutOfRange, Position::Document)));
                    }
                },
                other => prop_assert!(false, "{} is not a code of the computation", other),
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Mutation testing (cargo mutants): tests that pin behaviour a mutant changed
// ---------------------------------------------------------------------------------

// Equivalent mutant (cargo mutants) in compute/mod.rs:
// - `compute_iter`: `to_minor_units(amount).unwrap_or(-1)` → `unwrap_or(1)`. The
//   fallback is unreachable: `amount` is rounded to the minor unit and bound-checked
//   below 10^15, so it always converts to minor units.

#[test]
fn allowance_kinds_are_written_allowance_and_charge() {
    // docs/decisions.md §8: an allowance/charge is {"type": "allowance"|"charge", …}; the
    // response writes the kind back with the same words
    for kind in [AllowanceKind::Allowance, AllowanceKind::Charge] {
        assert_eq!(AllowanceKind::parse(kind.as_str()), Some(kind));
    }
    assert_eq!(AllowanceKind::Allowance.as_str(), "allowance");
    assert_eq!(AllowanceKind::Charge.as_str(), "charge");
    assert_eq!(AllowanceKind::parse("Allowance"), None);
    assert_eq!(AllowanceKind::parse(""), None);
}

#[test]
fn a_rate_written_with_many_trailing_zeros_computes_like_the_short_one() {
    // docs/decisions.md §2 and §8: rates compare as numbers and decimals are counted on the
    // value, so 21.000…0 (25 zeros) is a valid rate of 21 %. On a total of 0.50 the
    // product 10.5000…0 keeps scale 27, beyond the exact scale shift of `percent`, and
    // must still be divided by 100 (not refused as out of range).
    let long = |r: &str| format!("{r}.{}", "0".repeat(25));
    let c = ok(
        Currency::EUR,
        &[std_line("1", "0.50", &long("21"))],
        &[charge_rate(&long("10"))],
    );
    assert_eq!(c.lines[0].tax_amount.to_string(), "0.11");
    assert_eq!(
        texts(c.allowance_charges.iter().map(|a| &a.amount)),
        ["0.05"]
    );
    assert_eq!(group_taxable(&c), ["0.55"]);
    assert_eq!(group_tax(&c), ["0.12"]);
    assert_eq!(c.total_amount.to_string(), "0.67");
    // the same document with the short rates
    let short = ok(
        Currency::EUR,
        &[std_line("1", "0.50", "21")],
        &[charge_rate("10")],
    );
    assert_eq!(short.total_amount, c.total_amount);
}

#[test]
fn document_allowance_and_charge_totals_are_bound_checked() {
    // docs/decisions.md §2: any computed amount whose magnitude would reach 10^15 is refused
    // (amount_out_of_range at ["body"]), the sums of the document allowances and of the
    // charges included, even when they cancel out in the taxable amounts
    let lines = [std_line("1", "100.00", "21")];
    let half = "500000000000000";
    let e = errs(
        Currency::EUR,
        &lines,
        &[allowance(half), allowance(half), charge(half), charge(half)],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Document)]
    );
    assert!(e[0].message.contains("allowance total"), "{}", e[0].message);
    // charges alone reach the bound; the allowances stay below it
    let e = errs(
        Currency::EUR,
        &lines,
        &[allowance("999999999999999"), charge(half), charge(half)],
    );
    assert_eq!(
        codes_at(&e),
        [(ErrorCode::AmountOutOfRange, Position::Document)]
    );
    assert!(e[0].message.contains("charge total"), "{}", e[0].message);
    // one unit less on each side is within the bound
    let c = ok(
        Currency::EUR,
        &lines,
        &[
            allowance("499999999999999.99"),
            allowance(half),
            charge("499999999999999.99"),
            charge(half),
        ],
    );
    assert_eq!(c.allowance_total.to_string(), "999999999999999.99");
    assert_eq!(c.charge_total.to_string(), "999999999999999.99");
    assert_eq!(c.total_amount.to_string(), "121.00");
}

// ---------------------------------------------------------------------------------
// The 64-bit fast path of the rounded products (issue 12)
// ---------------------------------------------------------------------------------

/// The general path of [`product_rounded`]: the exact `Decimal` product (or percent),
/// then [`Currency::round`].
fn product_general(currency: Currency, a: Decimal, b: Decimal, percent: bool) -> Option<Decimal> {
    let exact = if percent {
        super::percent(a, b)
    } else {
        a.checked_mul(b)
    };
    exact.map(|v| currency.round(v))
}

/// The same value and the same representation (scale, sign), bit for bit.
fn same_bits(x: Option<Decimal>, y: Option<Decimal>) -> bool {
    x.map(|v| v.serialize()) == y.map(|v| v.serialize())
}

#[test]
fn fast_products_round_half_away_from_zero_like_the_general_path() {
    // docs/decisions.md §2, §3: exact product, one rounding half away from zero, never -0.00;
    // the 64-bit path gives the general path's decimal bit for bit
    let cases = [
        ("1.005", "1", false),
        ("-1.005", "1", false),
        ("2", "9.99", false),
        ("-1", "0", false),
        ("0.001", "-0.004", false),
        ("12.99", "999.99", false),
        ("4.1958", "1", false),
        ("0.125", "-1", false),
        ("100.50", "21", true),
        ("-0.02", "21", true),
        ("0.02", "12.5", true),
        ("18446744073.709551615", "1", false),
        ("99999999999999.99", "100", true),
    ];
    for currency in [Currency::EUR, jpy(), kwd()] {
        for (a, b, percent) in cases {
            let (a, b) = (d(a), d(b));
            let fast = product_fast(a, b, if percent { 2 } else { 0 }, currency.minor_unit());
            let general = product_general(currency, a, b, percent);
            if fast.is_some() {
                assert!(
                    same_bits(fast, general),
                    "{a} × {b} ({percent}) in {currency}: {fast:?} vs {general:?}"
                );
            }
            assert!(same_bits(product_rounded(currency, a, b, percent), general));
        }
    }
    assert_eq!(
        product_fast(d("-0.001"), d("1"), 0, 2).map(|v| v.serialize()),
        Some(Decimal::new(0, 2).serialize()),
        "a product rounded to zero is a positive zero"
    );
    assert!(product_fast(d("2"), d("9.99"), 0, 2).is_some());
    assert!(product_fast(d("100.50"), d("21"), 2, 2).is_some());
    // past 64 bits or a scale of 28 the fast path steps aside
    assert_eq!(product_fast(d("18446744073709551616"), d("1"), 0, 2), None);
    assert_eq!(
        product_fast(d("0.00000000000001"), d("0.00000000000001"), 2, 2),
        None
    );
}

proptest! {
    /// Invariant: the rounded product of `product_rounded` is, bit for bit, the exact
    /// `Decimal` product rounded by `Currency::round`, for any mantissas and scales.
    #[test]
    fn rounded_products_equal_the_general_path(
        ma in any::<i64>(), sa in 0u32..=16, mb in any::<i64>(), sb in 0u32..=16,
        percent in any::<bool>(), cur in 0usize..3,
    ) {
        let currency = [Currency::EUR, jpy(), kwd()][cur];
        let (a, b) = (Decimal::new(ma, sa), Decimal::new(mb, sb));
        prop_assert!(same_bits(
            product_rounded(currency, a, b, percent),
            product_general(currency, a, b, percent)
        ));
        let (a, b) = (Decimal::new(ma % 100_000, sa % 4), Decimal::new(mb % 10_000, sb % 3));
        prop_assert!(same_bits(
            product_rounded(currency, a, b, percent),
            product_general(currency, a, b, percent)
        ));
    }

    /// Invariant: two spellings of one rate (21, 21.0, 21.00) make one VAT group, and
    /// the group keeps the rate its first line wrote.
    #[test]
    fn rates_written_differently_share_their_group(order in proptest::collection::vec(0usize..3, 1..12)) {
        let rates = ["21", "21.0", "21.00"];
        let lines: Vec<LinePricing> = order
            .iter()
            .map(|&i| LinePricing {
                quantity: d("1"),
                unit_price: d("10"),
                vat_code: VatCode::Standard,
                vat_rate: Some(d(rates[i])),
                allowance_charges: vec![],
            })
            .collect();
        let c = compute(Currency::EUR, &lines, &[]).unwrap();
        prop_assert_eq!(c.groups.len(), 1);
        prop_assert_eq!(c.groups[0].vat_rate.unwrap().to_string(), rates[order[0]]);
    }
}
