//! Generates a corpus of UBL documents to check against the official Peppol validator
//! (issue 9): seeded random create bodies with complete Belgian parties, run through
//! the simulator (create, `TICK`, `GET /documents/{id}/ubl`).
//!
//! ```sh
//! cargo run --release --example peppol_corpus -- --out DIR [--count N] [--seed S] [--degrade PCT]
//!     [--attachments N]
//! python3 tests/peppol/compare.py DIR
//! ```
//!
//! For document `NNNN` it writes `NNNN.xml` (the UBL), `NNNN.findings.json` (the
//! crate's findings), `NNNN.body.json` (the create body) and `NNNN.scenario.json` (a
//! scenario that replays it: `cargo run --example simulate -- NNNN.scenario.json`),
//! and `index.json` lists what each document is made of. Same seed, same files.
//!
//! The bodies cover every VAT code usable on input, currencies with 0, 2 and 3
//! decimals, line and document allowances and charges (amounts and rates, codes in
//! and outside the UNCL lists), credit notes, self-billing, delivery dates and
//! locations, paid amounts, units, item properties and identifiers. A body the create
//! rules refuse is drawn again; only accepted documents count. `--degrade PCT` (default
//! 15) makes that share of the documents break one party, location or line field on
//! purpose (a name, address, country code, VAT number, Peppol id or IBAN dropped, a
//! wrong scheme, a bad check digit, a lowercase country code…), so that the party
//! rules are exercised too.
//!
//! `--attachments N` (docs/files.md §1 and §3; `--count` defaults to N then) gives the
//! first N documents files, uploaded through the simulator's `multipart` request
//! between the create and the `TICK`, each of which must answer 201 with the file
//! listed (the generator fails otherwise). The files cover the six media types with
//! bytes valid for their type (a PNG signature and IHDR chunk, a JFIF header, a zip
//! local header, `%PDF-1.4`, UTF-8 CSV text), sizes from 1 byte to the limits (the
//! first document one 10 MiB PDF, the second exactly 25 MiB in three files, the
//! third 20 files, the fourth names of 200 characters, the fifth the same name
//! twice; then mostly a few small files), non-ASCII names and XML's special
//! characters. One document in ten has a German seller and buyer and mostly repeats
//! a filename (the same, the same once trimmed, in other case, or the document's own
//! `NUMBER.pdf`), so that DE-R-022 is exercised. The files draw from a random stream
//! of their own: without `--attachments` the corpus is what it was. `index.json`
//! lists each document's files (filename, Content-Type, size).
// One of the crate's allowed long functions (for this file): the generator writes each
// family of documents (drafts, defects, files) as one flat sequence of random choices,
// in the order the corpus documents them; cut into pieces it reads no better.
#![allow(clippy::too_many_lines)]

#[path = "support/rng.rs"]
mod rng;
#[path = "support/round_trip.rs"]
mod round_trip;

use rng::Rng;

use invoicing_core::simulator::Simulator;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `units` × 10^-scale as plain decimal text: `fixed(12345, 2)` is `123.45`.
fn fixed(units: i64, scale: u32) -> String {
    let sign = if units < 0 { "-" } else { "" };
    let abs = units.unsigned_abs();
    if scale == 0 {
        return format!("{sign}{abs}");
    }
    let pow = 10u64.pow(scale);
    let width = usize::try_from(scale).unwrap_or(0);
    format!("{sign}{}.{:0width$}", abs / pow, abs % pow)
}

/// A JSON number with exactly this text (serde_json keeps it: arbitrary_precision).
fn num(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// The remainder of a digit string modulo 97.
fn mod97(digits: &str) -> u64 {
    digits
        .bytes()
        .filter(u8::is_ascii_digit)
        .fold(0, |acc, d| (acc * 10 + u64::from(d - b'0')) % 97)
}

/// A valid Belgian enterprise number: first digit 0 or 1, ten digits whose last two
/// are 97 − (the first eight mod 97).
fn enterprise_number(rng: &mut Rng) -> String {
    let first8 = format!("{}{}", rng.below(2), rng.digits(7));
    let check = 97 - mod97(&first8);
    format!("{first8}{check:02}")
}

/// The two IBAN check digits of a country code and BBAN (ISO 13616, mod 97-10).
fn iban(country: &str, bban: &str) -> String {
    let mut text = String::new();
    for c in bban.chars().chain(country.chars()).chain("00".chars()) {
        if let Some(d) = c.to_digit(10) {
            text.push_str(&d.to_string());
        } else if c.is_ascii_uppercase() {
            text.push_str(&(u32::from(c) - u32::from('A') + 10).to_string());
        }
    }
    let check = 98 - mod97(&text);
    format!("{country}{check:02}{bban}")
}

/// A valid Belgian IBAN: bank code, account and the national mod-97 check.
fn belgian_iban(rng: &mut Rng) -> String {
    let ten = format!(
        "{}{}",
        rng.pick(&["539", "001", "068", "096", "363", "735"]),
        rng.digits(7)
    );
    let national = match mod97(&ten) {
        0 => 97,
        r => r,
    };
    iban("BE", &format!("{ten}{national:02}"))
}

/// A GS1 check digit (GLN, GTIN-13) of the 12 data digits.
fn gs1(data: &str) -> String {
    let sum: u32 = data
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, d)| u32::from(d - b'0') * if i % 2 == 0 { 3 } else { 1 })
        .sum();
    format!("{data}{}", (10 - sum % 10) % 10)
}

const STREETS: &[&str] = &[
    "Meir",
    "Kouter",
    "Grote Markt",
    "Rue Neuve",
    "Bondgenotenlaan",
    "Avenue Louise",
    "Veldstraat",
    "Rue de la Loi",
    "Kortrijksesteenweg",
    "Chaussée de Namur",
];
const CITIES: &[(&str, &str, &str)] = &[
    ("2000", "Antwerpen", "Antwerpen"),
    ("9000", "Gent", "Oost-Vlaanderen"),
    ("1000", "Brussel", ""),
    ("3000", "Leuven", "Vlaams-Brabant"),
    ("4000", "Liège", "Liège"),
    ("8000", "Brugge", "West-Vlaanderen"),
    ("5000", "Namur", "Namur"),
    ("6000", "Charleroi", "Hainaut"),
];
const NAMES: &[&str] = &[
    "Atelier Lumen",
    "Brouwerij De Kaai",
    "Studio Noord",
    "Bakkerij Smets",
    "Garage Peeters",
    "Imprimerie Dubois",
    "Houtbouw Claes",
    "Café L'Étoile & Fils",
    "Data <Labs>",
    "Vanhove",
];
const FORMS: &[&str] = &["BV", "NV", "SRL", "SA", "CommV", "VOF"];

