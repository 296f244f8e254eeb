//! Criterion timings of the icfp2015 engine: commands simulated per second (single thread) over
//! the 174 full solutions of `scored_solutions.json`, with and without phrase counting; and
//! the phrase routes (greedy and DP) of problem 24's first units.

use criterion::{black_box, Criterion, Throughput};
use podium::icfp2015::place::placement::placements;
use podium::icfp2015::rules::game::play;
use podium::icfp2015::spell::route::Scribe;
use podium::icfp2015::Pos;
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

/// The deepest lock of each of the first `units` units of `setup`'s first seed, each unit
/// locked there before the next is placed.
fn deepest_locks(setup: &Setup, units: usize) -> Vec<Pos> {
    let mut game = Game::new(setup, setup.problem.source_seeds[0]);
    let mut goals = Vec::new();
    while !game.is_over() && goals.len() < units {
        let deepest = placements(&game)
            .into_iter()
            .max_by_key(|p| (p.pos.y, p.pos.x))
            .expect("a falling unit can lock");
        goals.push(deepest.pos);
        for &c in &deepest.path {
            game.step(c);
        }
    }
    goals
}

/// Routes every unit to its goal, spelling; returns the text's length.
fn route_all(setup: &Setup, goals: &[Pos], phrases: &PhraseSet) -> usize {
    let mut game = Game::new(setup, setup.problem.source_seeds[0]);
    let mut scribe = Scribe::new(phrases);
    for (k, &goal) in goals.iter().enumerate() {
        scribe.route(&mut game, goal, goals.get(k + 1).copied(), true);
    }
    scribe.text().len()
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
    {
        let setup = &setups[24];
        let goals = deepest_locks(setup, 40);
        let mut group = c.benchmark_group("icfp2015 routes");
        group.throughput(Throughput::Elements(goals.len() as u64));
        group.bench_function("problem 24: 40 units to their deepest locks", |b| {
            b.iter(|| route_all(setup, &goals, &phrases))
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
         evaluate with phrases {scorer:.1} M commands/s (single thread, best of 20); counting \
         the phrases costs x{:.2} of the engine alone (one run)",
        cases.len(),
        engine / scorer
    );
}
