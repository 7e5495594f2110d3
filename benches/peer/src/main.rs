//! One validation and nothing else, for `/usr/bin/time -v` (peak RSS, issue 30), or
//! N of them, for valgrind's instruction counts (N calls less one call, divided by
//! N − 1, is a call's cost without the first call's one-time set-up):
//!
//! ```sh
//! cargo build --profile bench -p invoicing-peer-bench --bin peer-one-call
//! B=target/release/peer-one-call
//! $B write /tmp/500.xml                            # the 500-line document's UBL
//! /usr/bin/time -v $B none /tmp/500.xml            # reads the file only
//! valgrind --tool=callgrind $B read /tmp/500.xml 3  # the file into a `Dom`
//! valgrind --tool=callgrind $B events /tmp/500.xml 3  # quick-xml's events only
//! /usr/bin/time -v $B ours /tmp/500.xml
//! /usr/bin/time -v $B peer /tmp/500.xml
//! valgrind --tool=callgrind $B ours /tmp/500.xml 11
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, path, times) = match args.as_slice() {
        [mode, path] => (mode, path, Some(1)),
        [mode, path, n] => (mode, path, n.parse::<usize>().ok().filter(|&n| n > 0)),
        _ => (&String::new(), &String::new(), None),
    };
    let Some(times) = times.filter(|_| !mode.is_empty()) else {
        eprintln!("usage: peer-one-call write|none|read|events|ours|peer FILE [TIMES]");
        return ExitCode::from(2);
    };
    if mode == "write" {
        let xml = invoicing_peer_bench::xml_500();
        return match std::fs::write(path, xml.as_bytes()) {
            Ok(()) if !xml.is_empty() => {
                println!("{path}: {} bytes", xml.len());
                ExitCode::SUCCESS
            }
            Ok(()) => {
                eprintln!("the 500-line document has no UBL");
                ExitCode::FAILURE
            }
            Err(e) => {
                eprintln!("cannot write {path}: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let policy = en16931_formats::Policy::default();
    let call = || match mode.as_str() {
        "none" => Some(0),
        "read" => Some(usize::from(
            invoicing_core::ubl::dom::Dom::read(&bytes).is_ok(),
        )),
        "events" => invoicing_peer_bench::events(&bytes),
        "ours" => Some(invoicing_peer_bench::ours(&bytes)),
        "peer" => Some(invoicing_peer_bench::peer_count(
            &invoicing_peer_bench::peer(&bytes, &policy),
        )),
        _ => None,
    };
    let mut findings = None;
    for _ in 0..times {
        findings = std::hint::black_box(call());
    }
    let Some(findings) = findings else {
        eprintln!("unknown mode {mode}: write, none, read, events, ours or peer");
        return ExitCode::from(2);
    };
    println!(
        "{mode} {path} ({} bytes, {times} calls): {findings} findings",
        bytes.len()
    );
    ExitCode::SUCCESS
}
