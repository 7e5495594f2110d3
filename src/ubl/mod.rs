//! Any UBL 2.1 Invoice or CreditNote judged as the official validation artefacts judge
//! it (issue 30, under way): the document read once into [`dom::Dom`], where every
//! element knows where it stands (the XPath the official validator reports).

pub mod dom;
pub mod engine;
pub(crate) mod xpath;

pub use engine::{Finding, Report};

/// Reads any bytes as a UBL document and judges it by every rule of the artefacts:
/// `Err` when the bytes are not a well-formed XML document.
pub fn validate(bytes: &[u8]) -> Result<Report, dom::NotXml> {
    let dom = dom::Dom::read(bytes)?;
    Ok(engine::check(&dom))
}
