//! The XML 1.0 reader below [`Dom::read`](super::Dom::read): the document's markup
//! and text, borrowed from its bytes, each piece checked as XML 1.0 and its
//! namespaces' Recommendation say a well-formed document must be.
//!
//! # Why not quick-xml's reader
//! quick-xml (the crate's writer) read the 500-line UBL of the benches in 11.65 M
//! instructions (callgrind) before the `Dom` kept anything: about 790 a tag, 2.0 M of
//! them its own `from_utf8` of each event's bytes (the document is already checked
//! whole, once) and 0.85 M its attribute iterator. This reader is one pass over bytes
//! known to be UTF-8, a table lookup a byte, an end tag compared with its start tag's
//! name rather than read again: `Dom::read` went from 15.64 M to 8.96 M.
//!
//! # Stricter where XML is
//! As the official validator's parser does, it refuses what quick-xml let through: a
//! name that is not an XML name or not a qualified name; a character XML does not
//! allow (`U+0001`, `U+FFFE`) anywhere; a `&` that starts no reference; `]]>` in text;
//! `--` inside a comment; a `<` in an attribute's value; attributes without white
//! space between them; an XML declaration anywhere but at the start; text, a
//! reference or a CDATA section outside the root element. `Dom::open` refuses a
//! prefix no declaration binds and `xmlns:p=""`. As before, no DTD is read: a
//! `<!DOCTYPE …>` before the root is skipped, and an entity it would declare is
//! refused where it is used.

use super::{bad, NotXml};

/// A qualified name as written, and its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct QName<'a> {
    /// As written: `cbc:ID`.
    pub(super) full: &'a str,
    /// Its prefix (empty for none): `cbc`.
    pub(super) prefix: &'a str,
    /// Its local part: `ID`.
    pub(super) local: &'a str,
}

impl std::fmt::Display for QName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.full)
    }
}

