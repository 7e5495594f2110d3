//! The answer of a scenario written as it is answered (issue 12): the bytes of
//! `serde_json::to_string_pretty` of `{"responses": [...]}` (or of `{"error": "…"}`)
//! followed by a newline, one response at a time. The header `{"responses": [` and
//! the trailer `]}` are written by hand; each response is written by serde_json's
//! pretty formatter set two levels deep, where it sits in the whole answer.

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};
use serde_json::{Serializer, Value};
use std::io::{self, Write};

/// The header of the answer, up to the opening bracket of `responses`.
const HEADER: &[u8] = b"{\n  \"responses\": [";
/// Before the first response: a new line indented two levels.
const FIRST: &[u8] = b"\n    ";
/// Between two responses.
const NEXT: &[u8] = b",\n    ";
/// The trailer after at least one response, with the final newline.
const TRAILER: &[u8] = b"\n  ]\n}\n";
/// The trailer of an empty list (`"responses": []`), with the final newline.
const TRAILER_EMPTY: &[u8] = b"]\n}\n";

/// One response as the answer lists it: `status`, then `body`.
#[derive(Serialize)]
struct Response<'a, T: ?Sized> {
    status: u16,
    body: &'a T,
}

/// Where the responses of a scenario are written, one by one, each as
/// `{"status", "body"}` two levels deep in the answer.
pub(super) struct Responses<'w, W: ?Sized> {
    out: &'w mut W,
    first: bool,
}

impl<W: Write + ?Sized> Responses<'_, W> {
    /// Writes one response: its status and its body.
    pub(super) fn write<T: Serialize + ?Sized>(&mut self, status: u16, body: &T) -> io::Result<()> {
        self.out.write_all(if self.first { FIRST } else { NEXT })?;
        self.first = false;
        let mut ser = Serializer::with_formatter(&mut *self.out, nested_formatter()?);
        Response { status, body }.serialize(&mut ser)?;
        Ok(())
    }
}

impl<W: Write + ?Sized> Responses<'_, W> {
    /// Writes one response whose body is a list of records given as compact JSON
    /// text as `serde_json` writes it ([`compact`]), re-indented as the pretty
    /// writer would write their values: the bytes of [`Responses::write`] of the list
    /// of their values, without reading any into a value.
    pub(super) fn write_records<'r>(
        &mut self,
        status: u16,
        records: impl Iterator<Item = &'r str>,
    ) -> io::Result<()> {
        self.out.write_all(if self.first { FIRST } else { NEXT })?;
        self.first = false;
        write!(
            self.out,
            "{{\n      \"status\": {status},\n      \"body\": "
        )?;
        // the list sits 3 levels deep: the answer, `responses`, the response
        let mut any = false;
        for text in records {
            self.out.write_all(if any { b",\n" } else { b"[\n" })?;
            any = true;
            indent(self.out, 4)?;
            reindent(self.out, text, 4)?;
        }
        if any {
            self.out.write_all(b"\n")?;
            indent(self.out, 3)?;
            self.out.write_all(b"]")?;
        } else {
            self.out.write_all(b"[]")?;
        }
        self.out.write_all(b"\n    }")
    }
}

/// A value's compact JSON text as `serde_json` writes it, written into `scratch`:
/// what [`Responses::write_records`] re-indents.
pub(super) fn compact<'s, T: Serialize + ?Sized>(value: &T, scratch: &'s mut Vec<u8>) -> &'s str {
    scratch.clear();
    if serde_json::to_writer(&mut *scratch, value).is_err() {
        scratch.clear();
    }
    // serde_json writes UTF-8.
    std::str::from_utf8(scratch).unwrap_or_default()
}

/// Writes `level` levels of the pretty writer's indentation (two spaces each).
fn indent<W: Write + ?Sized>(out: &mut W, level: usize) -> io::Result<()> {
    for _ in 0..level {
        out.write_all(b"  ")?;
    }
    Ok(())
}

/// The places and bytes of a JSON text's structure (`{ [ } ] , :`), strings
/// skipped: what [`reindent`] and the depth check of the raw reading walk.
pub(super) fn structure(text: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    let (mut in_string, mut escaped) = (false, false);
    text.bytes().enumerate().filter(move |&(_, b)| {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            return false;
        }
        in_string = b == b'"';
        matches!(b, b'{' | b'[' | b'}' | b']' | b',' | b':')
    })
}

/// Writes compact JSON text as `serde_json`'s pretty writer writes its value at
/// `level`: a new line and one more level inside a non-empty object or list, `": "`
/// after a key, `{}` and `[]` for empty ones; strings, numbers and literals as they
/// are (the compact text already has the writer's escapes).
fn reindent<W: Write + ?Sized>(out: &mut W, text: &str, mut level: usize) -> io::Result<()> {
    let bytes = text.as_bytes();
    let mut start = 0;
    for (i, b) in structure(text) {
        if i < start {
            continue; // the closer of an empty object or list, written with its opener
        }
        out.write_all(bytes.get(start..i).unwrap_or_default())?;
        start = i + 1;
        match b {
            b'{' | b'[' => {
                let close = if b == b'{' { b'}' } else { b']' };
                if bytes.get(i + 1) == Some(&close) {
                    out.write_all(&[b, close])?;
                    start = i + 2;
                } else {
                    level += 1;
                    out.write_all(&[b, b'\n'])?;
                    indent(out, level)?;
                }
            }
            b'}' | b']' => {
                level = level.saturating_sub(1);
                out.write_all(b"\n")?;
                indent(out, level)?;
                out.write_all(&[b])?;
            }
            b',' => {
                out.write_all(b",\n")?;
                indent(out, level)?;
            }
            _ => out.write_all(b": ")?,
        }
    }
    out.write_all(bytes.get(start..).unwrap_or_default())
}

/// Writes the responses answered one by one by `answer`, as the pretty answer
/// `{"responses": [...]}` and a newline. `answer` writes exactly one response for
/// each request, before the next request is answered.
pub(super) fn write_responses<W, I, F>(out: &mut W, requests: I, mut answer: F) -> io::Result<()>
where
    W: Write + ?Sized,
    I: IntoIterator,
    F: FnMut(I::Item, &mut Responses<'_, W>) -> io::Result<()>,
{
    out.write_all(HEADER)?;
    let mut responses = Responses { out, first: true };
    for request in requests {
        answer(request, &mut responses)?;
    }
    let first = responses.first;
    out.write_all(if first { TRAILER_EMPTY } else { TRAILER })
}

/// Writes `value` pretty, then a newline: what the example prints for an answer that
/// is not a list of responses (`{"error": "…"}`).
pub(super) fn write_pretty_line<W: Write + ?Sized>(out: &mut W, value: &Value) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    out.write_all(b"\n")
}

/// serde_json's pretty formatter, two levels deep: inside the answer's object and
/// its `responses` array. It is brought there by the calls that open them, written
/// to nowhere.
fn nested_formatter() -> io::Result<PrettyFormatter<'static>> {
    let mut formatter = PrettyFormatter::new();
    let sink = &mut io::sink();
    formatter.begin_object(sink)?;
    formatter.begin_array(sink)?;
    Ok(formatter)
}

#[cfg(test)]
mod tests;
