//! `podium best merge DIR... --into DIR`: every entry of the source stores re-scored by its
//! problem's scorer and offered to the target; a rejected entry is one line saying why.

use super::rescore::verify;
use super::scan::scan;
use crate::core::cli::{CliError, EXIT_INVALID};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Merges `sources` into `into`; with `expect` (lines `PROBLEM INSTANCE`), also names each
/// expected entry the target still lacks. Exit 1 at the end if any entry was rejected or missing.
pub fn merge(
    sources: &[PathBuf],
    into: &Path,
    expect: Option<&Path>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let expected = expect.map(read_expected).transpose()?;
    let (mut read, mut stored, mut rejected) = (0, 0, 0);
    for source in sources {
        let found = scan(source, None).map_err(|e| {
            CliError::input(format!(
                "best merge: cannot read store {}: {e}",
                source.display()
            ))
        })?;
        for file in found {
            read += 1;
            let checked = file.entry.and_then(|entry| verify(&entry).map(|_| entry));
            match checked {
                Ok(entry) => {
                    let offer = super::put::offer(into, &entry).map_err(|e| {
                        CliError::output(format!(
                            "best merge: cannot write {}: {e}",
                            into.display()
                        ))
                    })?;
                    if matches!(offer, super::put::Offer::Stored { .. }) {
                        stored += 1;
                    }
                }
                Err(reason) => {
                    rejected += 1;
                    writeln!(out, "rejected {}: {reason}", file.path.display())?;
                }
            }
        }
    }
    writeln!(
        out,
        "merged {read} entries into {}: {stored} stored, {rejected} rejected",
        into.display()
    )?;
    let mut missing = 0;
    if let Some(expected) = expected {
        let held: BTreeSet<(String, String)> = scan(into, None)
            .map_err(|e| CliError::output(format!("best merge: {}: {e}", into.display())))?
            .into_iter()
            .filter_map(|f| f.entry.ok())
            .map(|e| (e.problem, e.instance))
            .collect();
        for (problem, instance) in expected.difference(&held) {
            missing += 1;
            writeln!(out, "missing {problem} {instance}")?;
        }
    }
    if rejected + missing > 0 {
        return Err(CliError::new(
            EXIT_INVALID,
            format!("best merge: {rejected} entries rejected, {missing} expected entries missing"),
        ));
    }
    Ok(())
}

/// The expected entries: one `PROBLEM INSTANCE` per line, `#` comments and blank lines skipped.
fn read_expected(path: &Path) -> Result<BTreeSet<(String, String)>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("best merge: cannot read {}: {e}", path.display())))?;
    let mut expected = BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [problem, instance] = words[..] else {
            return Err(CliError::input(format!(
                "best merge: {} line {}: expected 'PROBLEM INSTANCE', found \"{}\"",
                path.display(),
                n + 1,
                crate::core::cli::quote(line)
            )));
        };
        expected.insert((problem.to_string(), instance.to_string()));
    }
    Ok(expected)
}
