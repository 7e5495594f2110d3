//! Validates UBL invoices and credit notes with the crate's rule engine
//! (`invoicing_core::ubl`, issue 30: every assert of the CEN EN 16931 and Peppol BIS
//! 3.0 artefacts), and prints the answer the way the official validator's script
//! (`../shared/peppol/validate.py`) does.
//!
//! ```sh
//! cargo run --release --example validate -- FILE.xml [FILE.xml ...]
//! cargo run --release --example validate -- --json FILE.xml [...]   # one JSON report a line
//! cargo run --release --example validate -- - < FILE.xml            # standard input
//! ```
//!
//! Plain output: one line per file, `PASS path` (with ` (N warnings)` when the rules
//! warn) or `FAIL path: RULE, RULE, …` (each failed fatal assert, in the artefacts'
//! order), then each error's rule and text, indented. `--json` prints one object per
//! file: `{"file", "fatal": [{"rule", "text", "location"}], "warnings": [...],
//! "unevaluated": [{"rule", "location", "why"}], "valid"}`, and `"error"` when the
//! file cannot be read, is not well-formed XML or is not a UBL Invoice or CreditNote
//! (then `valid` is false). The UBL 2.1 XSD (element order, cardinality, types) is not
//! checked: the official script's `XSD` errors have no counterpart here.
//!
//! Exit status: 0 when every file passes, 1 when one fails, 2 on a usage error.

#[path = "support/input.rs"]
mod input;
use input::read_input;
use invoicing_core::ubl::dom::Dom;
use invoicing_core::ubl::{engine, Report};
use serde_json::{json, Value};
use std::io::{BufWriter, Write};
use std::process::ExitCode;

const INVOICE: &str = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const CREDIT_NOTE: &str = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";

/// The engine's report on a file, or why there is none.
fn judge(path: &str) -> Result<Report, String> {
    let bytes = read_input(path)?;
    let dom = Dom::read(&bytes).map_err(|e| e.0)?;
    let root = dom.root();
    let (uri, name) = (dom.namespace_uri(root), dom.name(root));
    if !matches!(
        (uri, name),
        (INVOICE, "Invoice") | (CREDIT_NOTE, "CreditNote")
    ) {
        return Err(format!(
            "root element is {{{uri}}}{name}, not a UBL Invoice or CreditNote"
        ));
    }
    Ok(engine::check(&dom))
}

fn as_json(path: &str, judged: &Result<Report, String>) -> Value {
    let finding =
        |f: &engine::Finding| json!({"rule": f.rule, "text": f.text, "location": f.location});
    match judged {
        Ok(r) => json!({
            "file": path,
            "fatal": r.findings.iter().filter(|f| f.fatal).map(finding).collect::<Vec<_>>(),
            "warnings": r.findings.iter().filter(|f| !f.fatal).map(finding).collect::<Vec<_>>(),
            "unevaluated": r.unevaluated.iter()
                .map(|(rule, location, why)| json!({"rule": rule, "location": location, "why": why}))
                .collect::<Vec<_>>(),
            "valid": r.findings.iter().all(|f| !f.fatal),
        }),
        Err(e) => json!({
            "file": path, "error": e, "fatal": [], "warnings": [], "unevaluated": [], "valid": false,
        }),
    }
}

fn plain(out: &mut impl Write, path: &str, judged: &Result<Report, String>) -> std::io::Result<()> {
    match judged {
        Err(e) => writeln!(out, "FAIL {path}: {e}"),
        Ok(r) => {
            let fatal: Vec<&engine::Finding> = r.findings.iter().filter(|f| f.fatal).collect();
            let warnings = r.findings.len() - fatal.len();
            if fatal.is_empty() {
                if warnings == 0 {
                    writeln!(out, "PASS {path}")
                } else {
                    writeln!(out, "PASS {path} ({warnings} warnings)")
                }
            } else {
                let rules: Vec<&str> = fatal.iter().map(|f| f.rule).collect();
                writeln!(out, "FAIL {path}: {}", rules.join(", "))?;
                for f in fatal {
                    writeln!(out, "  {} {}", f.rule, f.text)?;
                }
                Ok(())
            }
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json_out = args.iter().any(|a| a == "--json");
    let files: Vec<&String> = args.iter().filter(|a| *a != "--json").collect();
    if files.is_empty() || files.iter().any(|f| f.starts_with("--")) {
        eprintln!("usage: validate [--json] FILE.xml [FILE.xml ...]   (- for standard input)");
        return ExitCode::from(2);
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut ok = true;
    for path in files {
        let judged = judge(path);
        ok &= judged
            .as_ref()
            .is_ok_and(|r| r.findings.iter().all(|f| !f.fatal));
        let written = if json_out {
            serde_json::to_writer(&mut out, &as_json(path, &judged))
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
        } else {
            plain(&mut out, path, &judged)
        };
        if let Err(e) = written {
            eprintln!("validate: cannot write: {e}");
            return ExitCode::from(2);
        }
    }
    if out.flush().is_err() {
        return ExitCode::from(2);
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
