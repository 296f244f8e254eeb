//! Slider in the store: an instance's key (`seed-N` for a bundled one, else a hash of its text,
//! which the entry then carries), its re-score by the independent scorer, and its export.

use super::entry::{text_key, Entry};
use crate::slider::board::Problem;
use crate::slider::cases::INSTANCES;
use std::path::{Path, PathBuf};

fn normalised(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// The bundled instance under `key`, if there is one.
fn bundled(key: &str) -> Option<&'static str> {
    let seed: u64 = key.strip_prefix("seed-")?.parse().ok()?;
    INSTANCES.iter().find(|i| i.0 == seed).map(|i| i.1)
}

/// The key of the instance `text`, and the text to carry when it is not bundled.
pub fn key_of(text: &str) -> (String, Option<String>) {
    let words = normalised(text);
    match INSTANCES.iter().find(|(_, t)| normalised(t) == words) {
        Some((seed, _)) => (format!("seed-{seed}"), None),
        None => (text_key(text), Some(text.to_string())),
    }
}

/// The entry of `solution`, scoring `score`, on the instance `input`.
pub fn entry(input: &str, score: i64, solution: String) -> Entry {
    let (key, carried) = key_of(input);
    Entry {
        input: carried,
        ..Entry::new("slider", key, score, solution)
    }
}

/// The score src/slider/score.rs gives the entry's solution on its instance.
pub fn rescore(entry: &Entry) -> Result<i64, String> {
    let text = match (&entry.input, bundled(&entry.instance)) {
        (Some(text), _) => {
            let (key, _) = key_of(text);
            if key != entry.instance {
                return Err(format!(
                    "its input is instance {key}, not {}",
                    entry.instance
                ));
            }
            text.as_str()
        }
        (None, Some(text)) => text,
        (None, None) => {
            return Err(format!(
                "instance {} is not bundled and the entry carries no input",
                entry.instance
            ))
        }
    };
    let problem = Problem::parse(text).map_err(|e| format!("its input: {e}"))?;
    crate::slider::score::score(&problem, &entry.solution)
        .map(|s| s.score)
        .map_err(|invalid| format!("invalid solution: {invalid}"))
}

/// One official output file per instance: OUT/<instance>.out (and OUT/<instance>.in for an
/// instance that is not bundled, so the pair can be scored anywhere).
pub fn export(entries: &[Entry], out: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out)?;
    let mut written = Vec::new();
    for entry in entries {
        let path = out.join(format!("{}.out", entry.instance));
        super::put::write_atomically(out, &path, entry.solution.as_bytes())?;
        written.push(path);
        if let Some(input) = &entry.input {
            let path = out.join(format!("{}.in", entry.instance));
            super::put::write_atomically(out, &path, input.as_bytes())?;
            written.push(path);
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_instances_get_their_seed_and_others_carry_their_text() {
        let (key, carried) = key_of(INSTANCES[6].1);
        assert_eq!((key.as_str(), carried), ("seed-7", None));
        let other = "2 1 1\n0 1\n-1 0\n";
        let (key, carried) = key_of(other);
        assert!(key.starts_with('h'));
        assert_eq!(carried.as_deref(), Some(other));
    }

    #[test]
    fn a_forged_score_or_a_swapped_input_is_caught() {
        let empty = entry(INSTANCES[0].1, 0, String::new());
        assert_eq!(rescore(&empty), Ok(0));
        let bad = Entry {
            solution: "1\n0 0 M X\n".into(),
            ..empty.clone()
        };
        assert!(rescore(&bad)
            .unwrap_err()
            .starts_with("invalid solution: line 2"));
        let swapped = Entry {
            input: Some(INSTANCES[1].1.to_string()),
            ..empty.clone()
        };
        assert_eq!(
            rescore(&swapped).unwrap_err(),
            "its input is instance seed-2, not seed-1"
        );
        let unknown = Entry {
            instance: "h0123".into(),
            ..empty
        };
        assert!(rescore(&unknown).unwrap_err().contains("carries no input"));
    }
}
