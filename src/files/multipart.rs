//! A `multipart/form-data` reader (RFC 7578 over RFC 2046): the one place a request's
//! multipart body is parsed, so that a server answers as the simulator (docs/files.md §1).
//!
//! ```
//! use invoicing_core::files::multipart;
//! let body = b"--xyz\r\n\
//!     Content-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\
//!     Content-Type: text/csv\r\n\
//!     \r\n\
//!     a;b\r\n1;2\r\n\
//!     --xyz--\r\n";
//! let parts = multipart::parse(Some("multipart/form-data; boundary=xyz"), body).unwrap();
//! assert_eq!(parts.len(), 1);
//! assert_eq!(parts[0].name.as_deref(), Some("file"));
//! assert_eq!(parts[0].filename.as_deref(), Some("a.csv"));
//! assert_eq!(parts[0].content_type.as_deref(), Some("text/csv"));
//! assert_eq!(parts[0].bytes, b"a;b\r\n1;2");
//! ```
//!
//! Every refusal is a [`MultipartError`], answered as one `multipart_invalid` at
//! `["body"]` whose message names the reason. The reader never panics, copies no part's bytes (each [`Part`] borrows
//! them from the body) and runs in time linear in the body's length: the delimiter is
//! searched with a window of its own length (at most 73 bytes), and every byte is
//! looked at a bounded number of times.
//!
//! ## Decisions where the RFCs leave a choice
//!
//! - **Line ends.** Delimiters and header lines end with CRLF, and a bare LF is
//!   accepted as well, as most servers do. A CR just before a delimiter's LF belongs to
//!   the delimiter: a part's bytes never end with that CR.
//! - **Request header.** The media type is `multipart/form-data`, compared without
//!   case; the `boundary` parameter (name without case, value quoted or not) must be
//!   given once, 1 to 70 bytes (RFC 2046), without CR, LF or NUL. Other parameters
//!   are ignored; a parameter given twice, or a broken parameter list, is refused.
//! - **Structure.** The preamble and the epilogue are ignored; a body without the
//!   close delimiter (`--boundary--`) is refused. `--boundary` followed by anything but
//!   optional spaces or tabs and a line end, or `--`, is not a delimiter: the search
//!   goes on. A body made of the close delimiter alone has no part (an upload then
//!   gets `missing` at `["body","file"]`).
//! - **Part headers.** Names compare without case; a line that is not `Name: value`
//!   is refused; a line starting with a space or a tab continues the previous header
//!   (obsolete folding, joined with one space). Header values must be UTF-8 (browsers
//!   send raw UTF-8 filenames). `Content-Disposition` must be present once, of type
//!   `form-data` (without case), with a non-empty `name`; `Content-Type`, when given
//!   more than once, is refused; other headers (`Content-Transfer-Encoding` included,
//!   which RFC 7578 deprecates) are ignored.
//! - **Parameters.** `name`, `filename` and `filename*` are read (names without
//!   case), each at most once; a value is a token or a quoted string whose backslash
//!   escapes are undone (`\"` is `"`). A plain `filename` is kept as sent: the `%22`
//!   some browsers write for a quote is not decoded. `filename*` (RFC 8187,
//!   `charset'language'percent-encoded`) takes the charset `UTF-8` or `ISO-8859-1`
//!   (without case), ignores the language, and wins over `filename`; a malformed one
//!   (another charset, a broken `%XX`, bytes that are not UTF-8) is refused rather
//!   than guessed. An empty `filename` is kept (the upload rules refuse it).
//! - **Content-Type** of a part is kept as given, trimmed; the upload rules read it.

use crate::error::{ErrorCode, Loc, ValidationError};
use serde_json::Value;

/// The longest boundary RFC 2046 allows.
pub const MAX_BOUNDARY: usize = 70;

/// One part of a `multipart/form-data` body, its bytes borrowed from the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part<'a> {
    /// The `name` of its `Content-Disposition`. The parser always sets it (a part
    /// without one is refused); `None` lets other callers (the simulator's
    /// `multipart` list) hand in a part without a name, which the upload rules refuse
    /// with `multipart_invalid`.
    pub name: Option<String>,
    /// The filename: `filename*` decoded when given, else `filename`.
    pub filename: Option<String>,
    /// The part's `Content-Type`, as given (trimmed), parameters included.
    pub content_type: Option<String>,
    /// The part's bytes.
    pub bytes: &'a [u8],
}

