//! `podium best export DIR --problem P --out DIR2`: the contest's submission files of a store's
//! entries for one problem, each re-scored first (a rejected one is left out with its reason).

use super::rescore::{kind, verify};
use super::scan::scan;
use crate::core::cli::{CliError, EXIT_INVALID};
use std::io::Write;
use std::path::Path;

pub fn export(
    dir: &Path,
    problem: &str,
    out_dir: &Path,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let kind = kind(problem).ok_or_else(|| {
        CliError::input(format!(
            "best export: no problem '{}' (the store knows slider, icfp2015)",
            crate::core::cli::quote(problem)
        ))
    })?;
    let found = scan(dir, Some(problem)).map_err(|e| {
        CliError::input(format!(
            "best export: cannot read store {}: {e}",
            dir.display()
        ))
    })?;
    let mut entries = Vec::new();
    let mut rejected = 0;
    for file in found {
        match file.entry.and_then(|entry| verify(&entry).map(|_| entry)) {
            Ok(entry) => entries.push(entry),
            Err(reason) => {
                rejected += 1;
                writeln!(out, "rejected {}: {reason}", file.path.display())?;
            }
        }
    }
    let written = (kind.export)(&entries, out_dir).map_err(|e| {
        CliError::output(format!(
            "best export: cannot write {}: {e}",
            out_dir.display()
        ))
    })?;
    let total: i64 = entries.iter().map(|e| e.score).sum();
    writeln!(
        out,
        "exported {} {problem} entries (score sum {total}) to {} files in {}",
        entries.len(),
        written.len(),
        out_dir.display()
    )?;
    if rejected > 0 {
        return Err(CliError::new(
            EXIT_INVALID,
            format!("best export: {rejected} entries rejected"),
        ));
    }
    Ok(())
}
