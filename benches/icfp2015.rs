//! Criterion timings of the icfp2015 engine: commands simulated per second (single thread) over
//! the 174 full solutions of `scored_solutions.json`, with and without phrase counting.

use criterion::{black_box, Criterion, Throughput};
use podium::icfp2015::game::play;
use podium::icfp2015::{evaluate, Game, PhraseSet, Problem, Setup};
use std::path::PathBuf;
use std::time::{Duration, Instant};

struct Case {
    problem: usize,
    seed: u32,
    solution: String,
}

fn load() -> (Vec<Setup>, Vec<Case>, u64) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/icfp2015");
    let setups: Vec<Setup> = (0..25)
        .map(|i| {
            let name = format!("problems/problem_{i}.json");
            let bytes = std::fs::read(dir.join(&name)).expect("problem file");
            Setup::new(Problem::parse(&bytes, &name).expect("problem"))
        })
        .collect();
    let text = std::fs::read(dir.join("scored_solutions.json")).expect("scored solutions");
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&text).expect("JSON");
    let cases: Vec<Case> = entries
        .iter()
        .filter(|e| e["kind"] == "full")
        .map(|e| Case {
            problem: e["problemId"].as_u64().unwrap() as usize,
            seed: e["seed"].as_u64().unwrap() as u32,
            solution: e["solution"].as_str().unwrap().to_string(),
        })
        .collect();
    let commands = cases.iter().map(|c| simulate(&setups, c)).sum();
    (setups, cases, commands)
}

/// Plays one solution from the start; returns the commands applied.
fn simulate(setups: &[Setup], case: &Case) -> u64 {
    let mut game = Game::new(&setups[case.problem], case.seed);
    let error = play(&mut game, black_box(&case.solution));
    assert!(error.is_none());
    game.moves()
}

fn run_all(setups: &[Setup], cases: &[Case]) -> u64 {
    cases.iter().map(|c| simulate(setups, c)).sum()
}

fn evaluate_all(setups: &[Setup], cases: &[Case], phrases: &PhraseSet) -> u64 {
    cases
        .iter()
        .map(|c| {
            evaluate(&setups[c.problem], c.seed as u64, &c.solution, phrases)
                .expect("seed")
                .score
        })
        .sum()
}

/// Best-of-`rounds` rate in millions of commands per second.
fn rate(commands: u64, rounds: usize, mut f: impl FnMut()) -> f64 {
    let mut best = Duration::MAX;
    for _ in 0..rounds {
        let start = Instant::now();
        f();
        best = best.min(start.elapsed());
    }
    commands as f64 / best.as_secs_f64() / 1e6
}

fn main() {
    let (setups, cases, commands) = load();
    let phrases = PhraseSet::known();
    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    {
        let mut group = c.benchmark_group("icfp2015");
        group.throughput(Throughput::Elements(commands));
        group.bench_function("engine: 174 full solutions", |b| {
            b.iter(|| run_all(&setups, &cases))
        });
        group.bench_function("evaluate (with phrases): 174 full solutions", |b| {
            b.iter(|| evaluate_all(&setups, &cases, &phrases))
        });
        group.finish();
    }
    c.final_summary();
    let engine = rate(commands, 20, || {
        black_box(run_all(&setups, &cases));
    });
    let scorer = rate(commands, 20, || {
        black_box(evaluate_all(&setups, &cases, &phrases));
    });
    println!(
        "icfp2015: {commands} commands in {} full solutions; engine {engine:.1} M commands/s, \
         evaluate with phrases {scorer:.1} M commands/s (single thread, best of 20)",
        cases.len()
    );
}
