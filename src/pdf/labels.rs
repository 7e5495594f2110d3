//! The PDF's words in the four languages of a company's documents: titles, labels,
//! the mentions Belgian law asks for, payment terms in words and unit names.

use crate::language::Language;
use crate::terms::{Basis, PaymentTerms};
use crate::vat::VatCode;

/// Every fixed text of the PDF in one language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Labels {
    /// Title of a sales invoice.
    pub invoice: &'static str,
    /// Title of a sales credit note.
    pub credit_note: &'static str,
    /// Title of a self-billing invoice (the legal word: "Autofacturatie" …).
    pub self_billing_invoice: &'static str,
    /// Title of a self-billing credit note.
    pub self_billing_credit_note: &'static str,
    /// Title of a proforma.
    pub proforma: &'static str,
    /// The proforma's notice: it is not an invoice.
    pub proforma_notice: &'static str,
    /// The credit note's mention: VAT to be repaid to the extent it was deducted.
    pub credit_note_mention: &'static str,
    /// "Number".
    pub number: &'static str,
    /// "Issue date".
    pub issue_date: &'static str,
    /// "Due date".
    pub due_date: &'static str,
    /// "Delivery date".
    pub delivery_date: &'static str,
    /// "Tax point date".
    pub tax_point_date: &'static str,
    /// "Period".
    pub period: &'static str,
    /// "Order".
    pub order: &'static str,
    /// "Buyer reference".
    pub buyer_reference: &'static str,
    /// "Despatch advice".
    pub despatch: &'static str,
    /// "Supplier".
    pub supplier: &'static str,
    /// "Customer".
    pub customer: &'static str,
    /// "Delivery address".
    pub delivery_address: &'static str,
    /// The VAT number's label.
    pub vat_number: &'static str,
    /// The enterprise number's label.
    pub enterprise_number: &'static str,
    /// Column: description.
    pub description: &'static str,
    /// Column: quantity.
    pub quantity: &'static str,
    /// Column: unit.
    pub unit: &'static str,
    /// Column: unit price excluding VAT.
    pub unit_price: &'static str,
    /// Column and total: VAT.
    pub vat: &'static str,
    /// Column: line total excluding VAT.
    pub line_total: &'static str,
    /// An allowance without a reason.
    pub allowance: &'static str,
    /// A charge without a reason.
    pub charge: &'static str,
    /// Heading of the document allowances and charges.
    pub allowances_charges: &'static str,
    /// Heading of the VAT breakdown.
    pub vat_breakdown: &'static str,
    /// Column: the VAT rate or code.
    pub rate: &'static str,
    /// Column: the taxable base.
    pub base: &'static str,
    /// Total: sum of the lines.
    pub lines_total: &'static str,
    /// Total: allowances.
    pub allowances_total: &'static str,
    /// Total: charges.
    pub charges_total: &'static str,
    /// Total excluding VAT.
    pub total_excl: &'static str,
    /// Total including VAT.
    pub total_incl: &'static str,
    /// Amount paid.
    pub paid: &'static str,
    /// Amount remaining to pay.
    pub remaining: &'static str,
    /// Heading of the payment block.
    pub payment: &'static str,
    /// The structured communication's label.
    pub communication: &'static str,
    /// Payment terms' label.
    pub terms: &'static str,
    /// Heading of the references.
    pub references: &'static str,
    /// "Amounts in".
    pub amounts_in: &'static str,
    /// Name of a piece (unit code C62, H87, EA).
    pub piece: &'static str,
    /// Name of a day (unit code DAY).
    pub day: &'static str,
    /// Name of a month (unit code MON).
    pub month: &'static str,
    /// Name of a year (unit code ANN).
    pub year: &'static str,
}

