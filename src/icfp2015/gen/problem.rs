//! One random problem: board size, pre-filled cells, unit shapes (connected cells, a pivot on,
//! in or near them), source length and seeds, each drawn from the distribution `Spec` documents.

use crate::core::rng::Rng;
use crate::icfp2015::rules::hex::{neighbour, Cell, Direction};
use crate::icfp2015::rules::problem::{Problem, UnitSpec, MAX_HEIGHT, MAX_WIDTH};

/// What to generate; `None` draws the value (the distributions are those of `generate`).
#[derive(Clone, Debug, Default)]
pub struct Spec {
    pub id: i64,
    /// Board width, 1..=128 [drawn log-uniform in 5..=100].
    pub width: Option<usize>,
    /// Board height, 1..=10000 [drawn log-uniform in 5..=100].
    pub height: Option<usize>,
    /// Distinct unit shapes [drawn log-uniform in 1..=50].
    pub shapes: Option<usize>,
    /// Largest unit, in cells [drawn log-uniform in 1..=12]; each unit's size is uniform
    /// in 1..=this, unless `big_units` mixes big ones among small ones.
    pub max_size: Option<usize>,
    /// Big units among small ones, as problems 12, 18 and 24 have them: the chance that a shape
    /// is big, its size uniform in max_size/2+1..=max_size; a small one's is uniform in
    /// 1..=max(1, max_size/4) [default none: every size uniform in 1..=max_size].
    pub big_units: Option<f64>,
    /// Units dropped (sourceLength) [drawn log-uniform in 1..=5000].
    pub length: Option<usize>,
    /// Number of source seeds [1 with probability 1/2, else uniform in 2..=10].
    pub seeds: Option<usize>,
    /// Share of the lower 60 % of the board pre-filled, as blobs, no row full [0 with
    /// probability 0.4, else uniform in 0.05..0.4].
    pub fill: Option<f64>,
}

/// A value log-uniform in `lo..=hi`.
fn log_uniform(rng: &mut Rng, lo: usize, hi: usize) -> usize {
    let (a, b) = ((lo as f64).ln(), ((hi + 1) as f64).ln());
    ((a + (b - a) * rng.f64()).exp() as usize).clamp(lo, hi)
}

/// A connected shape of `size` cells that fits a `width` x `height` board, with its pivot: a member
/// (60 %), a cell of its bounding box (30 %), or up to 3 cells outside it (10 %).
fn random_unit(rng: &mut Rng, size: usize, width: usize, height: usize) -> UnitSpec {
    loop {
        let mut members = vec![Cell::new(4, 4)];
        while members.len() < size {
            let from = members[rng.range(0..members.len())];
            let next = neighbour(from, Direction::ALL[rng.range(0..6)]);
            if !members.contains(&next) {
                members.push(next);
            }
        }
        let min_x = members.iter().map(|c| c.x).min().unwrap_or(0);
        let max_x = members.iter().map(|c| c.x).max().unwrap_or(0);
        if (max_x - min_x + 1) as usize > width {
            continue;
        }
        let min_y = members.iter().map(|c| c.y).min().unwrap_or(0);
        let max_y = members.iter().map(|c| c.y).max().unwrap_or(0);
        let roll = rng.f64();
        let pivot = if roll < 0.6 {
            members[rng.range(0..members.len())]
        } else {
            let slack = if roll < 0.9 { 0 } else { 3 };
            let x = min_x - slack + rng.range(0..(max_x - min_x + 1 + 2 * slack) as usize) as i32;
            let y = min_y - slack + rng.range(0..(max_y - min_y + 1 + 2 * slack) as usize) as i32;
            Cell::new(x, y)
        };
        // Members shifted onto the board; rows by an even count, which keeps the shape.
        let dy = -(min_y - min_y.rem_euclid(2));
        if max_y + dy >= height as i32 {
            continue;
        }
        let shift = |c: Cell| Cell::new(c.x - min_x, c.y + dy);
        return UnitSpec {
            members: members.into_iter().map(shift).collect(),
            pivot: shift(pivot),
        };
    }
}

/// Pre-filled blobs covering about `fill` of the lower 60 % of the board; no row is full.
fn random_filled(rng: &mut Rng, width: usize, height: usize, fill: f64) -> Vec<Cell> {
    let top = height - (height * 3 / 5).max(1);
    let area = width * (height - top);
    let target = (fill * area as f64) as usize;
    let mut grid = vec![false; width * height];
    let mut count = 0;
    let mut tries = 0;
    while count < target && tries < 20 * target + 100 {
        tries += 1;
        let mut cell = Cell::new(
            rng.range(0..width) as i32,
            (top + rng.range(0..height - top)) as i32,
        );
        for _ in 0..rng.range(1..12) {
            let (x, y) = (cell.x, cell.y);
            if x >= 0 && (x as usize) < width && (y as usize) >= top && (y as usize) < height {
                let i = y as usize * width + x as usize;
                if !grid[i] {
                    grid[i] = true;
                    count += 1;
                }
            }
            cell = neighbour(cell, Direction::ALL[rng.range(0..6)]);
        }
    }
    for y in 0..height {
        let row = &mut grid[y * width..(y + 1) * width];
        if row.iter().all(|&f| f) {
            row[rng.range(0..width)] = false;
        }
    }
    (0..width * height)
        .filter(|&i| grid[i])
        .map(|i| Cell::new((i % width) as i32, (i / width) as i32))
        .collect()
}

