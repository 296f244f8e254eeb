//! The problems the store knows: each one's independent re-scorer and its export, looked up by
//! the problem name an entry carries.

use super::entry::Entry;
use std::path::{Path, PathBuf};

/// What the store needs of a problem.
pub struct Kind {
    pub name: &'static str,
    /// The score of an entry's solution by the problem's independent scorer, or why it has none.
    pub rescore: fn(&Entry) -> Result<i64, String>,
    /// Writes the contest's submission files for these entries into a directory.
    pub export: fn(&[Entry], &Path) -> std::io::Result<Vec<PathBuf>>,
}

pub const KINDS: [Kind; 2] = [
    Kind {
        name: "slider",
        rescore: super::slider::rescore,
        export: super::slider::export,
    },
    Kind {
        name: "icfp2015",
        rescore: super::icfp2015::rescore,
        export: super::icfp2015::export,
    },
];

pub fn kind(problem: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|k| k.name == problem)
}

/// The entry's score if its problem's scorer confirms it exactly, else why not.
pub fn verify(entry: &Entry) -> Result<i64, String> {
    let kind = kind(&entry.problem)
        .ok_or_else(|| format!("problem '{}' has no scorer in the store", entry.problem))?;
    let score = (kind.rescore)(entry)?;
    if score != entry.score {
        return Err(format!(
            "claims score {}, the scorer gives {score}",
            entry.score
        ));
    }
    Ok(score)
}
