//! Writes the UBL of the benches' 500-line invoice with 25 MiB of attachments (issue 17
//! (b): peak memory ≤ 2× the attachments' size), for `/usr/bin/time -v` to measure:
//!
//! ```sh
//! cargo build --release --example ubl_files
//! /usr/bin/time -v target/release/examples/ubl_files sink          # io::sink()
//! /usr/bin/time -v target/release/examples/ubl_files file OUT.xml  # a file, through a BufWriter
//! /usr/bin/time -v target/release/examples/ubl_files vec           # a Vec<u8>, for comparison
//! /usr/bin/time -v target/release/examples/ubl_files none          # the attachments only, no UBL
//! ```
//!
//! Three files of 8 738 133–8 738 134 bytes, 26 214 400 bytes in all (25 MiB, the most a
//! document holds), each filled before the UBL is written and attached through the upload
//! rules (`files::accept`, which checks their content): a PDF (`%PDF-1.7` then
//! pseudo-random bytes), a PNG (its 8-byte signature then pseudo-random bytes) and a CSV
//! (UTF-8 rows). The document's own PDF is not embedded (`UblFiles::pdf` is `None`), so
//! the UBL carries exactly the 25 MiB, base64-encoded (about 33.3 MiB of text).
//!
//! It prints the UBL's size and the attachments' size on standard error. `none` builds
//! the same document and attachments and writes nothing: the baseline of the process.

#[path = "support/rng.rs"]
mod rng;
#[path = "../benches/support/world.rs"]
mod world;

use invoicing_core::attachment::MediaType;
use invoicing_core::context::Permissions;
use invoicing_core::document::Document;
use invoicing_core::files::{accept, Part, MAX_TOTAL_BYTES};
use invoicing_core::lifecycle::create_bytes;
use invoicing_core::peppol::{write_ubl, UblFiles};
use rng::Rng;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

/// `size` bytes: `head`, then pseudo-random bytes. Allocated once at its size.
fn binary(head: &[u8], size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut bytes = Vec::with_capacity(size);
    bytes.extend_from_slice(head);
    while bytes.len() < size {
        let word = rng.next().to_le_bytes();
        let take = word.len().min(size - bytes.len());
        bytes.extend_from_slice(&word[..take]);
    }
    bytes
}

/// `size` bytes of CSV: a header, rows of an invoice's lines, and a last row padded to
/// the size. Allocated once at its size.
fn csv(size: usize) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(size);
    bytes.extend_from_slice(b"line,item,quantity,unit_price,vat_rate\n");
    let mut i = 0u64;
    loop {
        let row = format!(
            "{i},Item {i},{}.{},{}.{:02},21\n",
            1 + i % 7,
            i % 10,
            3 + i % 90,
            i % 100
        );
        if bytes.len() + row.len() + 2 > size {
            break;
        }
        bytes.extend_from_slice(row.as_bytes());
        i += 1;
    }
    let rest = size - bytes.len() - 1;
    bytes.resize(bytes.len() + rest, b'x');
    bytes.push(b'\n');
    bytes
}

/// The 500-line invoice of the benches with `files` attached by the upload rules.
fn document(files: &[(&str, &str, &[u8])]) -> Result<Document, String> {
    let ctx = world::bench_world();
    let mut doc = create_bytes(&ctx, Permissions::ALL, None, &world::body(500), "doc-1")
        .map_err(|e| format!("the create was refused: {}", e.body()))?
        .document;
    for (filename, content_type, bytes) in files {
        let part = Part {
            name: Some("file".to_owned()),
            filename: Some((*filename).to_owned()),
            content_type: Some((*content_type).to_owned()),
            bytes,
        };
        let upload = accept(&doc, Ok(&[part]))
            .map_err(|e| format!("{filename} was refused: {}", e.body()))?;
        doc = upload.attached_to(&doc);
    }
    Ok(doc)
}

/// Counts what goes through, to print the UBL's size.
struct Counted<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += u64::try_from(n).unwrap_or(u64::MAX);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let total = usize::try_from(MAX_TOTAL_BYTES).map_err(|e| e.to_string())?;
    let third = total / 3;
    let pdf = binary(b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n", total - 2 * third, 1);
    let png = binary(b"\x89PNG\r\n\x1a\n", third, 2);
    let csv = csv(third);
    let files: [(&str, &str, &[u8]); 3] = [
        ("scan.pdf", MediaType::Pdf.as_str(), &pdf),
        ("photo.png", MediaType::Png.as_str(), &png),
        ("lines.csv", MediaType::Csv.as_str(), &csv),
    ];
    let doc = document(&files)?;
    let ctx = world::bench_world();
    let bytes: Vec<&[u8]> = files.iter().map(|f| f.2).collect();
    let ubl_files = UblFiles {
        pdf: None,
        attachments: &bytes,
    };
    let write = |out: &mut dyn Write| {
        write_ubl(out, &doc, &ctx.company, &ctx.relation, None, &ubl_files)
            .map_err(|e| e.to_string())
    };
    let written = match args {
        [mode] if mode == "sink" => {
            let mut out = Counted {
                inner: std::io::sink(),
                bytes: 0,
            };
            write(&mut out)?;
            out.bytes
        }
        [mode, path] if mode == "file" => {
            let file = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
            let mut out = Counted {
                inner: BufWriter::new(file),
                bytes: 0,
            };
            write(&mut out)?;
            out.flush().map_err(|e| e.to_string())?;
            out.bytes
        }
        [mode] if mode == "vec" => {
            let mut out = Vec::new();
            write(&mut out)?;
            std::hint::black_box(&out);
            u64::try_from(out.len()).unwrap_or(u64::MAX)
        }
        [mode] if mode == "none" => 0,
        _ => return Err("usage: ubl_files sink | file PATH | vec | none".into()),
    };
    eprintln!(
        "attachments: {} bytes ({} files); ubl: {written} bytes",
        files.iter().map(|f| f.2.len()).sum::<usize>(),
        doc.attachments.len()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("ubl_files: {message}");
            ExitCode::FAILURE
        }
    }
}
