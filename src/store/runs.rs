//! `podium best runs SHARD.jsonl...`: the shards' `--json` records joined into one run, with each
//! case seen twice or missing from the expected run named (and the shard to run again).

use crate::core::cli::{quote, CliError, EXIT_INVALID};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

type Case = (String, String);

/// The (problem, case) of each whole line of `text`, and the reason for each line that is not a
/// record (a shard killed mid-write leaves half a line).
fn records(text: &str, name: &str) -> (Vec<(Case, String)>, Vec<String>) {
    let (mut good, mut bad) = (Vec::new(), Vec::new());
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let value: Option<Value> = serde_json::from_str(line).ok();
        match value
            .as_ref()
            .and_then(|v| Some((v["problem"].as_str()?, v["case"].as_str()?)))
        {
            Some((problem, case)) => {
                good.push(((problem.to_string(), case.to_string()), line.to_string()))
            }
            None => bad.push(format!(
                "{name} line {}: not a record: \"{}\"",
                n + 1,
                quote(line)
            )),
        }
    }
    (good, bad)
}

fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("best runs: cannot read {}: {e}", path.display())))
}

/// What to join and check.
pub struct RunsArgs<'a> {
    pub files: &'a [PathBuf],
    /// A whole run (or any JSON lines) whose cases the join must hold.
    pub expect: Option<&'a Path>,
    /// How many shards the run was split into, to name the shard of a missing case.
    pub shards: Option<u64>,
    /// Where the joined records go (stdout gets the report only).
    pub out: Option<&'a Path>,
}

pub fn join(args: &RunsArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let mut seen: BTreeMap<Case, String> = BTreeMap::new();
    let mut joined = String::new();
    let mut problems = 0;
    for file in args.files {
        let name = file.display().to_string();
        let (good, bad) = records(&read(file)?, &name);
        for reason in bad {
            problems += 1;
            writeln!(out, "{reason}")?;
        }
        for (case, line) in good {
            if let Some(first) = seen.get(&case) {
                problems += 1;
                writeln!(
                    out,
                    "duplicate {} {} in {name} (first in {first})",
                    case.0, case.1
                )?;
                continue;
            }
            seen.insert(case, name.clone());
            joined += &line;
            joined.push('\n');
        }
    }
    writeln!(
        out,
        "joined {} cases from {} files",
        seen.len(),
        args.files.len()
    )?;
    if let Some(expect) = args.expect {
        let name = expect.display().to_string();
        let (good, _) = records(&read(expect)?, &name);
        let expected: BTreeSet<Case> = good.into_iter().map(|(c, _)| c).collect();
        for (problem, case) in expected.iter().filter(|c| !seen.contains_key(*c)) {
            problems += 1;
            let shard = args.shards.map_or_else(String::new, |n| {
                let key = crate::bench::shard_key(problem, case);
                format!(" (shard {}/{n})", crate::core::shard::shard_of(key, n))
            });
            writeln!(out, "missing {problem} {case}{shard}")?;
        }
        for (problem, case) in seen.keys().filter(|c| !expected.contains(*c)) {
            problems += 1;
            writeln!(out, "unexpected {problem} {case} (not in {name})")?;
        }
    }
    if let Some(path) = args.out {
        let folder = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        super::put::write_atomically(folder, path, joined.as_bytes()).map_err(|e| {
            CliError::output(format!("best runs: cannot write {}: {e}", path.display()))
        })?;
    }
    if problems > 0 {
        return Err(CliError::new(
            EXIT_INVALID,
            format!("best runs: {problems} cases missing, repeated or unreadable"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_half_written_line_is_named_and_whole_ones_kept() {
        let text = "{\"problem\":\"slider\",\"case\":\"1\"}\n{\"problem\":\"sli";
        let (good, bad) = records(text, "s0.jsonl");
        assert_eq!(good.len(), 1);
        assert_eq!(bad.len(), 1);
        assert!(
            bad[0].starts_with("s0.jsonl line 2: not a record"),
            "{bad:?}"
        );
    }
}
