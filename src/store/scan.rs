//! Reading a store back: every DIR/<problem>/<instance>.json file with its entry, or the reason
//! it is not a valid one (unreadable, not JSON, or filed under a name that is not its own).

use super::entry::Entry;
use std::fs;
use std::path::{Path, PathBuf};

/// One file of a store and what it holds.
pub struct Found {
    pub path: PathBuf,
    pub entry: Result<Entry, String>,
}

fn names(dir: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut names: Vec<(String, PathBuf)> = fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(name, _)| !name.starts_with('.'))
        .collect();
    names.sort();
    Ok(names)
}

/// Every entry file under `dir` (only `problem`'s when given), sorted by path; lock and temp
/// files (dot files) are not entries. A missing or unreadable `dir` is an error.
pub fn scan(dir: &Path, problem: Option<&str>) -> std::io::Result<Vec<Found>> {
    let mut found = Vec::new();
    for (folder_name, folder) in names(dir)? {
        if !folder.is_dir() || problem.is_some_and(|p| p != folder_name) {
            continue;
        }
        for (name, path) in names(&folder)? {
            let Some(stem) = name.strip_suffix(".json") else {
                continue;
            };
            let entry = fs::read_to_string(&path)
                .map_err(|e| format!("cannot read: {e}"))
                .and_then(|text| Entry::parse(&text))
                .and_then(|entry| {
                    if entry.problem != folder_name || entry.instance != stem {
                        Err(format!(
                            "holds {} {} under the name {folder_name}/{name}",
                            entry.problem, entry.instance
                        ))
                    } else {
                        Ok(entry)
                    }
                });
            found.push(Found { path, entry });
        }
    }
    Ok(found)
}
