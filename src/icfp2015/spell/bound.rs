//! An upper bound on a game's score: the move score's (lines each lock can clear) plus the power
//! score's (phrases that fit the rows each unit can descend and the moves each row allows).
//
// Every legal command string of the game is a text of "segments": a segment ends at a break (a
// command that descends or locks), and inside a segment the unit stays on one row, where no
// position repeats, so it holds fewer non-descending letters than the unit has positions on a
// row. Breaks number at most the sum over units of (rows the pivot can descend on an empty
// board + 1 lock). The power bound is a DP over (breaks used, letters in the segment, phrase
// automaton state) of the 2 x len rewards, plus 300 for as many distinct phrases as fit the
// breaks, each costing the breaks it forces (descents, and locks that avoid a repeated position).

use crate::core::hash::{FastHasher, RandomKeyMap};
use crate::core::timer::Deadline;
use crate::icfp2015::memory::SearchMemory;
use crate::icfp2015::rules::board::Board;
use crate::icfp2015::rules::commands::{decode_char, Command, Symbol};
use crate::icfp2015::rules::game::{move_score, target, Game, Setup};
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::rules::unit::{Pos, Unit};
use std::time::Duration;

/// The bound and its parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bound {
    /// Most move score the game's units can make.
    pub moves: u64,
    /// Most of the power score's `2 x len` per occurrence.
    pub repeats: u64,
    /// Most distinct phrases (300 each) that fit the game's descents.
    pub distinct: u64,
}

impl Bound {
    pub fn total(&self) -> u64 {
        self.moves + self.repeats + 300 * self.distinct
    }
}

/// The bound of the game of `seed` with `phrases`.
pub fn bound(setup: &Setup, seed: u32, phrases: &PhraseSet) -> Bound {
    let game = Game::new(setup, seed);
    if game.is_over() {
        return Bound::default();
    }
    let units: Vec<&Unit> = game
        .order()
        .iter()
        .map(|&i| &setup.units[i as usize])
        .collect();
    let breaks: u64 = units.iter().map(|u| descents(setup, u) + 1).sum();
    let row_letters = units
        .iter()
        .map(|u| row_positions(setup, u))
        .max()
        .unwrap_or(1)
        .saturating_sub(1);
    // A unit with one orientation repeats its position at any turn.
    let turns = units.iter().any(|u| u.distinct > 1);
    Bound {
        moves: move_bound(setup, &units),
        repeats: Repeats::new(
            setup,
            &units,
            phrases,
            breaks as usize,
            row_letters as usize,
            turns,
            REPEAT_CELLS,
            &Deadline::after(Duration::MAX),
        )
        .from(breaks as usize, 0, PhraseSet::START, game.pos()),
        distinct: distinct_bound(
            phrases,
            breaks,
            units.len() as u64,
            turns,
            Life::of(setup, &units),
        ),
    }
}

/// Rows the pivot of `unit` can descend from its spawn on the empty board (some orientation
/// still inside it).
fn descents(setup: &Setup, unit: &Unit) -> u64 {
    lowest_row(setup, unit).map_or(0, |y| (y - unit.spawn.y) as u64)
}

/// The lowest row the pivot of `unit` can hold on the empty board, if any below its spawn.
fn lowest_row(setup: &Setup, unit: &Unit) -> Option<i32> {
    let height = setup.height() as i32;
    let width = setup.width() as i32;
    let fits_row = |y: i32| {
        (0..6u8).any(|o| {
            let s = unit.shape(o, y);
            y + s.dy_min >= 0 && y + s.dy_max < height && s.dx_max - s.dx_min < width
        })
    };
    // The pivot may lie outside the unit, below the board's last row.
    let reach = (0..12u8)
        .map(|i| -unit.shape(i / 2, i32::from(i % 2)).dy_max)
        .max()
        .unwrap_or(0)
        .max(0);
    (unit.spawn.y..height + reach).rev().find(|&y| fits_row(y))
}

/// Distinct positions `unit` has on one row (orientations x columns where it fits), the most
/// over the two row parities.
fn row_positions(setup: &Setup, unit: &Unit) -> u64 {
    let width = setup.width() as i32;
    (0..2)
        .map(|parity| {
            (0..6u8)
                .filter(|&o| unit.canonical[o as usize] == o)
                .map(|o| {
                    let s = unit.shape(o, parity);
                    (width - (s.dx_max - s.dx_min)).max(0) as u64
                })
                .sum::<u64>()
        })
        .max()
        .unwrap_or(0)
}

/// Most move score: a DP over the units in order of (lines cleared so far, lines of the last
/// lock), each lock clearing at most the rows its unit spans, and all locks together no more
/// lines than the units' cells can fill ([`Deficits`]).
fn move_bound(setup: &Setup, units: &[&Unit]) -> u64 {
    move_bound_from(setup, units, &Deficits::of(&setup.start).caps(units), 0)
}

/// The empty cells of a board's rows, fewest first: rows move down whole when a line clears
/// and enter empty at the top, so each line cleared from now on is one of these rows (or a new
/// empty one) whose empty cells units filled, and `k` lines take at least the `k` fewest.
struct Deficits {
    /// The rows' empty cells, fewest first, and their prefix sums: `sums[k]` for `k` rows.
    empty: Vec<u64>,
    sums: Vec<u64>,
    width: u64,
}

impl Deficits {
    fn of(board: &Board) -> Deficits {
        let width = board.width() as u64;
        let mut empty: Vec<u64> = board
            .rows()
            .iter()
            .map(|r| width - u64::from(r.count_ones()))
            .collect();
        empty.sort_unstable();
        let mut sums = vec![0];
        for &e in &empty {
            sums.push(sums.last().copied().unwrap_or(0) + e);
        }
        Deficits { empty, sums, width }
    }

    /// Per unit of `units`, the most lines they can clear up to it.
    fn caps(&self, units: &[&Unit]) -> Vec<u64> {
        let (mut placed, mut row_cells) = (0, 0);
        units
            .iter()
            .map(|u| {
                placed += u64::from(u.size);
                row_cells += widest_row(u);
                self.lines(placed, row_cells)
            })
            .collect()
    }

    /// Most lines `placed` unit cells can clear, where the units can put at most `row_cells`
    /// cells in any one row: a cleared row is a row of the board (or a new empty one) with the
    /// cells each lock put in it, and a row moves whole when a line below it clears.
    fn lines(&self, placed: u64, row_cells: u64) -> u64 {
        let fillable = self.empty.partition_point(|&e| e <= row_cells);
        let rows = (self.sums.partition_point(|&s| s <= placed) - 1).min(fillable) as u64;
        let all = *self.sums.last().expect("sums start at 0");
        // Past the board's rows, each line is a new empty row.
        if rows as usize == self.empty.len() && self.width > 0 && self.width <= row_cells {
            rows + (placed - all) / self.width
        } else {
            rows
        }
    }
}