/// The problem `spec` describes, its drawn values taken from `seed`'s stream.
pub fn generate(spec: &Spec, seed: u64) -> Problem {
    let mut rng = Rng::new(seed ^ 0x1CF9_2015);
    let width = spec
        .width
        .unwrap_or_else(|| log_uniform(&mut rng, 5, 100))
        .clamp(1, MAX_WIDTH);
    let height = spec
        .height
        .unwrap_or_else(|| log_uniform(&mut rng, 5, 100))
        .clamp(1, MAX_HEIGHT);
    let shapes = spec
        .shapes
        .unwrap_or_else(|| log_uniform(&mut rng, 1, 50))
        .max(1);
    let max_size = spec
        .max_size
        .unwrap_or_else(|| log_uniform(&mut rng, 1, 12))
        .max(1);
    let length = spec
        .length
        .unwrap_or_else(|| log_uniform(&mut rng, 1, 5000));
    let seeds = spec
        .seeds
        .unwrap_or_else(|| if rng.chance(0.5) { 1 } else { rng.range(2..11) });
    let fill = spec.fill.unwrap_or_else(|| {
        if rng.chance(0.4) {
            0.0
        } else {
            0.05 + 0.35 * rng.f64()
        }
    });
    let units = (0..shapes)
        .map(|_| {
            let size = match spec.big_units {
                Some(share) if share > 0.0 => {
                    if rng.chance(share) {
                        max_size / 2 + 1 + rng.range(0..max_size - max_size / 2)
                    } else {
                        1 + rng.range(0..(max_size / 4).max(1))
                    }
                }
                _ => 1 + rng.range(0..max_size),
            };
            random_unit(&mut rng, size.min(width * height), width, height)
        })
        .collect();
    let filled = if fill > 0.0 && height >= 2 {
        random_filled(&mut rng, width, height, fill)
    } else {
        Vec::new()
    };
    let mut source_seeds: Vec<u32> = Vec::with_capacity(seeds);
    while source_seeds.len() < seeds.max(1) {
        let s = if source_seeds.is_empty() && rng.chance(0.5) {
            0
        } else {
            rng.below(32_768) as u32
        };
        if !source_seeds.contains(&s) {
            source_seeds.push(s);
        }
    }
    Problem {
        id: spec.id,
        units,
        width,
        height,
        filled,
        source_length: length,
        source_seeds,
    }
}

/// The problem as the contest's JSON.
pub fn to_json(problem: &Problem) -> String {
    let cell = |c: &Cell| serde_json::json!({"x": c.x, "y": c.y});
    let units: Vec<_> = problem
        .units
        .iter()
        .map(|u| {
            serde_json::json!({
                "members": u.members.iter().map(cell).collect::<Vec<_>>(),
                "pivot": cell(&u.pivot),
            })
        })
        .collect();
    serde_json::json!({
        "id": problem.id,
        "units": units,
        "width": problem.width,
        "height": problem.height,
        "filled": problem.filled.iter().map(cell).collect::<Vec<_>>(),
        "sourceLength": problem.source_length,
        "sourceSeeds": problem.source_seeds,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_problems_parse_back_and_are_deterministic() {
        for seed in 0..40 {
            let spec = Spec {
                id: seed as i64,
                ..Spec::default()
            };
            let problem = generate(&spec, seed);
            let json = to_json(&problem);
            assert_eq!(json, to_json(&generate(&spec, seed)));
            let parsed = Problem::parse(json.as_bytes(), "generated").expect("parses");
            assert_eq!(parsed, problem);
            assert!((5..=100).contains(&problem.width));
            assert!((1..=50).contains(&problem.units.len()));
            assert!((1..=5000).contains(&problem.source_length));
            for y in 0..problem.height as i32 {
                let full = problem.filled.iter().filter(|c| c.y == y).count();
                assert!(full < problem.width, "seed {seed}: row {y} is full");
            }
        }
    }

    #[test]
    fn big_units_mix_big_shapes_among_small_ones() {
        let spec = Spec {
            width: Some(30),
            height: Some(30),
            shapes: Some(200),
            max_size: Some(16),
            big_units: Some(0.25),
            ..Spec::default()
        };
        let problem = generate(&spec, 7);
        let sizes: Vec<usize> = problem.units.iter().map(|u| u.members.len()).collect();
        let big = sizes.iter().filter(|&&n| n > 8).count();
        assert!(sizes
            .iter()
            .all(|&n| (1..=4).contains(&n) || (9..=16).contains(&n)));
        assert!((25..=75).contains(&big), "{big} big shapes of 200");
        let none = Spec {
            big_units: Some(0.0),
            ..spec.clone()
        };
        let uniform = Spec {
            big_units: None,
            ..spec
        };
        assert_eq!(generate(&none, 7), generate(&uniform, 7));
    }
}
