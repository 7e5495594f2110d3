use super::*;

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

#[test]
fn numbers_follow_the_window_format() {
    // docs/decisions.md §5: never {prefix}{seq:06}, yearly {prefix}{YYYY}-{seq:04},
    // monthly {prefix}{YYYY}{MM}-{seq:04}
    assert_eq!(Numbering::Never.number("B", d("2026-11-21"), 5), "B000005");
    assert_eq!(
        Numbering::Yearly.number("INV", d("2026-11-21"), 1),
        "INV2026-0001"
    );
    assert_eq!(
        Numbering::Monthly.number("INV", d("2026-01-05"), 37),
        "INV202601-0037"
    );
    assert_eq!(
        Numbering::Never.number("", d("2026-11-21"), 1_234_567),
        "1234567"
    );
    assert_eq!(
        Numbering::Yearly.number("X", d("2026-11-21"), 12345),
        "X2026-12345"
    );
}

#[test]
fn issue_date_window_on_month_and_year_boundaries() {
    // docs/decisions.md §6: never: any date; yearly: same year; monthly: same month
    let n = d("2024-02-29");
    assert!(Numbering::Never.keeps_window(n, d("1999-01-01")));
    assert!(Numbering::Yearly.keeps_window(n, d("2024-01-01")));
    assert!(Numbering::Yearly.keeps_window(n, d("2024-12-31")));
    assert!(!Numbering::Yearly.keeps_window(n, d("2023-12-31")));
    assert!(!Numbering::Yearly.keeps_window(n, d("2025-01-01")));
    assert!(Numbering::Monthly.keeps_window(n, d("2024-02-01")));
    assert!(!Numbering::Monthly.keeps_window(n, d("2024-01-31")));
    assert!(!Numbering::Monthly.keeps_window(n, d("2024-03-01")));
    assert!(!Numbering::Monthly.keeps_window(n, d("2023-02-28")));
}

#[test]
fn each_document_type_is_booked_in_its_journal_category() {
    // docs/decisions.md §5: sale_invoice → sales_invoice, sale_credit_note → sales_credit,
    // purchase_invoice → purchases_invoice, purchase_credit_note → purchases_credit,
    // proforma_invoice → proforma
    let expected = [
        ("sale_invoice", "sales_invoice"),
        ("sale_credit_note", "sales_credit"),
        ("purchase_invoice", "purchases_invoice"),
        ("purchase_credit_note", "purchases_credit"),
        ("proforma_invoice", "proforma"),
    ];
    for (t, c) in expected {
        let t = crate::document::DocumentType::parse(t).unwrap();
        assert_eq!(t.journal_category().as_str(), c);
    }
}

#[test]
fn categories_and_numberings_parse() {
    for c in JournalCategory::ALL {
        assert_eq!(JournalCategory::parse(c.as_str()), Some(c));
    }
    assert_eq!(JournalCategory::parse("sales"), None);
    assert_eq!(Numbering::parse("yearly"), Some(Numbering::Yearly));
    assert_eq!(Numbering::parse("weekly"), None);
}

#[test]
fn categories_and_numberings_display_as_written() {
    // docs/decisions.md §5: the journal categories (sales_invoice, sales_credit,
    // purchases_invoice, purchases_credit, proforma) and the counter resets (never,
    // monthly, yearly) are written as the spec names them, in JSON and in messages
    let categories = [
        (JournalCategory::SalesInvoice, "sales_invoice"),
        (JournalCategory::SalesCredit, "sales_credit"),
        (JournalCategory::PurchasesInvoice, "purchases_invoice"),
        (JournalCategory::PurchasesCredit, "purchases_credit"),
        (JournalCategory::Proforma, "proforma"),
    ];
    for (c, text) in categories {
        assert_eq!(c.as_str(), text);
        assert_eq!(c.to_string(), text);
    }
    for (n, text) in [
        (Numbering::Never, "never"),
        (Numbering::Monthly, "monthly"),
        (Numbering::Yearly, "yearly"),
    ] {
        assert_eq!(Numbering::parse(text), Some(n));
        assert_eq!(n.to_string(), text);
    }
}