/// The most cells `unit` puts in one row, over its orientations and both row parities.
fn widest_row(unit: &Unit) -> u64 {
    (0..12u8)
        .flat_map(|i| unit.shape(i / 2, i32::from(i % 2)).rows.iter())
        .map(|r| u64::from(r.count_ones()))
        .max()
        .unwrap_or(u64::from(unit.size))
}

/// [`move_bound`] from a board whose last lock cleared `last` lines, where `caps[k]` is the
/// most lines the first `k + 1` units can clear in all ([`Deficits::caps`]).
fn move_bound_from(setup: &Setup, units: &[&Unit], caps: &[u64], last: u64) -> u64 {
    // best[(total, last)] = most score.
    let mut best: std::collections::HashMap<(u64, u64), u64> = [((0, last), 0)].into();
    for (unit, &most_total) in units.iter().zip(caps) {
        let span = (0..6u8)
            .map(|o| {
                let s = unit.shape(o, 0);
                (s.dy_max - s.dy_min + 1) as u64
            })
            .max()
            .unwrap_or(1)
            .min(setup.height() as u64);
        let mut next: std::collections::HashMap<(u64, u64), u64> = Default::default();
        for (&(total, last), &score) in &best {
            for lines in 0..=span {
                if total + lines > most_total {
                    break;
                }
                let s = score + move_score(unit.size, lines as u32, last as u32);
                let entry = next.entry((total + lines, lines)).or_insert(0);
                *entry = (*entry).max(s);
            }
        }
        best = next;
    }
    best.values().copied().max().unwrap_or(0)
}

/// The command of a phrase letter, lower case.
fn command_of(byte: u8) -> Option<Command> {
    match decode_char(byte as char) {
        Symbol::Command(c) => Some(c),
        _ => None,
    }
}

/// Whether a letter of this command may appear in a legal answer: a turn may not where no unit
/// of the game has a second orientation.
fn allowed(command: Command, turns: bool) -> bool {
    turns || !matches!(command, Command::CW | Command::CCW)
}

/// Phrases made of allowed command letters only (the others are never spelled), lower case.
fn spellable(phrases: &PhraseSet, turns: bool) -> Vec<(usize, Vec<u8>)> {
    phrases
        .phrases()
        .iter()
        .enumerate()
        .map(|(i, p)| (i, p.to_lowercase().into_bytes()))
        .filter(|(_, p)| {
            p.iter()
                .all(|&b| command_of(b).is_some_and(|c| allowed(c, turns)))
        })
        .collect()
}

/// How far one unit of the game can go in its life: the most doubled columns between two pivot
/// positions (W / E move 2, SW / SE 1), and the most rows it descends, over the game's units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Life {
    columns2: i32,
    descents: i32,
}

impl Life {
    /// No limit: what a phrase forces by its returns alone.
    #[cfg(test)]
    const FREE: Life = Life {
        columns2: i32::MAX,
        descents: i32::MAX,
    };

    fn of(setup: &Setup, units: &[&Unit]) -> Life {
        let width = setup.width() as i32;
        let columns2 = units
            .iter()
            .map(|u| pivot_columns2(u, width).map_or(0, |(lo, hi)| (hi - lo).max(0)))
            .max()
            .unwrap_or(0);
        let descents = units
            .iter()
            .map(|u| descents(setup, u) as i32)
            .max()
            .unwrap_or(0);
        Life { columns2, descents }
    }
}

/// The westmost and eastmost doubled column `2x + (row & 1)` `unit`'s pivot can hold on a board
/// `width` wide, over the orientations that fit; `None` where none fits.
fn pivot_columns2(unit: &Unit, width: i32) -> Option<(i32, i32)> {
    let (mut lo, mut hi) = (i32::MAX, i32::MIN);
    for parity in 0..2 {
        for o in 0..6u8 {
            let s = unit.shape(o, parity);
            if s.dx_max - s.dx_min < width {
                lo = lo.min(2 * -s.dx_min + parity);
                hi = hi.max(2 * (width - 1 - s.dx_max) + parity);
            }
        }
    }
    (lo <= hi).then_some((lo, hi))
}

/// Which letters of `phrase` must be breaks wherever it is spelled, and which of them must lock:
/// the letters that descend, and the fewest locks such that no run of letters between two locks
/// comes back to a position (a return in column and orientation modulo 6 on one row repeats a
/// position for every unit), spans more doubled columns or descends more rows than a unit's
/// `life` allows. Each violation is a window of letters one of which must lock; the latest
/// letter of the earliest-ending window is taken (interval stabbing: the fewest locks).
fn forced_breaks(phrase: &[u8], life: Life) -> Vec<(bool, bool)> {
    // Since the last lock: doubled column (from 0), its range, descents; on the row, the
    // (column, orientation) held.
    let mut column = 0i32;
    let (mut west, mut east) = (0i32, 0i32);
    let mut down = 0i32;
    let mut turn = 0i32;
    let mut seen: Vec<(i32, i32)> = vec![(0, 0)];
    phrase
        .iter()
        .map(|&b| {
            let c = command_of(b).expect("spellable letters");
            let (next, next_turn) = match c {
                Command::W => (column - 2, turn),
                Command::E => (column + 2, turn),
                Command::SW => (column - 1, turn),
                Command::SE => (column + 1, turn),
                Command::CW => (column, (turn + 1) % 6),
                Command::CCW => (column, (turn + 5) % 6),
            };
            let descends = c.descends();
            let too_wide = east.max(next) - west.min(next) > life.columns2;
            let too_deep = descends && down + 1 > life.descents;
            let returns = !descends && seen.contains(&(next, next_turn));
            if too_wide || too_deep || returns {
                // This letter locks: the next unit starts afresh.
                (column, west, east, down, turn) = (0, 0, 0, 0, 0);
                seen.clear();
                seen.push((0, 0));
                return (true, true);
            }
            (column, turn) = (next, next_turn);
            west = west.min(column);
            east = east.max(column);
            if descends {
                down += 1;
                seen.clear();
            }
            seen.push((column, turn));
            (descends, false)
        })
        .collect()
}

#[cfg(test)]
fn breaks_in(forced: &[(bool, bool)]) -> u64 {
    forced.iter().filter(|f| f.0).count() as u64
}

