//! What the command-line examples read: a file, or standard input for `-`.

use std::io::Read;

/// The bytes of `path`, or of standard input when `path` is `-`; the error says which
/// could not be read and why.
pub fn read_input(path: &str) -> Result<Vec<u8>, String> {
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
