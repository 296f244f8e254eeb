//! The Slider bundle end to end: generated, compiled with plain `rustc -O`, run on reference
//! instances with a short time limit, its outputs verified by the crate's scorer; size and Rust 1.70.

use podium::slider::board::Problem;
use podium::slider::cases::INSTANCES;
use podium::slider::score::score;
use std::process::Output;
use std::sync::OnceLock;
use std::time::Instant;

mod common;

use common::{stderr, Built};

/// The bundle, written and compiled once for every test here.
fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| common::build("slider"))
}

/// Runs the bundle on `stdin`, with `env` added to its environment.
fn run(stdin: &str, env: &[(&str, &str)]) -> Output {
    common::run(&built().binary, stdin, env)
}

#[test]
fn compiles_without_warnings() {
    assert_eq!(built().diagnostics, "");
}

#[test]
fn outputs_verify_within_the_time_limit() {
    for (seed, text) in [INSTANCES[0], INSTANCES[1], INSTANCES[9]] {
        let problem = Problem::parse(text).unwrap();
        let clock = Instant::now();
        let out = run(text, &[("SLIDER_TIME", "0.5")]);
        let wall = clock.elapsed().as_secs_f64();
        assert!(out.status.success(), "seed {seed}: {}", stderr(&out));
        assert!(wall < 1.5, "seed {seed}: {wall} s");
        let output = String::from_utf8(out.stdout).unwrap();
        let scored = score(&problem, &output).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(
            scored.score > 0 && scored.drops > 0,
            "seed {seed}: {scored:?}"
        );
    }
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let out = run("2\n3\n1\n0\n0\n0\n10\n", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out).trim(),
        "slider input: line 7: cell (row 1, column 1) value 10 is outside -1..3"
    );
}

#[test]
fn fits_the_size_limit() {
    common::check_size(built());
}

#[test]
fn uses_only_rust_1_70() {
    common::check_rust_1_70(built());
}