/// The breaks `letters` force wherever they are spelled, and how many of those are locks.
fn forced_cost(letters: &[u8], life: Life) -> (u64, u64) {
    let forced = forced_breaks(letters, life);
    let breaks = forced.iter().filter(|f| f.0).count() as u64;
    let locks = forced.iter().filter(|f| f.1).count() as u64;
    (breaks, locks)
}

/// Most distinct phrases whose first occurrences fit `breaks` breaks and `locks` locks. Taken in
/// the order they start, each first occurrence adds at least the forced breaks and locks
/// ([`forced_breaks`]) of the part no earlier one covers: all of it, or what follows a prefix
/// equal to a suffix of another phrase, or nothing where it is inside another.
fn distinct_bound(phrases: &PhraseSet, breaks: u64, locks: u64, turns: bool, life: Life) -> u64 {
    let all = possible(phrases, turns, life, breaks, locks);
    let costs = first_costs(&all, 0, life);
    most_distinct(&costs, breaks, locks)
}

/// The [`spellable`] phrases whose own forced breaks and locks fit the game's `breaks` and
/// `locks`: the others never occur, so they neither score nor cover another phrase's letters.
fn possible(
    phrases: &PhraseSet,
    turns: bool,
    life: Life,
    breaks: u64,
    locks: u64,
) -> Vec<(usize, Vec<u8>)> {
    let mut all = spellable(phrases, turns);
    all.retain(|(_, p)| {
        let (b, l) = forced_cost(p, life);
        b <= breaks && l <= locks
    });
    all
}

/// Per phrase of `all`, the fewest (breaks, locks) its first occurrence adds ([`distinct_bound`]),
/// where the text typed so far may end with up to `typed` letters of it.
fn first_costs(all: &[(usize, Vec<u8>)], typed: usize, life: Life) -> Vec<(u64, u64)> {
    all.iter()
        .map(|(i, q)| {
            let mut options = vec![forced_cost(q, life)];
            for k in 1..q.len().min(typed + 1) {
                options.push(forced_cost(&q[k..], life));
            }
            for (j, p) in all {
                if j == i {
                    continue;
                }
                if p.windows(q.len()).any(|w| w == q.as_slice()) {
                    options.push((0, 0));
                }
                for k in 1..q.len().min(p.len() + 1) {
                    if p[p.len() - k..] == q[..k] {
                        options.push(forced_cost(&q[k..], life));
                    }
                }
            }
            // Each part below the least of its options: whichever part is uncovered.
            let least_breaks = options.iter().map(|o| o.0).min().unwrap_or(0);
            let least_locks = options.iter().map(|o| o.1).min().unwrap_or(0);
            (least_breaks, least_locks)
        })
        .collect()
}

/// Most of the phrases of `costs` (breaks, locks) that fit `breaks` breaks and `locks` locks.
fn most_distinct(costs: &[(u64, u64)], breaks: u64, locks: u64) -> u64 {
    // fewest[l][k]: the fewest breaks of k phrases forcing l locks in all (0/1 knapsack).
    let most_locks = locks as usize;
    let n = costs.len();
    let mut fewest = vec![vec![u64::MAX; n + 1]; most_locks + 1];
    fewest[0][0] = 0;
    for &(b, l) in costs {
        for used in (0..=most_locks).rev() {
            let Some(from) = used.checked_sub(l as usize) else {
                continue;
            };
            for k in (1..=n).rev() {
                let before = fewest[from][k - 1];
                if before != u64::MAX && before + b <= breaks {
                    fewest[used][k] = fewest[used][k].min(before + b);
                }
            }
        }
    }
    (0..=n)
        .filter(|&k| fewest.iter().any(|row| row[k] != u64::MAX))
        .max()
        .unwrap_or(0) as u64
}

/// A bound on what the rest of a game can still score from a state of its play, for a branch
/// and bound (`spell::deep`): [`bound`]'s parts from the falling unit on, with the rows it can
/// still descend, the letters typed on its row, the phrase automaton's state and the phrases used.
pub struct Remaining<'a> {
    setup: &'a Setup,
    /// The game's units in order.
    units: Vec<&'a Unit>,
    /// Breaks (descents + 1 lock) of the units after the `k`-th: `later[k]`.
    later: Vec<u64>,
    breaks: usize,
    /// Most `2 x len` rewards from (breaks left, letters on the row, automaton state, column).
    repeats: Repeats,
    /// The spellable phrases' indices, and their first occurrence's costs by letters typed.
    indices: Vec<usize>,
    costs: Vec<Vec<(u64, u64)>>,
    distinct: std::collections::HashMap<(u128, u64, u64, usize), u64>,
    moves: std::collections::HashMap<(u32, u32, u64), u64>,
    /// Per (units locked, board), the falling unit's lowest rows and the breaks of the units
    /// after it ([`Reach`]).
    reach: RandomKeyMap<(u32, u64), Reach>,
    /// Bytes the reach cache holds, and the bytes of all three caches at most: half for the
    /// reach cache, a quarter each for the others; a full cache starts afresh. Problem 13's
    /// boards take ~7 kB each: the 16 k boards once kept took ~120 MB, and were 45 MB 1.5 s
    /// into the branch and bound at `-t 15 -m 40` (peak RSS 55 MB).
    reach_bytes: usize,
    cache_bytes: usize,
}

/// Bytes an entry of the `distinct` and `moves` caches takes with the map's spare room.
const DISTINCT_ENTRY_BYTES: usize = 80;
const MOVES_ENTRY_BYTES: usize = 40;

/// Bytes a [`Reach`] takes besides its rows, with its key and the map's spare room.
const REACH_ENTRY_BYTES: usize = 128;

/// The rows a unit can still reach on one board: per position (ignoring the history rule), the
/// lowest pivot row reachable from it; and the breaks the later units have left.
struct Reach {
    deepest: Vec<i32>,
    x0: i32,
    y0: i32,
    columns: i32,
    rows: i32,
    /// Breaks of the units after the falling one.
    later: u64,
}

impl Reach {
    fn index(&self, pos: Pos) -> Option<usize> {
        let (x, y) = (pos.x - self.x0, pos.y - self.y0);
        (x >= 0 && x < self.columns && y >= 0 && y < self.rows)
            .then(|| ((y * self.columns + x) * 6 + pos.orientation as i32) as usize)
    }

    /// The lowest pivot row reachable from `pos` (its own row where it does not fit).
    fn deepest_from(&self, pos: Pos) -> i32 {
        self.index(pos)
            .map_or(pos.y, |i| self.deepest[i].max(pos.y))
    }
}