fn belgian_address(rng: &mut Rng) -> Value {
    let (postal, city, province) = *rng.pick(CITIES);
    let mut a = json!({
        "street": rng.pick(STREETS),
        "street_number": rng.range(1, 250).to_string(),
        "postal_code": postal,
        "city": city,
        "country_code": "BE",
    });
    if !province.is_empty() && rng.chance(50) {
        a["province"] = json!(province);
    }
    if rng.chance(10) {
        a["street2"] = json!(format!("Bus {}", rng.range(1, 20)));
    }
    a
}

/// A foreign party's country: (code, Peppol scheme of its VAT number, VAT number,
/// IBAN, in the EU).
fn foreign_party(rng: &mut Rng) -> (String, String, String, String, bool) {
    match rng.below(5) {
        0 => {
            let vat = format!("DE{}", rng.digits(9));
            (
                "DE".into(),
                "9930".into(),
                vat,
                iban("DE", &rng.digits(18)),
                true,
            )
        }
        1 => {
            let vat = format!("FR{}", rng.digits(11));
            (
                "FR".into(),
                "9957".into(),
                vat,
                iban("FR", &rng.digits(23)),
                true,
            )
        }
        2 => {
            let vat = format!("LU{}", rng.digits(8));
            (
                "LU".into(),
                "9938".into(),
                vat,
                iban("LU", &rng.digits(16)),
                true,
            )
        }
        3 => {
            let vat = format!("CHE{}", rng.digits(9));
            (
                "CH".into(),
                "9927".into(),
                vat,
                iban("CH", &rng.digits(17)),
                false,
            )
        }
        _ => {
            let vat = format!("GB{}", rng.digits(9));
            (
                "GB".into(),
                "9932".into(),
                vat,
                iban("GB", &format!("NWBK{}", rng.digits(14))),
                false,
            )
        }
    }
}

fn company_name(rng: &mut Rng) -> String {
    format!("{} {}", rng.pick(NAMES), rng.pick(FORMS))
}

/// A complete Belgian party (company or relation).
fn belgian_party(rng: &mut Rng, with_bic: bool) -> Map<String, Value> {
    let kbo = enterprise_number(rng);
    let mut p = Map::new();
    p.insert("name".into(), json!(company_name(rng)));
    p.insert("vat_number".into(), json!(format!("BE{kbo}")));
    p.insert("enterprise_number".into(), json!(kbo));
    p.insert("peppol_id".into(), json!(format!("0208:{kbo}")));
    p.insert("address".into(), belgian_address(rng));
    p.insert("iban".into(), json!(belgian_iban(rng)));
    if with_bic {
        let bic = rng.pick(&["GKCCBEBB", "BBRUBEBB", "KREDBEBB", "GEBABEBB"]);
        p.insert("bic".into(), json!(bic));
    }
    if rng.chance(60) {
        p.insert("email".into(), json!("billing@example.be"));
    }
    p
}

/// A complete foreign party (a relation).
fn foreign_relation(rng: &mut Rng) -> (Map<String, Value>, bool) {
    let (country, scheme, vat, account, eu) = foreign_party(rng);
    let mut p = Map::new();
    p.insert(
        "name".into(),
        json!(format!("{} {}", rng.pick(NAMES), "GmbH")),
    );
    p.insert("vat_number".into(), json!(vat));
    p.insert("peppol_id".into(), json!(format!("{scheme}:{vat}")));
    p.insert(
        "address".into(),
        json!({"street": "Hauptstrasse", "street_number": rng.range(1, 99).to_string(),
               "postal_code": rng.digits(5), "city": "Grenzstadt", "country_code": country}),
    );
    p.insert("iban".into(), json!(account));
    (p, eu)
}

/// The VAT codes a document's lines take: a profile, then per line a code and rate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Profile {
    Domestic,
    DomesticMixed,
    IntraCommunity,
    Export,
    ReverseCharge,
    NotSubject,
    NotSubjectMixed,
    Exempted,
    ZeroRated,
}

/// Belgian rates (21 also written 21.00: one group), and now and then an odd one.
const STANDARD_RATES: &[&str] = &["21", "21", "21", "21", "12", "6", "6", "21.00"];
const ODD_RATES: &[&str] = &["0.5", "5.5", "0.25", "17.5", "9", "0.1", "8.25"];

fn line_vat(rng: &mut Rng, profile: Profile) -> (&'static str, Option<&'static str>) {
    let standard = |rng: &mut Rng| {
        let rates = if rng.chance(6) {
            ODD_RATES
        } else {
            STANDARD_RATES
        };
        ("standard", Some(*rng.pick(rates)))
    };
    match profile {
        Profile::Domestic => standard(rng),
        Profile::DomesticMixed => match rng.below(4) {
            0 => ("zero_rated", None),
            1 => ("exempted", rng.chance(50).then_some("0")),
            _ => standard(rng),
        },
        Profile::IntraCommunity => ("intra_community", rng.chance(30).then_some("0")),
        Profile::Export => ("export", rng.chance(30).then_some("0")),
        Profile::ReverseCharge => ("reverse_charge", None),
        Profile::NotSubject => ("not_subject", None),
        Profile::NotSubjectMixed => {
            if rng.chance(50) {
                ("not_subject", None)
            } else {
                standard(rng)
            }
        }
        Profile::Exempted => ("exempted", None),
        Profile::ZeroRated => ("zero_rated", rng.chance(50).then_some("0")),
    }
}

/// A currency and its minor-unit decimals.
fn currency(rng: &mut Rng) -> (&'static str, u32) {
    match rng.below(100) {
        0..=59 => ("EUR", 2),
        60..=66 => ("USD", 2),
        67..=69 => ("GBP", 2),
        70..=71 => ("CHF", 2),
        72..=74 => ("SEK", 2),
        75..=84 => ("JPY", 0),
        85..=89 => ("KWD", 3),
        90..=92 => ("BHD", 3),
        93..=96 => ("NOK", 2),
        _ => ("CZK", 2),
    }
}

const ALLOWANCE_CODES: &[&str] = &["95", "100", "41", "42", "60", "64", "66", "68", "104"];
const CHARGE_CODES: &[&str] = &["FC", "DL", "ABL", "AAA", "SAA", "TAE", "PC", "ADR"];
const OTHER_CODES: &[&str] = &["ZZZ", "X1", "PROMO", "1", "disc", "9999"];
const ALLOWANCE_REASONS: &[&str] = &["Discount", "Volume discount", "Loyalty", "Early payment"];
const CHARGE_REASONS: &[&str] = &["Delivery", "Packaging", "Handling", "Insurance"];
const RATES: &[&str] = &[
    "5", "10", "2.5", "3", "15", "0.75", "12.5", "1.25", "20", "33.3333",
];

