//! Slider timings: the independent scorer's turns per second (criterion) over solver outputs, and
//! the solver's annealing steps per second at a fixed budget on small, large and many-colour boards.

use criterion::{black_box, Criterion, Throughput};
use podium::core::timer::Deadline;
use podium::slider::board::{output_text, Problem};
use podium::slider::cases::INSTANCES;
use podium::slider::score::score;
use podium::slider::solve::solve;
use std::time::Duration;

/// Seed 1 (N = 10), seed 2 (N = 30, C = 2) and seed 27 (N = 30, C = 9).
const SEEDS: [u64; 3] = [1, 2, 27];

fn problem(seed: u64) -> Problem {
    let (_, text) = INSTANCES
        .iter()
        .find(|(s, _)| *s == seed)
        .expect("a reference seed");
    Problem::parse(text).expect("bundled instance")
}

fn main() {
    let problems: Vec<Problem> = SEEDS.iter().map(|&s| problem(s)).collect();
    let outputs: Vec<String> = problems
        .iter()
        .zip(SEEDS)
        .map(|(p, seed)| output_text(&solve(p, Deadline::from_secs_f64(0.3), seed).turns))
        .collect();
    let turns: u64 = problems
        .iter()
        .zip(&outputs)
        .map(|(p, o)| score(p, o).expect("a verified output").turns as u64)
        .sum();
    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    {
        let mut group = c.benchmark_group("slider");
        group.throughput(Throughput::Elements(turns));
        group.bench_function("score: outputs of seeds 1, 2, 27", |b| {
            b.iter(|| {
                problems
                    .iter()
                    .zip(&outputs)
                    .map(|(p, o)| score(p, black_box(o)).map_or(0, |s| s.score))
                    .sum::<i64>()
            })
        });
        group.finish();
    }
    c.final_summary();
    let budget = 1.0;
    for (p, seed) in problems.iter().zip(SEEDS) {
        let solved = solve(p, Deadline::from_secs_f64(budget), seed);
        println!(
            "slider seed {seed} (N = {}, C = {}, {} blocks): {:.0} k annealing steps/s, score {}",
            p.n,
            p.colours,
            p.blocks(),
            solved.iterations as f64 / budget / 1e3,
            solved.score
        );
    }
}
