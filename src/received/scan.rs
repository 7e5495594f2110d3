//! The fast pass over a received UBL: a byte scanner for the XML a UBL usually is,
//! feeding the same [`Builder`] as quick-xml's reader does, with the same events.
//!
//! It reads a strict subset of what quick-xml's `NsReader` accepts: names of ASCII
//! letters, digits and `_-.:`; attributes `name="value"` (or `'value'`) separated by
//! whitespace, without duplicates, references, tabs or line breaks in their values;
//! namespace declarations on the root only; end tags written exactly as their start;
//! comments and processing instructions; text without references, and the text of a
//! kept element in one piece without a carriage return. On anything else (a
//! reference, CDATA, a DOCTYPE, any error) it gives up, and the bytes are read again
//! by quick-xml ([`read_facts_slow`](super::reader::read_facts_slow)), which also
//! words every error: so the scan changes no result, only the time it takes.

use super::facts::{
    cac_name, cbc_name, finish, is_text_element, wanted_attribute, Builder, Facts, Root, N, NS_CAC,
    NS_CBC, NS_CREDIT_NOTE, NS_INVOICE,
};

/// The namespaces the reader tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ns {
    Cbc,
    Cac,
    Invoice,
    CreditNote,
    Other,
}

fn ns_of(uri: &[u8]) -> Ns {
    if uri == NS_CBC.as_bytes() {
        Ns::Cbc
    } else if uri == NS_CAC.as_bytes() {
        Ns::Cac
    } else if uri == NS_INVOICE.as_bytes() {
        Ns::Invoice
    } else if uri == NS_CREDIT_NOTE.as_bytes() {
        Ns::CreditNote
    } else {
        Ns::Other
    }
}

/// The deepest nesting the scan reads (quick-xml's limit is far above).
const MAX_DEPTH: usize = 4096;

/// The most namespace declarations the scan reads (quick-xml refuses above 128).
const MAX_BINDINGS: usize = 64;

/// The most attributes of one element the scan reads.
const MAX_ATTRIBUTES: usize = 16;

/// A byte of a name the scan reads (ASCII letters, digits, `_-.:`).
const NAME: u8 = 1;
/// XML whitespace.
const SPACE: u8 = 2;
/// Where text stops or needs a look: `<`, `&`, CR.
const TEXT_STOP: u8 = 4;
/// What the scan does not read in an attribute value: `<`, `&`, tab, CR, LF.
const VALUE_STOP: u8 = 8;

/// The classes of every byte.
static CLASS: [u8; 256] = {
    let mut t = [0_u8; 256];
    let mut i = 0;
    while i < 256 {
        #[allow(clippy::cast_possible_truncation)]
        let c = i as u8;
        let mut k = 0;
        if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':') {
            k |= NAME;
        }
        if matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
            k |= SPACE;
        }
        if matches!(c, b'<' | b'&' | b'\r') {
            k |= TEXT_STOP;
        }
        if matches!(c, b'<' | b'&' | b'\t' | b'\r' | b'\n') {
            k |= VALUE_STOP;
        }
        t[i] = k;
        i += 1;
    }
    t
};

fn is(class: u8, b: u8) -> bool {
    CLASS[usize::from(b)] & class != 0
}

/// XML whitespace.
fn space(b: u8) -> bool {
    is(SPACE, b)
}

/// The first position from `i` whose byte is not of the class (the length at the
/// end).
fn skip(s: &[u8], i: usize, class: u8) -> usize {
    s.get(i..).map_or(i, |r| {
        i + r.iter().position(|&c| !is(class, c)).unwrap_or(r.len())
    })
}

/// The first position from `i` whose byte is of the class.
fn until(s: &[u8], i: usize, class: u8) -> Option<usize> {
    s.get(i..)?
        .iter()
        .position(|&c| is(class, c))
        .map(|k| i + k)
}

/// The namespace declarations of the root.
struct Bindings<'a> {
    default: Ns,
    named: Vec<(&'a [u8], Ns)>,
}

impl Bindings<'_> {
    /// The namespace of an element name with this prefix.
    fn resolve(&self, prefix: Option<&[u8]>) -> Ns {
        match prefix {
            None => self.default,
            // prefixes are short: compared byte by byte, without a call
            Some(p) => self
                .named
                .iter()
                .rev()
                .find(|(q, _)| q.len() == p.len() && q.iter().zip(p).all(|(a, b)| a == b))
                .map_or(Ns::Other, |&(_, ns)| ns),
        }
    }
}

/// A start tag's name: where it ends and where its first colon is.
struct Name {
    end: usize,
    colon: Option<usize>,
}