const EN: Labels = Labels {
    invoice: "Invoice",
    credit_note: "Credit note",
    self_billing_invoice: "Self-billing invoice",
    self_billing_credit_note: "Self-billing credit note",
    proforma: "Pro forma invoice",
    proforma_notice: "Pro forma, not an invoice",
    credit_note_mention:
        "VAT to be repaid to the State to the extent that it was originally deducted",
    number: "Number",
    issue_date: "Issue date",
    due_date: "Due date",
    delivery_date: "Delivery date",
    tax_point_date: "Tax point date",
    period: "Period",
    order: "Order",
    buyer_reference: "Buyer reference",
    despatch: "Despatch advice",
    supplier: "Supplier",
    customer: "Customer",
    delivery_address: "Delivery address",
    vat_number: "VAT",
    enterprise_number: "Enterprise no.",
    description: "Description",
    quantity: "Quantity",
    unit: "Unit",
    unit_price: "Unit price",
    vat: "VAT",
    line_total: "Total excl. VAT",
    allowance: "Discount",
    charge: "Charge",
    allowances_charges: "Allowances and charges",
    vat_breakdown: "VAT breakdown",
    rate: "VAT rate",
    base: "Taxable base",
    lines_total: "Sum of lines",
    allowances_total: "Allowances",
    charges_total: "Charges",
    total_excl: "Total excl. VAT",
    total_incl: "Total incl. VAT",
    paid: "Paid",
    remaining: "Amount due",
    payment: "Payment",
    communication: "Structured communication",
    terms: "Terms",
    references: "References",
    amounts_in: "Amounts in",
    piece: "pcs",
    day: "days",
    month: "months",
    year: "years",
};

const NL: Labels = Labels {
    invoice: "Factuur",
    credit_note: "Creditnota",
    self_billing_invoice: "Autofacturatie",
    self_billing_credit_note: "Autofacturatie - creditnota",
    proforma: "Pro-formafactuur",
    proforma_notice: "Pro forma, geen factuur",
    credit_note_mention:
        "BTW terug te storten aan de Staat in de mate waarin ze oorspronkelijk in aftrek werd gebracht",
    number: "Nummer",
    issue_date: "Factuurdatum",
    due_date: "Vervaldatum",
    delivery_date: "Leveringsdatum",
    tax_point_date: "Datum belastbaar feit",
    period: "Periode",
    order: "Bestelling",
    buyer_reference: "Referentie koper",
    despatch: "Verzendbericht",
    supplier: "Leverancier",
    customer: "Klant",
    delivery_address: "Leveringsadres",
    vat_number: "Btw",
    enterprise_number: "Ondernemingsnr.",
    description: "Omschrijving",
    quantity: "Aantal",
    unit: "Eenheid",
    unit_price: "Eenheidsprijs",
    vat: "Btw",
    line_total: "Totaal excl. btw",
    allowance: "Korting",
    charge: "Toeslag",
    allowances_charges: "Kortingen en toeslagen",
    vat_breakdown: "Btw-overzicht",
    rate: "Btw-tarief",
    base: "Maatstaf van heffing",
    lines_total: "Som van de lijnen",
    allowances_total: "Kortingen",
    charges_total: "Toeslagen",
    total_excl: "Totaal excl. btw",
    total_incl: "Totaal incl. btw",
    paid: "Betaald",
    remaining: "Te betalen",
    payment: "Betaling",
    communication: "Gestructureerde mededeling",
    terms: "Voorwaarden",
    references: "Referenties",
    amounts_in: "Bedragen in",
    piece: "st.",
    day: "dagen",
    month: "maanden",
    year: "jaar",
};

const FR: Labels = Labels {
    invoice: "Facture",
    credit_note: "Note de crédit",
    self_billing_invoice: "Autofacturation",
    self_billing_credit_note: "Autofacturation - note de crédit",
    proforma: "Facture pro forma",
    proforma_notice: "Pro forma, ceci n'est pas une facture",
    credit_note_mention:
        "TVA à reverser à l'État dans la mesure où elle a été initialement déduite",
    number: "Numéro",
    issue_date: "Date de facture",
    due_date: "Date d'échéance",
    delivery_date: "Date de livraison",
    tax_point_date: "Date du fait générateur",
    period: "Période",
    order: "Commande",
    buyer_reference: "Référence acheteur",
    despatch: "Avis d'expédition",
    supplier: "Fournisseur",
    customer: "Client",
    delivery_address: "Adresse de livraison",
    vat_number: "TVA",
    enterprise_number: "N° d'entreprise",
    description: "Description",
    quantity: "Quantité",
    unit: "Unité",
    unit_price: "Prix unitaire",
    vat: "TVA",
    line_total: "Total HTVA",
    allowance: "Remise",
    charge: "Supplément",
    allowances_charges: "Remises et suppléments",
    vat_breakdown: "Récapitulatif TVA",
    rate: "Taux TVA",
    base: "Base imposable",
    lines_total: "Somme des lignes",
    allowances_total: "Remises",
    charges_total: "Suppléments",
    total_excl: "Total HTVA",
    total_incl: "Total TVAC",
    paid: "Payé",
    remaining: "Reste à payer",
    payment: "Paiement",
    communication: "Communication structurée",
    terms: "Conditions",
    references: "Références",
    amounts_in: "Montants en",
    piece: "pc",
    day: "jours",
    month: "mois",
    year: "ans",
};

