//! The received reader's two readings (issue 18): the fast byte scan of a UBL and
//! quick-xml's namespace-aware reader. On any UTF-8 text the scan either gives up
//! (quick-xml then reads the text alone) or reads exactly what quick-xml reads.
#![no_main]

use invoicing_core::received::scan_agrees_with_quick_xml;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    assert_ne!(
        scan_agrees_with_quick_xml(text),
        Some(false),
        "the scan and quick-xml read this text differently"
    );
});