/// A body refused by [`parse`]: answered as `multipart_invalid` at `["body"]`
/// ([`MultipartError::to_validation_error`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the body is not valid multipart/form-data: {reason}")]
pub struct MultipartError {
    /// What is wrong, in a few lower-case words.
    pub reason: &'static str,
    /// The request's `Content-Type` header, when it is what is wrong (the error's
    /// `input`).
    pub header: Option<String>,
}

impl MultipartError {
    /// `multipart_invalid` at `["body"]`, the header as `input` when it is at fault.
    pub fn to_validation_error(&self) -> ValidationError {
        let e = ValidationError::new(
            ErrorCode::MultipartInvalid,
            Loc::root("body"),
            self.to_string(),
        );
        match &self.header {
            Some(h) => e.with_input(&Value::String(h.clone())),
            None => e,
        }
    }
}

impl From<MultipartError> for ValidationError {
    fn from(e: MultipartError) -> Self {
        e.to_validation_error()
    }
}

/// A refusal for this reason.
fn invalid(reason: &'static str) -> MultipartError {
    MultipartError {
        reason,
        header: None,
    }
}

/// What follows a delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    /// A part whose headers begin at this index.
    Part(usize),
    /// The close delimiter: no part follows.
    Close,
}

/// Reads a `multipart/form-data` body: the request's `Content-Type` header (absent:
/// refused) and the body's bytes. The parts come in the order of the body. See the
/// module documentation for what is accepted.
pub fn parse<'a>(
    content_type_header: Option<&str>,
    body: &'a [u8],
) -> Result<Vec<Part<'a>>, MultipartError> {
    let Some(header) = content_type_header else {
        return Err(invalid("the content type is missing"));
    };
    let boundary = boundary(header).map_err(|reason| MultipartError {
        reason,
        header: Some(header.to_owned()),
    })?;
    let mut delimiter = Vec::with_capacity(boundary.len() + 3);
    delimiter.extend_from_slice(b"\n--");
    delimiter.extend_from_slice(boundary.as_bytes());
    let mut pos = first_part(body, &delimiter).ok_or_else(|| invalid("no closing delimiter"))?;
    let mut parts = Vec::new();
    while let Next::Part(start) = pos {
        let (headers, content_start) = part_headers(body, start, &delimiter[1..])?;
        let (end, next) = next_delimiter(body, &delimiter, content_start - 1)
            .ok_or_else(|| invalid("no closing delimiter"))?;
        let content_end = content_end(body, content_start, end);
        parts.push(Part {
            name: Some(headers.name),
            filename: headers.filename,
            content_type: headers.content_type,
            bytes: body.get(content_start..content_end).unwrap_or_default(),
        });
        pos = next;
    }
    Ok(parts)
}

/// The boundary of a request's `Content-Type` header.
fn boundary(header: &str) -> Result<String, &'static str> {
    let (media, rest) = header.split_once(';').unwrap_or((header, ""));
    if !media.trim().eq_ignore_ascii_case("multipart/form-data") {
        return Err("the content type is not multipart/form-data");
    }
    let mut found = None;
    for (name, value) in params(rest)? {
        if name.eq_ignore_ascii_case("boundary") {
            if found.is_some() {
                return Err("the boundary is given twice");
            }
            found = Some(value);
        }
    }
    let b = found.ok_or("the boundary is missing")?;
    if b.is_empty() || b.len() > MAX_BOUNDARY {
        return Err("the boundary must have 1 to 70 characters");
    }
    if b.bytes().any(|c| matches!(c, b'\r' | b'\n' | 0)) {
        return Err("the boundary holds a line end");
    }
    Ok(b)
}

