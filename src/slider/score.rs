//! The independent Slider scorer: re-reads an output text and replays it with its own copy of the
//! rules (data/slider/README.md "Scoring rule"), so solver bugs cannot hide behind shared code.

use super::board::Problem;
use crate::core::text::quote;

/// A valid output's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    pub score: i64,
    pub turns: usize,
    pub drops: usize,
}

/// Why an output is invalid (its score is -1): the first offending line (1-based) and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub line: usize,
    pub reason: String,
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

/// The score of `output` on `problem`; empty (or all-blank) output scores 0. Lines after the
/// T-th are not read, as the official tester reads exactly T of them.
pub fn score(problem: &Problem, output: &str) -> Result<Scored, Invalid> {
    let n = problem.n as i64;
    let mut lines = output
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((first, header)) = lines.next() else {
        return Ok(Scored {
            score: 0,
            turns: 0,
            drops: 0,
        });
    };
    let invalid = |line: usize, reason: String| Invalid { line, reason };
    let t: i64 = header
        .parse()
        .map_err(|_| invalid(first, format!("T \"{}\" is not an integer", quote(header))))?;
    if t < 0 || t > n * n {
        return Err(invalid(first, format!("T = {t} is outside 0..{}", n * n)));
    }
    let mut grid: Vec<Vec<i8>> = problem
        .cells
        .chunks(problem.n)
        .map(<[i8]>::to_vec)
        .collect();
    let mut total = 0i64;
    let mut drops = 0;
    let mut last_line = first;
    for turn in 1..=t {
        let Some((number, text)) = lines.next() else {
            return Err(invalid(
                last_line + 1,
                format!("only {} of the T = {t} turn lines are there", turn - 1),
            ));
        };
        last_line = number;
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [r, c, k, d] = fields[..] else {
            return Err(invalid(
                number,
                format!("\"{}\" is not `row column M|S U|D|L|R`", quote(text)),
            ));
        };
        let (Ok(mut row), Ok(mut col)) = (r.parse::<i64>(), c.parse::<i64>()) else {
            return Err(invalid(
                number,
                format!("\"{}\": row or column is not an integer", quote(text)),
            ));
        };
        let slide = match k {
            "M" => false,
            "S" => true,
            _ => {
                return Err(invalid(
                    number,
                    format!("\"{}\": kind \"{}\" is not M or S", quote(text), quote(k)),
                ))
            }
        };
        let (dr, dc) = match d {
            "U" => (-1, 0),
            "D" => (1, 0),
            "L" => (0, -1),
            "R" => (0, 1),
            _ => {
                return Err(invalid(
                    number,
                    format!(
                        "\"{}\": direction \"{}\" is not U, D, L or R",
                        quote(text),
                        quote(d)
                    ),
                ))
            }
        };
        if !(0..n).contains(&row) || !(0..n).contains(&col) {
            return Err(invalid(
                number,
                format!("cell ({row}, {col}) is outside the grid"),
            ));
        }
        let value = grid[row as usize][col as usize];
        if value < 1 {
            return Err(invalid(
                number,
                format!("cell ({row}, {col}) holds no block"),
            ));
        }
        grid[row as usize][col as usize] = 0;
        let z = n * n - turn + 1;
        let mut fell = false;
        loop {
            let (nr, nc) = (row + dr, col + dc);
            if !(0..n).contains(&nr) || !(0..n).contains(&nc) {
                break;
            }
            let target = grid[nr as usize][nc as usize];
            if target == -1 {
                fell = true;
                break;
            }
            if target != 0 {
                break;
            }
            row = nr;
            col = nc;
            if !slide {
                break;
            }
        }
        if fell {
            total += z * i64::from(value - 1);
            drops += 1;
        } else {
            grid[row as usize][col as usize] = value;
        }
    }
    Ok(Scored {
        score: total,
        turns: t as usize,
        drops,
    })
}