/// One allowance or charge: an amount of 1 to `max_units` currency units (at the
/// currency's decimals) or a rate, with or without reason and code.
fn allowance_charge(rng: &mut Rng, decimals: u32, max_units: u64) -> Value {
    let charge = rng.chance(40);
    let mut ac = Map::new();
    ac.insert(
        "type".into(),
        json!(if charge { "charge" } else { "allowance" }),
    );
    if rng.chance(55) {
        let minor = 10i64.pow(decimals);
        let units = i64::try_from(rng.range(1, max_units.max(1))).unwrap_or(1);
        let cents = if rng.chance(50) {
            0
        } else {
            i64::try_from(rng.below(u64::try_from(minor).unwrap_or(1))).unwrap_or(0)
        };
        ac.insert(
            "amount".into(),
            num(&fixed(units * minor + cents, decimals)),
        );
    } else {
        ac.insert("rate".into(), num(rng.pick::<&str>(RATES)));
    }
    if rng.chance(60) {
        let reasons = if charge {
            CHARGE_REASONS
        } else {
            ALLOWANCE_REASONS
        };
        ac.insert("reason".into(), json!(rng.pick(reasons)));
    }
    if rng.chance(45) {
        let code = if rng.chance(75) {
            if charge {
                rng.pick(CHARGE_CODES)
            } else {
                rng.pick(ALLOWANCE_CODES)
            }
        } else {
            rng.pick(OTHER_CODES)
        };
        ac.insert("code".into(), json!(code));
    }
    Value::Object(ac)
}

const ITEMS: &[&str] = &[
    "Pendant lamp",
    "Consulting",
    "Installation",
    "Design book",
    "Steel beam",
    "Coffee beans",
    "Software licence",
    "Cleaning",
    "Transport",
    "Paper A4 & envelopes",
    "Café crème",
];
const UNITS: &[&str] = &[
    "C62", "HUR", "KGM", "MTR", "LTR", "DAY", "H87", "XPP", "MON", "KWH", "EA",
];

fn line(rng: &mut Rng, profile: Profile, decimals: u32) -> Value {
    let mut l = Map::new();
    let item = rng.pick(ITEMS);
    l.insert(
        "item_name".into(),
        json!(format!("{item} {}", rng.range(1, 99))),
    );
    let quantity = match rng.below(100) {
        0..=69 => rng.range(1, 20).to_string(),
        70..=94 => {
            let scale = u32::try_from(rng.range(1, 3)).unwrap_or(1);
            let units = rng.range(1, 20 * 10u64.pow(scale));
            fixed(i64::try_from(units).unwrap_or(1), scale)
        }
        _ => format!("-{}", rng.range(1, 2)),
    };
    l.insert("quantity".into(), num(&quantity));
    // Prices of about 1 to 2000 units (JPY: 100 to 200000).
    let scale_boost = if decimals == 0 { 100 } else { 1 };
    let price = match rng.below(100) {
        0..=74 => fixed(
            i64::try_from(rng.range(100, 200_000) * scale_boost).unwrap_or(100),
            2,
        ),
        75..=89 => fixed(
            i64::try_from(rng.range(1, 2000) * scale_boost).unwrap_or(1),
            0,
        ),
        _ => fixed(
            i64::try_from(rng.range(1, 20_000_000)).unwrap_or(1),
            u32::try_from(rng.range(3, 4)).unwrap_or(3),
        ),
    };
    l.insert("unit_price".into(), num(&price));
    let (code, rate) = line_vat(rng, profile);
    if code != "standard" || rng.chance(20) {
        l.insert("vat_code".into(), json!(code));
    }
    if let Some(rate) = rate {
        l.insert("vat_rate".into(), num(rate));
    }
    if rng.chance(40) {
        l.insert("unit_code".into(), json!(rng.pick(UNITS)));
    }
    if rng.chance(30) {
        l.insert(
            "item_description".into(),
            json!("Delivered and installed on site"),
        );
    }
    if rng.chance(40) {
        l.insert(
            "product_code".into(),
            json!(format!("SKU-{}", rng.digits(5))),
        );
    }
    if rng.chance(25) {
        let gtin = gs1(&format!("54{}", rng.digits(10)));
        l.insert("item_identification".into(), json!(gtin));
    }
    if rng.chance(20) {
        let mut props = Map::new();
        props.insert("Colour".into(), json!(rng.pick(&["Red", "Oak", "Black"])));
        if rng.chance(50) {
            props.insert("Size".into(), json!(rng.pick(&["XL", "40 cm", "A4"])));
        }
        l.insert("item_properties".into(), Value::Object(props));
    }
    if rng.chance(10) {
        l.insert("section_name".into(), json!("Phase 1"));
    }
    if rng.chance(20) {
        let n = rng.range(1, 2);
        let acs: Vec<Value> = (0..n)
            .map(|_| allowance_charge(rng, decimals, if decimals == 0 { 300 } else { 3 }))
            .collect();
        l.insert("allowance_charges".into(), Value::Array(acs));
    }
    Value::Object(l)
}

fn profile(rng: &mut Rng) -> Profile {
    match rng.below(100) {
        0..=53 => Profile::Domestic,
        54..=63 => Profile::DomesticMixed,
        64..=71 => Profile::IntraCommunity,
        72..=76 => Profile::Export,
        77..=82 => Profile::ReverseCharge,
        83..=88 => Profile::NotSubject,
        89..=92 => Profile::NotSubjectMixed,
        93..=96 => Profile::Exempted,
        _ => Profile::ZeroRated,
    }
}

/// A date `back` days before 2026-11-21 (the scenarios' today), as text.
fn date_before_today(back: u64) -> String {
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 21).unwrap_or_default();
    let d = today
        .checked_sub_days(chrono::Days::new(back))
        .unwrap_or(today);
    d.format("%Y-%m-%d").to_string()
}

/// One generated document: the scenario (without requests), the create body and
/// what it is made of.
struct Draft {
    scenario: Value,
    body: Value,
    meta: Map<String, Value>,
}