/// The name of the tag whose `<` is at `i`.
fn name_at(s: &[u8], i: usize) -> Option<Name> {
    let start = i + 1;
    let j = skip(s, start, NAME);
    let colon = s
        .get(start..j)?
        .iter()
        .position(|&c| c == b':')
        .map(|k| start + k);
    if j == start || colon == Some(start) || colon == Some(j - 1) {
        return None;
    }
    Some(Name { end: j, colon })
}

/// The end of a start tag: after its `>`, and whether it is empty (`/>`).
struct TagEnd {
    next: usize,
    empty: bool,
}

/// Reads the attributes of a tag from `j` (just after its name) to its end, giving
/// each `(key, value)` to `each`, which may refuse it; `keys` is room for the keys
/// seen (to refuse a duplicate).
fn attributes<'a>(
    text: &'a str,
    mut j: usize,
    keys: &mut Vec<&'a [u8]>,
    mut each: impl FnMut(&'a [u8], &'a str) -> Option<()>,
) -> Option<TagEnd> {
    let s = text.as_bytes();
    keys.clear();
    loop {
        match *s.get(j)? {
            b'>' => {
                return Some(TagEnd {
                    next: j + 1,
                    empty: false,
                })
            }
            b'/' => {
                return (*s.get(j + 1)? == b'>').then_some(TagEnd {
                    next: j + 2,
                    empty: true,
                });
            }
            c if space(c) => {
                j = skip(s, j, SPACE);
                let c = *s.get(j)?;
                if c == b'>' || c == b'/' {
                    continue;
                }
                let key_start = j;
                j = skip(s, j, NAME);
                let key = &s[key_start..j];
                // `key = "value"`: whitespace is allowed around `=`
                j = skip(s, j, SPACE);
                if key.is_empty() || *s.get(j)? != b'=' {
                    return None;
                }
                j = skip(s, j + 1, SPACE);
                let quote = *s.get(j)?;
                if quote != b'"' && quote != b'\'' {
                    return None;
                }
                let value_start = j + 1;
                let value_end = value_start
                    + s.get(value_start..)?
                        .iter()
                        .position(|&c| c == quote || is(VALUE_STOP, c))?;
                if s[value_end] != quote {
                    return None;
                }
                if keys.len() == MAX_ATTRIBUTES || keys.contains(&key) {
                    return None;
                }
                keys.push(key);
                each(key, text.get(value_start..value_end)?)?;
                j = value_end + 1;
                // another attribute needs whitespace before it
                let c = *s.get(j)?;
                if !(space(c) || c == b'>' || c == b'/') {
                    return None;
                }
            }
            _ => return None,
        }
    }
}

/// After a comment or a processing instruction whose `<` is at `i`; none for other
/// `<!` markup (CDATA, DOCTYPE) or an unclosed one.
fn skip_markup(s: &[u8], i: usize) -> Option<usize> {
    match *s.get(i + 1)? {
        // quick-xml: the first `?>` from the `?` of `<?` (`<?>` is an error)
        b'?' => {
            let k = find(s.get(i + 1..)?, b"?>")?;
            (k > 0).then_some(i + 1 + k + 2)
        }
        // quick-xml: the first `-->` after `<!--`
        b'!' if s.get(i + 2..i + 4) == Some(b"--") => {
            let k = find(s.get(i + 4..)?, b"-->")?;
            Some(i + 4 + k + 3)
        }
        _ => None,
    }
}

/// Where `needle` first occurs in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Whitespace, comments and processing instructions outside the root, from `i`: the
/// position of the next other markup, or the end.
fn misc(s: &[u8], mut i: usize) -> Option<usize> {
    loop {
        i = skip(s, i, SPACE);
        match s.get(i) {
            None => return Some(i),
            Some(b'<') => match s.get(i + 1) {
                Some(b'?' | b'!') => i = skip_markup(s, i)?,
                _ => return Some(i),
            },
            Some(_) => return None,
        }
    }
}

