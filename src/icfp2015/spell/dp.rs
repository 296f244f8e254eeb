//! Phrase routes by dynamic programming: the command path from a unit's spawn to its lock that
//! spells the most phrase points, over (position, phrase automaton state), row by row.
//
// A unit never goes back up, so a position can only repeat within a row. Inside a row the DP
// moves the pivot one way only (west or east, chosen per row) and turns at most once per
// column: such a path never repeats a position, and it holds every known phrase except the
// double turn of `tsathoggua` (the greedy route in `route.rs` spells that one). Per (position,
// row mode) the K best automaton states are kept. A row is swept in an order where every
// state is final before it is expanded (no moves yet, then west-moving states by falling
// column, then east-moving ones by rising column), so the back links stay valid.

use crate::icfp2015::memory::{SearchMemory, ROUTE_ENTRY_BYTES};
use crate::icfp2015::place::placement::Grid;
use crate::icfp2015::rules::board::Board;
use crate::icfp2015::rules::commands::Command;
use crate::icfp2015::rules::game::target;
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::rules::unit::{Pos, Unit};

/// Automaton states kept per (position, mode): `K` where the corridor is narrow, `K_WIDE`
/// where it spans more than `WIDE` columns. Measured 2026-11-22: on the one-cell problems 1 and
/// 21, 4 states gave 5,516 and 1,498 (bench, 30 s), and at `play -t 10 -c 2` 8 give 5,556-5,574
/// and 1,508, 16 give 5,878 and 1,512, with 14, 6 and 18 unchanged within noise (30 s). On the
/// 100-column problem 24 the beam needs the time more; 4 states instead of 2 earn ~1 % per row.
const K: usize = 16;
const K_WIDE: usize = 2;
const WIDE: i32 = 24;

/// The most table entries a broad route may use (16 bytes each: 16 MB per search thread,
/// and about as many entries' work); a board too big for `K` states over its whole width keeps
/// fewer, and below `K_WIDE` the route is the narrow one. Problem 14 (50 x 50, units of 1-3
/// cells) keeps 12 of 16 (one plan's routes: 111,362 at 12, 111,478 at 16).
const BROAD_ENTRIES: usize = 1 << 20;

/// Row modes: how the pivot has moved in this row (not yet, west, east) times whether the
/// unit has turned in its current column. Mode = 2 * direction + turned.
const MODES: usize = 6;

/// Columns the DP may go beyond the pivots of the spawn and the lock, on boards wider than
/// `WIDE`.
const CORRIDOR: i32 = 4;

/// No entry / no back link / an unreachable distance.
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Entry {
    score: i32,
    state: u32,
    /// The entry this one was reached from, and the command and byte that did it.
    back: u32,
    byte: u8,
    command: u8,
}

const _: () = assert!(std::mem::size_of::<Entry>() == ROUTE_ENTRY_BYTES);

const EMPTY: Entry = Entry {
    score: i32::MIN,
    state: 0,
    back: NONE,
    byte: 0,
    command: 0,
};

/// What the DP is asked: the route of `unit` on `board` from `start` to a lock at `goal` that
/// spells the most points from automaton state `state` (phrases with a zero in `counts` earn
/// their +300). `dist[grid index]` is `u32::MAX` where the goal cannot be reached (and on
/// every position that does not fit).
#[derive(Clone, Copy)]
pub struct Request<'a> {
    pub phrases: &'a PhraseSet,
    pub board: &'a Board,
    pub unit: &'a Unit,
    pub grid: &'a Grid,
    pub dist: &'a [u32],
    pub start: Pos,
    pub goal: Pos,
    pub state: u32,
    pub counts: &'a [u64],
    /// On a board wider than `WIDE`: search its whole width with `K` states everywhere (as
    /// many as fit in `BROAD_ENTRIES`), not a corridor around the ends with `K_WIDE` states
    /// where it is wide: 2-4x the time. Problem 14's routes of one fixed plan (500 units): 106,050 narrow, 113,608
    /// broad (`docs/icfp2015.md`, Part 12).
    pub broad: bool,
    /// Whether another unit goes on from the text at this lock: a phrase begun at the lock
    /// is then worth the characters it has matched (as the states' pruning counts them), so
    /// of two routes that spell alike the one ending mid-phrase is taken.
    pub hand_on: bool,
}

