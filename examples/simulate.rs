//! Runs a simulator scenario (docs/scenario.md) and prints the result as pretty JSON.
//!
//! ```sh
//! cargo run --example simulate -- examples/scenarios/quickstart.json
//! cargo run --example simulate -- - < scenario.json
//! ```
//!
//! The only place of the crate that does I/O. Each response is written as soon as it
//! is answered ([`simulator::run_to`]): only the world and the scenario's bytes are held. A malformed
//! scenario, or a file that cannot be read, prints `{"error": "…"}` and exits with
//! code 1.

#[path = "support/input.rs"]
mod input;
use input::read_input;
use invoicing_core::simulator;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

/// Writes the answer; `Ok(true)` when the scenario ran, `Ok(false)` when its answer
/// is an error.
fn answer(args: &[String], out: &mut impl Write) -> std::io::Result<bool> {
    let bytes = match args {
        [path] => read_input(path),
        _ => Err("usage: simulate FILE (or - for standard input)".to_owned()),
    };
    match bytes {
        Ok(bytes) => simulator::run_to(&bytes, out).map(|ran| ran.is_ok()),
        Err(message) => {
            serde_json::to_writer_pretty(&mut *out, &serde_json::json!({ "error": message }))?;
            out.write_all(b"\n").map(|()| false)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = BufWriter::new(std::io::stdout().lock());
    match answer(&args, &mut out).and_then(|ok| out.flush().map(|()| ok)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("cannot write the result: {e}");
            ExitCode::FAILURE
        }
    }
}
