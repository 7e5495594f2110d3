//! The tests of the files: the multipart reader, the upload rules, and properties of
//! both.

mod multipart;
mod prop;
mod upload;