/// [`Reach`] of `unit` on `board` (its `later` left 0): rows from the bottom up, each row's
/// positions joined by moves and turns, each group as deep as the lowest row any member's
/// descent reaches.
fn reach_of(board: &Board, unit: &Unit) -> Reach {
    let (width, height) = (board.width() as i32, board.height() as i32);
    let shapes = (0..12u8).map(|i| unit.shape(i / 2, i32::from(i % 2)));
    let (mut x0, mut x1, mut y0, mut y1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    for s in shapes {
        x0 = x0.min(-s.dx_min);
        x1 = x1.max(width - 1 - s.dx_max);
        y0 = y0.min(-s.dy_min);
        y1 = y1.max(height - 1 - s.dy_max);
    }
    let mut reach = Reach {
        deepest: Vec::new(),
        x0: x0 - 1,
        y0: y0 - 1,
        columns: (x1 - x0 + 3).max(1),
        rows: (y1 - y0 + 3).max(1),
        later: 0,
    };
    const NONE: i32 = i32::MIN;
    reach.deepest = vec![NONE; (reach.columns * reach.rows * 6) as usize];
    let fits = |p: Pos| board.fits(unit.shape(p.orientation, p.y), p.x, p.y);
    let mut group: Vec<Pos> = Vec::new();
    for y in (reach.y0..reach.y0 + reach.rows).rev() {
        for x in reach.x0..reach.x0 + reach.columns {
            for o in 0..6u8 {
                let first = Pos {
                    x,
                    y,
                    orientation: o,
                };
                let i = reach.index(first).expect("on the grid");
                if reach.deepest[i] != NONE || !fits(first) {
                    continue;
                }
                // This row's group of `first`: marked with its row while it is collected.
                group.clear();
                group.push(first);
                reach.deepest[i] = y;
                let mut head = 0;
                let mut deepest = y;
                while head < group.len() {
                    let here = group[head];
                    head += 1;
                    for c in Command::ALL {
                        let next = target(here, c);
                        if !fits(next) {
                            continue;
                        }
                        let Some(j) = reach.index(next) else {
                            continue;
                        };
                        if c.descends() {
                            deepest = deepest.max(reach.deepest[j]);
                        } else if reach.deepest[j] == NONE {
                            reach.deepest[j] = y;
                            group.push(next);
                        }
                    }
                }
                for &p in &group {
                    let j = reach.index(p).expect("on the grid");
                    reach.deepest[j] = deepest;
                }
            }
        }
    }
    reach
}

/// What [`Remaining::at`] needs of a state of play.
pub struct Playing<'b> {
    /// Units locked so far (the falling unit's place in the order).
    pub locked: usize,
    /// Commands typed since the last break, none of them descending.
    pub row_moves: usize,
    pub automaton: u32,
    /// Phrases ended so far (bit per index below 128).
    pub used: u128,
    pub prev_lines: u32,
    pub board: &'b Board,
    /// The falling unit's position.
    pub pos: Pos,
}

impl<'a> Remaining<'a> {
    pub fn new(setup: &'a Setup, seed: u32, phrases: &PhraseSet) -> Remaining<'a> {
        let never = Deadline::after(Duration::MAX);
        Remaining::within(setup, seed, phrases, &SearchMemory::AMPLE, &never)
    }

    /// [`Remaining::new`] with a repeat table of at most `memory.repeat_cells` cells (a looser
    /// bound where fewer breaks fit), its caches within `memory.bound_caches` bytes, and no
    /// more of its table built after `deadline` (fewer breaks held, as where memory is short).
    pub fn within(
        setup: &'a Setup,
        seed: u32,
        phrases: &PhraseSet,
        memory: &SearchMemory,
        deadline: &Deadline,
    ) -> Remaining<'a> {
        let repeat_cells = memory.repeat_cells;
        let game = Game::new(setup, seed);
        let units: Vec<&Unit> = game
            .order()
            .iter()
            .map(|&i| &setup.units[i as usize])
            .collect();
        let mut later = vec![0u64; units.len() + 1];
        for k in (0..units.len()).rev() {
            later[k] = if k + 1 < units.len() {
                later[k + 1] + descents(setup, units[k + 1]) + 1
            } else {
                0
            };
        }
        let breaks = units
            .first()
            .map_or(0, |u| descents(setup, u) + 1 + later[0]) as usize;
        let row_letters = units
            .iter()
            .map(|u| row_positions(setup, u))
            .max()
            .unwrap_or(1)
            .saturating_sub(1) as usize;
        let turns = units.iter().any(|u| u.distinct > 1);
        let life = Life::of(setup, &units);
        let all = possible(phrases, turns, life, breaks as u64, units.len() as u64);
        let longest = all.iter().map(|(_, p)| p.len()).max().unwrap_or(0);
        let costs = (0..longest.max(1))
            .map(|t| first_costs(&all, t, life))
            .collect();
        Remaining {
            setup,
            repeats: Repeats::new(
                setup,
                &units,
                phrases,
                breaks,
                row_letters,
                turns,
                repeat_cells,
                deadline,
            ),
            units,
            later,
            breaks,
            indices: all.iter().map(|(i, _)| *i).collect(),
            costs,
            distinct: Default::default(),
            moves: Default::default(),
            reach: Default::default(),
            reach_bytes: 0,
            cache_bytes: memory.bound_caches,
        }
    }

    /// Most the game can still score from `now` (move score and power score to come).
    pub fn at(&mut self, now: &Playing, phrases: &PhraseSet) -> u64 {
        if now.locked >= self.units.len() {
            return 0;
        }
        let reach = self.reach_at(now);
        let own = (reach.deepest_from(now.pos) - now.pos.y).max(0) as u64 + 1;
        let breaks = (own + reach.later).min(self.breaks as u64);
        let locks = (self.units.len() - now.locked) as u64;
        let repeats = self
            .repeats
            .from(breaks as usize, now.row_moves, now.automaton, now.pos);
        let typed = (phrases.depth(now.automaton) as usize).min(self.costs.len() - 1);
        let distinct = match self.distinct.get(&(now.used, breaks, locks, typed)) {
            Some(&d) => d,
            None => {
                let costs: Vec<(u64, u64)> = self
                    .indices
                    .iter()
                    .zip(&self.costs[typed])
                    .filter(|&(&i, _)| i >= 128 || now.used & (1u128 << i) == 0)
                    .map(|(_, &c)| c)
                    .collect();
                let d = most_distinct(&costs, breaks, locks);
                if (self.distinct.len() + 1) * DISTINCT_ENTRY_BYTES > self.cache_bytes / 4 {
                    self.distinct.clear();
                }
                self.distinct.insert((now.used, breaks, locks, typed), d);
                d
            }
        };
        // Keyed by the lines the rows allow rather than the board: most boards allow the same.
        let rest = &self.units[now.locked..];
        let caps = Deficits::of(now.board).caps(rest);
        let key = (now.locked as u32, now.prev_lines, hash_caps(&caps));
        let moves = match self.moves.get(&key) {
            Some(&m) => m,
            None => {
                let m = move_bound_from(self.setup, rest, &caps, now.prev_lines as u64);
                if (self.moves.len() + 1) * MOVES_ENTRY_BYTES > self.cache_bytes / 4 {
                    self.moves.clear();
                }
                self.moves.insert(key, m);
                m
            }
        };
        moves + repeats + 300 * distinct
    }