const DE: Labels = Labels {
    invoice: "Rechnung",
    credit_note: "Rechnungskorrektur",
    self_billing_invoice: "Gutschrift",
    self_billing_credit_note: "Gutschrift - Korrektur",
    proforma: "Proformarechnung",
    proforma_notice: "Pro forma, keine Rechnung",
    credit_note_mention:
        "Die Mehrwertsteuer ist an den Staat zurückzuzahlen, soweit sie ursprünglich abgezogen wurde",
    number: "Nummer",
    issue_date: "Rechnungsdatum",
    due_date: "Fälligkeitsdatum",
    delivery_date: "Lieferdatum",
    tax_point_date: "Steuerzeitpunkt",
    period: "Zeitraum",
    order: "Bestellung",
    buyer_reference: "Käuferreferenz",
    despatch: "Lieferavis",
    supplier: "Lieferant",
    customer: "Kunde",
    delivery_address: "Lieferadresse",
    vat_number: "USt-IdNr.",
    enterprise_number: "Unternehmensnr.",
    description: "Beschreibung",
    quantity: "Menge",
    unit: "Einheit",
    unit_price: "Einzelpreis",
    vat: "MwSt.",
    line_total: "Netto",
    allowance: "Rabatt",
    charge: "Zuschlag",
    allowances_charges: "Rabatte und Zuschläge",
    vat_breakdown: "MwSt.-Aufstellung",
    rate: "MwSt.-Satz",
    base: "Bemessungsgrundlage",
    lines_total: "Summe der Positionen",
    allowances_total: "Rabatte",
    charges_total: "Zuschläge",
    total_excl: "Summe netto",
    total_incl: "Gesamtbetrag brutto",
    paid: "Bezahlt",
    remaining: "Offener Betrag",
    payment: "Zahlung",
    communication: "Strukturierte Mitteilung",
    terms: "Bedingungen",
    references: "Referenzen",
    amounts_in: "Beträge in",
    piece: "Stk.",
    day: "Tage",
    month: "Monate",
    year: "Jahre",
};

impl Labels {
    /// The column headers of the lines' table: description, quantity, unit, unit
    /// price, VAT, total.
    pub fn line_headers(&self) -> [String; 6] {
        [
            self.description,
            self.quantity,
            self.unit,
            self.unit_price,
            self.vat,
            self.line_total,
        ]
        .map(str::to_owned)
    }

    /// The heading and column headers of the VAT breakdown: rate, base, VAT.
    pub fn vat_headers(&self) -> [String; 4] {
        [self.vat_breakdown, self.rate, self.base, self.vat].map(str::to_owned)
    }

    /// The labels of a language.
    pub fn of(language: Language) -> &'static Labels {
        match language {
            Language::En => &EN,
            Language::Nl => &NL,
            Language::Fr => &FR,
            Language::De => &DE,
        }
    }
}

