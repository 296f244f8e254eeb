//! ICFP 2015 in the store: one entry per (problem id, seed) of the bundled qualifier problems,
//! re-scored by the rules' own evaluator, exported as the contest's JSON array.

use super::entry::Entry;
use super::put::Offer;
use crate::icfp2015::play::QUALIFIER_PROBLEMS;
use crate::icfp2015::{evaluate, PhraseSet, Problem, Setup, Solution};
use std::path::{Path, PathBuf};

/// The tag exported solutions carry.
pub const TAG: &str = "podium best";

/// The instance key of (problem id, seed).
pub fn key(problem_id: i64, seed: u64) -> String {
    format!("problem-{problem_id}-seed-{seed}")
}

fn parse_key(key: &str) -> Option<(i64, u64)> {
    let rest = key.strip_prefix("problem-")?;
    let (id, seed) = rest.split_once("-seed-")?;
    Some((id.parse().ok()?, seed.parse().ok()?))
}

/// Offers the command string `solution`, scoring `score`, for (problem id, seed) to the store
/// in `dir`: what `icfp2015 play --store` and `icfp2015 bench --store` call per game.
pub fn offer(
    dir: &Path,
    problem_id: i64,
    seed: u64,
    solution: &str,
    score: u64,
) -> std::io::Result<Offer> {
    let entry = Entry::new(
        "icfp2015",
        key(problem_id, seed),
        i64::try_from(score).unwrap_or(i64::MAX),
        solution.to_string(),
    );
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
    let (id, seed) = parse_key(&entry.instance)
        .ok_or_else(|| format!("instance {} is not problem-ID-seed-SEED", entry.instance))?;
    let setup = setup(id).ok_or_else(|| format!("problem {id} is not a bundled problem"))?;
    let evaluation = evaluate(&setup, seed, &entry.solution, &PhraseSet::known())
        .map_err(|_| format!("seed {seed} is not one of problem {id}'s seeds"))?;
    if evaluation.error.is_some() {
        return Err(format!("invalid solution: {}", evaluation.error_text()));
    }
    Ok(i64::try_from(evaluation.score).unwrap_or(i64::MAX))
}

/// The contest's output file OUT/icfp2015.json: `[{problemId, seed, tag, solution}]`.
pub fn export(entries: &[Entry], out: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out)?;
    let solutions: Vec<Solution> = entries
        .iter()
        .filter_map(|e| {
            let (problem_id, seed) = parse_key(&e.instance)?;
            Some(Solution {
                problem_id,
                seed,
                tag: Some(TAG.to_string()),
                solution: e.solution.clone(),
            })
        })
        .collect();
    let path = out.join("icfp2015.json");
    super::put::write_atomically(out, &path, Solution::to_json(&solutions).as_bytes())?;
    Ok(vec![path])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back_and_the_evaluator_rescores() {
        assert_eq!(parse_key(&key(3, 28_114)), Some((3, 28_114)));
        let setup = setup(0).expect("problem 0 is bundled");
        let seed = u64::from(setup.problem.source_seeds[0]);
        let empty = Entry::new("icfp2015", key(0, seed), 0, String::new());
        assert_eq!(rescore(&empty), Ok(0));
        let forged = Entry {
            instance: key(0, 123_456_789),
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