/// One piece of markup or text, borrowed from the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Token<'a> {
    /// A start tag, `empty` for `<a/>`: its qualified name (its attributes are
    /// [`Lexer::attributes`] until the next token).
    Start { name: QName<'a>, empty: bool },
    /// An end tag (of the innermost open element): its qualified name.
    End { name: QName<'a> },
    /// Character data as written: references and line ends are [`resolve`]'s.
    Text(&'a str),
    /// A CDATA section's content as written (line ends unresolved).
    CData(&'a str),
}

/// The byte classes of [`CLASS`].
const NAME_START: u8 = 1;
const NAME: u8 = 2;
const SPACE: u8 = 4;
/// Bytes [`resolve`] must look at, in text, in an attribute's value, in CDATA.
const IN_TEXT: u8 = 8;
const IN_ATTRIBUTE: u8 = 16;
const IN_CDATA: u8 = 32;
/// A byte no XML document has (a control character but tab, line feed and carriage
/// return).
const FORBIDDEN: u8 = 64;

/// The class of each byte (a byte past 127 is a part of a character [`name_char`]
/// decides).
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c: u8 = 0;
    loop {
        let at = c as usize;
        // A name's colon is the qualified name's, read apart (`Lexer::name`).
        if c.is_ascii_alphabetic() || c == b'_' {
            t[at] |= NAME_START | NAME;
        }
        if c.is_ascii_digit() || c == b'-' || c == b'.' {
            t[at] |= NAME;
        }
        if c < 0x20 && c != b'\t' && c != b'\n' && c != b'\r' {
            t[at] |= FORBIDDEN;
        }
        if c == u8::MAX {
            break;
        }
        c += 1;
    }
    t[b' ' as usize] |= SPACE;
    t[b'\t' as usize] |= SPACE | IN_ATTRIBUTE;
    t[b'\n' as usize] |= SPACE | IN_ATTRIBUTE;
    t[b'\r' as usize] |= SPACE | IN_ATTRIBUTE | IN_TEXT | IN_CDATA;
    t[b'&' as usize] |= IN_ATTRIBUTE | IN_TEXT;
    t[b'>' as usize] |= IN_TEXT;
    t
};

fn is(b: u8, class: u8) -> bool {
    CLASS[usize::from(b)] & class != 0
}

/// Whether a character past ASCII may be in a name (`start`: begin one), as XML 1.0
/// (fifth edition) says.
fn name_char(c: char, start: bool) -> bool {
    let u = u32::from(c);
    let starts = matches!(u,
        0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0x2FF | 0x370..=0x37D | 0x37F..=0x1FFF
        | 0x200C..=0x200D | 0x2070..=0x218F | 0x2C00..=0x2FEF | 0x3001..=0xD7FF
        | 0xF900..=0xFDCF | 0xFDF0..=0xFFFD | 0x10000..=0xEFFFF);
    starts || (!start && matches!(u, 0xB7 | 0x300..=0x36F | 0x203F..=0x2040))
}

/// Where `at` is in `text`, as an editor counts: line and column, from 1.
pub(super) fn position(text: &str, at: usize) -> String {
    let before = text.get(..at).unwrap_or(text);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {column}")
}

/// The first `needle` in `hay`: a loop over short texts (most of a UBL's), `memchr`
/// past 16 bytes.
fn find_byte(hay: &[u8], needle: u8) -> Option<usize> {
    let head = hay.get(..16).unwrap_or(hay);
    if let Some(i) = head.iter().position(|&b| b == needle) {
        return Some(i);
    }
    if head.len() < 16 {
        return None;
    }
    memchr::memchr(needle, hay.get(16..)?).map(|i| i + 16)
}

/// The tokens of a document.
pub(super) struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    /// Where the document starts (after a byte order mark): the one place of an XML
    /// declaration.
    start: usize,
    /// Where the last token started (for an error's position).
    token: usize,
    /// Whether an element has started (a DOCTYPE must come before).
    element_seen: bool,
    doctype_seen: bool,
    /// The last start tag's attributes: qualified name and value as written.
    attributes: Vec<(QName<'a>, &'a str)>,
    /// The names of the open elements, the innermost last.
    open: Vec<QName<'a>>,
}

impl<'a> Lexer<'a> {
    /// A lexer of `text`, which must not hold a character XML does not allow
    /// (see [`survey`]).
    pub(super) fn new(text: &'a str) -> Self {
        let start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
        Lexer {
            text,
            pos: start,
            start,
            token: start,
            element_seen: false,
            doctype_seen: false,
            attributes: Vec::new(),
            open: Vec::new(),
        }
    }

    /// The last start tag's attributes, qualified name and value as written, in order.
    pub(super) fn attributes(&self) -> &[(QName<'a>, &'a str)] {
        &self.attributes
    }

    /// Where the last token starts, as [`position`] writes it.
    pub(super) fn here(&self) -> String {
        position(self.text, self.token)
    }

    /// An error at byte `at`.
    fn error(&self, at: usize, what: impl std::fmt::Display) -> NotXml {
        bad(format_args!("{what} ({})", position(self.text, at)))
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn slice(&self, from: usize, to: usize) -> Result<&'a str, NotXml> {
        self.text
            .get(from..to)
            .ok_or_else(|| self.error(from, "a cut inside a character"))
    }

    fn skip_space(&self, mut i: usize) -> usize {
        while self.bytes().get(i).is_some_and(|&b| is(b, SPACE)) {
            i += 1;
        }
        i
    }

    /// The character at byte `i` when it is past ASCII and may be in a name (`start`:
    /// begin one).
    fn wide_name_char(&self, i: usize, start: bool) -> Option<usize> {
        let c = self.text.get(i..)?.chars().next()?;
        (!c.is_ascii() && name_char(c, start)).then(|| c.len_utf8())
    }

    /// Where the name without a colon at `at` ends (XML's `NCName`).
    fn local_name(&self, at: usize) -> Result<usize, NotXml> {
        let b = self.bytes();
        let mut i = at;
        if b.get(i).is_some_and(|&c| is(c, NAME_START)) {
            i += 1;
        } else if let Some(len) = self.wide_name_char(i, true) {
            i += len;
        } else {
            return Err(self.error(at, "a name was expected"));
        }
        // ASCII name characters a byte at a time, then one past ASCII if it is one.
        loop {
            while b.get(i).is_some_and(|&c| is(c, NAME)) {
                i += 1;
            }
            match b.get(i) {
                Some(&c) if c >= 0x80 => match self.wide_name_char(i, false) {
                    Some(len) => i += len,
                    None => break,
                },
                _ => break,
            }
        }
        Ok(i)
    }

    /// The qualified name at `at` (`local` or `prefix:local`), and where it ends.
    fn name(&self, at: usize) -> Result<(QName<'a>, usize), NotXml> {
        let first = self.local_name(at)?;
        let (prefix, end) = if self.bytes().get(first) == Some(&b':') {
            (self.slice(at, first)?, self.local_name(first + 1)?)
        } else {
            ("", first)
        };
        let full = self.slice(at, end)?;
        if self.bytes().get(end) == Some(&b':') {
            return Err(self.error(at, format_args!("`{full}:` is not a qualified name")));
        }
        let local = if prefix.is_empty() {
            full
        } else {
            self.slice(first + 1, end)?
        };
        Ok((
            QName {
                full,
                prefix,
                local,
            },
            end,
        ))
    }

    /// The next token; `None` at the end of the document.
    pub(super) fn next_token(&mut self) -> Result<Option<Token<'a>>, NotXml> {
        loop {
            let b = self.bytes();
            let at = self.pos;
            self.token = at;
            let Some(&first) = b.get(at) else {
                return Ok(None);
            };
            if first != b'<' {
                let rest = b.get(at..).unwrap_or(&[]);
                let end = find_byte(rest, b'<').map_or(b.len(), |i| at + i);
                self.pos = end;
                return Ok(Some(Token::Text(self.slice(at, end)?)));
            }
            match b.get(at + 1) {
                Some(b'/') => return self.end_tag(at).map(Some),
                Some(b'?') => self.instruction(at)?,
                Some(b'!') => {
                    if let Some(t) = self.bang(at)? {
                        return Ok(Some(t));
                    }
                }
                _ => return self.start_tag(at).map(Some),
            }
        }
    }

    fn start_tag(&mut self, at: usize) -> Result<Token<'a>, NotXml> {
        let bytes = self.bytes();
        let (name, mut i) = self.name(at + 1)?;
        self.element_seen = true;
        self.attributes.clear();
        let empty = loop {
            let next = self.skip_space(i);
            match bytes.get(next) {
                Some(b'>') => {
                    self.pos = next + 1;
                    break false;
                }
                Some(b'/') if bytes.get(next + 1) == Some(&b'>') => {
                    self.pos = next + 2;
                    break true;
                }
                None => return Err(self.error(at, format_args!("<{name} is not closed"))),
                Some(_) if next == i => {
                    return Err(self.error(next, "white space was expected before an attribute"))
                }
                Some(_) => {}
            }
            let (attribute, k) = self.name(next)?;
            let k = self.skip_space(k);
            if bytes.get(k) != Some(&b'=') {
                return Err(self.error(k, format_args!("`=` was expected after {attribute}")));
            }
            let k = self.skip_space(k + 1);
            let Some(&quote @ (b'"' | b'\'')) = bytes.get(k) else {
                return Err(self.error(k, format_args!("the value of {attribute} is not quoted")));
            };
            let from = k + 1;
            let rest = bytes.get(from..).unwrap_or(&[]);
            let Some(len) = rest.iter().position(|&c| c == quote || c == b'<') else {
                return Err(self.error(k, format_args!("the value of {attribute} is not closed")));
            };
            if rest.get(len) == Some(&b'<') {
                return Err(self.error(
                    from + len,
                    format_args!("a `<` in the value of {attribute}"),
                ));
            }
            self.attributes
                .push((attribute, self.slice(from, from + len)?));
            i = from + len + 1;
        };
        self.no_twice(at)?;
        if !empty {
            self.open.push(name);
        }
        Ok(Token::Start { name, empty })
    }

    /// No attribute written twice on one tag (by a sort past a few, so that 65 535
    /// attributes are not compared pairwise).
    fn no_twice(&self, at: usize) -> Result<(), NotXml> {
        let names = || self.attributes.iter().map(|&(n, _)| n.full);
        let twice = if self.attributes.len() <= 16 {
            names()
                .enumerate()
                .find(|&(k, n)| names().take(k).any(|m| m == n))
                .map(|(_, n)| n)
        } else {
            let mut sorted: Vec<&str> = names().collect();
            sorted.sort_unstable();
            sorted
                .windows(2)
                .find(|w| w.first() == w.last())
                .and_then(|w| w.first().copied())
        };
        match twice {
            Some(n) => Err(self.error(at, format_args!("the attribute {n} is written twice"))),
            None => Ok(()),
        }
    }

    /// `</name>`, which must close the innermost open element: its name is compared
    /// with that element's, not read again as a name.
    fn end_tag(&mut self, at: usize) -> Result<Token<'a>, NotXml> {
        let b = self.bytes();
        let open = self.open.pop();
        let after = open.and_then(|o| {
            let end = at + 2 + o.full.len();
            let same = b.get(at + 2..end) == Some(o.full.as_bytes());
            let whole = !b
                .get(end)
                .is_some_and(|&c| is(c, NAME) || c == b':' || c >= 0x80);
            (same && whole).then_some(end)
        });
        let Some(i) = after else {
            let (name, _) = self.name(at + 2)?;
            return Err(match open {
                Some(o) => self.error(at, format_args!("</{name}> closes <{o}>")),
                None => self.error(at, format_args!("</{name}> closes no element")),
            });
        };
        let i = self.skip_space(i);
        match open {
            Some(name) if b.get(i) == Some(&b'>') => {
                self.pos = i + 1;
                Ok(Token::End { name })
            }
            _ => Err(self.error(i, "an end tag is not closed by `>`")),
        }
    }

    /// Where `needle` starts at or after `from`.
    fn find(&self, from: usize, needle: &str) -> Option<usize> {
        let rest = self.bytes().get(from..)?;
        memchr::memmem::find(rest, needle.as_bytes()).map(|i| from + i)
    }

    /// `<?target …?>`: skipped; the XML declaration only at the start.
    fn instruction(&mut self, at: usize) -> Result<(), NotXml> {
        let (target, i) = self.name(at + 2)?;
        if target.full.eq_ignore_ascii_case("xml") && at != self.start {
            return Err(self.error(at, "an XML declaration after the start of the document"));
        }
        let spaced = self.bytes().get(i).is_none_or(|&b| is(b, SPACE));
        if !spaced && !self.text.get(i..).is_some_and(|s| s.starts_with("?>")) {
            return Err(self.error(i, format_args!("<?{target} is not followed by white space")));
        }
        let end = self
            .find(i, "?>")
            .ok_or_else(|| self.error(at, format_args!("<?{target} is not closed by `?>`")))?;
        self.pos = end + 2;
        Ok(())
    }

    /// `<!--…-->` (skipped), `<![CDATA[…]]>`, `<!DOCTYPE …>` (skipped).
    fn bang(&mut self, at: usize) -> Result<Option<Token<'a>>, NotXml> {
        let rest = self.text.get(at..).unwrap_or("");
        if rest.starts_with("<!--") {
            // The first `--` inside must be the end (`-->`).
            let end = self
                .find(at + 4, "--")
                .ok_or_else(|| self.error(at, "a comment is not closed by `-->`"))?;
            if self.bytes().get(end + 2) != Some(&b'>') {
                return Err(self.error(end, "`--` inside a comment"));
            }
            self.pos = end + 3;
            return Ok(None);
        }
        if rest.starts_with("<![CDATA[") {
            let end = self
                .find(at + 9, "]]>")
                .ok_or_else(|| self.error(at, "a CDATA section is not closed by `]]>`"))?;
            self.pos = end + 3;
            return Ok(Some(Token::CData(self.slice(at + 9, end)?)));
        }
        if rest.starts_with("<!DOCTYPE") {
            if self.element_seen || self.doctype_seen {
                return Err(self.error(
                    at,
                    "a DOCTYPE after the start of the root element or a DOCTYPE",
                ));
            }
            self.doctype_seen = true;
            // To its `>`: outside quotes and its internal subset's brackets.
            let mut quote = None;
            let mut depth = 0usize;
            for (i, &c) in rest.as_bytes().iter().enumerate().skip(9) {
                match (quote, c) {
                    (Some(q), _) if c == q => quote = None,
                    (None, b'"' | b'\'') => quote = Some(c),
                    (None, b'[') => depth += 1,
                    (None, b']') => depth = depth.saturating_sub(1),
                    (None, b'>') if depth == 0 => {
                        self.pos = at + i + 1;
                        return Ok(None);
                    }
                    _ => {}
                }
            }
            return Err(self.error(at, "a DOCTYPE is not closed"));
        }
        Err(self.error(at, "`<!` starts no comment, CDATA section or DOCTYPE"))
    }
}