/// The short name of an exempt VAT code, shown in a line's VAT column and in the
/// breakdown instead of a rate; `None` for the codes shown by their rate.
pub fn vat_code_label(code: VatCode, language: Language) -> Option<&'static str> {
    use Language::{De, En, Fr, Nl};
    Some(match (code, language) {
        (VatCode::Standard | VatCode::ZeroRated, _) => return None,
        (VatCode::Exempted, En) => "Exempt",
        (VatCode::Exempted, Nl) => "Vrijgesteld",
        (VatCode::Exempted, Fr) => "Exonéré",
        (VatCode::Exempted, De) => "Befreit",
        (VatCode::ReverseCharge | VatCode::TransferredVat, En) => "Reverse charge",
        (VatCode::ReverseCharge | VatCode::TransferredVat, Nl) => "Verlegd",
        (VatCode::ReverseCharge | VatCode::TransferredVat, Fr) => "Autoliquidation",
        (VatCode::ReverseCharge | VatCode::TransferredVat, De) => "Reverse Charge",
        (VatCode::IntraCommunity, En) => "Intra-Community",
        (VatCode::IntraCommunity, Nl) => "Intracommunautair",
        (VatCode::IntraCommunity, Fr) => "Intracommunautaire",
        (VatCode::IntraCommunity, De) => "Innergemeinschaftlich",
        (VatCode::Export, En) => "Export",
        (VatCode::Export, Nl) => "Uitvoer",
        (VatCode::Export, Fr) => "Exportation",
        (VatCode::Export, De) => "Ausfuhr",
        (_, En) => "Not subject",
        (_, Nl) => "Niet onderworpen",
        (_, Fr) => "Non soumis",
        (_, De) => "Nicht steuerbar",
    })
}

/// The payment terms in words (the English ones are the UBL's `cbc:Note`).
pub fn terms_in_words(terms: PaymentTerms, language: Language) -> String {
    let n = terms.days();
    match (terms.basis(), language) {
        (Basis::DocumentDate, Language::En) => {
            format!("Payment within {n} days of the invoice date")
        }
        (Basis::DocumentDate, Language::Nl) => {
            format!("Betaling binnen {n} dagen na de factuurdatum")
        }
        (Basis::DocumentDate, Language::Fr) => {
            format!("Paiement dans les {n} jours suivant la date de facture")
        }
        (Basis::DocumentDate, Language::De) => {
            format!("Zahlung innerhalb von {n} Tagen ab Rechnungsdatum")
        }
        (Basis::FollowingMonth, Language::En) => {
            format!("Payment {n} days after the first day of the following month")
        }
        (Basis::FollowingMonth, Language::Nl) => {
            format!("Betaling {n} dagen na de eerste dag van de volgende maand")
        }
        (Basis::FollowingMonth, Language::Fr) => {
            format!("Paiement {n} jours après le premier jour du mois suivant")
        }
        (Basis::FollowingMonth, Language::De) => {
            format!("Zahlung {n} Tage nach dem ersten Tag des Folgemonats")
        }
        (Basis::MonthEnd, Language::En) => format!(
            "Payment at the end of the month in which the date {n} days after the invoice date falls"
        ),
        (Basis::MonthEnd, Language::Nl) => format!(
            "Betaling op het einde van de maand waarin de datum {n} dagen na de factuurdatum valt"
        ),
        (Basis::MonthEnd, Language::Fr) => format!(
            "Paiement à la fin du mois dans lequel tombe la date {n} jours après la date de facture"
        ),
        (Basis::MonthEnd, Language::De) => format!(
            "Zahlung zum Ende des Monats, in den der Tag {n} Tage nach dem Rechnungsdatum fällt"
        ),
    }
}

/// The unit of a UN/ECE Recommendation 20 code as shown: a word for the common
/// codes, the code itself otherwise.
pub fn unit_name(code: &str, labels: &Labels) -> String {
    match code {
        "C62" | "H87" | "EA" | "XPP" => labels.piece.to_owned(),
        "HUR" => "h".to_owned(),
        "MIN" => "min".to_owned(),
        "DAY" => labels.day.to_owned(),
        "MON" => labels.month.to_owned(),
        "ANN" => labels.year.to_owned(),
        "KGM" => "kg".to_owned(),
        "GRM" => "g".to_owned(),
        "MTR" => "m".to_owned(),
        "KMT" => "km".to_owned(),
        "MTK" => "m²".to_owned(),
        "MTQ" => "m³".to_owned(),
        "LTR" => "l".to_owned(),
        "KWH" => "kWh".to_owned(),
        other => other.to_owned(),
    }
}
