//! Reading the crate's own source for the tests that check its structure (module_graph,
//! icfp2015_layers): the `.rs` files under a folder, and a file's code without tests and comments.

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, recursively.
pub fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's text without its `#[cfg(test)]` items (tests may reach anywhere) and comment
/// lines.
pub fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            // Skip the item that follows: to its matching closing brace, or its `;`.
            let mut depth = 0i64;
            let mut opened = false;
            for next in lines.by_ref() {
                depth += next.matches('{').count() as i64 - next.matches('}').count() as i64;
                opened |= next.contains('{');
                if opened && depth <= 0 || !opened && next.trim_end().ends_with(';') {
                    break;
                }
            }
            continue;
        }
        if !trimmed.starts_with("//") {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}