/// `; name=value` parameters: names as given, values unquoted. Empty items (`;;`)
/// are skipped.
fn params(mut s: &str) -> Result<Vec<(String, String)>, &'static str> {
    let mut out = Vec::new();
    loop {
        s = s.trim_start_matches([' ', '\t', ';']);
        if s.is_empty() {
            return Ok(out);
        }
        let (name, rest) = s.split_once('=').ok_or("a parameter has no value")?;
        let name = name.trim_matches([' ', '\t']);
        if name.is_empty() || name.contains([';', ' ', '\t', '"']) {
            return Err("a parameter has no name");
        }
        let (value, rest) = param_value(rest.trim_start_matches([' ', '\t']))?;
        let rest = rest.trim_start_matches([' ', '\t']);
        if !(rest.is_empty() || rest.starts_with(';')) {
            return Err("a parameter value is followed by text");
        }
        out.push((name.to_owned(), value));
        s = rest;
    }
}

/// A token (up to `;` or white space) or a quoted string with backslash escapes;
/// the value and the text after it.
fn param_value(s: &str) -> Result<(String, &str), &'static str> {
    let Some(quoted) = s.strip_prefix('"') else {
        let end = s.find([';', ' ', '\t']).unwrap_or(s.len());
        return Ok((s[..end].to_owned(), &s[end..]));
    };
    let mut value = String::new();
    let mut chars = quoted.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((value, &quoted[i + 1..])),
            '\\' => match chars.next() {
                Some((_, escaped)) => value.push(escaped),
                None => break,
            },
            _ => value.push(c),
        }
    }
    Err("a quoted parameter is not closed")
}

/// What follows the first delimiter; `None` when there is none.
fn first_part(body: &[u8], delimiter: &[u8]) -> Option<Next> {
    // The first delimiter may open the body, without the line end before it.
    let dash_boundary = &delimiter[1..];
    if body.starts_with(dash_boundary) {
        if let Some(next) = after_delimiter(body, dash_boundary.len()) {
            return Some(next);
        }
    }
    next_delimiter(body, delimiter, 0).map(|(_, next)| next)
}

/// The next delimiter at or after `from`: the index of its LF, and what follows it.
fn next_delimiter(body: &[u8], delimiter: &[u8], mut from: usize) -> Option<(usize, Next)> {
    loop {
        let found = from + find(body.get(from..)?, delimiter)?;
        if let Some(next) = after_delimiter(body, found + delimiter.len()) {
            return Some((found, next));
        }
        from = found + 1;
    }
}

/// What follows `--boundary` at `at`: [`Next::Close`] for `--`, [`Next::Part`] for
/// optional spaces or tabs and a line end, `None` when it is not a delimiter.
fn after_delimiter(body: &[u8], at: usize) -> Option<Next> {
    let rest = body.get(at..)?;
    if rest.starts_with(b"--") {
        return Some(Next::Close);
    }
    let pad = rest
        .iter()
        .position(|&c| c != b' ' && c != b'\t')
        .unwrap_or(rest.len());
    match rest.get(pad..) {
        Some([b'\n', ..]) => Some(Next::Part(at + pad + 1)),
        Some([b'\r', b'\n', ..]) => Some(Next::Part(at + pad + 2)),
        _ => None,
    }
}