    /// The falling unit's [`Reach`] on the board of `now`, with the later units' breaks: on this
    /// board where no row can be cleared any more (locks only fill cells then), else on the
    /// empty board.
    fn reach_at(&mut self, now: &Playing) -> &Reach {
        let key = (now.locked as u32, hash_rows(now.board.rows()));
        if !self.reach.contains_key(&key) {
            let mut reach = reach_of(now.board, self.units[now.locked]);
            let rest: u64 = self.units[now.locked..].iter().map(|u| u.size as u64).sum();
            let width = now.board.width() as u64;
            let clears = now
                .board
                .rows()
                .iter()
                .any(|&r| width - u64::from(r.count_ones()) <= rest);
            reach.later = if clears {
                self.later[now.locked]
            } else {
                self.units[now.locked + 1..]
                    .iter()
                    .map(|u| {
                        if !now.board.fits_unit(u, u.spawn) {
                            return 0;
                        }
                        let lowest = reach_of(now.board, u).deepest_from(u.spawn);
                        (lowest - u.spawn.y).max(0) as u64 + 1
                    })
                    .sum()
            };
            let bytes = REACH_ENTRY_BYTES + reach.deepest.capacity() * std::mem::size_of::<i32>();
            if self.reach.len() >= REACH_BOARDS || self.reach_bytes + bytes > self.cache_bytes / 2 {
                self.reach.clear();
                self.reach_bytes = 0;
            }
            self.reach_bytes += bytes;
            self.reach.insert(key, reach);
        }
        &self.reach[&key]
    }
}

/// Boards whose [`Reach`] is kept at most (a few kB each): past it, the cache starts afresh.
const REACH_BOARDS: usize = 1 << 14;

fn hash_caps(caps: &[u64]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = FastHasher::default();
    caps.hash(&mut h);
    h.finish()
}

fn hash_rows(rows: &[u128]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = FastHasher::default();
    rows.hash(&mut h);
    h.finish()
}

/// Most `2 x len` rewards from each (breaks left, letters typed on the row, automaton state,
/// pivot's doubled column): over texts whose non-descending letters between two breaks are
/// fewer than a unit has positions on a row, where a break descends (SW / SE: 1 doubled column)
/// or locks (the next unit at a spawn column), whose pivot stays in the doubled columns some
/// unit's pivot can hold (W / E: 2 doubled columns), and where no letter comes back to a
/// position held on its row as far as the automaton state's prefix shows ([`returns_after`]:
/// a reversed pair such as `p b` earned 4 a letter on every row before, 4 a break now).
struct Repeats {
    table: Vec<u32>,
    row_letters: usize,
    states: usize,
    /// Doubled columns `west..west + columns`; one column (all moves allowed) where the table
    /// with columns would pass [`REPEAT_CELLS`].
    west: i32,
    columns: usize,
    /// Breaks the table holds, `0..=kept`: fewer than the game's where one column would pass
    /// [`REPEAT_CELLS`] (a game that ends long before its source: problem 13's 100 units of 17
    /// cells would take ~140 MB a core); past them, each break adds a whole segment's most.
    kept: usize,
    /// Most rewards of a segment: its letters on a row and its break, each the most any letter
    /// earns.
    segment: u64,
    /// Most of the table at `kept` breaks, from any state.
    top: u64,
}

/// Cells the repeat table holds at most where memory is not short (4 bytes each, per core): with
/// columns, or with every break of the game.
const REPEAT_CELLS: usize = SearchMemory::AMPLE.repeat_cells;

/// A letter of the repeat table from a state: (next state, doubled columns moved, descends,
/// reward, row letters from which it returns).
type Letter = (u32, i32, bool, u32, usize);

/// The pivot's doubled column `2x + (y & 1)` of `pos`.
fn column2(pos: Pos) -> i32 {
    2 * pos.x + (pos.y & 1)
}

/// Per automaton state, the commands of the phrase prefix it stands for (the text typed ends
/// with them), found along the trie from the start over `letters`; empty for a state no text of
/// `letters` reaches as its whole prefix.
fn state_tails(phrases: &PhraseSet, letters: &[u8]) -> Vec<Vec<Command>> {
    let mut tails: Vec<Option<Vec<Command>>> = vec![None; phrases.states()];
    tails[PhraseSet::START as usize] = Some(Vec::new());
    let mut order = vec![PhraseSet::START];
    let mut head = 0;
    while head < order.len() {
        let q = order[head];
        head += 1;
        for &b in letters {
            let n = phrases.advance(q, b);
            // One letter deeper only along the trie (a failure link never deepens).
            if phrases.depth(n) == phrases.depth(q) + 1 && tails[n as usize].is_none() {
                let mut tail = tails[q as usize].clone().unwrap_or_default();
                tail.push(command_of(b).expect("a command letter"));
                tails[n as usize] = Some(tail);
                order.push(n);
            }
        }
    }
    tails.into_iter().map(Option::unwrap_or_default).collect()
}

/// The fewest of the last letters `tail` (commands typed, latest last) that `command` returns
/// over: their moves and its own come back to the pivot's column and the orientation modulo 6
/// they started from, none descending. Typed on one row since its last break, such letters end
/// where the unit already was: `usize::MAX` where there are none.
fn returns_after(tail: &[Command], command: Command) -> usize {
    let step = |c: Command| match c {
        Command::W => (-2, 0),
        Command::E => (2, 0),
        Command::CW => (0, 1),
        Command::CCW => (0, 5),
        Command::SW | Command::SE => unreachable!("descents end the search first"),
    };
    if command.descends() {
        return usize::MAX;
    }
    let (mut column, mut turn) = step(command);
    for (j, &c) in tail.iter().rev().enumerate() {
        if c.descends() {
            break;
        }
        let (dc, dt) = step(c);
        column += dc;
        turn = (turn + dt) % 6;
        if column == 0 && turn == 0 {
            return j + 1;
        }
    }
    usize::MAX
}

