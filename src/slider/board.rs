//! The Slider model: the instance (N, C, holes, cells), its stdin parser, turns and their text,
//! and the rule of one turn (move or slide) that the solver plays with.

use crate::core::text::quote;
use std::fmt;

pub const HOLE: i8 = -1;
pub const EMPTY: i8 = 0;
/// The largest board podium accepts (the contest's is 30; hand-made tests go smaller).
pub const MAX_N: usize = 64;

/// One instance as the official stdin gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub n: usize,
    pub colours: i8,
    pub holes: usize,
    /// Row-major, top row first: `HOLE`, `EMPTY` or a block's value 1..=colours.
    pub cells: Vec<i8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Move,
    Slide,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// (row step, column step).
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }

    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }
}

/// One output line: the block at (row, col) moves or slides in `dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    pub row: usize,
    pub col: usize,
    pub kind: Kind,
    pub dir: Dir,
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            Kind::Move => 'M',
            Kind::Slide => 'S',
        };
        write!(
            f,
            "{} {} {} {}",
            self.row,
            self.col,
            kind,
            self.dir.letter()
        )
    }
}

/// The official output: T, then one line per turn.
pub fn output_text(turns: &[Turn]) -> String {
    let mut text = format!("{}\n", turns.len());
    for turn in turns {
        text += &format!("{turn}\n");
    }
    text
}

/// What one turn did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The cell holds no block (an invalid turn).
    NoBlock,
    /// Blocked by a block or the border: the turn is spent, nothing moves.
    Stayed,
    /// The block now stands on this cell index.
    Moved(usize),
    /// The block fell into a hole; it had this value.
    Dropped(i8),
}

/// The cell one step from `index` in `dir`, if it is on the board.
#[inline]
pub fn neighbour(n: usize, index: usize, dir: Dir) -> Option<usize> {
    let (row, col) = (index / n, index % n);
    match dir {
        Dir::Up if row > 0 => Some(index - n),
        Dir::Down if row + 1 < n => Some(index + n),
        Dir::Left if col > 0 => Some(index - 1),
        Dir::Right if col + 1 < n => Some(index + 1),
        _ => None,
    }
}

/// Where a block of `value` leaving `from` ends with `kind` in `dir` on `cells`: `Stayed`,
/// `Moved(to)` or `Dropped(value)`.
#[inline]
pub fn travel(cells: &[i8], n: usize, from: usize, kind: Kind, dir: Dir, value: i8) -> Outcome {
    let mut at = from;
    loop {
        match neighbour(n, at, dir) {
            Some(next) if cells[next] == HOLE => return Outcome::Dropped(value),
            Some(next) if cells[next] == EMPTY => at = next,
            _ => break,
        }
        if kind == Kind::Move {
            break;
        }
    }
    if at == from {
        Outcome::Stayed
    } else {
        Outcome::Moved(at)
    }
}

/// Plays one turn on `cells`.
pub fn step(cells: &mut [i8], n: usize, turn: Turn) -> Outcome {
    if turn.row >= n || turn.col >= n {
        return Outcome::NoBlock;
    }
    let from = turn.row * n + turn.col;
    let value = cells[from];
    if value <= 0 {
        return Outcome::NoBlock;
    }
    let outcome = travel(cells, n, from, turn.kind, turn.dir, value);
    match outcome {
        Outcome::Moved(to) => {
            cells[from] = EMPTY;
            cells[to] = value;
        }
        Outcome::Dropped(_) => cells[from] = EMPTY,
        Outcome::Stayed | Outcome::NoBlock => {}
    }
    outcome
}

impl Problem {
    /// Parses the official stdin: N, C, H, then N*N cells (any whitespace between values).
    /// Errors are one line naming the line and the value.
    pub fn parse(text: &str) -> Result<Problem, String> {
        let mut tokens = text
            .lines()
            .enumerate()
            .flat_map(|(i, line)| line.split_whitespace().map(move |t| (i + 1, t)));
        let mut next = |what: &str, low: i64, high: i64| -> Result<i64, String> {
            let (line, token) = tokens
                .next()
                .ok_or_else(|| format!("slider input: ends before {what}"))?;
            let value: i64 = token.parse().map_err(|_| {
                format!(
                    "slider input: line {line}: {what} \"{}\" is not an integer",
                    quote(token)
                )
            })?;
            if value < low || value > high {
                return Err(format!(
                    "slider input: line {line}: {what} value {value} is outside {low}..{high}"
                ));
            }
            Ok(value)
        };
        let n = next("N", 1, MAX_N as i64)? as usize;
        let colours = next("C", 1, 9)? as i8;
        let holes = next("H", 0, (n * n) as i64)? as usize;
        let mut cells = Vec::with_capacity(n * n);
        for i in 0..n * n {
            let what = format!("cell (row {}, column {})", i / n, i % n);
            cells.push(next(&what, -1, i64::from(colours))? as i8);
        }
        let counted = cells.iter().filter(|&&c| c == HOLE).count();
        if counted != holes {
            return Err(format!(
                "slider input: H is {holes} but the board has {counted} holes"
            ));
        }
        if let Some((line, token)) = tokens.next() {
            return Err(format!(
                "slider input: line {line}: unexpected \"{}\" after the last cell",
                quote(token)
            ));
        }
        Ok(Problem {
            n,
            colours,
            holes,
            cells,
        })
    }

    /// The official stdin text, one value per line.
    pub fn to_text(&self) -> String {
        let mut text = format!("{}\n{}\n{}\n", self.n, self.colours, self.holes);
        for cell in &self.cells {
            text += &format!("{cell}\n");
        }
        text
    }

    pub fn blocks(&self) -> usize {
        self.cells.iter().filter(|&&c| c > 0).count()
    }
}

/// The turns of an output text the scorer accepted (lines that do not parse are skipped).
pub fn parse_turns(output: &str) -> Vec<Turn> {
    let mut lines = output.lines().map(str::trim).filter(|l| !l.is_empty());
    let count: usize = lines.next().and_then(|t| t.parse().ok()).unwrap_or(0);
    lines
        .take(count)
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let [r, c, k, d] = f[..] else { return None };
            let kind = match k {
                "M" => Kind::Move,
                "S" => Kind::Slide,
                _ => return None,
            };
            let dir = Dir::ALL.into_iter().find(|x| x.letter().to_string() == d)?;
            // Read as the scorer reads them (`-0` is row 0), so a replay is the scored game.
            let index = |t: &str| t.parse::<i64>().ok().and_then(|v| usize::try_from(v).ok());
            Some(Turn {
                row: index(r)?,
                col: index(c)?,
                kind,
                dir,
            })
        })
        .collect()
}
