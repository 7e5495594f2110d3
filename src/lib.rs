//! Invoicing core (work in progress).
#![forbid(unsafe_code)]

pub mod allocation;
pub mod compute;
pub mod error;
mod iso4217;
pub mod money;
pub mod number;
pub mod numbering;
pub mod remittance;
pub mod terms;
pub mod vat;
pub mod context;
pub mod document;
pub mod lifecycle;
pub mod validate;
pub mod simulator;