impl Repeats {
    #[allow(clippy::too_many_arguments)]
    fn new(
        setup: &Setup,
        units: &[&Unit],
        phrases: &PhraseSet,
        breaks: usize,
        row_letters: usize,
        turns: bool,
        cells: usize,
        deadline: &Deadline,
    ) -> Repeats {
        let states = phrases.states();
        let width = setup.width() as i32;
        // The doubled columns any unit's pivot can hold, over orientations and row parities.
        let (mut west, mut east) = (i32::MAX, i32::MIN);
        for (lo, hi) in units.iter().filter_map(|u| pivot_columns2(u, width)) {
            west = west.min(lo);
            east = east.max(hi);
        }
        let mut spawns: Vec<i32> = units.iter().map(|u| column2(u.spawn)).collect();
        spawns.sort_unstable();
        spawns.dedup();
        let kept = breaks.min((cells / ((row_letters + 1) * states)).max(1) - 1);
        let layer = (kept + 1) * (row_letters + 1) * states;
        let wide = (east - west + 1).max(1) as usize;
        let (west, columns) = if west <= east && layer * wide <= cells {
            (west, wide)
        } else {
            (0, 1)
        };
        let mut repeats = Repeats {
            table: vec![0u32; layer * columns],
            row_letters,
            states,
            west,
            columns,
            kept,
            segment: 0,
            top: 0,
        };
        if spellable(phrases, turns).is_empty() {
            return repeats;
        }
        let letters: Vec<u8> = Command::ALL
            .iter()
            .filter(|&&c| allowed(c, turns))
            .flat_map(|c| c.characters().bytes())
            .collect();
        // Per state, the distinct (next state, doubled columns moved, descends) with the reward
        // and the row letters from which the letter returns to a position ([`returns_after`]):
        // of two letters alike but for that, the one returning later is kept.
        let tails = state_tails(phrases, &letters);
        let moves: Vec<Vec<Letter>> = (0..states as u32)
            .map(|q| {
                let mut m: Vec<Letter> = letters
                    .iter()
                    .map(|&b| {
                        let next = phrases.advance(q, b);
                        let c = command_of(b).expect("a command letter");
                        let shift = match c {
                            Command::W => -2,
                            Command::E => 2,
                            Command::SW => -1,
                            Command::SE => 1,
                            _ => 0,
                        };
                        let back = returns_after(&tails[q as usize], c);
                        (
                            next,
                            shift,
                            c.descends(),
                            phrases.repeat_points_at(next),
                            back,
                        )
                    })
                    .collect();
                m.sort_unstable_by_key(|&(n, s, d, _, back)| (n, s, d, std::cmp::Reverse(back)));
                m.dedup_by_key(|&mut (n, s, d, _, _)| (n, s, d));
                m
            })
            .collect();
        let spawn_index: Vec<usize> = spawns
            .iter()
            .filter_map(|&x| repeats.column_index(x))
            .collect();
        // Per state, the most from a spawn column with one break less (a lock then).
        let mut after_lock = vec![0u32; states];
        repeats.segment = (row_letters as u64 + 1)
            * moves
                .iter()
                .flatten()
                .map(|&(_, _, _, r, _)| u64::from(r))
                .max()
                .unwrap_or(0);
        for b in 0..=kept {
            // Past the deadline the levels built so far are the table: a bound with fewer breaks
            // held (the known 18 on an 11 x 11 game of 2-6 units took 2.2-2.6 s a core at load
            // 8 and overran the watchdog: the planned game was printed, docs Part 39).
            if b > 0 && deadline.expired() {
                repeats.kept = b - 1;
                break;
            }
            for m in (0..=row_letters).rev() {
                for (q, from_q) in moves.iter().enumerate() {
                    for x in 0..columns {
                        let mut best = 0u32;
                        for &(n, shift, down, r, back) in from_q {
                            // Its row's last `back` letters and this one come back to a
                            // position the unit held on this row, on the same board: the
                            // engine refuses it (it does not lock: the position fits).
                            if m >= back {
                                continue;
                            }
                            let n = n as usize;
                            if b > 0 {
                                best = best.max(r + after_lock[n]);
                            }
                            let to = if columns == 1 {
                                Some(0)
                            } else {
                                let t = x as i32 + shift;
                                (t >= 0 && (t as usize) < columns).then_some(t as usize)
                            };
                            let Some(to) = to else {
                                continue;
                            };
                            if down {
                                if b > 0 {
                                    best = best.max(r + repeats.table[repeats.at(b - 1, 0, n, to)]);
                                }
                            } else if m < row_letters {
                                best = best.max(r + repeats.table[repeats.at(b, m + 1, n, to)]);
                            }
                        }
                        let i = repeats.at(b, m, q, x);
                        repeats.table[i] = best;
                    }
                }
            }
            for (q, best) in after_lock.iter_mut().enumerate() {
                *best = if columns == 1 {
                    repeats.table[repeats.at(b, 0, q, 0)]
                } else {
                    spawn_index
                        .iter()
                        .map(|&x| repeats.table[repeats.at(b, 0, q, x)])
                        .max()
                        .unwrap_or(0)
                };
            }
        }
        repeats.top = repeats.table.iter().copied().max().map_or(0, u64::from);
        repeats
    }

    fn at(&self, b: usize, m: usize, q: usize, x: usize) -> usize {
        ((b * (self.row_letters + 1) + m) * self.states + q) * self.columns + x
    }

    fn column_index(&self, column2: i32) -> Option<usize> {
        let x = column2 - self.west;
        (x >= 0 && (x as usize) < self.columns).then_some(x as usize)
    }