/// How many `<` `text` has (an upper bound on its elements), in one pass that also
/// looks for a character XML does not allow anywhere: a control character but tab,
/// line feed and carriage return, or U+FFFE, U+FFFF (looked for only when a byte
/// `0xEF` is there). Counted 255 bytes at a time in bytes, which the compiler
/// vectorizes.
pub(super) fn survey(text: &str) -> Result<usize, NotXml> {
    let mut tags = 0usize;
    let mut forbidden = 0u8;
    let mut ef = 0u8;
    for chunk in text.as_bytes().chunks(255) {
        // Three folds of plain comparisons: one of a table's lookups is not vectorized
        // (2.97 M instructions on the 500-line UBL, against 0.3 M).
        let n = chunk
            .iter()
            .fold(0u8, |n, &b| n.wrapping_add(u8::from(b == b'<')));
        let f = chunk.iter().fold(0u8, |f, &b| {
            f | u8::from(b < 0x20)
                & u8::from(b != b'\t')
                & u8::from(b != b'\n')
                & u8::from(b != b'\r')
        });
        let e = chunk.iter().fold(0u8, |e, &b| e | u8::from(b == 0xEF));
        tags += usize::from(n);
        forbidden |= f;
        ef |= e;
    }
    let allowed = |c: char| {
        !(c < ' ' && !matches!(c, '\t' | '\n' | '\r') || c == '\u{FFFE}' || c == '\u{FFFF}')
    };
    if forbidden != 0 || ef != 0 {
        if let Some((at, c)) = text.char_indices().find(|&(_, c)| !allowed(c)) {
            return Err(bad(format_args!(
                "the character U+{:04X} is not one XML allows ({})",
                u32::from(c),
                position(text, at)
            )));
        }
    }
    Ok(tags)
}