/// A route: its commands (the last one locks the unit) and the byte written for each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub commands: Vec<Command>,
    pub bytes: Vec<u8>,
}

/// The DP's tables, built once per phrase set and reused for every unit.
#[derive(Debug)]
pub struct Planner {
    /// `options[offsets[state * 6 + command]..offsets[state * 6 + command + 1]]`: the distinct
    /// states the command's characters lead to, with the points of the phrases they complete
    /// and one character that does it.
    offsets: Vec<u32>,
    options: Vec<(u32, u32, u8)>,
    depth: Vec<i32>,
    /// Per state: +300 for each phrase ending there that the game has not used yet.
    fresh: Vec<i32>,
    table: Vec<Entry>,
}

/// A route table lent to planners in turn ([`Planner::swap_table`]): the look-ahead's children
/// each route once with their own planner, and kept, each child's table held its memory (~2 MB
/// on a 15 x 15 board: 432 MB at `-m 256` on problem 17 at width 24-40).
#[derive(Debug, Default)]
pub struct RouteTable(Vec<Entry>);

/// A copy without the route table, which each route fills afresh: a copy is a scribe's for
/// another game (`spell::lookahead` copies one per child, and the table of a 15 x 15 board's
/// routes is ~2 MB).
impl Clone for Planner {
    fn clone(&self) -> Planner {
        Planner {
            offsets: self.offsets.clone(),
            options: self.options.clone(),
            depth: self.depth.clone(),
            fresh: self.fresh.clone(),
            table: Vec::new(),
        }
    }
}

impl Planner {
    /// Bytes a copy of this planner holds on the heap (a copy has no route table).
    pub fn heap_bytes(&self) -> usize {
        self.offsets.len() * size_of::<u32>()
            + (self.depth.len() + self.fresh.len()) * size_of::<i32>()
            + self.options.len() * size_of::<(u32, u32, u8)>()
    }

    /// Exchanges this planner's route table with `table` (see [`RouteTable`]).
    pub fn swap_table(&mut self, table: &mut RouteTable) {
        std::mem::swap(&mut self.table, &mut table.0);
    }

    pub fn new(phrases: &PhraseSet) -> Planner {
        let states = phrases.states();
        let mut offsets = Vec::with_capacity(states * 6 + 1);
        let mut options: Vec<(u32, u32, u8)> = Vec::new();
        for state in 0..states as u32 {
            for command in Command::ALL {
                offsets.push(options.len() as u32);
                let first = options.len();
                for byte in command.characters().bytes() {
                    let next = phrases.advance(state, byte);
                    if !options[first..].iter().any(|o| o.0 == next) {
                        options.push((next, phrases.repeat_points_at(next), byte));
                    }
                }
            }
        }
        offsets.push(options.len() as u32);
        Planner {
            offsets,
            options,
            depth: (0..states as u32)
                .map(|s| phrases.depth(s) as i32)
                .collect(),
            fresh: vec![0; states],
            table: Vec::new(),
        }
    }