    /// Most rewards with `breaks` left, `row_moves` letters on the row, in automaton state
    /// `automaton`, the pivot at `pos`.
    fn from(&self, breaks: usize, row_moves: usize, automaton: u32, pos: Pos) -> u64 {
        if breaks > self.kept {
            // The first `breaks - kept` segments, then a text of `kept` breaks from any state.
            return (breaks - self.kept) as u64 * self.segment + self.top;
        }
        let (b, m, q) = (breaks, row_moves.min(self.row_letters), automaton as usize);
        let value = if self.columns == 1 {
            self.table[self.at(b, m, q, 0)]
        } else {
            match self.column_index(column2(pos)) {
                Some(x) => self.table[self.at(b, m, q, x)],
                None => (0..self.columns)
                    .map(|x| self.table[self.at(b, m, q, x)])
                    .max()
                    .unwrap_or(0),
            }
        };
        u64::from(value)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::icfp2015::rules::problem::Problem;
    use crate::icfp2015::spell::exhaustive;

    /// A 4 x 3 board, two units (the second with its pivot outside it, below).
    pub(crate) fn tiny() -> Setup {
        let json = r#"{"id":7,"width":4,"height":3,"filled":[],"sourceLength":2,"sourceSeeds":[0],
            "units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}},
                     {"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":1}}]}"#;
        Setup::new(Problem::parse(json.as_bytes(), "test").unwrap())
    }

    /// Games small enough to enumerate every legal command string: [`tiny`]; a 4 x 3 board with
    /// a row one cell short of full (a line clears), two single cells; a 3 x 3 board of three
    /// single cells; a 6 x 2 board (one row to descend: long drifts east must lock).
    pub(crate) fn enumerable() -> Vec<Setup> {
        let games = [
            r#"{"id":8,"width":4,"height":3,"filled":[{"x":0,"y":2},{"x":1,"y":2},{"x":2,"y":2}],
                "sourceLength":2,"sourceSeeds":[0],
                "units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
            r#"{"id":9,"width":3,"height":3,"filled":[],"sourceLength":3,"sourceSeeds":[0],
                "units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
            r#"{"id":10,"width":6,"height":2,"filled":[],"sourceLength":2,"sourceSeeds":[0],
                "units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#,
        ];
        let mut all = vec![tiny()];
        for json in games {
            all.push(Setup::new(Problem::parse(json.as_bytes(), "test").unwrap()));
        }
        all
    }

    /// Phrase sets for the enumerable games: returns, turns, drifts east and west, descents, and
    /// reversed runs (W E, CW CCW: spelled only where the reversing letter's unit locked first).
    pub(crate) fn enumerable_sets() -> Vec<PhraseSet> {
        let sets: [&[&str]; 8] = [
            &[],
            &["pa", "bl", "al"],
            &["ppp", "a"],
            &["pbl", "dka", "bpal"],
            &["dl", "kd", "pdb"],
            &["bbb", "lll", "bbbbb"],
            &["lal", "albl", "pppp", "aaaa"],
            &["pb", "dkd", "bbpa"],
        ];
        sets.iter()
            .map(|s| PhraseSet::new(s.iter().map(|p| p.to_string()).collect()).unwrap())
            .collect()
    }

    /// Every legal command string of the tiny game, depth first: the best score.
    fn brute_force(setup: &Setup, phrases: &PhraseSet) -> u64 {
        fn go(game: &Game, text: &mut String, phrases: &PhraseSet, best: &mut u64) {
            use crate::icfp2015::rules::game::Outcome;
            for c in Command::ALL {
                let mut g = game.clone();
                match g.step(c) {
                    Outcome::Repeated | Outcome::AfterEnd => continue,
                    _ => {}
                }
                text.push(c.char());
                let counts = phrases.count(text);
                *best = (*best).max(g.move_score() + phrases.power_score(&counts));
                if !g.is_over() {
                    go(&g, text, phrases, best);
                }
                text.pop();
            }
        }
        let mut best = 0;
        go(&Game::new(setup, 0), &mut String::new(), phrases, &mut best);
        best
    }

    #[test]
    fn the_bound_is_at_least_the_best_game() {
        // Only the letters `Command::char` writes, so the brute force may spell them.
        for setup in enumerable() {
            for phrases in enumerable_sets() {
                let best = brute_force(&setup, &phrases);
                let b = bound(&setup, 0, &phrases);
                assert!(b.total() >= best, "{b:?} below {best}");
                assert!(b.total() > 0);
            }
        }
    }

    /// `game`'s units in order, the breaks (descents and locks) the repeat table needs for them
    /// all, and the most letters a row can hold.
    fn game_shape<'s>(setup: &'s Setup, game: &Game) -> (Vec<&'s Unit>, usize, usize) {
        let units: Vec<&Unit> = game
            .order()
            .iter()
            .map(|&i| &setup.units[i as usize])
            .collect();
        let breaks = units.iter().map(|u| descents(setup, u) + 1).sum::<u64>() as usize;
        let row_letters = units.iter().map(|u| row_positions(setup, u)).max().unwrap() as usize - 1;
        (units, breaks, row_letters)
    }

    #[test]
    fn a_repeat_table_cut_short_still_bounds_every_break() {
        // The table of the whole game against one holding 0, 1 or 2 breaks and extrapolating.
        let (never, past) = (
            Deadline::after(Duration::MAX),
            Deadline::after(Duration::ZERO),
        );
        for setup in enumerable() {
            let game = Game::new(&setup, 0);
            let (units, breaks, row_letters) = game_shape(&setup, &game);
            for phrases in enumerable_sets() {
                let layer = (row_letters + 1) * phrases.states();
                let full = Repeats::new(
                    &setup,
                    &units,
                    &phrases,
                    breaks,
                    row_letters,
                    true,
                    REPEAT_CELLS,
                    &never,
                );
                assert_eq!(full.kept, breaks);
                // Cut by memory (0, 1 or 2 breaks held) or by a deadline already past (the
                // first level only; a set with nothing to spell builds no level).
                let cuts = (0..3.min(breaks)).map(|kept| ((kept + 1) * layer, never, kept));
                let late = if spellable(&phrases, true).is_empty() {
                    breaks
                } else {
                    0
                };
                for (cells, deadline, kept) in cuts.chain([(REPEAT_CELLS, past, late)]) {
                    let cut = Repeats::new(
                        &setup,
                        &units,
                        &phrases,
                        breaks,
                        row_letters,
                        true,
                        cells,
                        &deadline,
                    );
                    assert_eq!(cut.kept, kept);
                    for b in 0..=breaks {
                        for m in 0..=row_letters {
                            for q in 0..phrases.states() as u32 {
                                let (f, c) = (
                                    full.from(b, m, q, game.pos()),
                                    cut.from(b, m, q, game.pos()),
                                );
                                assert!(c >= f, "{phrases:?} {b} {m} {q}: {c} below {f}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_bound_is_above_what_the_search_finds() {
        let json = r#"{"id":7,"width":8,"height":8,"filled":[],"sourceLength":2,"sourceSeeds":[0],
            "units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}},
                     {"members":[{"x":0,"y":0},{"x":0,"y":1},{"x":1,"y":1}],"pivot":{"x":0,"y":1}}]}"#;
        let setup = Setup::new(Problem::parse(json.as_bytes(), "test").unwrap());
        for phrases in [PhraseSet::known(), PhraseSet::none()] {
            let found = exhaustive::search(
                &setup,
                0,
                &phrases,
                &Deadline::after(Duration::from_millis(300)),
                0,
                &SearchMemory::AMPLE,
            );
            let b = bound(&setup, 0, &phrases);
            assert!(b.total() >= found.score, "{b:?} below {}", found.score);
        }
    }

    #[test]
    fn a_return_to_a_position_forces_a_lock() {
        // W E: the E must lock; E SW: the SW descends; CW x 6 returns on the sixth.
        let free = Life::FREE;
        assert_eq!(forced_breaks(b"pb", free), [(false, false), (true, true)]);
        assert_eq!(forced_breaks(b"ba", free), [(false, false), (true, false)]);
        assert_eq!(breaks_in(&forced_breaks(b"dddddd", free)), 1);
        assert_eq!(breaks_in(&forced_breaks(b"bbbb", free)), 0);
    }

    #[test]
    fn a_letter_that_comes_back_on_its_row_is_known_by_the_letters_before() {
        use Command::*;
        assert_eq!(returns_after(&[W], E), 1);
        assert_eq!(returns_after(&[E, CW], CCW), 1);
        assert_eq!(returns_after(&[W, CW, E], CCW), 3);
        assert_eq!(returns_after(&[CW; 5], CW), 5);
        assert_eq!(returns_after(&[CW; 4], CW), usize::MAX);
        // A descent between, or no return at all.
        assert_eq!(returns_after(&[W, SW], E), usize::MAX);
        assert_eq!(returns_after(&[W, W], CW), usize::MAX);
        assert_eq!(returns_after(&[W, W], E), 1);
        assert_eq!(returns_after(&[], E), usize::MAX);
        // The tails of a set's states: "pb" typed ends in W E, its prefix in W.
        let phrases = PhraseSet::new(vec!["pb".into(), "ap".into()]).unwrap();
        let tails = state_tails(&phrases, b"pbaldk");
        let after_p = phrases.advance(PhraseSet::START, b'p');
        assert_eq!(tails[after_p as usize], [W]);
        let after_ap = phrases.advance(phrases.advance(PhraseSet::START, b'a'), b'p');
        assert_eq!(tails[after_ap as usize], [SW, W]);
    }

    #[test]
    fn a_reversed_pair_is_spelled_once_a_break_at_most() {
        // W then E comes back to where the W started unless one of them locked (a break): the
        // repeat table holds at most one "pb" (4 points) a break.
        let phrases = PhraseSet::new(vec!["pb".into()]).unwrap();
        for setup in enumerable() {
            let game = Game::new(&setup, 0);
            let (units, breaks, row_letters) = game_shape(&setup, &game);
            let never = Deadline::after(Duration::MAX);
            let table = Repeats::new(
                &setup,
                &units,
                &phrases,
                breaks,
                row_letters,
                true,
                REPEAT_CELLS,
                &never,
            );
            for b in 0..=breaks {
                let most = table.from(b, 0, PhraseSet::START, game.pos());
                assert!(most <= 4 * b as u64, "{b} breaks: {most}");
            }
            assert!(table.from(1, 0, PhraseSet::START, game.pos()) >= 4);
        }
    }

    #[test]
    fn lines_take_the_rows_with_fewest_empty_cells() {
        let json = r#"{"id":7,"width":4,"height":3,"sourceLength":1,"sourceSeeds":[0],
            "filled":[{"x":0,"y":2},{"x":1,"y":2},{"x":2,"y":2},{"x":0,"y":1}],
            "units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#;
        let setup = Setup::new(Problem::parse(json.as_bytes(), "test").unwrap());
        // Empty cells by row: 1, 3, 4; then new rows of 4.
        let deficits = Deficits::of(&setup.start);
        let lines: Vec<u64> = [0, 1, 3, 4, 7, 8, 11, 12]
            .map(|c| deficits.lines(c, 4))
            .into();
        assert_eq!(lines, [0, 1, 1, 2, 2, 3, 3, 4]);
        // Units that put at most 3 cells in a row fill the rows of 1 and 3 empty cells only.
        assert_eq!(deficits.lines(12, 3), 2);
        assert_eq!(deficits.lines(12, 1), 1);
        // One cell to place: one line at most, 1 + 100 points.
        assert_eq!(move_bound(&setup, &[&setup.units[0]]), 101);
    }

    #[test]
    fn units_too_narrow_to_fill_a_row_clear_no_line() {
        // Four triangles: 12 cells on a 10-wide board, but at most 2 in a row each.
        let json = r#"{"id":8,"width":10,"height":9,"sourceLength":4,"sourceSeeds":[0],
            "filled":[],
            "units":[{"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":0,"y":1}],
                      "pivot":{"x":0,"y":0}}]}"#;
        let setup = Setup::new(Problem::parse(json.as_bytes(), "test").unwrap());
        assert_eq!(widest_row(&setup.units[0]), 2);
        let units = vec![&setup.units[0]; 4];
        assert_eq!(move_bound(&setup, &units), 12);
        // A fifth triangle makes 10 cells a row possible: one line, 100 points more.
        let units = vec![&setup.units[0]; 5];
        assert_eq!(move_bound(&setup, &units), 15 + 100);
    }

    #[test]
    fn a_unit_too_narrow_or_short_for_a_run_forces_a_lock() {
        let life = Life {
            columns2: 8,
            descents: 2,
        };
        // E x 5 spans 10 doubled columns: the fifth locks, the sixth moves the next unit.
        let five = forced_breaks(b"bbbbbb", life);
        assert_eq!(five.iter().filter(|f| f.1).count(), 1);
        assert!(five[4].1);
        // SE x 4: the third would be a third descent, so it locks; the fourth descends.
        let down = forced_breaks(b"llll", life);
        assert_eq!(
            down,
            [(true, false), (true, false), (true, true), (true, false)]
        );
        // E SE E SE ... drifts east 3 doubled columns a pair: the lock comes at 9.
        assert_eq!(forced_cost(b"blbl", life), (2, 0));
        // ... and the third SE would be a third descent: it locks instead.
        assert_eq!(forced_cost(b"blblbl", life), (3, 1));
    }

    #[test]
    fn a_unit_life_is_its_columns_and_rows() {
        // tiny(): 4 wide, the single cell's pivot spans doubled columns 0..=7; 3 rows.
        let setup = tiny();
        let life = Life::of(&setup, &[&setup.units[0]]);
        assert_eq!(
            life,
            Life {
                columns2: 7,
                descents: 2
            }
        );
    }

    #[test]
    fn no_phrases_leave_the_move_score_alone() {
        let b = bound(&tiny(), 0, &PhraseSet::none());
        assert_eq!((b.repeats, b.distinct), (0, 0));
        // Units of 1 and 2 cells, two locks, on a 4-wide board: no row can fill.
        let setup = tiny();
        let game = Game::new(&setup, 0);
        let cells: u64 = game
            .order()
            .iter()
            .map(|&i| setup.units[i as usize].size as u64)
            .sum();
        assert_eq!(b.moves, cells);
    }
}
