//! Any UBL 2.1 Invoice or CreditNote judged as the official validation artefacts judge
//! it (issue 30, under way): the document read once into [`dom::Dom`], where every
//! element knows where it stands (the XPath the official validator reports).

pub mod dom;
pub(crate) mod xpath;
