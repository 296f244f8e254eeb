//! The ICFP 2015 contest interface end to end: `play_icfp2015` prints JSON whose every
//! solution the evaluator accepts with no error and the score its tag claims, within -t.

use podium::icfp2015::{evaluate, PhraseSet, Problem, Setup, Solution};
use std::process::Command;
use std::time::Instant;

fn problem_path(id: usize) -> String {
    format!(
        "{}/data/icfp2015/problems/problem_{id}.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn play_prints_valid_solutions_within_the_time_limit() {
    let ids = [0, 1, 3, 7];
    let mut args = vec![
        "-t".to_string(),
        "4".to_string(),
        "-c".to_string(),
        "2".to_string(),
    ];
    for id in ids {
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
    assert!(elapsed < 4.0 * 1.05 + 0.5, "took {elapsed:.2} s for -t 4");
    let solutions = Solution::parse_file(&out.stdout, "stdout").unwrap();
    let phrases = PhraseSet::known();
    let mut expected = 0;
    for id in ids {
        let path = problem_path(id);
        let setup = Setup::new(Problem::parse(&std::fs::read(&path).unwrap(), &path).unwrap());
        expected += setup.problem.source_seeds.len();
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
        }
    }
    assert_eq!(solutions.len(), expected, "one solution per seed");
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

/// A larger run than the test above, on big boards (long routes, wide beams): the total time
/// stays within 5 % of -t, and every solution scores what its tag claims.
#[test]
fn play_keeps_to_the_time_limit_on_big_problems() {
    let ids = [2, 14, 18, 24];
    let mut args = vec!["-t", "20", "-c", "2"]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    for id in ids {
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
    assert!(elapsed <= 20.0 * 1.05, "took {elapsed:.2} s for -t 20");
    let solutions = Solution::parse_file(&out.stdout, "stdout").unwrap();
    let phrases = PhraseSet::known();
    let mut seen = 0;
    for id in ids {
        let path = problem_path(id);
        let setup = Setup::new(Problem::parse(&std::fs::read(&path).unwrap(), &path).unwrap());
        for s in solutions
            .iter()
            .filter(|s| s.problem_id == setup.problem.id)
        {
            let e = evaluate(&setup, s.seed, &s.solution, &phrases).unwrap();
            assert_eq!(e.error, None, "problem {id} seed {}", s.seed);
            let tag = s.tag.as_deref().unwrap();
            assert!(
                tag.ends_with(&format!(" score {}", e.score)),
                "{tag} vs {}",
                e.score
            );
            assert!(e.power_score > 0, "problem {id}: no phrase spelled");
            seen += 1;
        }
    }
    assert_eq!(seen, solutions.len());
    assert_eq!(seen, 10 + 1 + 1 + 1, "one solution per seed");
}