fn draft(rng: &mut Rng, degrade_pct: u64) -> Draft {
    let doc_type = match rng.below(100) {
        0..=54 => "sale_invoice",
        55..=74 => "sale_credit_note",
        75..=89 => "purchase_invoice",
        _ => "purchase_credit_note",
    };
    let profile = profile(rng);
    let (currency, decimals) = currency(rng);
    let foreign = match profile {
        Profile::IntraCommunity => rng.chance(90),
        Profile::Export => true,
        _ => rng.chance(4),
    };

    let mut company = belgian_party(rng, true);
    company.insert("self_billing".into(), json!(true));
    if rng.chance(30) {
        company.insert(
            "legal_notice".into(),
            json!("Our general terms of sale apply."),
        );
    }
    if rng.chance(15) {
        let text = if rng.chance(70) {
            "Intra-Community supply, art. 39bis"
        } else {
            ""
        };
        company.insert(
            "exemption_mentions".into(),
            json!({"intra_community": text, "exempted": "Exempt, art. 44 VAT code"}),
        );
    }
    let contact = !foreign && doc_type.starts_with("sale") && rng.chance(5);
    let (mut relation, eu) = if foreign {
        foreign_relation(rng)
    } else {
        (belgian_party(rng, false), true)
    };
    // Most documents not subject to VAT come from and go to parties without a VAT
    // number (BR-O-02 otherwise); the enterprise number stays (BR-CO-26).
    if profile == Profile::NotSubject && rng.chance(80) {
        company.remove("vat_number");
        relation.remove("vat_number");
    }
    if contact {
        // An individual: no VAT or enterprise number, a Peppol id all the same.
        relation.remove("vat_number");
        relation.remove("enterprise_number");
    }
    relation.insert("id".into(), json!("rel-1"));
    relation.insert(
        "kind".into(),
        json!(if contact { "contact" } else { "company" }),
    );
    relation.insert("peppol".into(), json!(true));
    if !contact && rng.chance(50) {
        let basis = rng.pick(&["df", "fm", "mf"]);
        relation.insert(
            "payment_terms".into(),
            json!(format!("{}-{basis}", rng.pick(&[0, 15, 30, 60]))),
        );
    }
    let location_address = if foreign {
        json!({"street": "Industriestrasse", "street_number": "7", "postal_code": "54290",
               "city": "Trier", "country_code": if eu { "DE" } else { "CH" }})
    } else {
        belgian_address(rng)
    };
    let mut location = json!({
        "id": "loc-1", "relation_id": "rel-1", "name": "Main warehouse",
        "address": location_address,
        "identifier": gs1(&format!("541{}", rng.digits(9))), "identifier_scheme": "0088",
    });
    let journals = json!([
        {"id": "jrn-si", "category": "sales_invoice", "numbering": "yearly", "prefix": "INV", "default": true, "next": rng.range(1, 900)},
        {"id": "jrn-sc", "category": "sales_credit", "numbering": "yearly", "prefix": "CN", "default": true},
        {"id": "jrn-pi", "category": "purchases_invoice", "numbering": "yearly", "prefix": "SB", "default": true},
        {"id": "jrn-pc", "category": "purchases_credit", "numbering": "never", "prefix": "SBC-", "default": true},
    ]);

    // The body.
    let mut body = Map::new();
    body.insert("type".into(), json!(doc_type));
    body.insert("relation_id".into(), json!("rel-1"));
    if currency != "EUR" || rng.chance(30) {
        body.insert("currency".into(), json!(currency));
    }
    let n_lines = match rng.below(10) {
        0..=4 => 1,
        5..=7 => rng.range(2, 4),
        _ => rng.range(5, 12),
    };
    let lines: Vec<Value> = (0..n_lines).map(|_| line(rng, profile, decimals)).collect();
    body.insert("lines".into(), Value::Array(lines));
    if rng.chance(25) {
        let n = rng.range(1, 3);
        let acs: Vec<Value> = (0..n)
            .map(|_| allowance_charge(rng, decimals, if decimals == 0 { 1000 } else { 10 }))
            .collect();
        body.insert("allowance_charges".into(), Value::Array(acs));
    }
    // References: most documents carry one (PEPPOL-EN16931-R003 otherwise).
    match rng.below(100) {
        0..=44 => {
            body.insert(
                "buyer_reference".into(),
                json!(format!("PO-{}", rng.digits(5))),
            );
        }
        45..=69 => {
            body.insert(
                "order_number".into(),
                json!(format!("ORD/{}", rng.digits(6))),
            );
        }
        70..=91 => {
            body.insert("buyer_reference".into(), json!("Cost centre 42"));
            body.insert(
                "order_number".into(),
                json!(format!("ORD/{}", rng.digits(6))),
            );
        }
        _ => {}
    }
    if rng.chance(10) {
        body.insert(
            "despatch_reference".into(),
            json!(format!("DN-{}", rng.digits(4))),
        );
    }
    if rng.chance(35) {
        body.insert(
            "issue_date".into(),
            json!(date_before_today(rng.range(0, 40))),
        );
    }
    // Delivery: an intra-Community supply mostly says when and where.
    let (date_pct, loc_pct) = if profile == Profile::IntraCommunity {
        (85, 85)
    } else {
        (35, 30)
    };
    let delivery_date = rng.chance(date_pct);
    if delivery_date {
        body.insert(
            "delivery_date".into(),
            json!(date_before_today(rng.range(0, 5))),
        );
    }
    if rng.chance(loc_pct) {
        body.insert("delivery_location_id".into(), json!("loc-1"));
    }
    if rng.chance(if delivery_date { 5 } else { 15 }) {
        body.insert("period_start".into(), json!("2026-10-01"));
        body.insert("period_end".into(), json!("2026-10-31"));
    }
    if rng.chance(10) {
        body.insert(
            "tax_point_date".into(),
            json!(date_before_today(rng.range(0, 10))),
        );
    }
    if rng.chance(15) {
        let basis = rng.pick(&["df", "fm", "mf"]);
        body.insert(
            "payment_terms".into(),
            json!(format!("{}-{basis}", rng.range(0, 90))),
        );
    }
    if rng.chance(8) {
        body.insert(
            "legal_notice".into(),
            json!("Retention of title until payment in full."),
        );
    }
    if rng.chance(12) {
        let minor = 10i64.pow(decimals);
        let units = i64::try_from(rng.range(1, 20)).unwrap_or(1);
        body.insert("paid_amount".into(), num(&fixed(units * minor, decimals)));
    }

    let mut meta = Map::new();
    meta.insert("type".into(), json!(doc_type));
    meta.insert("profile".into(), json!(format!("{profile:?}")));
    meta.insert("currency".into(), json!(currency));
    meta.insert("foreign".into(), json!(foreign));

    let mut scenario = json!({
        "today": "2026-11-21",
        "now": "2026-11-21T09:00:00Z",
        "company": Value::Object(company),
        "clients": [{"client_id": "gen", "client_secret": "s", "environment": "live", "permissions": ["c", "u"]}],
        "relations": [Value::Object(relation)],
        "journals": journals,
        "delivery_locations": [],
        "requests": [],
    });
    let mut body = Value::Object(body);
    if rng.chance(degrade_pct) {
        let what = degrade(rng, &mut scenario, &mut location, &mut body);
        meta.insert("degraded".into(), json!(what));
    }
    scenario["delivery_locations"] = json!([location]);
    Draft {
        scenario,
        body,
        meta,
    }
}