/// The first index of `needle` in `hay`, by a window of the needle's length (the
/// needle is at most 73 bytes: linear in `hay`).
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        let rel = hay[i..=hay.len() - needle.len()]
            .iter()
            .position(|&c| c == first)?;
        i += rel;
        if hay[i..i + needle.len()] == *needle {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The end of a part's bytes: the delimiter's LF at `lf`, less the CR before it,
/// never before the part's start.
fn content_end(body: &[u8], start: usize, lf: usize) -> usize {
    if lf > start && body.get(lf - 1) == Some(&b'\r') {
        lf - 1
    } else {
        lf.max(start)
    }
}

/// The headers of a part that matter here.
struct Headers {
    name: String,
    filename: Option<String>,
    content_type: Option<String>,
}

/// Reads a part's header lines from `start` up to the empty line: the headers and
/// where the part's bytes begin (just after the empty line's LF).
/// A line that is a delimiter (`dash_boundary`) ends the headers too early: refused.
fn part_headers(
    body: &[u8],
    start: usize,
    dash_boundary: &[u8],
) -> Result<(Headers, usize), MultipartError> {
    let mut lines: Vec<(String, String)> = Vec::new();
    let mut pos = start;
    loop {
        let rest = body.get(pos..).unwrap_or_default();
        let lf = rest
            .iter()
            .position(|&c| c == b'\n')
            .ok_or_else(|| invalid("a part's headers do not end"))?;
        let line = rest[..lf].strip_suffix(b"\r").unwrap_or(&rest[..lf]);
        pos += lf + 1;
        if line.is_empty() {
            return Ok((read_headers(lines)?, pos));
        }
        if line.starts_with(dash_boundary) {
            return Err(invalid("a part's headers do not end"));
        }
        let line =
            std::str::from_utf8(line).map_err(|_| invalid("a part's header is not utf-8"))?;
        if line.starts_with([' ', '\t']) {
            let (_, value) = lines
                .last_mut()
                .ok_or_else(|| invalid("a part's header line is malformed"))?;
            value.push(' ');
            value.push_str(line.trim());
            continue;
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| invalid("a part's header line is malformed"))?;
        if name.is_empty() || name.contains([' ', '\t']) {
            return Err(invalid("a part's header line is malformed"));
        }
        lines.push((name.to_owned(), value.trim().to_owned()));
    }
}

/// The disposition and content type of a part's header lines.
fn read_headers(lines: Vec<(String, String)>) -> Result<Headers, MultipartError> {
    let mut disposition = None;
    let mut content_type = None;
    for (name, value) in lines {
        let (slot, twice) = if name.eq_ignore_ascii_case("content-disposition") {
            (&mut disposition, "a part has content-disposition twice")
        } else if name.eq_ignore_ascii_case("content-type") {
            (&mut content_type, "a part has content-type twice")
        } else {
            continue;
        };
        if slot.replace(value).is_some() {
            return Err(invalid(twice));
        }
    }
    let disposition = disposition.ok_or_else(|| invalid("a part has no content-disposition"))?;
    let (name, filename) = disposition_params(&disposition).map_err(invalid)?;
    Ok(Headers {
        name,
        filename,
        content_type,
    })
}

/// The `name` and the filename of a `Content-Disposition: form-data` value.
fn disposition_params(value: &str) -> Result<(String, Option<String>), &'static str> {
    let (kind, rest) = value.split_once(';').unwrap_or((value, ""));
    if !kind.trim().eq_ignore_ascii_case("form-data") {
        return Err("a part's content-disposition is not form-data");
    }
    let (mut name, mut plain, mut extended) = (None, None, None);
    for (key, v) in params(rest)? {
        let slot = if key.eq_ignore_ascii_case("name") {
            &mut name
        } else if key.eq_ignore_ascii_case("filename") {
            &mut plain
        } else if key.eq_ignore_ascii_case("filename*") {
            &mut extended
        } else {
            continue;
        };
        if slot.replace(v).is_some() {
            return Err("a content-disposition parameter is given twice");
        }
    }
    let name = name.filter(|n| !n.is_empty()).ok_or("a part has no name")?;
    let filename = match extended {
        Some(ext) => Some(decode_ext_value(&ext)?),
        None => plain,
    };
    Ok((name, filename))
}

/// An RFC 8187 ext-value `charset'language'percent-encoded`, charset `UTF-8` or
/// `ISO-8859-1`.
fn decode_ext_value(s: &str) -> Result<String, &'static str> {
    let mut fields = s.splitn(3, '\'');
    let (Some(charset), Some(_language), Some(encoded)) =
        (fields.next(), fields.next(), fields.next())
    else {
        return Err("a filename* is not charset'language'value");
    };
    let bytes = percent_decode(encoded).ok_or("a filename* has a broken percent-encoding")?;
    if charset.eq_ignore_ascii_case("utf-8") {
        String::from_utf8(bytes).map_err(|_| "a filename* is not utf-8")
    } else if charset.eq_ignore_ascii_case("iso-8859-1") {
        Ok(bytes.into_iter().map(char::from).collect())
    } else {
        Err("a filename* has a charset other than utf-8 and iso-8859-1")
    }
}

/// `%XX` sequences decoded; other bytes kept.
fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hi = hex(*b.get(i + 1)?)?;
            let lo = hex(*b.get(i + 2)?)?;
            out.push(hi << 4 | lo);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The value of one hex digit.
fn hex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}
