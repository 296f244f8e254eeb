//! Criterion timings of the icfp2015 beam search at its widest (4000 nodes a layer, the first
//! units) and its narrowest (one node, the whole game) on problems 6 and 24. `-- --test` runs
//! each once: a fixed amount of work, for callgrind.

use criterion::{black_box, Criterion};
use podium::core::timer::Deadline;
use podium::icfp2015::place::beam::plan;
use podium::icfp2015::place::weights::Weights;
use podium::icfp2015::{Game, Problem, Setup};
use std::path::PathBuf;
use std::time::Duration;

/// Layers planned per case: enough for the beam to reach its widest and stay there.
const UNITS: usize = 4;

fn setup(id: usize) -> Setup {
    let name = format!("problems/problem_{id}.json");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/icfp2015")
        .join(&name);
    let bytes = std::fs::read(path).expect("problem file");
    Setup::new(Problem::parse(&bytes, &name).expect("problem"))
}

/// The lock positions of the first `UNITS` units of the setup's first seed. The deadline is
/// far, so every layer after the first is as wide as the beam allows: the same work each run.
fn widest_plan(setup: &Setup) -> usize {
    let game = Game::new(setup, setup.problem.source_seeds[0]);
    let order = &game.order()[..UNITS];
    let weights = Weights::for_setup(setup);
    let far = Deadline::after(Duration::from_secs(3600));
    plan(setup, &setup.start, order, &weights, &far, UNITS, &[]).len()
}

/// The lock positions of the whole game of the setup's first seed, one node a layer (the greedy
/// plan the solver makes to estimate its costs).
fn greedy_plan(setup: &Setup) -> usize {
    let game = Game::new(setup, setup.problem.source_seeds[0]);
    let order = game.order();
    let weights = Weights::for_setup(setup);
    let now = Deadline::after(Duration::ZERO);
    plan(setup, &setup.start, order, &weights, &now, order.len(), &[]).len()
}

fn main() {
    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    let mut group = c.benchmark_group("icfp2015 beam");
    for id in [6, 24] {
        let setup = setup(id);
        group.bench_function(format!("problem {id}: {UNITS} layers at full width"), |b| {
            b.iter(|| black_box(widest_plan(&setup)))
        });
        group.bench_function(format!("problem {id}: the whole game at width 1"), |b| {
            b.iter(|| black_box(greedy_plan(&setup)))
        });
    }
    group.finish();
    c.final_summary();
}