/// Breaks one thing on purpose; answers what.
fn degrade(rng: &mut Rng, scenario: &mut Value, location: &mut Value, body: &mut Value) -> String {
    let who = if rng.chance(50) {
        "company"
    } else {
        "relation"
    };
    let party = if who == "company" {
        &mut scenario["company"]
    } else {
        &mut scenario["relations"][0]
    };
    let Some(p) = party.as_object_mut() else {
        return String::new();
    };
    let what = match rng.below(25) {
        0 => {
            p.remove("name");
            "no name"
        }
        1 => {
            p.remove("address");
            "no address"
        }
        2 => {
            if let Some(a) = p.get_mut("address").and_then(Value::as_object_mut) {
                a.remove("country_code");
            }
            "no country code"
        }
        3 => {
            p.remove("vat_number");
            "no vat number"
        }
        4 => {
            p.remove("peppol_id");
            "no peppol id"
        }
        5 => {
            p.remove("iban");
            "no iban"
        }
        6 => {
            let id = p.get("peppol_id").and_then(Value::as_str).unwrap_or("");
            let value = id.split_once(':').map_or(id, |(_, v)| v).to_owned();
            p.insert("peppol_id".into(), json!(format!("9999:{value}")));
            "unknown peppol scheme"
        }
        7 => {
            let kbo = enterprise_number(rng);
            let bad = format!(
                "{}{:02}",
                &kbo[..8],
                (kbo[8..].parse::<u64>().unwrap_or(0) + 1) % 100
            );
            p.insert("peppol_id".into(), json!(format!("0208:{bad}")));
            "0208 peppol id with a bad check"
        }
        8 => {
            let kbo = enterprise_number(rng);
            let bad = format!(
                "{}{:02}",
                &kbo[..8],
                (kbo[8..].parse::<u64>().unwrap_or(0) + 3) % 100
            );
            p.insert("enterprise_number".into(), json!(bad));
            "enterprise number with a bad check"
        }
        9 => {
            if let Some(a) = p.get_mut("address").and_then(Value::as_object_mut) {
                let cc = a
                    .get("country_code")
                    .and_then(Value::as_str)
                    .unwrap_or("BE");
                let lower = cc.to_lowercase();
                a.insert("country_code".into(), json!(lower));
            }
            "lowercase country code"
        }
        10 => {
            let vat = p.get("vat_number").and_then(Value::as_str).unwrap_or("");
            let digits: String = vat.chars().filter(char::is_ascii_digit).collect();
            p.insert("vat_number".into(), json!(digits));
            "vat number without prefix"
        }
        11 => {
            let vat = p.get("vat_number").and_then(Value::as_str).unwrap_or("");
            let digits: String = vat.chars().filter(char::is_ascii_digit).collect();
            p.insert("vat_number".into(), json!(format!("XX{digits}")));
            "vat number with an unknown prefix"
        }
        12 => {
            let id = p.get("peppol_id").and_then(Value::as_str).unwrap_or("");
            let value = id.split_once(':').map_or(id, |(_, v)| v).to_owned();
            p.insert("peppol_id".into(), json!(value));
            "peppol id without scheme"
        }
        13 => {
            p.remove("vat_number");
            p.remove("enterprise_number");
            "no vat nor enterprise number"
        }
        14 => {
            if let Some(a) = p.get_mut("address").and_then(Value::as_object_mut) {
                a.insert("country_code".into(), json!("UK"));
            }
            "country code UK"
        }
        15 => {
            p.insert("name".into(), json!(" \t "));
            "blank name"
        }
        16 => {
            let gln = location["identifier"].as_str().unwrap_or("").to_owned();
            let bad = format!(
                "{}{}",
                &gln[..12.min(gln.len())],
                if gln.ends_with('0') { '1' } else { '0' }
            );
            location["identifier"] = json!(bad);
            attach_location(body);
            "location GLN with a bad check digit"
        }
        17 => {
            if let Some(a) = location["address"].as_object_mut() {
                a.remove("country_code");
            }
            attach_location(body);
            "location without country code"
        }
        18 => {
            location["identifier_scheme"] = json!("9999");
            attach_location(body);
            "location with an unknown scheme"
        }
        19 => {
            set_on_line(rng, body, "unit_code", &json!("XYZ"));
            "unit code outside Rec 20/21"
        }
        20 => {
            if let Some(lines) = body["lines"].as_array_mut() {
                let len = u64::try_from(lines.len()).unwrap_or(1);
                let i = usize::try_from(rng.below(len)).unwrap_or(0);
                if let Some(l) = lines.get_mut(i).and_then(Value::as_object_mut) {
                    l.remove("item_name");
                }
            }
            "line without item name"
        }
        21 => {
            set_on_line(rng, body, "item_properties", &json!({"Colour": ""}));
            "item property without value"
        }
        22 => {
            let id = p.get("peppol_id").and_then(Value::as_str).unwrap_or("");
            let value = id.split_once(':').map_or(id, |(_, v)| v).to_owned();
            p.insert("peppol_id".into(), json!(format!("9956:{value}")));
            "peppol id with scheme 9956"
        }
        23 => {
            // Greek to the Peppol layer by its VAT prefix, whatever its address:
            // the GR-R rules (a valid TIN, or any digits).
            let vat = if rng.chance(50) {
                "EL094019245".to_owned()
            } else {
                format!("GR{}", rng.digits(9))
            };
            p.insert("vat_number".into(), json!(vat));
            "greek vat number"
        }
        _ => {
            if let Some(b) = body.as_object_mut() {
                b.remove("buyer_reference");
                b.remove("order_number");
            }
            "no buyer reference nor order number"
        }
    };
    if what.starts_with("location")
        || what.starts_with("unit")
        || what.contains("item")
        || what.starts_with("no buyer")
    {
        what.to_owned()
    } else {
        format!("{who}: {what}")
    }
}

fn attach_location(body: &mut Value) {
    if let Some(b) = body.as_object_mut() {
        b.insert("delivery_location_id".into(), json!("loc-1"));
    }
}

fn set_on_line(rng: &mut Rng, body: &mut Value, key: &str, value: &Value) {
    if let Some(lines) = body["lines"].as_array_mut() {
        let len = u64::try_from(lines.len()).unwrap_or(1);
        let i = usize::try_from(rng.below(len)).unwrap_or(0);
        if let Some(l) = lines.get_mut(i).and_then(Value::as_object_mut) {
            l.insert(key.to_owned(), value.clone());
        }
    }
}

// ---------------------------------------------------------------------------------
// Attachments (docs/files.md §1 and §3): `--attachments N` gives the first N documents
// files uploaded through the simulator's multipart request before the TICK.
// ---------------------------------------------------------------------------------

const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const ODS: &str = "application/vnd.oasis.opendocument.spreadsheet";

/// The six media types an attachment may have, with an extension for its name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Media {
    Pdf,
    Png,
    Jpeg,
    Csv,
    Xlsx,
    Ods,
}

const MEDIA: [Media; 6] = [
    Media::Pdf,
    Media::Png,
    Media::Jpeg,
    Media::Csv,
    Media::Xlsx,
    Media::Ods,
];

/// One file the most (10 MiB), the most files and bytes a document holds (20, 25 MiB).
const MAX_FILE: usize = 10_485_760;
const MAX_FILES: usize = 20;
const MAX_TOTAL: usize = 26_214_400;

