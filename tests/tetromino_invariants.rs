//! The colouring invariants against exhaustive search: on every multiset of the 4x4, 6x6 and 8x8
//! squares no colouring may refute a solvable one; prints how many unsolvable ones each proves.

use podium::tetromino::generate::all_multisets;
use podium::tetromino::invariants::{refute, refute_by, COLOURINGS};
use podium::tetromino::solver::search;
use podium::tetromino::{Options, Outcome, Signature};
use std::collections::HashSet;
use std::time::Instant;

fn listed(name: &str) -> HashSet<Signature> {
    let path = format!("{}/data/tetromino/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Signature::parse(l).unwrap())
        .collect()
}

/// Checks every multiset of `pieces` on the `size` square against `solvable`, printing per
/// colouring how many unsolvable ones it refutes, and returns how many the whole family refutes.
fn check(size: usize, pieces: u32, solvable: &dyn Fn(&Signature) -> bool) -> usize {
    let start = Instant::now();
    let all = all_multisets(pieces);
    let mut by_colouring = vec![0usize; COLOURINGS.len()];
    let (mut unsolvable, mut refuted) = (0, 0);
    for sig in &all {
        let is_solvable = solvable(sig);
        unsolvable += usize::from(!is_solvable);
        let mut any = false;
        for (i, count) in by_colouring.iter_mut().enumerate() {
            if let Some(r) = refute_by(i, size, sig) {
                assert!(!is_solvable, "{size}x{size} {sig} is solvable: {}", r.line);
                *count += 1;
                any = true;
            }
        }
        assert_eq!(refute(size, sig).is_some(), any, "{sig}");
        refuted += usize::from(any);
    }
    eprintln!(
        "{size}x{size}: {} multisets, {unsolvable} unsolvable, {refuted} refuted by some colouring ({:.2} s)",
        all.len(),
        start.elapsed().as_secs_f64()
    );
    for (colouring, count) in COLOURINGS.iter().zip(&by_colouring) {
        eprintln!("  {:<34} {count:>6}", colouring.name);
    }
    refuted
}

#[test]
fn no_colouring_refutes_a_solvable_4x4_or_6x6_multiset() {
    let four = listed("solvable_4x4.txt");
    let six = listed("solvable_6x6.txt");
    assert!(check(4, 4, &|s| four.contains(s)) > 0);
    assert!(check(6, 9, &|s| six.contains(s)) > 0);
}

/// The 8x8 classification by exhaustive search (30,434 of 74,613 solvable) takes about a
/// minute in the test profile: `cargo test --test tetromino_invariants -- --ignored`.
#[test]
#[ignore]
fn no_colouring_refutes_a_solvable_8x8_multiset() {
    let mut solvable = 0;
    let classify = |s: &Signature| match search(8, s, &Options::default()).0 {
        Outcome::Solved(_) => true,
        Outcome::Unsolvable(_) => false,
        Outcome::GaveUp(m) => panic!("8x8 {s}: {m}"),
    };
    let truth: HashSet<Signature> = all_multisets(16)
        .into_iter()
        .filter(|s| classify(s))
        .inspect(|_| solvable += 1)
        .collect();
    assert_eq!(solvable, 30_434);
    check(8, 16, &|s| truth.contains(s));
}
