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