/// What [`resolve`] reads: text, an attribute's value or a CDATA section.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Text,
    Attribute,
    CData,
}

/// Appends to `out` what `raw` (as written in a document) says: references to the
/// five entities XML predefines and to characters resolved; line ends (`\r\n`, `\r`)
/// read as `\n`; in an attribute's value, each of tab, line feed and carriage return
/// written as such read as a space (XML 1.0 §3.3.3, for CDATA attributes). On error,
/// the byte of `raw` where it is, and why.
pub(super) fn resolve(raw: &str, kind: Kind, out: &mut String) -> Result<(), (usize, String)> {
    let class = match kind {
        Kind::Text => IN_TEXT,
        Kind::Attribute => IN_ATTRIBUTE,
        Kind::CData => IN_CDATA,
    };
    let b = raw.as_bytes();
    let Some(first) = b.iter().position(|&c| is(c, class)) else {
        out.push_str(raw);
        return Ok(());
    };
    let mut done = 0;
    let mut i = first;
    while let Some(&c) = b.get(i) {
        if !is(c, class) {
            i += 1;
            continue;
        }
        out.push_str(raw.get(done..i).unwrap_or(""));
        let space = if kind == Kind::Attribute { ' ' } else { '\n' };
        match c {
            b'\r' => {
                out.push(space);
                i += if b.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
            }
            b'\t' | b'\n' => {
                out.push(' ');
                i += 1;
            }
            b'>' => {
                if raw.get(..i).is_some_and(|s| s.ends_with("]]")) {
                    return Err((i, "`]]>` in text".into()));
                }
                out.push('>');
                i += 1;
            }
            _ => {
                let end = b
                    .get(i..)
                    .and_then(|r| r.iter().position(|&c| c == b';'))
                    .map(|k| i + k)
                    .ok_or_else(|| (i, "an `&` that starts no reference".to_owned()))?;
                let name = raw.get(i + 1..end).unwrap_or("");
                out.push(reference(name).map_err(|e| (i, e))?);
                i = end + 1;
            }
        }
        done = i;
    }
    out.push_str(raw.get(done..).unwrap_or(""));
    Ok(())
}

/// The character of a reference `&name;`: one of the five entities XML predefines, or
/// a character reference to a character XML allows.
fn reference(name: &str) -> Result<char, String> {
    let c = match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "apos" => '\'',
        "quot" => '"',
        _ => {
            let number = name.strip_prefix('#').ok_or_else(|| {
                format!("the entity &{name}; is not one XML predefines (a DTD is never read)")
            })?;
            let (digits, radix) = match number.strip_prefix('x') {
                Some(hex) => (hex, 16),
                None => (number, 10),
            };
            let code = if !digits.is_empty() && digits.bytes().all(|d| d.is_ascii_hexdigit()) {
                u32::from_str_radix(digits, radix).ok()
            } else {
                None
            };
            code.and_then(char::from_u32)
                .filter(|&c| {
                    matches!(c, '\t' | '\n' | '\r' | ' '..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
                        || u32::from(c) >= 0x10000
                })
                .ok_or_else(|| format!("&{name}; is not a character XML allows"))?
        }
    };
    Ok(c)
}

#[cfg(test)]
mod tests;
