//! The icfp2015 engine against the official evaluator: all 870 scored command strings, the
//! organisers' sample, the spec's LCG vector, and rotation identities on all 235 qualifier units.

use podium::icfp2015::rules::hex::{rotate, Cell};
use podium::icfp2015::rules::phrases::PhraseSet;
use podium::icfp2015::rules::problem::Problem;
use podium::icfp2015::rules::source::Lcg;
use podium::icfp2015::rules::unit::{Pos, Unit};
use podium::icfp2015::{evaluate, Setup};
use serde_json::Value;
use std::path::PathBuf;

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/icfp2015")
        .join(path)
}

fn problems() -> Vec<Setup> {
    (0..25)
        .map(|i| {
            let name = format!("problems/problem_{i}.json");
            let bytes = std::fs::read(data(&name)).expect("problem file");
            let problem = Problem::parse(&bytes, &name).expect("valid problem");
            assert_eq!(problem.id, i as i64);
            Setup::new(problem)
        })
        .collect()
}

#[test]
fn all_scored_solutions_match_the_official_evaluator() {
    let setups = problems();
    let phrases = PhraseSet::known();
    let text = std::fs::read(data("scored_solutions.json")).expect("scored solutions");
    let entries: Vec<Value> = serde_json::from_slice(&text).expect("JSON");
    assert_eq!(entries.len(), 870);
    let mut exact = 0;
    let mut failures = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let problem = e["problemId"].as_u64().unwrap() as usize;
        let seed = e["seed"].as_u64().unwrap();
        let solution = e["solution"].as_str().unwrap();
        let got = evaluate(&setups[problem], seed, solution, &phrases).expect("known seed");
        // The evaluator's `power:` line: the used phrases' indices, e.g. "[0,12,2]".
        let power = e["power_counts"].as_str().unwrap().to_string();
        let want = (
            e["moves"].as_u64().unwrap(),
            e["error"].as_str().unwrap().to_string(),
            e["score"].as_u64().unwrap(),
            power,
        );
        let have = (got.moves, got.error_text(), got.score, got.power_line());
        if have == want {
            exact += 1;
        } else if failures.len() < 10 {
            failures.push(format!(
                "entry {i} (problem {problem}, seed {seed}, {}): got {have:?}, want {want:?}",
                e["kind"]
            ));
        }
    }
    assert!(failures.is_empty(), "{exact}/870 exact; {failures:#?}");
    assert_eq!(exact, 870);
}

#[test]
fn the_sample_scores_3261_with_1180_moves() {
    let setups = problems();
    let sample = std::fs::read_to_string(data("sample_problem6_seed0.txt")).unwrap();
    let got = evaluate(&setups[6], 0, &sample, &PhraseSet::known()).unwrap();
    assert_eq!(got.error, None);
    assert_eq!(got.moves, 1180);
    assert_eq!(got.score, 3261);
}

#[test]
fn lcg_seed_17() {
    let values: Vec<u32> = Lcg::new(17).take(10).collect();
    assert_eq!(
        values,
        [0, 24107, 16552, 12125, 9427, 13152, 21440, 3383, 6873, 16117]
    );
}

fn sorted(mut cells: Vec<Cell>) -> Vec<Cell> {
    cells.sort_by_key(|c| (c.y, c.x));
    cells
}

#[test]
fn rotations_on_all_qualifier_units() {
    let setups = problems();
    let mut units = 0;
    for setup in &setups {
        for (spec, unit) in setup.problem.units.iter().zip(&setup.units) {
            units += 1;
            let unit_again = Unit::new(spec, setup.width());
            assert_eq!(&unit_again, unit);
            for (x, y) in [(0, 0), (5, 4), (5, 7), (-3, 10), (7, -5), (20, 31)] {
                for o in 0..6u8 {
                    let pos = Pos {
                        x,
                        y,
                        orientation: o,
                    };
                    let cells = unit.cells(pos);
                    let pivot = Cell::new(x, y);
                    let cw = |p: Pos| Pos {
                        orientation: (p.orientation + 1) % 6,
                        ..p
                    };
                    let ccw = |p: Pos| Pos {
                        orientation: (p.orientation + 5) % 6,
                        ..p
                    };
                    // Six clockwise turns and CW then CCW return the unit to itself.
                    let six = (0..6).fold(pos, |p, _| cw(p));
                    assert_eq!(unit.cells(six), cells);
                    assert_eq!(unit.cells(ccw(cw(pos))), cells);
                    assert_eq!(unit.cells(cw(ccw(pos))), cells);
                    // Each orientation is the cell-by-cell rotation of the previous one.
                    let turned = sorted(cells.iter().map(|&c| rotate(c, pivot, true)).collect());
                    assert_eq!(unit.cells(cw(pos)), turned);
                    let back = sorted(cells.iter().map(|&c| rotate(c, pivot, false)).collect());
                    assert_eq!(unit.cells(ccw(pos)), back);
                    let mut applied = cells.clone();
                    for _ in 0..6 {
                        applied = applied.iter().map(|&c| rotate(c, pivot, true)).collect();
                    }
                    assert_eq!(sorted(applied), cells);
                    // Canonical orientations agree exactly with equal member sets.
                    for p in 0..6u8 {
                        let other = unit.cells(Pos {
                            orientation: p,
                            ..pos
                        });
                        assert_eq!(
                            other == cells,
                            unit.canonical[p as usize] == unit.canonical[o as usize]
                        );
                    }
                }
            }
            // Orientation 0 at the spawn is the problem's unit shifted to the spawn.
            let min_x = spec.members.iter().map(|c| c.x).min().unwrap();
            let max_x = spec.members.iter().map(|c| c.x).max().unwrap();
            let shift = (setup.width() as i32 - (max_x - min_x + 1)) / 2 - min_x;
            let expected = sorted(
                spec.members
                    .iter()
                    .map(|c| Cell::new(c.x + shift, c.y))
                    .collect(),
            );
            assert_eq!(unit.cells(unit.spawn), expected);
        }
    }
    assert_eq!(units, 235);
}
