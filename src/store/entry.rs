//! One stored solution: the problem, the instance's key, the score, the solution text and where
//! it came from; the file DIR/<problem>/<instance>.json holds exactly one, as pretty JSON.

use serde::{Deserialize, Serialize};

/// A solution as the store keeps it. Scores are integers, higher is better.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The problem, as `podium` names it (`slider`, `icfp2015`).
    pub problem: String,
    /// The instance's key, also the file's name: letters, digits, `-`, `_`, `.`.
    pub instance: String,
    pub score: i64,
    /// The official output, as the contest reads it.
    pub solution: String,
    /// The instance itself when it is not bundled with podium (slider: its input text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// The podium version and source commit that found it.
    pub podium: String,
    #[serde(default)]
    pub commit: Option<String>,
    /// Seconds since the Unix epoch when it was found.
    pub written: u64,
}

/// The longest instance key (it is a file name).
pub const MAX_KEY: usize = 120;

impl Entry {
    /// An entry stamped with this podium and this moment.
    pub fn new(problem: &str, instance: String, score: i64, solution: String) -> Entry {
        Entry {
            problem: problem.to_string(),
            instance,
            score,
            solution,
            input: None,
            podium: env!("CARGO_PKG_VERSION").to_string(),
            commit: crate::core::report::Machine::this().commit,
            written: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        }
    }

    /// Why the problem or instance cannot name a file, if it cannot.
    pub fn check_names(&self) -> Result<(), String> {
        for (what, name) in [("problem", &self.problem), ("instance", &self.instance)] {
            let fine = !name.is_empty()
                && name.len() <= MAX_KEY
                && !name.starts_with('.')
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
            if !fine {
                return Err(format!(
                    "{what} '{}' is not 1..{MAX_KEY} letters, digits, '-', '_' or '.'",
                    crate::core::text::quote(name)
                ));
            }
        }
        Ok(())
    }

    /// The entry in a file's text, or why it is not one.
    pub fn parse(text: &str) -> Result<Entry, String> {
        let entry: Entry =
            serde_json::from_str(text).map_err(|e| format!("not a store entry: {e}"))?;
        entry.check_names()?;
        Ok(entry)
    }

    pub fn to_text(&self) -> String {
        serde_json::to_string_pretty(self).expect("an entry serializes") + "\n"
    }
}

/// A stable key for an instance that podium does not bundle: `h` and its text's FNV-1a hash,
/// whitespace-normalised, so the same instance gets the same key on every machine.
pub fn text_key(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let hash = crate::core::shard::fnv1a(words.join(" ").as_bytes());
    format!("h{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_back_and_bad_names_are_refused() {
        let entry = Entry::new("slider", "seed-7".into(), 1234, "0\n".into());
        assert_eq!(Entry::parse(&entry.to_text()), Ok(entry.clone()));
        for bad in ["", "../x", ".hidden", "a b", "a/b"] {
            let forged = Entry {
                instance: bad.into(),
                ..entry.clone()
            };
            assert!(forged.check_names().is_err(), "{bad}");
        }
        assert!(Entry::parse("{")
            .unwrap_err()
            .starts_with("not a store entry"));
    }

    #[test]
    fn text_keys_ignore_whitespace_layout() {
        assert_eq!(text_key("1 2\n3\n"), text_key(" 1\n2 3"));
        assert_ne!(text_key("1 2 3"), text_key("1 2 4"));
    }
}
