//! The ICFP 2015 contest interface end to end: `play_icfp2015` prints JSON whose every
//! solution the evaluator accepts with no error and the score its tag claims, within -t.

use podium::icfp2015::{evaluate, Evaluation, PhraseSet, Problem, Setup, Solution};
use std::process::Command;
use std::time::Instant;

fn problem_path(id: usize) -> String {
    format!(
        "{}/data/icfp2015/problems/problem_{id}.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Runs `play_icfp2015 -t SECONDS -c 2 --known-phrases` on the problems: its solutions and the
/// wall time.
fn play(ids: &[usize], seconds: u32) -> (Vec<Solution>, f64) {
    let mut args = vec![
        "-t".to_string(),
        seconds.to_string(),
        "-c".to_string(),
        "2".to_string(),
        "--known-phrases".to_string(),
    ];
    for &id in ids {
        args.extend(["-f".to_string(), problem_path(id)]);
    }
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_play_icfp2015"))
        .args(&args)
        .output()
        .unwrap();
    let elapsed = start.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        Solution::parse_file(&out.stdout, "stdout").unwrap(),
        elapsed,
    )
}

/// Re-scores every solution of the problems: no error, a podium tag with the score the
/// evaluator gives; `each` sees (problem id, evaluation). Returns the seeds the problems have.
fn check_tags(
    ids: &[usize],
    solutions: &[Solution],
    mut each: impl FnMut(usize, &Evaluation),
) -> usize {
    let phrases = PhraseSet::known();
    let mut seeds = 0;
    for &id in ids {
        let path = problem_path(id);
        let setup = Setup::new(Problem::parse(&std::fs::read(&path).unwrap(), &path).unwrap());
        seeds += setup.problem.source_seeds.len();
        for s in solutions
            .iter()
            .filter(|s| s.problem_id == setup.problem.id)
        {
            let e = evaluate(&setup, s.seed, &s.solution, &phrases).unwrap();
            assert_eq!(e.error, None, "problem {id} seed {}", s.seed);
            let tag = s.tag.as_deref().unwrap();
            assert!(tag.starts_with("podium-"), "{tag}");
            assert!(
                tag.ends_with(&format!(" score {}", e.score)),
                "{tag} vs {}",
                e.score
            );
            each(id, &e);
        }
    }
    seeds
}

#[test]
fn play_prints_valid_solutions_within_the_time_limit() {
    let ids = [0, 1, 3, 7];
    let (solutions, elapsed) = play(&ids, 4);
    assert!(elapsed < 4.0 * 1.05 + 0.5, "took {elapsed:.2} s for -t 4");
    let seeds = check_tags(&ids, &solutions, |_, _| {});
    assert_eq!(solutions.len(), seeds, "one solution per seed");
}

#[test]
fn play_rejects_bad_input_with_exit_code_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_play_icfp2015"))
        .args(["-f", "/nonexistent.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("play_icfp2015: ") && err.lines().count() == 1,
        "{err}"
    );
}

/// A larger run than the first test, on big boards (long routes, wide beams): the total time
/// stays within 5 % of -t, and every solution scores what its tag claims and spells phrases.
#[test]
fn play_keeps_to_the_time_limit_on_big_problems() {
    let ids = [2, 14, 18, 24];
    let (solutions, elapsed) = play(&ids, 20);
    assert!(elapsed <= 20.0 * 1.05, "took {elapsed:.2} s for -t 20");
    let seeds = check_tags(&ids, &solutions, |id, e| {
        assert!(e.power_score > 0, "problem {id}: no phrase spelled");
    });
    assert_eq!(seeds, 10 + 1 + 1 + 1);
    assert_eq!(solutions.len(), seeds, "one solution per seed");
}
