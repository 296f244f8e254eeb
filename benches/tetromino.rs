//! Tetromino solver timings against the targets: the 28 server signatures, random
//! solvable signatures at N = 100 and 200 (20 each), and classifying all 5005 6x6 multisets.

use podium::tetromino::generate::{all_multisets, random_solvable};
use podium::tetromino::{solve, verify, Options, Outcome, Signature};
use std::time::{Duration, Instant};

fn timed_solve(size: usize, sig: &Signature) -> Duration {
    let start = Instant::now();
    let (outcome, _) = solve(size, sig, &Options::default());
    let time = start.elapsed();
    if let Outcome::Solved(p) = &outcome {
        assert_eq!(verify(size, sig, p), Ok(()), "{size} {sig}");
    } else {
        panic!("{size} {sig}: {outcome:?}");
    }
    time
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn summary(name: &str, mut times: Vec<Duration>, target_ms: f64) {
    times.sort();
    let median = times[times.len() / 2];
    let worst = *times.last().expect("some runs");
    println!(
        "{name:<34} median {:>9.3} ms   worst {:>9.3} ms   target worst <= {target_ms} ms   {}",
        ms(median),
        ms(worst),
        if ms(worst) <= target_ms {
            "met"
        } else {
            "MISSED"
        }
    );
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let wanted = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    if wanted("server") {
        let text = include_str!("../data/tetromino/server_signatures.txt");
        let runs: Vec<Vec<Duration>> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let (size, sig) = line.split_once(' ').expect("N signature");
                let sig = Signature::parse(sig).expect("valid signature");
                let size = size.parse().expect("a size");
                (0..5).map(|_| timed_solve(size, &sig)).collect()
            })
            .collect();
        let first = runs.iter().map(|r| r[0]).collect();
        let best = runs
            .iter()
            .map(|r| *r.iter().min().expect("5 runs"))
            .collect();
        summary("server signatures (28, first run)", first, 5.0);
        summary("server signatures (28, best of 5)", best, 5.0);
    }
    for (size, target) in [(100, 50.0), (200, 1000.0)] {
        if wanted(&format!("random{size}")) {
            let times = (0..20)
                .map(|seed| {
                    let sig = random_solvable(size, 77_000 + seed).expect("even size");
                    timed_solve(size, &sig)
                })
                .collect();
            summary(&format!("random solvable N = {size} (20)"), times, target);
        }
    }
    if wanted("6x6") {
        let all = all_multisets(9);
        let start = Instant::now();
        let solvable = all
            .iter()
            .filter(|s| matches!(solve(6, s, &Options::default()).0, Outcome::Solved(_)))
            .count();
        let total = start.elapsed();
        println!(
            "6x6 all {} multisets: {solvable} solvable, total {:.3} s   target <= 10 s   {}",
            all.len(),
            total.as_secs_f64(),
            if total.as_secs_f64() <= 10.0 {
                "met"
            } else {
                "MISSED"
            }
        );
    }
}