impl Media {
    fn mime(self) -> &'static str {
        match self {
            Media::Pdf => "application/pdf",
            Media::Png => "image/png",
            Media::Jpeg => "image/jpeg",
            Media::Csv => "text/csv",
            Media::Xlsx => XLSX,
            Media::Ods => ODS,
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Media::Pdf => "pdf",
            Media::Png => "png",
            Media::Jpeg => "jpg",
            Media::Csv => "csv",
            Media::Xlsx => "xlsx",
            Media::Ods => "ods",
        }
    }

    /// The fewest bytes a file of this type can have: its signature.
    fn min_len(self) -> usize {
        match self {
            Media::Pdf => 5,
            Media::Png => 8,
            Media::Jpeg => 3,
            Media::Csv => 1,
            Media::Xlsx | Media::Ods => 4,
        }
    }

    /// The Content-Type sent: mostly as is, now and then in capitals or with a
    /// parameter (both allowed: compared without case, parameters dropped).
    fn content_type(self, rng: &mut Rng) -> String {
        match rng.below(20) {
            0 => self.mime().to_uppercase(),
            1 if self == Media::Csv => "text/csv; charset=utf-8".into(),
            2 => format!("{}; name=\"file\"", self.mime()),
            _ => self.mime().into(),
        }
    }
}

/// The CRC-32 of PNG chunks and zip entries (IEEE, reflected).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Appends seeded bytes to `out` until it holds `n`.
fn fill(rng: &mut Rng, out: &mut Vec<u8>, n: usize) {
    while out.len() < n {
        let word = rng.next().to_le_bytes();
        let take = (n - out.len()).min(8);
        out.extend_from_slice(&word[..take]);
    }
}

/// A zip local file header storing `name` with `data` (an xlsx or ods starts so).
fn zip_entry(name: &str, data: &[u8]) -> Vec<u8> {
    let mut z = b"PK\x03\x04".to_vec();
    z.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0x00, 0x60, 0x75, 0x5B]);
    z.extend_from_slice(&crc32(data).to_le_bytes());
    let len = u32::try_from(data.len()).unwrap_or(0).to_le_bytes();
    z.extend_from_slice(&len);
    z.extend_from_slice(&len);
    z.extend_from_slice(&u16::try_from(name.len()).unwrap_or(0).to_le_bytes());
    z.extend_from_slice(&[0, 0]);
    z.extend_from_slice(name.as_bytes());
    z.extend_from_slice(data);
    z
}

const CSV_ITEMS: &[&str] = &[
    "Café crème",
    "Überweisung Müller",
    "Łódź transport",
    "東京 office",
    "Ελλάδα",
    "naïve \"quoted\"",
    "R&D <lab>",
    "plain item",
];

