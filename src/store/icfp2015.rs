//! ICFP 2015 in the store: one entry per (problem id, seed, phrase set) of the bundled qualifier
//! problems, re-scored by the rules' own evaluator, exported as the contest's JSON array.
//!
//! A score counts only the run's own phrases, so the phrase set is part of the key (`known`,
//! `none`, or `h` and the FNV-1a hash of the phrases) and an entry carries its phrases, one per
//! line, as its `input`; the export writes one file per phrase set.

use super::entry::Entry;
use super::put::Offer;
use crate::icfp2015::rules::qualifiers::QUALIFIER_PROBLEMS;
use crate::icfp2015::{evaluate, PhraseSet, Problem, Setup, Solution};
use std::path::{Path, PathBuf};

/// The tag exported solutions carry.
pub const TAG: &str = "podium best";

/// The name of a phrase set in keys and file names.
pub fn phrase_label(phrases: &PhraseSet) -> String {
    let list = phrases.phrases();
    if list.is_empty() {
        "none".to_string()
    } else if list == PhraseSet::known().phrases() {
        "known".to_string()
    } else {
        format!(
            "h{:016x}",
            crate::core::shard::fnv1a(list.join("\n").as_bytes())
        )
    }
}

/// The instance key of (problem id, seed, phrase set).
pub fn key(problem_id: i64, seed: u64, phrases: &PhraseSet) -> String {
    format!(
        "problem-{problem_id}-seed-{seed}-phrases-{}",
        phrase_label(phrases)
    )
}

fn parse_key(key: &str) -> Option<(i64, u64, &str)> {
    let rest = key.strip_prefix("problem-")?;
    let (id, rest) = rest.split_once("-seed-")?;
    let (seed, label) = rest.split_once("-phrases-")?;
    Some((id.parse().ok()?, seed.parse().ok()?, label))
}

/// The phrase set an entry was scored with: its `input`, one phrase per line.
fn phrases_of(entry: &Entry) -> Result<PhraseSet, String> {
    let list: Vec<String> = entry
        .input
        .as_deref()
        .unwrap_or("")
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    PhraseSet::new(list).map_err(|e| format!("its phrases: {}", e.0))
}

/// Offers the command string `solution`, scoring `score` with `phrases`, for (problem id,
/// seed) to the store in `dir`: what `icfp2015 play --store` and `bench --store` call per game.
pub fn offer(
    dir: &Path,
    problem_id: i64,
    seed: u64,
    phrases: &PhraseSet,
    solution: &str,
    score: u64,
) -> std::io::Result<Offer> {
    let mut entry = Entry::new(
        "icfp2015",
        key(problem_id, seed, phrases),
        i64::try_from(score).unwrap_or(i64::MAX),
        solution.to_string(),
    );
    entry.input = Some(phrases.phrases().join("\n"));
    super::put::offer(dir, &entry)
}

fn setup(problem_id: i64) -> Option<Setup> {
    QUALIFIER_PROBLEMS.iter().find_map(|json| {
        let problem = Problem::parse(json.as_bytes(), "bundled").ok()?;
        (problem.id == problem_id).then(|| Setup::new(problem))
    })
}

/// The score the evaluator gives the entry's commands on its problem and seed.
pub fn rescore(entry: &Entry) -> Result<i64, String> {
    let (id, seed, label) = parse_key(&entry.instance).ok_or_else(|| {
        format!(
            "instance {} is not problem-ID-seed-SEED-phrases-SET",
            entry.instance
        )
    })?;
    let phrases = phrases_of(entry)?;
    if phrase_label(&phrases) != label {
        return Err(format!("its phrases are not the set {label} its key names"));
    }
    let setup = setup(id).ok_or_else(|| format!("problem {id} is not a bundled problem"))?;
    let evaluation = evaluate(&setup, seed, &entry.solution, &phrases)
        .map_err(|_| format!("seed {seed} is not one of problem {id}'s seeds"))?;
    if evaluation.error.is_some() {
        return Err(format!("invalid solution: {}", evaluation.error_text()));
    }
    Ok(i64::try_from(evaluation.score).unwrap_or(i64::MAX))
}

/// The contest's output files, one per phrase set: OUT/icfp2015-SET.json, each
/// `[{problemId, seed, tag, solution}]`.
pub fn export(entries: &[Entry], out: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out)?;
    let mut by_set: std::collections::BTreeMap<&str, Vec<Solution>> = Default::default();
    for e in entries {
        if let Some((problem_id, seed, label)) = parse_key(&e.instance) {
            by_set.entry(label).or_default().push(Solution {
                problem_id,
                seed,
                tag: Some(TAG.to_string()),
                solution: e.solution.clone(),
            });
        }
    }
    let mut written = Vec::new();
    for (label, solutions) in by_set {
        let path = out.join(format!("icfp2015-{label}.json"));
        super::put::write_atomically(out, &path, Solution::to_json(&solutions).as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back_and_the_evaluator_rescores() {
        let known = PhraseSet::known();
        assert_eq!(
            parse_key(&key(3, 28_114, &known)),
            Some((3, 28_114, "known"))
        );
        assert_eq!(phrase_label(&PhraseSet::none()), "none");
        let custom = PhraseSet::new(vec!["ei!".into()]).unwrap();
        assert!(phrase_label(&custom).starts_with('h'));
        let setup = setup(0).expect("problem 0 is bundled");
        let seed = u64::from(setup.problem.source_seeds[0]);
        let mut empty = Entry::new("icfp2015", key(0, seed, &custom), 0, String::new());
        empty.input = Some("ei!".into());
        assert_eq!(rescore(&empty), Ok(0));
        // "ei!" once scores its power bonus: 2 * 3 + 300, on top of the moves.
        let spelled = Entry {
            solution: "ei!".into(),
            ..empty.clone()
        };
        assert!(rescore(&spelled).unwrap() >= 306);
        let swapped = Entry {
            input: Some(String::new()),
            ..spelled
        };
        assert!(rescore(&swapped).unwrap_err().contains("not the set"));
        let forged = Entry {
            instance: key(0, 123_456_789, &custom),
            ..empty.clone()
        };
        assert!(rescore(&forged)
            .unwrap_err()
            .contains("not one of problem 0's seeds"));
        let invalid = Entry {
            solution: "\u{1}".into(),
            ..empty
        };
        assert!(rescore(&invalid)
            .unwrap_err()
            .starts_with("invalid solution"));
    }
}
