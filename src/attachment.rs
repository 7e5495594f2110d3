//! The files a document carries (files.md §1): an attachment as the document keeps
//! it (filename, media type, size, SHA-256), and the six media types a file may have.
//!
//! The bytes are not part of the document: they are the caller's to keep (a server's
//! blob store, the simulator's world) and are handed back when the UBL is written,
//! checked against the size and SHA-256 kept here.

use std::fmt;

/// The media types an attachment may have: the list the EN 16931 rule BR-CL-24 allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MediaType {
    /// `application/pdf`
    Pdf,
    /// `image/png`
    Png,
    /// `image/jpeg`
    Jpeg,
    /// `text/csv`
    Csv,
    /// `application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`
    Xlsx,
    /// `application/vnd.oasis.opendocument.spreadsheet`
    Ods,
}

impl MediaType {
    /// Every media type, in the order files.md §1 lists them (the order of the
    /// `allowed` list of `attachment_type_not_allowed`).
    pub const ALL: [MediaType; 6] = [
        Self::Pdf,
        Self::Png,
        Self::Jpeg,
        Self::Csv,
        Self::Xlsx,
        Self::Ods,
    ];

    /// The media type as written (lower case).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pdf => "application/pdf",
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
            Self::Csv => "text/csv",
            Self::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            Self::Ods => "application/vnd.oasis.opendocument.spreadsheet",
        }
    }

    /// The media type of a Content-Type value: parameters dropped, white space
    /// trimmed, compared without case. `None` for any other type.
    pub fn parse(content_type: &str) -> Option<MediaType> {
        let essence = content_type.split(';').next().unwrap_or("").trim();
        Self::ALL
            .into_iter()
            .find(|m| m.as_str().eq_ignore_ascii_case(essence))
    }
}

impl fmt::Display for MediaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One file attached to a document, as the document keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// The filename, trimmed of Unicode white space.
    pub filename: String,
    /// The media type.
    pub mimetype: MediaType,
    /// The size in bytes (at least 1).
    pub size: u64,
    /// The SHA-256 of the bytes, 64 lower-case hex digits.
    pub sha256: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_compare_without_case_and_drop_parameters() {
        // files.md §1: parameters dropped, compared without case
        assert_eq!(
            MediaType::parse("TEXT/CSV; charset=utf-8"),
            Some(MediaType::Csv)
        );
        assert_eq!(MediaType::parse(" application/pdf "), Some(MediaType::Pdf));
        assert_eq!(MediaType::parse("image/gif"), None);
        assert_eq!(MediaType::parse(""), None);
        for m in MediaType::ALL {
            assert_eq!(MediaType::parse(m.as_str()), Some(m));
        }
    }
}
