//! Runs a simulator scenario (simulator.md) and prints the result as pretty JSON.
//!
//! ```sh
//! cargo run --example simulate -- examples/scenarios/quickstart.json
//! cargo run --example simulate -- - < scenario.json
//! ```
//!
//! The only place of the crate that does I/O. A malformed scenario, or a file that
//! cannot be read, prints `{"error": "…"}` and exits with code 1.

use invoicing_core::simulator;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::process::ExitCode;

fn read_scenario(path: &str) -> Result<Vec<u8>, String> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(bytes)
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))
    }
}

fn print(value: &Value) -> Result<(), String> {
    let text =
        serde_json::to_string_pretty(value).map_err(|e| format!("cannot write the result: {e}"))?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").map_err(|e| format!("cannot write the result: {e}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [path] => read_scenario(path).map(|bytes| simulator::run(&bytes)),
        _ => Err("usage: simulate FILE (or - for standard input)".to_owned()),
    };
    let (value, ok) = match result {
        Ok(value) => {
            let ok = value.get("error").is_none();
            (value, ok)
        }
        Err(message) => (json!({ "error": message }), false),
    };
    if let Err(message) = print(&value) {
        eprintln!("{message}");
        return ExitCode::FAILURE;
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