/// `size` bytes of a valid file of type `media` (its signature, a plausible header,
/// then seeded bytes; CSV is UTF-8 text without NUL, a BOM now and then).
fn content(rng: &mut Rng, media: Media, size: usize) -> Vec<u8> {
    let size = size.max(media.min_len());
    let mut b = Vec::with_capacity(size);
    match media {
        Media::Pdf => b.extend_from_slice(b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<<>>\nendobj\n"),
        Media::Png => {
            b.extend_from_slice(b"\x89PNG\r\n\x1a\n");
            let mut chunk = b"IHDR".to_vec();
            chunk.extend_from_slice(&[0, 0, 0, 16, 0, 0, 0, 16, 8, 6, 0, 0, 0]);
            b.extend_from_slice(&13u32.to_be_bytes());
            b.extend_from_slice(&chunk);
            b.extend_from_slice(&crc32(&chunk).to_be_bytes());
        }
        Media::Jpeg => b.extend_from_slice(
            b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00",
        ),
        Media::Xlsx => b.extend(zip_entry("[Content_Types].xml", b"<?xml version=\"1.0\"?>")),
        Media::Ods => b.extend(zip_entry("mimetype", ODS.as_bytes())),
        Media::Csv => {
            if size >= 3 && rng.chance(20) {
                b.extend_from_slice(b"\xEF\xBB\xBF");
            }
            b.extend_from_slice("Datum;Omschrijving;Bedrag\r\n".as_bytes());
            let mut row = 0u64;
            while b.len() < size {
                row += 1;
                let line = format!(
                    "2026-11-{:02};{} {row};{},{:02}\r\n",
                    row % 28 + 1,
                    rng.pick(CSV_ITEMS),
                    rng.below(10_000),
                    rng.below(100)
                );
                b.extend_from_slice(line.as_bytes());
            }
            // Cut on a character boundary, then pad with ASCII to the exact size.
            let mut cut = size.min(b.len());
            while cut > 0 && std::str::from_utf8(&b[..cut]).is_err() {
                cut -= 1;
            }
            b.truncate(cut);
            if b.is_empty() {
                b.push(b'a');
            }
            b.resize(size, b'x');
            return b;
        }
    }
    b.truncate(size);
    fill(rng, &mut b, size);
    if media == Media::Jpeg && size >= 8 {
        b[size - 2..].copy_from_slice(b"\xFF\xD9");
    }
    b
}

/// A file's size: mostly small (a byte to a few KiB), some tens of KiB, a few
/// hundreds of KiB.
fn file_size(rng: &mut Rng) -> usize {
    let n = match rng.below(100) {
        0..=7 => rng.range(1, 8),
        8..=64 => rng.range(9, 4096),
        65..=94 => rng.range(4097, 65_536),
        _ => rng.range(65_537, 400_000),
    };
    usize::try_from(n).unwrap_or(1)
}

const STEMS: &[&str] = &[
    "bijlage",
    "Leveringsbon 2026-11",
    "Übersicht Äpfel & Birnen",
    "devis n°42 (révisé)",
    "見積書",
    "данные_отчёт",
    "Ελληνικά αρχεία",
    "scan 📎 page",
    "R&D <draft> \"v2\" 'final'",
    "timesheet",
    "Rechnung\u{A0}Anlage",
    "çà et là",
    "Zeitnachweis März",
    "a",
];

/// A filename for a file of type `media`: a stem (non-ASCII, XML's special
/// characters), its extension (now and then in capitals, or none), and now and then
/// white space around it (the crate keeps it trimmed).
fn filename(rng: &mut Rng, media: Media) -> String {
    let stem = rng.pick(STEMS);
    let mut name = match rng.below(20) {
        0 => (*stem).to_owned(),
        1 => format!("{stem}.{}", media.extension().to_uppercase()),
        2 => format!("{stem} {}.{}", rng.range(1, 9), media.extension()),
        _ => format!("{stem}.{}", media.extension()),
    };
    if rng.chance(4) {
        name = format!("  {name}\u{3000}");
    }
    name
}

/// A filename of exactly `chars` characters (code points) made of `unit`.
fn long_name(unit: char, chars: usize, media: Media) -> String {
    let ext = format!(".{}", media.extension());
    let stem: String = std::iter::repeat_n(unit, chars - ext.chars().count()).collect();
    format!("{stem}{ext}")
}

/// The name an upload carries: given, or the document's own PDF's (`NUMBER.pdf`,
/// known once the document is created) so that DE-R-022 counts that one too.
#[derive(Clone)]
enum FileName {
    Given(String),
    OwnPdf,
}

/// One file to upload.
struct Planned {
    name: FileName,
    media: Media,
    content_type: String,
    bytes: Vec<u8>,
}

fn planned(rng: &mut Rng, name: String, media: Media, size: usize) -> Planned {
    Planned {
        name: FileName::Given(name),
        content_type: media.content_type(rng),
        bytes: content(rng, media, size),
        media,
    }
}

/// The files of the `k`-th document with attachments: the first few are the edge
/// cases (one 10 MiB file; 25 MiB in three files; 20 files of every type; names of
/// 200 characters; the same name twice), then 1 to 5 files mostly, up to 20 now and
/// then, the same name again now and then. `german` documents (seller and buyer in
/// Germany) mostly repeat a name in one of the ways DE-R-022 sees or not.
fn plan_files(rng: &mut Rng, k: usize, german: bool) -> (Vec<Planned>, &'static str) {
    let mut files = match k {
        0 => vec![planned(
            rng,
            "scan volledig.pdf".into(),
            Media::Pdf,
            MAX_FILE,
        )],
        1 => vec![
            planned(rng, "export grootboek.csv".into(), Media::Csv, MAX_FILE),
            planned(rng, "foto werf.jpg".into(), Media::Jpeg, MAX_FILE),
            planned(
                rng,
                "planning.ods".into(),
                Media::Ods,
                MAX_TOTAL - 2 * MAX_FILE,
            ),
        ],
        2 => (0..MAX_FILES)
            .map(|i| {
                let media = MEDIA[i % MEDIA.len()];
                let name = filename(rng, media);
                let size = file_size(rng).min(20_000);
                planned(rng, name, media, size)
            })
            .collect(),
        3 => vec![
            planned(rng, long_name('x', 200, Media::Pdf), Media::Pdf, 300),
            planned(rng, long_name('é', 200, Media::Csv), Media::Csv, 1),
            planned(rng, long_name('字', 199, Media::Png), Media::Png, 8),
            planned(rng, long_name('😀', 200, Media::Xlsx), Media::Xlsx, 4),
            planned(rng, "a".into(), Media::Jpeg, 3),
        ],
        4 => vec![
            planned(rng, "bijlage.pdf".into(), Media::Pdf, 1000),
            planned(rng, "bijlage.pdf".into(), Media::Pdf, 2000),
        ],
        _ => {
            let count = if rng.chance(5) {
                rng.range(6, 20)
            } else {
                rng.range(1, 5)
            };
            let mut files: Vec<Planned> = Vec::new();
            for _ in 0..count {
                let media = *rng.pick(&MEDIA);
                let name = match files.last().map(|f| &f.name) {
                    Some(FileName::Given(last)) if rng.chance(10) => last.clone(),
                    _ => filename(rng, media),
                };
                let size = file_size(rng);
                files.push(planned(rng, name, media, size));
            }
            files
        }
    };
    let mut repeat = "";
    if german && !files.is_empty() {
        let first = match &files[0].name {
            FileName::Given(name) => name.clone(),
            FileName::OwnPdf => String::new(),
        };
        let (name, what) = match rng.below(6) {
            0 | 1 => (FileName::Given(first.clone()), "same"),
            2 => (FileName::Given(format!(" {first} ")), "same once trimmed"),
            3 => (FileName::Given(first.to_uppercase()), "other case"),
            4 => (FileName::OwnPdf, "own pdf's name"),
            _ => (FileName::Given(format!("{first}.bak")), "different"),
        };
        repeat = what;
        let media = if matches!(name, FileName::OwnPdf) {
            Media::Pdf
        } else {
            files[0].media
        };
        let size = file_size(rng).min(50_000);
        let mut file = planned(rng, String::new(), media, size);
        file.name = name;
        if files.len() >= MAX_FILES {
            files.pop();
        }
        files.push(file);
    }
    (files, repeat)
}

/// Makes the company and the relation German (address, VAT number, IBAN): the
/// German national rules of the Peppol layer apply, DE-R-022 among them.
fn germanize(rng: &mut Rng, scenario: &mut Value) {
    for key in ["company", "relation"] {
        let party = if key == "company" {
            &mut scenario["company"]
        } else {
            &mut scenario["relations"][0]
        };
        let Some(p) = party.as_object_mut() else {
            continue;
        };
        if p.contains_key("vat_number") {
            p.insert("vat_number".into(), json!(format!("DE{}", rng.digits(9))));
        }
        p.insert(
            "address".into(),
            json!({"street": rng.pick(&["Hauptstraße", "Königsallee", "Zeil"]),
                   "street_number": rng.range(1, 99).to_string(),
                   "postal_code": rng.digits(5),
                   "city": rng.pick(&["Köln", "Düsseldorf", "Frankfurt am Main"]),
                   "country_code": "DE"}),
        );
        if p.contains_key("iban") {
            p.insert("iban".into(), json!(iban("DE", &rng.digits(18))));
        }
        p.remove("bic");
    }
}

/// The upload request of one file.
fn upload_request(id: &str, name: &str, file: &Planned) -> Value {
    json!({"client": "gen", "method": "POST", "path": format!("/documents/{id}/attachments"),
           "multipart": [{"name": "file", "filename": name, "content_type": file.content_type,
                          "base64": invoicing_core::attachment::encode_base64(&file.bytes)}]})
}

/// The requests that create the body, upload `uploads` (made once the document
/// exists), let the files exist and read the UBL.
fn requests(body: &Value, uploads: Vec<Value>) -> Value {
    let mut reqs =
        vec![json!({"client": "gen", "method": "POST", "path": "/documents", "body": body})];
    reqs.extend(uploads);
    reqs.push(json!({"method": "TICK"}));
    reqs.push(json!({"client": "gen", "method": "GET", "path": "/documents/doc-1/ubl"}));
    Value::Array(reqs)
}

/// A draft run through the simulator: the UBL, its findings and the requests that
/// made them (for the scenario written beside).
struct Run {
    xml: String,
    findings: Value,
    requests: Value,
    /// Each file uploaded: its filename, Content-Type and size.
    files: Vec<Value>,
}

/// Runs a draft, uploading `files` once it is created: `Some` when the create rules
/// accept the body. Every upload must answer 201 with the file listed last.
fn run(draft: &Draft, plan: impl FnOnce() -> Vec<Planned>) -> Result<Option<Run>, String> {
    let mut sim = Simulator::from_json(&draft.scenario).map_err(|e| e.message().to_owned())?;
    let create =
        json!({"client": "gen", "method": "POST", "path": "/documents", "body": draft.body});
    let (status, issued) = sim.handle(&create);
    if status != 201 {
        return Ok(None);
    }
    let id = issued["id"].as_str().unwrap_or("doc-1").to_owned();
    let files = plan();
    let mut uploads = Vec::with_capacity(files.len());
    for (i, file) in files.iter().enumerate() {
        let name = match &file.name {
            FileName::Given(name) => name.clone(),
            FileName::OwnPdf => invoicing_core::attachment::own_pdf_filename(
                issued["document_number"].as_str().unwrap_or(""),
                &id,
            ),
        };
        let request = upload_request(&id, &name, file);
        let (status, answer) = sim.handle(&request);
        let listed = &answer["attachments"];
        let last = &listed[i];
        if status != 201
            || listed.as_array().map(Vec::len) != Some(i + 1)
            || last["filename"].as_str() != Some(name.trim())
            || last["mimetype"].as_str() != Some(file.media.mime())
        {
            return Err(format!(
                "upload {} of {} bytes ({}, {:?}) answered {status}: {answer}",
                i + 1,
                file.bytes.len(),
                file.content_type,
                name
            ));
        }
        uploads.push(request);
    }
    let reqs = requests(&draft.body, uploads);
    let n = files.len();
    let files = files
        .iter()
        .zip(&reqs.as_array().map_or(&[][..], Vec::as_slice)[1..])
        .map(|(f, r)| {
            json!({"filename": r["multipart"][0]["filename"], "content_type": f.content_type,
                   "size": f.bytes.len()})
        })
        .collect();
    let (status, tick) = sim.handle(&reqs[n + 1]);
    if status != 200 {
        return Err(format!("TICK answered {status}: {tick}"));
    }
    let (status, mut ubl) = sim.handle(&reqs[n + 2]);
    if status != 200 {
        return Err(format!("GET /ubl answered {status}: {ubl}"));
    }
    let xml = match ubl["xml"].take() {
        Value::String(xml) => xml,
        _ => String::new(),
    };
    // issue 10: what the writer writes reads back as issued.
    round_trip::check_round_trip(&issued, &xml, &ubl["findings"])
        .map_err(|e| format!("round trip: {e}"))?;
    Ok(Some(Run {
        xml,
        findings: ubl["findings"].take(),
        requests: reqs,
        files,
    }))
}

struct Args {
    out: PathBuf,
    count: usize,
    seed: u64,
    degrade: u64,
    /// The first this many documents carry attachments.
    attachments: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut out = None;
    let (mut count, mut seed, mut degrade) = (500, 9, 15);
    let (mut count_given, mut attachments) = (false, 0);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "--count" => {
                count = value("--count")?
                    .parse()
                    .map_err(|e| format!("--count: {e}"))?;
                count_given = true;
            }
            "--seed" => {
                seed = value("--seed")?
                    .parse()
                    .map_err(|e| format!("--seed: {e}"))?;
            }
            "--degrade" => {
                degrade = value("--degrade")?
                    .parse()
                    .map_err(|e| format!("--degrade: {e}"))?;
            }
            "--attachments" => {
                attachments = value("--attachments")?
                    .parse()
                    .map_err(|e| format!("--attachments: {e}"))?;
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let out = out.ok_or(
        "usage: peppol_corpus --out DIR [--count N] [--seed S] [--degrade PCT] [--attachments N]",
    )?;
    if !count_given && attachments > 0 {
        count = attachments;
    }
    if attachments > count {
        return Err(format!(
            "--attachments {attachments} is more than --count {count}"
        ));
    }
    Ok(Args {
        out,
        count,
        attachments,
        seed,
        degrade: degrade.min(100),
    })
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn generate(args: &Args) -> Result<(), String> {
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let mut rng = Rng(args.seed);
    // The files draw from a stream of their own: without --attachments the corpus is
    // the same as before.
    let mut files_rng = Rng(args.seed ^ 0xF11E_5A77_AC4E_D000);
    let mut index = Vec::with_capacity(args.count);
    let (mut refused, mut with_findings) = (0usize, 0usize);
    let (mut uploaded, mut bytes, mut germans) = (0usize, 0usize, 0usize);
    let mut n = 0;
    while n < args.count {
        let mut d = draft(&mut rng, args.degrade);
        let with_files = n < args.attachments;
        // One document in ten with files has a German seller and buyer (DE-R-022).
        let german = with_files && n % 10 == 5;
        if german {
            germanize(&mut files_rng, &mut d.scenario);
        }
        let mut repeat = "";
        let plan = || {
            if !with_files {
                return Vec::new();
            }
            let (files, what) = plan_files(&mut files_rng, n, german);
            repeat = what;
            files
        };
        let Some(done) = run(&d, plan)? else {
            refused += 1;
            if refused > args.count * 20 + 100 {
                return Err(format!(
                    "{refused} bodies refused for {n} accepted: the generator is broken"
                ));
            }
            continue;
        };
        n += 1;
        let stem = format!("{n:04}");
        let mut scenario = d.scenario;
        scenario["requests"] = done.requests;
        write(&args.out.join(format!("{stem}.xml")), &done.xml)?;
        write(
            &args.out.join(format!("{stem}.findings.json")),
            &pretty(&done.findings),
        )?;
        write(
            &args.out.join(format!("{stem}.body.json")),
            &pretty(&d.body),
        )?;
        write(
            &args.out.join(format!("{stem}.scenario.json")),
            &pretty(&scenario),
        )?;
        if done.findings.as_array().is_some_and(|f| !f.is_empty()) {
            with_findings += 1;
        }
        let mut meta = d.meta;
        meta.insert("n".into(), json!(stem));
        if with_files {
            uploaded += done.files.len();
            bytes += done
                .files
                .iter()
                .filter_map(|f| f["size"].as_u64())
                .map(|s| usize::try_from(s).unwrap_or(0))
                .sum::<usize>();
            if german {
                germans += 1;
                meta.insert("german".into(), json!(true));
                meta.insert("repeated_name".into(), json!(repeat));
            }
            meta.insert("attachments".into(), Value::Array(done.files));
        }
        index.push(Value::Object(meta));
    }
    write(&args.out.join("index.json"), &pretty(&Value::Array(index)))?;
    println!(
        "{n} documents in {} ({with_findings} with findings; {refused} bodies refused by the create rules and drawn again)",
        args.out.display()
    );
    if args.attachments > 0 {
        println!(
            "{} documents with {uploaded} files attached ({} KiB; {germans} with German seller and buyer)",
            args.attachments.min(n),
            bytes / 1024
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match parse_args().and_then(|args| generate(&args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("peppol_corpus: {message}");
            ExitCode::FAILURE
        }
    }
}
