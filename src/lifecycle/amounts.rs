//! Amounts of a create or PATCH: the computation and where its errors point
//! (docs/decisions.md §3, §9), exemption mentions (§4), and paid_amount against the
//! total (§3.8).

use super::body_loc;
use crate::compute::{self, AllowanceCharge, Computation, ComputeError, Position};
use crate::context::Company;
use crate::document::{Exemption, Line};
use crate::error::{ErrorCode, ValidationError};
use crate::money::Currency;
use crate::validate::fields::Errors;
use rust_decimal::Decimal;
use serde_json::json;

/// The location of a computation error in a request body (docs/decisions.md §9).
pub(super) fn compute_error(e: ComputeError) -> ValidationError {
    let loc = match e.position {
        Position::Line(i) => body_loc().key("lines").index(i),
        Position::LineAllowanceCharge(i, j) => body_loc()
            .key("lines")
            .index(i)
            .key("allowance_charges")
            .index(j),
        Position::AllowanceCharge(j) => body_loc().key("allowance_charges").index(j),
        Position::AllowanceCharges => body_loc().key("allowance_charges"),
        Position::Document => body_loc(),
    };
    let mut v = ValidationError::new(e.code, loc, e.message);
    if let Some((code, rate, base)) = e.group {
        v = v.with_ctx(json!({
            "vat_code": code.as_str(),
            "vat_rate": rate.map(|r| r.to_string()),
            "base": base.to_string(),
        }));
    }
    v
}

/// Computes the amounts of lines and allowances, recording the errors.
pub(super) fn compute_amounts(
    currency: Currency,
    lines: &[Line],
    acs: &[AllowanceCharge],
    errors: &mut Errors,
) -> Option<Computation> {
    match compute::compute_iter(currency, lines.iter().map(|l| &l.pricing), acs) {
        Ok(c) => Some(c),
        Err(list) => {
            errors.0.extend(list.into_iter().map(compute_error));
            None
        }
    }
}

/// The exemption mention of each VAT group: the company's text for its code, else the
/// standard wording in the company's language; the VATEX code stays
/// (docs/files.md §2).
pub fn exemptions(company: &Company, computation: &Computation) -> Vec<Option<Exemption>> {
    computation
        .groups
        .iter()
        .map(|g| {
            g.vat_code.exemption().map(|(english, code)| Exemption {
                reason: company
                    .exemption_mentions
                    .get(&g.vat_code)
                    .cloned()
                    .unwrap_or_else(|| {
                        // docs/files.md §2: the standard wording follows the company's language
                        g.vat_code
                            .exemption_in(company.language)
                            .unwrap_or(english)
                            .to_owned()
                    }),
                code: code.map(str::to_owned),
            })
        })
        .collect()
}

pub(super) fn check_paid(paid: Decimal, computation: &Computation, errors: &mut Errors) {
    // docs/decisions.md §3.8, docs/interface.md Errors: paid_amount may not exceed the total
    if paid > computation.total_amount {
        errors.push_ctx(
            ErrorCode::PaidAmountAboveTotal,
            body_loc().key("paid_amount"),
            format!(
                "paid_amount {paid} is above the total amount {}",
                computation.currency.format(computation.total_amount)
            ),
            None,
            json!({"total_amount": computation.currency.format(computation.total_amount)}),
        );
    }
}