    #[inline]
    fn options(&self, state: u32, command: Command) -> &[(u32, u32, u8)] {
        let i = state as usize * 6 + command as usize;
        &self.options[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Keeps `candidate` at `slot` if it is among the `keep` best states there.
    #[inline]
    fn insert(&mut self, slot: usize, keep: usize, candidate: Entry) {
        let entries = &mut self.table[slot..slot + keep];
        for e in entries.iter_mut() {
            if e.score == i32::MIN {
                *e = candidate;
                return;
            }
            if e.state == candidate.state {
                if candidate.score > e.score {
                    *e = candidate;
                }
                return;
            }
        }
        // Full: replace the least promising (points so far plus half a phrase's worth per
        // character already matched).
        let priority = |e: &Entry| e.score + self.depth[e.state as usize];
        let (worst, low) = entries
            .iter()
            .enumerate()
            .map(|(k, e)| (k, priority(e)))
            .min_by_key(|&(_, p)| p)
            .expect("keep > 0");
        if priority(&candidate) > low {
            entries[worst] = candidate;
        }
    }

    /// The route that `request` asks for, or `None` when no route of the DP's shape reaches
    /// the goal.
    pub fn route(&mut self, request: &Request) -> Option<Route> {
        self.set_fresh(request);
        // Sideways moves cost no rows, so a route seldom needs to stray from the columns
        // between its ends; the corridor bounds the work on wide boards. When the way to the
        // lock leads around an obstacle, the whole width. Boards up to `WIDE` columns take
        // the whole width at once: a chain of phrases drifts half a column a row (`ia! ia!`
        // overlapping, 14 points in 3 rows), and a single cell falling 14 rows to the east
        // side of problem 1 had to start beyond the corridor. `bench --time 30 -c 2` on the
        // 19 narrow qualifiers 275,961 -> 276,026 (1 +138, 23 +116, 16 +74, 19 +52, 9 -387);
        // 12 fresh single-cell games (`play -t 10 -c 1`) 146,132 -> 147,238, 19 other narrow
        // ones 472,768 -> 471,004 (v6205 alone +-1,370 between runs; the generated narrow
        // games 1004 and 1005 +136 and +280 with the known phrases).
        // So the broad route is for wider boards only. (While the corridor still bounded the
        // narrow route, broad gained 0.2 % on one plan of a 13 x 15 game (random-5, 364 units
        // x 3 seeds) for 25 % more route time, and the games' scores fell ~1 % (`bench
        // --generated --only 1004 --time 5 -c 2`, three pairs).)
        if request.broad && request.board.width() > WIDE as usize {
            let rows = (request.goal.y - request.start.y + 1).max(1) as usize;
            let per_state = rows * request.board.width() * 6 * MODES;
            let keep = (BROAD_ENTRIES / per_state).min(K);
            if keep >= K_WIDE {
                if let Some(route) = self.route_within(request, i32::MAX / 4, Some(keep)) {
                    return Some(route);
                }
            }
        }
        let whole = i32::MAX / 4;
        let margins: &[i32] = if request.board.width() > WIDE as usize {
            &[CORRIDOR, whole]
        } else {
            &[whole]
        };
        margins
            .iter()
            .find_map(|&margin| self.route_within(request, margin, None))
    }

    /// [`Self::route`] to each of `goals` at once (`request.goal` is not read; `request.dist`
    /// is `UNREACHED` where none of them can be reached), in one pass of the DP: each route is
    /// the one [`Self::route`] finds to its goal alone, since a position that cannot reach a
    /// goal never leads to one that can. On a board of at most `WIDE` columns only (wider ones
    /// search corridors per goal), and where the table of the deepest goal holds `K` states;
    /// else `None`, and each goal is routed alone.
    pub fn routes_to(&mut self, request: &Request, goals: &[Pos]) -> Option<Vec<Option<Route>>> {
        if request.board.width() > WIDE as usize || goals.is_empty() {
            return None;
        }
        self.set_fresh(request);
        self.route_to_each(request, goals, i32::MAX / 4, None, true)
    }

    /// Per state, +300 for each phrase ending there that `request.counts` has not used.
    fn set_fresh(&mut self, request: &Request) {
        for (s, fresh) in self.fresh.iter_mut().enumerate() {
            *fresh = 300
                * request
                    .phrases
                    .ends_at(s as u32)
                    .iter()
                    .filter(|&&p| request.counts[p as usize] == 0)
                    .count() as i32;
        }
    }

    /// [`Self::route`] with the pivot at most `margin` columns beyond the spawn's and the
    /// lock's, keeping `keep` states per (position, mode) if given, else `K` or `K_WIDE`.
    fn route_within(
        &mut self,
        request: &Request,
        margin: i32,
        keep: Option<usize>,
    ) -> Option<Route> {
        self.route_to_each(request, &[request.goal], margin, keep, false)?
            .pop()
            .flatten()
    }

    /// [`Self::route_within`] to each of `goals` (the columns and rows of them all), or `None`
    /// where it cannot run; with `whole_keep`, also where memory would cut the states kept.
    fn route_to_each(
        &mut self,
        request: &Request,
        goals: &[Pos],
        margin: i32,
        keep: Option<usize>,
        whole_keep: bool,
    ) -> Option<Vec<Option<Route>>> {
        let Request {
            board,
            unit,
            grid,
            dist,
            start,
            state,
            ..
        } = *request;
        let deepest = goals.iter().map(|g| g.y).max()?;
        if deepest < start.y || grid.index(start).is_none_or(|i| dist[i] == NONE) {
            return None;
        }
        let canonical = |pos: Pos| unit.canonical_pos(pos);
        let fits = |pos: Pos| board.fits_unit(unit, pos);
        let west = goals.iter().map(|g| g.x).min()?.min(start.x);
        let east = goals.iter().map(|g| g.x).max()?.max(start.x);
        let (x_min, x_max) = (west - margin, east + margin);
        let xs: Vec<i32> = grid
            .column_range()
            .filter(|x| (x_min..=x_max).contains(x))
            .collect();
        let (Some(&x_low), Some(&x_high)) = (xs.first(), xs.last()) else {
            return None;
        };
        let keep = keep.unwrap_or(if xs.len() as i32 > WIDE { K_WIDE } else { K });
        // The table covers only the rows and columns the route can use (measured: filling and
        // first touching a table over the whole grid took a quarter of the DP's time on the
        // 100-column problem 24).
        let columns = (x_high - x_low + 1) as usize;
        let local = |pos: Pos| {
            ((pos.y - start.y) as usize * columns + (pos.x - x_low) as usize) * 6
                + pos.orientation as usize
        };
        // Within the thread's share of `-m`: fewer states, or none (the greedy route stands).
        // A route down 10,000 rows of a 9-column corridor at 16 states took 794 MB.
        let cells = (deepest - start.y + 1) as usize * columns * 6 * MODES;
        let held = SearchMemory::installed().route_entries / cells;
        if held == 0 || (whole_keep && held < keep) {
            return None;
        }
        let keep = keep.min(held);
        let slots = cells * keep;
        if self.table.len() < slots {
            self.table.resize(slots, EMPTY);
        }
        self.table[..slots].fill(EMPTY);
        let slot = |pos: Pos, mode: usize| (local(pos) * MODES + mode) * keep;
        self.insert(
            slot(start, 0),
            1,
            Entry {
                score: 0,
                state,
                ..EMPTY
            },
        );
        let hand_on = i32::from(request.hand_on);
        // Per goal, the best lock: (score with the begun phrase's worth, entry, command, byte).
        let mut best: Vec<Option<(i32, u32, Command, u8)>> = vec![None; goals.len()];
        for y in start.y..=deepest {
            for direction in 0..3usize {
                let order: Box<dyn Iterator<Item = &i32>> = if direction == 1 {
                    Box::new(xs.iter().rev())
                } else {
                    Box::new(xs.iter())
                };
                for &x in order {
                    for turned in 0..2usize {
                        let mode = 2 * direction + turned;
                        for orientation in 0..6u8 {
                            if unit.canonical[orientation as usize] != orientation {
                                continue;
                            }
                            let pos = Pos { x, y, orientation };
                            let Some(index) = grid.index(pos) else {
                                continue;
                            };
                            if dist[index] == NONE {
                                continue;
                            }
                            let base = slot(pos, mode);
                            for k in 0..keep {
                                let e = self.table[base + k];
                                if e.score == i32::MIN {
                                    break;
                                }
                                let id = (base + k) as u32;
                                for command in Command::ALL {
                                    let next_mode = match command {
                                        Command::W if direction != 2 => 2,
                                        Command::E if direction != 1 => 4,
                                        Command::CW | Command::CCW if turned == 0 => {
                                            2 * direction + 1
                                        }
                                        Command::SW | Command::SE => 0,
                                        _ => continue,
                                    };
                                    let next = canonical(target(pos, command));
                                    if grid.index(next).is_none_or(|j| dist[j] == NONE) {
                                        let at = goals.iter().position(|&g| g == pos);
                                        if let Some(g) = at.filter(|_| !fits(next)) {
                                            for &(s, points, byte) in self.options(e.state, command)
                                            {
                                                let score = e.score
                                                    + points as i32
                                                    + self.fresh[s as usize]
                                                    + hand_on * self.depth[s as usize];
                                                if best[g].is_none_or(|b| score > b.0) {
                                                    best[g] = Some((score, id, command, byte));
                                                }
                                            }
                                        }
                                        continue;
                                    }
                                    if next == pos || next.x < x_low || next.x > x_high {
                                        // A turn of a unit with one orientation repeats.
                                        continue;
                                    }
                                    let to = slot(next, next_mode);
                                    let offsets = state_offsets(&self.offsets, e.state, command);
                                    for o in offsets {
                                        let (s, points, byte) = self.options[o];
                                        let candidate = Entry {
                                            score: e.score + points as i32 + self.fresh[s as usize],
                                            state: s,
                                            back: id,
                                            byte,
                                            command: command as u8,
                                        };
                                        self.insert(to, keep, candidate);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let routes = goals.iter().zip(best).map(|(&goal, best)| {
            let (_, mut at, lock, lock_byte) = best?;
            let mut commands = vec![lock];
            let mut bytes = vec![lock_byte];
            while self.table[at as usize].back != NONE {
                let e = self.table[at as usize];
                commands.push(Command::from_index(e.command));
                bytes.push(e.byte);
                at = e.back;
            }
            commands.reverse();
            bytes.reverse();
            let route = Route { commands, bytes };
            let valid = follows_rules(&route.commands, start, goal, &canonical, &fits);
            debug_assert!(valid, "the DP route breaks a rule: {route:?}");
            valid.then_some(route)
        });
        Some(routes.collect())
    }
}

#[inline]
fn state_offsets(offsets: &[u32], state: u32, command: Command) -> std::ops::Range<usize> {
    let i = state as usize * 6 + command as usize;
    offsets[i] as usize..offsets[i + 1] as usize
}

/// Whether `commands` move a unit from `start` without leaving the board, entering a filled
/// cell or repeating a position, and lock it (with the last command) at `goal`.
pub(super) fn follows_rules(
    commands: &[Command],
    start: Pos,
    goal: Pos,
    canonical: &dyn Fn(Pos) -> Pos,
    fits: &dyn Fn(Pos) -> bool,
) -> bool {
    let Some((&lock, moves)) = commands.split_last() else {
        return false;
    };
    let mut pos = start;
    let mut row = vec![start];
    for &c in moves {
        let next = canonical(target(pos, c));
        if !fits(next) {
            return false;
        }
        if c.descends() {
            row.clear();
        } else if row.contains(&next) {
            return false;
        }
        row.push(next);
        pos = next;
    }
    pos == goal && !fits(canonical(target(pos, lock)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::place::placement::placements;
    use crate::icfp2015::rules::commands::decode;
    use crate::icfp2015::rules::game::{Game, Outcome, Setup};
    use crate::icfp2015::spell::reach::distances_to;

    /// Units routed by the DP to their deepest lock move without error and lock exactly there,
    /// the bytes spell the commands, and the routes (narrow and broad) earn at least `density`
    /// points per row of descent (6 is the most the known phrases give; measured 2026-11-22: 5.02, 5.34, 3.00,
    /// 4.62, 4.09 -- one-cell units cannot turn, so problem 1 has no `r'lyeh`).
    #[test]
    fn routes_follow_the_rules_and_spell_densely() {
        let phrases = PhraseSet::new(
            ["ei!", "r'lyeh", "ia! ia!", "planet 10"]
                .map(String::from)
                .to_vec(),
        )
        .unwrap();
        let counts = vec![1; phrases.len()];
        let cases = [(6, 4.8), (24, 5.0), (1, 2.8), (14, 4.3), (18, 3.8)];
        for ((id, density), broad) in cases.into_iter().flat_map(|c| [(c, false), (c, true)]) {
            let setup = Setup::bundled(id);
            let mut game = Game::new(&setup, setup.problem.source_seeds[0]);
            let mut planner = Planner::new(&phrases);
            let (mut points, mut rows) = (0u64, 0i32);
            let mut state = PhraseSet::START;
            for _ in 0..12 {
                if game.is_over() {
                    break;
                }
                let unit = game.unit();
                let board = game.board().clone();
                let canonical = |pos: Pos| unit.canonical_pos(pos);
                let fits = |pos: Pos| board.fits_unit(unit, pos);
                let goal = placements(&game)
                    .into_iter()
                    .map(|p| canonical(p.pos))
                    .max_by_key(|p| (p.y, p.x))
                    .unwrap();
                let grid = Grid::new(unit, &board);
                let dist = distances_to(&grid, goal, &fits, &canonical);
                let start = canonical(game.pos());
                let route = planner
                    .route(&Request {
                        phrases: &phrases,
                        board: &board,
                        unit,
                        grid: &grid,
                        dist: &dist,
                        start,
                        goal,
                        state,
                        counts: &counts,
                        broad,
                        hand_on: false,
                    })
                    .unwrap_or_else(|| panic!("problem {id}: no DP route to {goal:?}"));
                assert_eq!(
                    decode(std::str::from_utf8(&route.bytes).unwrap()).unwrap(),
                    route.commands
                );
                rows += goal.y - start.y;
                for &b in &route.bytes {
                    state = phrases.advance(state, b);
                    for &p in phrases.ends_at(state) {
                        points += 2 * phrases.phrase_len(p as usize) as u64;
                    }
                }
                let (&lock, moves) = route.commands.split_last().unwrap();
                for &c in moves {
                    assert_eq!(game.step(c), Outcome::Moved, "problem {id}");
                }
                assert_eq!(canonical(game.pos()), goal, "problem {id}");
                assert!(
                    matches!(game.step(lock), Outcome::Locked { .. }),
                    "problem {id}"
                );
            }
            assert!(
                points as f64 >= density * rows as f64,
                "problem {id} (broad {broad}): {points} points over {rows} rows"
            );
        }
    }

    /// A single cell dropped 14 rows to each lock on the floor of an empty board, spelling the
    /// overlapping `ia! ia!`: handed on, the route's points plus its begun phrase's characters
    /// are the most, it never spells more than the plain route, and at some lock it ends
    /// mid-phrase for no fewer points where the plain route ends on nothing.
    #[test]
    fn a_route_handed_on_ends_on_a_begun_phrase_where_it_costs_nothing() {
        let json = r#"{"id":0,"width":15,"height":15,"filled":[],"sourceLength":2,
            "sourceSeeds":[0],"units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#;
        let setup = Setup::new(
            crate::icfp2015::rules::problem::Problem::parse(json.as_bytes(), "test").unwrap(),
        );
        let phrases = PhraseSet::new(vec!["ia! ia!".to_string()]).unwrap();
        let counts = vec![1; phrases.len()];
        let game = Game::new(&setup, 0);
        let (unit, board) = (game.unit(), game.board());
        let canonical = |pos: Pos| unit.canonical_pos(pos);
        let fits = |pos: Pos| board.fits_unit(unit, pos);
        let grid = Grid::new(unit, board);
        let start = canonical(game.pos());
        let mut planner = Planner::new(&phrases);
        let mut free_starts = 0;
        for x in 0..15 {
            let goal = canonical(Pos {
                x,
                y: 14,
                orientation: 0,
            });
            let dist = distances_to(&grid, goal, &fits, &canonical);
            let mut spelled = |hand_on: bool| {
                let route = planner
                    .route(&Request {
                        phrases: &phrases,
                        board,
                        unit,
                        grid: &grid,
                        dist: &dist,
                        start,
                        goal,
                        state: PhraseSet::START,
                        counts: &counts,
                        broad: false,
                        hand_on,
                    })
                    .expect("every floor cell is reached");
                let mut state = PhraseSet::START;
                let mut points = 0;
                for &b in &route.bytes {
                    state = phrases.advance(state, b);
                    points += phrases.repeat_points_at(state);
                }
                (points, phrases.depth(state))
            };
            let (plain, plain_depth) = spelled(false);
            let (handed, handed_depth) = spelled(true);
            assert!(handed <= plain, "lock {x}: {handed} > {plain}");
            assert!(
                handed + handed_depth >= plain + plain_depth,
                "lock {x}: {handed} + {handed_depth} < {plain} + {plain_depth}"
            );
            if handed == plain && plain_depth == 0 && handed_depth > 0 {
                free_starts += 1;
            }
        }
        assert!(free_starts > 0, "no lock ends mid-phrase for free");
    }
}