/// The facts of a UBL Invoice or CreditNote, if the scan can read the text (else
/// quick-xml reads it).
pub(crate) fn read_facts(text: &str) -> Option<Facts> {
    let s = text.as_bytes();
    let mut b = Builder::default();
    // the root's start tag
    let root_at = misc(s, 0)?;
    let root = name_at(s, root_at)?;
    let mut bindings = Bindings {
        default: Ns::Other,
        named: Vec::new(),
    };
    let mut keys = Vec::with_capacity(MAX_ATTRIBUTES);
    let root_end = attributes(text, root.end, &mut keys, |key, value| {
        let Some(rest) = key.strip_prefix(b"xmlns") else {
            return Some(());
        };
        let value = value.as_bytes();
        if value == b"http://www.w3.org/XML/1998/namespace"
            || value == b"http://www.w3.org/2000/xmlns/"
            || bindings.named.len() == MAX_BINDINGS
        {
            return None;
        }
        match rest {
            [] => bindings.default = ns_of(value),
            [b':', prefix @ ..] => {
                if prefix.is_empty() || prefix == b"xml" || prefix == b"xmlns" {
                    return None;
                }
                bindings.named.push((prefix, ns_of(value)));
            }
            _ => {}
        }
        Some(())
    })?;
    let (prefix, local) = match root.colon {
        Some(c) => (Some(&s[root_at + 1..c]), &s[c + 1..root.end]),
        None => (None, &s[root_at + 1..root.end]),
    };
    b.facts.root = match (bindings.resolve(prefix), local) {
        (Ns::Invoice, b"Invoice") => Root::Invoice,
        (Ns::CreditNote, b"CreditNote") => Root::CreditNote,
        _ => return None,
    };
    let root_name = &s[root_at + 1..root.end];
    let mut i = root_end.next;
    if !root_end.empty {
        // room for the lines from a low estimate of their size (no copy as they
        // grow; untouched room costs no memory)
        b.facts.lines.reserve((text.len() / 512).min(1 << 16));
        i = body(text, i, &bindings, root_name, &mut keys, &mut b)?;
    }
    (misc(s, i)? == s.len()).then_some(b.facts)
}

/// The content of the root from `i` up to and including its end tag; the position
/// after it.
fn body<'a>(
    text: &'a str,
    mut i: usize,
    bindings: &Bindings<'_>,
    root_name: &[u8],
    keys: &mut Vec<&'a [u8]>,
    b: &mut Builder,
) -> Option<usize> {
    let s = text.as_bytes();
    let mut stack: Vec<N> = Vec::with_capacity(16);
    // the names of the open elements below the root (start, end)
    let mut names: Vec<(usize, usize)> = Vec::with_capacity(16);
    let mut capture: Option<usize> = None;
    // the text of the element being read (one piece) and its attribute
    let mut captured: Option<&str> = None;
    let mut attr: Option<&str> = None;
    loop {
        // text up to the next markup: no reference; kept, in one piece, without CR
        let from = i;
        let mut cr = false;
        loop {
            i = until(s, i, TEXT_STOP)?;
            match s[i] {
                b'<' => break,
                b'\r' => cr = true,
                _ => return None,
            }
            i += 1;
        }
        if i > from && capture.is_some() {
            if captured.is_some() || cr {
                return None;
            }
            captured = Some(text.get(from..i)?);
        }
        match *s.get(i + 1)? {
            b'/' => {
                let (start, end) = names.last().map_or((0, root_name.len()), |&n| n);
                let name = names.last().map_or(root_name, |_| &s[start..end]);
                let after = i + 2 + name.len();
                if s.get(i + 2..after) != Some(name) || *s.get(after)? != b'>' {
                    return None;
                }
                i = after + 1;
                if names.pop().is_none() {
                    return Some(i);
                }
                finish(b, &mut stack, &mut capture, captured.unwrap_or(""), attr);
            }
            b'?' | b'!' => i = skip_markup(s, i)?,
            _ => {
                let name = name_at(s, i)?;
                let (ns, local) = match name.colon {
                    Some(c) => (bindings.resolve(Some(&s[i + 1..c])), &s[c + 1..name.end]),
                    None => (bindings.resolve(None), &s[i + 1..name.end]),
                };
                let n = match ns {
                    Ns::Cbc => cbc_name(local),
                    Ns::Cac => cac_name(local),
                    _ => N::Other,
                };
                let wanted = wanted_attribute(n).map(str::as_bytes);
                let mut value = None;
                let end = attributes(text, name.end, keys, |key, v| {
                    if key.starts_with(b"xmlns") {
                        return None;
                    }
                    if Some(key) == wanted {
                        value = Some(v);
                    }
                    Some(())
                })?;
                if stack.len() == MAX_DEPTH {
                    return None;
                }
                stack.push(n);
                names.push((i + 1, name.end));
                b.open(&stack, local);
                if is_text_element(n) {
                    captured = None;
                    capture = Some(stack.len());
                    attr = value;
                }
                i = end.next;
                if end.empty {
                    names.pop();
                    finish(b, &mut stack, &mut capture, captured.unwrap_or(""), attr);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
