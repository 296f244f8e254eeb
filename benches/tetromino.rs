//! Tetromino solver timings against the issues' targets: the 28 server signatures, random-tiling
//! mixes (N = 100 to 2000, 20 seeds each), skewed and impossible mixes, all 5005 6x6 multisets.

use podium::core::rng::Rng;
use podium::tetromino::generate::{all_multisets, impossible, random_solvable, skewed};
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
    for (size, target) in [
        (100, 50.0),
        (200, 1000.0),
        (500, 1000.0),
        (1000, 1000.0),
        (2000, 1000.0),
    ] {
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
    for (size, target) in [(48, 1000.0), (100, 10_000.0), (200, 10_000.0)] {
        if wanted(&format!("skewed{size}")) {
            let mut rng = Rng::new(91_000 + size as u64);
            let times = (0..20)
                .map(|_| {
                    let sig = skewed(size, &mut rng).expect("even size");
                    timed_solve(size, &sig)
                })
                .collect();
            summary(&format!("skewed N = {size} (20)"), times, target);
        }
        if wanted(&format!("impossible{size}")) {
            let mut rng = Rng::new(92_000 + size as u64);
            let times = (0..20)
                .map(|_| {
                    let (sig, _) = impossible(size, &mut rng).expect("even size");
                    let start = Instant::now();
                    let (outcome, _) = solve(size, &sig, &Options::default());
                    assert!(matches!(outcome, Outcome::Unsolvable(_)), "{size} {sig}");
                    start.elapsed()
                })
                .collect();
            summary(&format!("impossible N = {size} (20)"), times, target);
        }
    }
    if wanted("sz100") {
        // Skewed mixes where S and Z together are at least a quarter of the pieces (block tilings
        // reach about 37% at most).
        let mut rng = Rng::new(93_100);
        let mut times = Vec::new();
        while times.len() < 20 {
            let sig = skewed(100, &mut rng).expect("even size");
            let sz = u64::from(sig.counts[4] + sig.counts[6]);
            if sz * 4 >= sig.total() {
                times.push(timed_solve(100, &sig));
            }
        }
        summary("S/Z-heavy skewed N = 100 (20)", times, 10_000.0);
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
