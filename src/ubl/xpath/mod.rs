//! XPath 2.0 as the official artefacts' asserts use it, over a [`crate::ubl::dom::Dom`]:
//! [`parse::parse`] reads an expression, [`eval::Env`] evaluates it.

pub mod eval;
pub mod parse;
pub mod plan;

#[cfg(test)]
mod tests;
