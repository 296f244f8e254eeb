//! Phrases of power along each unit's path: from the spawn, spell phrases (new ones first, then
//! the most points per row of descent) while the chosen lock stays reachable, then go there.
//
// Positions are (pivot, canonical orientation). A BFS on the reversed moves gives each
// position's distance to the lock (ignoring the history rule). At each step the route takes the
// best phrase (after at most one connecting command) that ends where the lock is still
// reachable, valued in points per row over it and the best word that can follow it without a
// repeated position (a table per unit); a phrase whose last command locks the unit right at
// the lock ends the route. When none fits it takes one command closer to the lock, sideways
// first (a descent spends a row phrases could use), and looks again. The history rule is
// followed exactly; the final leg is a BFS that avoids the current row's history, and when it
// fails the phrases spelled are taken back one at a time. Then the DP of `dp.rs` routes the
// same unit over the phrases that pay most per row, and whichever route scores more (exactly,
// over all phrases and their +300s) is written. Measured on problem 14 (30 s, one thread):
// the greedy alone 66,366, with the DP 106,058; the greedy still wins where a phrase is new.

use super::chain;
use super::dp::{Planner, Request, Route, RouteTable};
use super::power;
use super::reach::{bfs, direct_path, distances_to, distances_to_any, UNREACHED};
use super::span;
use super::words::{follow_table, spam_phrases, words_of, Word};
use crate::icfp2015::place::placement::Grid;
use crate::icfp2015::rules::board::Board;
use crate::icfp2015::rules::commands::{decode_char, Command, Symbol};
use crate::icfp2015::rules::game::{target, Game, Outcome, Setup};
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::rules::unit::{Pos, Unit};
use std::collections::HashMap;

/// The command text of a game so far and the phrase automaton over it.
#[derive(Clone, Debug)]
pub struct Scribe<'p> {
    phrases: &'p PhraseSet,
    words: Vec<Word>,
    /// Per unit index: `follows[a * words + b]`, whether word b can be spelled right after
    /// word a without a repeated position (on an open board).
    follows: HashMap<usize, Vec<bool>>,
    state: u32,
    counts: Vec<u64>,
    text: Vec<u8>,
    /// The phrases the DP spells (those with the most points per row of descent), the index of
    /// each in the whole set, and the state of their automaton over the text.
    spam: PhraseSet,
    spam_index: Vec<usize>,
    spam_state: u32,
    /// The DP route finder over `spam`, tried against the greedy route on every unit while
    /// `use_dp` holds (the caller turns it off when time runs short).
    planner: Planner,
    pub use_dp: bool,
    /// Whether the DP searches the whole width with more states (`dp::Request::broad`); set
    /// by [`Self::pace`].
    pub dp_broad: bool,
    /// The broad routes so far and their time in seconds.
    broad_routes: (u32, f64),
    /// The rest of a phrase spelled across the last lock (`span.rs`): the next unit's first
    /// commands, with their bytes.
    pending: Vec<(Command, u8)>,
}

/// A unit locked while a word was spelled ([`Scribe::route_word`]): its lock, the board it
/// locked on and the unit.
#[derive(Clone, Debug)]
pub struct Lock<'a> {
    pub pos: Pos,
    pub board: Board,
    pub unit: &'a Unit,
}

/// Where the unit is while spelling: its position, the positions of its current row, the
/// automaton and the text length (a point to return to).
#[derive(Clone, Debug)]
struct Mark {
    pos: Pos,
    row: Vec<Pos>,
    state: u32,
    counts: Vec<u64>,
    text_len: usize,
    commands: usize,
}

impl<'p> Scribe<'p> {
    pub fn new(phrases: &'p PhraseSet) -> Scribe<'p> {
        Scribe::with_words(phrases, words_of(phrases))
    }

    /// A scribe for the units of `setup`: it never tries a phrase none of them can spell
    /// (`power::spells`), though the automaton still counts it.
    pub fn for_setup(phrases: &'p PhraseSet, setup: &Setup) -> Scribe<'p> {
        let mut words = words_of(phrases);
        words.retain(|w| setup.units.iter().any(|u| spells_word(w, u)));
        Scribe::with_words(phrases, words)
    }

    fn with_words(phrases: &'p PhraseSet, words: Vec<Word>) -> Scribe<'p> {
        let (spam, spam_index) = spam_phrases(phrases, &words);
        Scribe {
            phrases,
            spam_state: PhraseSet::START,
            planner: Planner::new(&spam),
            use_dp: true,
            dp_broad: false,
            broad_routes: (0, 0.0),
            pending: Vec::new(),
            spam,
            spam_index,
            words,
            follows: HashMap::new(),
            state: PhraseSet::START,
            counts: vec![0; phrases.len()],
            text: Vec::new(),
        }
    }

    /// Chooses the DP's breadth from the time `remaining` for the routes of `left` units, the
    /// routes so far having taken `mean` seconds each: broad while the time holds
    /// [`BROAD_MARGIN`] x the units left at the broad routes' own pace (before the first, 3 x
    /// `mean`; the game's first route is narrow), so broad routes spend only what the narrow ones leave (the schedule's estimate
    /// is narrow). Judged on the overall mean instead, the broad routes took the time the
    /// narrow DP needed at the end (problem 14, `-t 30 -c 2`, load 5.6: 98,048 and 85,262).
    pub fn pace(&mut self, remaining: f64, left: usize, mean: f64) {
        let (routes, time) = self.broad_routes;
        let pace = if routes == 0 {
            3.0 * mean
        } else {
            time / f64::from(routes)
        };
        self.dp_broad = self.use_dp && pace > 0.0 && remaining > BROAD_MARGIN * left as f64 * pace;
    }

    /// Whether any phrase can be tried at all: without one, routes go straight to their locks.
    pub fn can_spell(&self) -> bool {
        !self.words.is_empty()
    }

    /// Writes `text` (a game's commands so far, written by a scribe for the same phrases) and
    /// plays it on `game`, which must be where that text started: a game routed again from
    /// one of its units on. The text must end between two units, not inside a phrase spelled
    /// across a lock.
    pub fn replay(&mut self, game: &mut Game, text: &str) {
        for b in text.bytes() {
            if let Symbol::Command(c) = decode_char(b as char) {
                self.write(b);
                game.step(c);
            }
        }
    }

    /// Whether the next unit starts free, not finishing a phrase spelled across the last lock:
    /// where the text can be cut and replayed.
    pub fn between_units(&self) -> bool {
        self.pending.is_empty()
    }

    /// The power points of the text so far.
    pub fn power_score(&self) -> u64 {
        self.phrases.power_score(&self.counts)
    }

    /// Bytes this scribe holds on the heap (its text, words, automata and the DP's tables, not
    /// a route table lent to it): what a copy of it costs.
    pub fn heap_bytes(&self) -> usize {
        let words: usize = self
            .words
            .iter()
            .map(|w| {
                size_of::<Word>()
                    + w.bytes.len()
                    + w.commands.len() * size_of::<Command>()
                    + w.phrases.len() * size_of::<usize>()
            })
            .sum();
        let follows: usize = self
            .follows
            .values()
            .map(|f| size_of::<(usize, Vec<bool>)>() + f.len())
            .sum();
        words
            + follows
            + self.counts.len() * size_of::<u64>()
            + self.spam_index.len() * size_of::<usize>()
            + self.text.capacity()
            + self.pending.capacity() * size_of::<(Command, u8)>()
            + self.spam.heap_bytes()
            + self.planner.heap_bytes()
    }

    /// The commands written so far.
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.text).expect("command characters are ASCII")
    }

    pub fn into_text(self) -> String {
        String::from_utf8(self.text).expect("command characters are ASCII")
    }

    /// Power points of reading `bytes` from `state` (counting the +300 of phrases not in
    /// `counts` yet), and the state after.
    fn gain(&self, state: u32, bytes: &[u8], counts: &[u64]) -> (u64, u32) {
        self.gain_with(state, bytes, Some(counts))
    }

    /// [`Self::gain`], without the +300s when `counts` is `None`.
    fn gain_with(&self, mut state: u32, bytes: &[u8], counts: Option<&[u64]>) -> (u64, u32) {
        let mut gain = 0;
        let mut fresh: Vec<u32> = Vec::new();
        for &b in bytes {
            state = self.phrases.advance(state, b);
            for &p in self.phrases.ends_at(state) {
                gain += 2 * self.phrases.phrase_len(p as usize) as u64;
                if counts.is_some_and(|n| n[p as usize] == 0) && !fresh.contains(&p) {
                    fresh.push(p);
                    gain += 300;
                }
            }
        }
        (gain, state)
    }

    /// Appends `byte`, updating the automaton and the counts.
    fn write(&mut self, byte: u8) {
        self.spam_state = self.spam.advance(self.spam_state, byte);
        self.state = self.phrases.advance(self.state, byte);
        for &p in self.phrases.ends_at(self.state) {
            self.counts[p as usize] += 1;
        }
        self.text.push(byte);
    }

    /// Writes `command` with the character that scores most, else goes deepest into a phrase.
    fn write_command(&mut self, command: Command) {
        let best = command
            .characters()
            .bytes()
            .max_by_key(|&b| {
                let (gain, state) = self.gain(self.state, &[b], &self.counts);
                (gain, self.phrases.depth(state))
            })
            .expect("every command has characters");
        self.write(best);
    }

    /// Moves the falling unit of `game` (just spawned) to lock at `goal`, spelling phrases on
    /// the way while `spell` holds; the game steps through every command written. With the
    /// next unit's lock, `next_goal`, an unused phrase too long for one unit may be split
    /// across this lock.
    pub fn route(&mut self, game: &mut Game, goal: Pos, next_goal: Option<Pos>, spell: bool) {
        let started = std::time::Instant::now();
        let broad = self.dp_broad && self.use_dp && spell;
        self.route_spans(game, goal, next_goal, spell);
        if broad {
            self.broad_routes.0 += 1;
            self.broad_routes.1 += started.elapsed().as_secs_f64();
        }
    }

    /// [`Self::route`] without the timing.
    fn route_spans(&mut self, game: &mut Game, goal: Pos, next_goal: Option<Pos>, spell: bool) {
        if !self.pending.is_empty() {
            self.finish_span(game, goal);
            return;
        }
        if spell && game.locked() < SPAN_UNITS {
            if let Some(next) = next_goal {
                if self.start_span(game, goal, next) {
                    return;
                }
            }
        }
        self.route_unit(game, goal, spell);
    }

    /// From the start of a game: plays each unused phrase too long for one unit's descent that
    /// a chain (`chain.rs`) can play through, longest first, locking the units it takes; of
    /// those, the i-th longest only if bit i of `allowed` is set.
    pub fn open_chains(&mut self, game: &mut Game, allowed: u64) {
        let height = game.board().height() as u32;
        let mut candidates: Vec<usize> = (0..self.words.len())
            .filter(|&w| {
                let word = &self.words[w];
                word.descents > height / 2 && word.bytes.len() == word.commands.len()
            })
            .collect();
        candidates.sort_by_key(|&w| std::cmp::Reverse(self.words[w].bytes.len()));
        for (i, w) in candidates.into_iter().enumerate() {
            if i >= 64 || allowed >> i & 1 == 0 {
                continue;
            }
            let word = self.words[w].clone();
            if self.unused_phrase(w).is_none() || game.is_over() {
                continue;
            }
            let Some(chain) = chain::find(game, &word.commands) else {
                continue;
            };
            for &c in &chain.lead {
                self.write_command(c);
                game.step(c);
            }
            for (&c, &b) in word.commands.iter().zip(&word.bytes) {
                self.write(b);
                game.step(c);
            }
            for &c in &chain.tail {
                self.write_command(c);
                game.step(c);
            }
        }
    }

    /// The first phrase (in the set's order) that word `w` spells whole and the text has not
    /// spelled yet.
    fn unused_phrase(&self, w: usize) -> Option<usize> {
        self.words[w]
            .phrases
            .iter()
            .copied()
            .find(|&p| self.counts[p] == 0)
    }

    /// The words that are whole phrases the text has not spelled yet and have at most
    /// `descents` rows of descent, most points first (ties in the set's order).
    pub fn unused_words(&self, descents: u32) -> Vec<usize> {
        let mut unused: Vec<(usize, usize)> = (0..self.words.len())
            .filter_map(|w| {
                let word = &self.words[w];
                if word.descents > descents || word.bytes.len() != word.commands.len() {
                    return None;
                }
                let p = self.unused_phrase(w)?;
                Some((self.phrases.phrase_len(p), w))
            })
            .collect();
        unused.sort_by_key(|&(len, w)| (std::cmp::Reverse(len), w));
        unused.into_iter().map(|(_, w)| w).collect()
    }

    /// Whether `unit` can spell word `w` in one life (no turn where it has one orientation).
    pub fn unit_spells_word(&self, w: usize, unit: &Unit) -> bool {
        spells_word(&self.words[w], unit)
    }

    /// Runs `f` with the DP routing in `table` instead of this scribe's own table: scribes
    /// copied per child share one table instead of each keeping its own (`dp::RouteTable`).
    pub fn with_dp_table<R>(
        &mut self,
        table: &mut RouteTable,
        f: impl FnOnce(&mut Self) -> R,
    ) -> R {
        self.planner.swap_table(table);
        let out = f(self);
        self.planner.swap_table(table);
        out
    }

    /// Spells word `w` whole from the falling unit of `game` (just spawned), from the start
    /// the chain search finds for it locking at most `units` units (`chain::find_within`: a
    /// unit blocked mid-phrase locks and the next goes on), and locks the last: each lock with
    /// the board before it and its unit, or `None` with nothing written where no start plays
    /// it so.
    pub fn route_word<'a>(
        &mut self,
        game: &mut Game<'a>,
        w: usize,
        units: u32,
    ) -> Option<Vec<Lock<'a>>> {
        debug_assert!(self.pending.is_empty(), "no span is open");
        let word = self.words[w].clone();
        let chain = chain::find_within(game, &word.commands, units)?;
        let mut locks = Vec::new();
        let mut play = |game: &mut Game<'a>, c: Command| {
            let before = (game.unit().canonical_pos(game.pos()), game.unit());
            let board = game.board().clone();
            if let Outcome::Locked { .. } = game.step(c) {
                locks.push(Lock {
                    pos: before.0,
                    board,
                    unit: before.1,
                });
            }
        };
        for &c in &chain.lead {
            self.write_command(c);
            play(game, c);
        }
        for (&c, &b) in word.commands.iter().zip(&word.bytes) {
            self.write(b);
            play(game, c);
        }
        for &c in &chain.tail {
            self.write_command(c);
            play(game, c);
        }
        debug_assert_eq!(locks.len() as u32, chain.units, "the chain locks its units");
        Some(locks)
    }

    /// Spells the prefix of an unused phrase that is too long for one unit's descent, ending
    /// with the command that locks the unit at `goal`, if the next unit can play the rest and
    /// still lock at `next_goal`; whether it did.
    fn start_span(&mut self, game: &mut Game, goal: Pos, next_goal: Pos) -> bool {
        let height = game.board().height() as u32;
        let mut candidates: Vec<usize> = (0..self.words.len())
            .filter(|&w| {
                let word = &self.words[w];
                word.descents > height / 2
                    && word.bytes.len() == word.commands.len()
                    && self.unused_phrase(w).is_some()
            })
            .collect();
        candidates.sort_by_key(|&w| std::cmp::Reverse(self.words[w].bytes.len()));
        for w in candidates {
            let word = self.words[w].clone();
            let Some(span) = span::find(game, goal, next_goal, &word.commands) else {
                continue;
            };
            let path = span.commands.len() - (span.split + 1);
            for &c in &span.commands[..path] {
                self.write_command(c);
            }
            for &b in &word.bytes[..=span.split] {
                self.write(b);
            }
            self.pending = word.commands[span.split + 1..]
                .iter()
                .copied()
                .zip(word.bytes[span.split + 1..].iter().copied())
                .collect();
            lock_by(game, &span.commands);
            return true;
        }
        false
    }

    /// Plays the rest of the phrase started by the last unit, then goes to lock at `goal`.
    fn finish_span(&mut self, game: &mut Game, goal: Pos) {
        let suffix = std::mem::take(&mut self.pending);
        let moves: Vec<Command> = suffix.iter().map(|&(c, _)| c).collect();
        for &(_, b) in &suffix {
            self.write(b);
        }
        let row = span::play_moves(game, &moves).expect("the span was checked on this board");
        let leg = span::last_leg(game, &row, goal).expect("the span was checked on this board");
        for &c in &leg {
            self.write_command(c);
        }
        lock_by(game, &leg);
    }

    /// A plain route of a unit spawned far above the stack and its lock: it falls straight down
    /// (SW and SE in turn, the other where one does not fit) while [`FALL_MARGIN`] rows below
    /// its lowest cell and above its lock stay empty, then takes the direct path from there. On
    /// a 60 x 2,000 board the direct path from the spawn took ~5 ms a unit (`docs/icfp2015.md`,
    /// Part 40). False, with nothing written, where the unit does not fall or no path is found
    /// from where it fell; no board of 66 rows or fewer falls.
    fn fall_then_route(&mut self, game: &mut Game, goal: Pos) -> bool {
        let unit = game.unit();
        let board = game.board();
        let top = board
            .rows()
            .iter()
            .position(|&r| r != 0)
            .unwrap_or(board.height()) as i32;
        let below = (0..6u8)
            .flat_map(|o| [unit.shape(o, 0).dy_max, unit.shape(o, 1).dy_max])
            .max()
            .unwrap_or(0);
        let goal = unit.canonical_pos(goal);
        let falls = |y: i32| y + 1 + below + FALL_MARGIN < top && y + 1 + FALL_MARGIN < goal.y;
        if !falls(game.pos().y) {
            return false;
        }
        let mut trial = game.clone();
        let mut fall = Vec::new();
        let mut command = Command::SW;
        let other = |c: Command| {
            if c == Command::SW {
                Command::SE
            } else {
                Command::SW
            }
        };
        while falls(trial.pos().y) {
            let c = if trial.fits(trial.target(command)) {
                command
            } else {
                other(command)
            };
            if !trial.fits(trial.target(c)) || trial.step(c) != Outcome::Moved {
                return false;
            }
            fall.push(c);
            command = other(c);
        }
        let path = {
            let board = trial.board();
            let canonical = |pos: Pos| unit.canonical_pos(pos);
            let fits = |pos: Pos| board.fits_unit(unit, pos);
            let grid = Grid::new(unit, board);
            direct_path(&grid, canonical(trial.pos()), goal, &fits, &canonical)
        };
        let Some(path) = path else {
            return false;
        };
        lock_by(&mut trial, &path);
        for c in fall.into_iter().chain(path) {
            self.write_command(c);
        }
        *game = trial;
        true
    }

    /// [`Self::route`] for one unit on its own.
    fn route_unit(&mut self, game: &mut Game, goal: Pos, spell: bool) {
        self.route_unit_given(game, goal, spell, None);
    }

    /// The DP's routes of the falling unit of `game` to each of `goals` from this scribe's
    /// state, in one pass (`Planner::routes_to`), for [`Self::route_with`]; `None` where they
    /// are not searched so (a wide board, memory) or the scribe does not search them.
    pub fn dp_routes(&mut self, game: &Game, goals: &[Pos]) -> Option<Vec<Option<Route>>> {
        if !self.use_dp || !self.can_spell() || !self.pending.is_empty() {
            return None;
        }
        let unit = game.unit();
        let board = game.board();
        let canonical = |pos: Pos| unit.canonical_pos(pos);
        let fits = |pos: Pos| board.fits_unit(unit, pos);
        let grid = Grid::new(unit, board);
        let goals: Vec<Pos> = goals.iter().map(|&g| canonical(g)).collect();
        let dist = distances_to_any(&grid, &goals, &fits, &canonical);
        let spam_counts = self.spam_counts(&self.counts);
        self.planner.routes_to(
            &Request {
                phrases: &self.spam,
                board,
                unit,
                grid: &grid,
                dist: &dist,
                start: canonical(game.pos()),
                goal: goals[0],
                state: self.spam_state,
                counts: &spam_counts,
                broad: self.dp_broad,
                hand_on: hands_on(game),
            },
            &goals,
        )
    }

    /// [`Self::route`] of a unit to `goal` alone (no span) where the DP's route from this
    /// state was searched already: `dp`, one of [`Self::dp_routes`].
    pub fn route_with(&mut self, game: &mut Game, goal: Pos, dp: Option<Route>) {
        debug_assert!(self.pending.is_empty(), "no span is open");
        self.route_unit_given(game, goal, true, Some(dp));
    }

    /// Plays the DP's route `dp` of the falling unit as it is, without the greedy route
    /// [`Self::route_with`] weighs it against: the look-ahead's quick route for a child that
    /// may not be kept.
    pub fn take_route(&mut self, game: &mut Game, dp: &Route) {
        debug_assert!(self.pending.is_empty(), "no span is open");
        for &b in &dp.bytes {
            self.write(b);
        }
        lock_by(game, &dp.commands);
    }

    /// [`Self::route_unit`], with the DP's route given where it was searched already.
    fn route_unit_given(
        &mut self,
        game: &mut Game,
        goal: Pos,
        spell: bool,
        given: Option<Option<Route>>,
    ) {
        if !spell && self.fall_then_route(game, goal) {
            return;
        }
        let unit = game.unit();
        let board = game.board();
        let canonical = |pos: Pos| unit.canonical_pos(pos);
        let fits = |pos: Pos| board.fits_unit(unit, pos);
        let grid = Grid::new(unit, board);
        let goal = canonical(goal);
        let start = canonical(game.pos());
        if !spell {
            let path = direct_path(&grid, start, goal, &fits, &canonical)
                .expect("the unit reaches its lock from the spawn");
            for &c in &path {
                self.write_command(c);
            }
            lock_by(game, &path);
            return;
        }
        let dist = if spell {
            distances_to(&grid, goal, &fits, &canonical)
        } else {
            Vec::new()
        };
        let dist_of = |pos: Pos| grid.index(pos).map_or(UNREACHED, |i| dist[i]);
        let words = self.words.len();
        if spell && !self.follows.contains_key(&game.unit_index()) {
            let table = follow_table(&self.words, &canonical);
            self.follows.insert(game.unit_index(), table);
        }
        let follows = self
            .follows
            .get(&game.unit_index())
            .cloned()
            .unwrap_or_default();
        let mut commands: Vec<Command> = Vec::new();
        let (state_before, counts_before, text_before, spam_before) = (
            self.state,
            self.counts.clone(),
            self.text.len(),
            self.spam_state,
        );
        let mut here = Mark {
            pos: start,
            row: vec![start],
            state: self.state,
            counts: self.counts.clone(),
            text_len: self.text.len(),
            commands: 0,
        };
        let mut marks: Vec<Mark> = Vec::new();
        // Moves `mark` by `c`, following the history rule; false if the unit would lock or repeat.
        let step = |mark: &mut Mark, c: Command| -> bool {
            let next = canonical(target(mark.pos, c));
            if !fits(next) {
                return false;
            }
            if c.descends() {
                mark.row.clear();
            } else if mark.row.contains(&next) {
                return false;
            }
            mark.row.push(next);
            mark.pos = next;
            true
        };
        let mut spelling = spell && dist_of(start) != UNREACHED;
        let mut finished = false;
        while spelling {
            // The best (gain per row of descent, connector, word) from here.
            let mut best: Option<(f64, Option<Command>, usize, bool)> = None;
            let connectors = std::iter::once(None).chain(Command::ALL.map(Some));
            for connector in connectors {
                let mut after = here.clone();
                let mut descents = 0;
                let mut state = here.state;
                if let Some(c) = connector {
                    if !step(&mut after, c) || dist_of(after.pos) == UNREACHED {
                        continue;
                    }
                    descents += u32::from(c.descends());
                    let b = self.best_byte(c, state, &here.counts);
                    state = self.phrases.advance(state, b);
                }
                for (w, word) in self.words.iter().enumerate() {
                    let (gain, end) = self.gain(state, &word.bytes, &here.counts);
                    if gain == 0 {
                        continue;
                    }
                    // The word moves the unit; a word whose last command locks it right at
                    // the goal ends the route.
                    let mut trial = after.clone();
                    let (&last, moves) = word.commands.split_last().expect("words are not empty");
                    if !moves.iter().all(|&c| step(&mut trial, c)) {
                        continue;
                    }
                    let locks = trial.pos == goal && !fits(canonical(target(goal, last)));
                    if !locks && (!step(&mut trial, last) || dist_of(trial.pos) == UNREACHED) {
                        continue;
                    }
                    let rows = descents
                        + moves.iter().filter(|c| c.descends()).count() as u32
                        + u32::from(!locks && last.descends());
                    // Points per row over this word and the best word that can follow it
                    // directly (else one row more, for a connecting descent).
                    let next = (0..words)
                        .filter(|&v| !locks && follows[w * words + v])
                        .filter_map(|v| {
                            let (more, _) = self.gain_with(end, &self.words[v].bytes, None);
                            let rows = self.words[v].descents as f64;
                            (more > 0).then(|| (more as f64, rows.max(0.5)))
                        })
                        .max_by(|a, b| (a.0 / a.1).total_cmp(&(b.0 / b.1)));
                    let (more, more_rows) = next.unwrap_or((0.0, if locks { 0.0 } else { 1.0 }));
                    let value = (gain as f64 + more) / (rows as f64 + more_rows).max(0.5);
                    if best.is_none_or(|b| value > b.0) {
                        best = Some((value, connector, w, locks));
                    }
                }
            }
            if let Some((_, connector, w, locks)) = best {
                marks.push(here.clone());
                let word = self.words[w].clone();
                if let Some(c) = connector {
                    step(&mut here, c);
                    self.write_command(c);
                    commands.push(c);
                }
                for (&c, &b) in word.commands.iter().zip(&word.bytes) {
                    step(&mut here, c);
                    self.write(b);
                    commands.push(c);
                }
                if locks {
                    finished = true;
                    break;
                }
            } else {
                // No phrase from here: one move closer to the lock (sideways or turning first,
                // since a descent spends a row that phrases could use), then look again.
                let order = [
                    Command::W,
                    Command::E,
                    Command::CW,
                    Command::CCW,
                    Command::SW,
                    Command::SE,
                ];
                let closer = order.into_iter().find(|&c| {
                    let next = canonical(target(here.pos, c));
                    dist_of(next) < dist_of(here.pos) && (c.descends() || !here.row.contains(&next))
                });
                match closer {
                    Some(c) => {
                        step(&mut here, c);
                        self.write_command(c);
                        commands.push(c);
                    }
                    None => spelling = false,
                }
            }
            here.state = self.state;
            here.counts.clone_from(&self.counts);
            here.text_len = self.text.len();
            here.commands = commands.len();
        }
        if !finished {
            // The last leg; when the row's history blocks it, take phrases back.
            let last_leg = loop {
                if let Some(path) = bfs(&grid, here.pos, goal, &here.row, &fits, &canonical) {
                    break path;
                }
                here = marks
                    .pop()
                    .expect("the unit reaches its lock from the spawn");
            };
            self.text.truncate(here.text_len);
            self.state = here.state;
            self.counts = here.counts;
            commands.truncate(here.commands);
            for &c in &last_leg {
                self.write_command(c);
                commands.push(c);
            }
        }
        if spell && self.use_dp {
            // A phrase begun at the lock is worth its matched characters where another unit
            // goes on from it: on the single-cell problems, a chain of `ia! ` ended mid-phrase
            // is taken up by the next unit (problem 17 at `play -t 30 -c 1` 7,742 -> 7,846).
            let hand_on = hands_on(game);
            let dp = given.unwrap_or_else(|| {
                self.planner.route(&Request {
                    phrases: &self.spam,
                    board,
                    unit,
                    grid: &grid,
                    dist: &dist,
                    start,
                    goal,
                    state: spam_before,
                    counts: &self.spam_counts(&counts_before),
                    broad: self.dp_broad,
                    hand_on,
                })
            });
            if let Some(dp) = dp {
                let before = self.phrases.power_score(&counts_before);
                let begun = |state: u32| u64::from(hand_on) * u64::from(self.phrases.depth(state));
                let greedy = self.phrases.power_score(&self.counts) - before + begun(self.state);
                let (gain, end) = self.gain(state_before, &dp.bytes, &counts_before);
                if gain + begun(end) > greedy {
                    self.text.truncate(text_before);
                    self.state = state_before;
                    self.spam_state = spam_before;
                    self.counts = counts_before;
                    for &b in &dp.bytes {
                        self.write(b);
                    }
                    commands = dp.commands;
                }
            }
        }
        lock_by(game, &commands);
    }

    /// `counts` (of the phrases in play) for the DP's own phrases.
    fn spam_counts(&self, counts: &[u64]) -> Vec<u64> {
        self.spam_index.iter().map(|&i| counts[i]).collect()
    }

    fn best_byte(&self, command: Command, state: u32, counts: &[u64]) -> u8 {
        command
            .characters()
            .bytes()
            .max_by_key(|&b| {
                let (gain, next) = self.gain(state, &[b], counts);
                (gain, self.phrases.depth(next))
            })
            .expect("every command has characters")
    }
}

/// Whether another unit goes on from the text at the falling unit's lock (`Request::hand_on`).
fn hands_on(game: &Game) -> bool {
    game.locked() as usize + 1 < game.order().len()
}

/// Plays `commands` on `game`: moves, then the last one locks the falling unit.
fn lock_by(game: &mut Game, commands: &[Command]) {
    let (&lock, moves) = commands.split_last().expect("a path ends with its lock");
    for &c in moves {
        let outcome = game.step(c);
        debug_assert_eq!(outcome, Outcome::Moved);
    }
    let outcome = game.step(lock);
    debug_assert!(matches!(outcome, Outcome::Locked { .. }));
}

/// Empty rows a plain route keeps between a falling unit and the stack (and its lock) before
/// it searches ([`Scribe::fall_then_route`]): as the placement flood's jump (`FAR`, Part 35).
const FALL_MARGIN: i32 = 64;

/// Units at the start of a game that may start a phrase spelled across their lock.
const SPAN_UNITS: u32 = 40;

/// How many times the broad routes of the units left the time left must hold for the DP to
/// search broad (see [`Scribe::pace`]); the same margin as the narrow DP's in `solve.rs`.
const BROAD_MARGIN: f64 = 1.5;

/// Whether `unit` can play `word` from one position without repeating a position.
fn spells_word(word: &Word, unit: &Unit) -> bool {
    power::spells(&word.commands, &|p| unit.canonical_pos(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::place::placement::placements;
    use crate::icfp2015::rules::game::{evaluate, Setup};

    fn setup(id: usize) -> Setup {
        Setup::bundled(id)
    }

    /// A cell turning on itself repeats its position at a turn: it spells `ei!` but not
    /// `r'lyeh`, which two cells turning about a pivot off them spell.
    #[test]
    fn a_unit_with_one_orientation_spells_no_turn() {
        let phrases = PhraseSet::known();
        let scribe = Scribe::new(&phrases);
        let word = |text: &[u8]| {
            (scribe.words.iter())
                .position(|w| w.bytes == text)
                .expect("a known phrase's word")
        };
        let (ei, rlyeh) = (word(b"ei!"), word(b"r'lyeh"));
        let (cell, pair) = (&setup(1).units[0], &setup(10).units[0]);
        assert_eq!(cell.distinct, 1);
        assert!(scribe.unit_spells_word(ei, cell));
        assert!(!scribe.unit_spells_word(rlyeh, cell));
        assert!(scribe.unit_spells_word(rlyeh, pair));
    }

    /// Routing every unit to its deepest lock: each lands on exactly the chosen cells, the
    /// text is valid, and repeated phrases score more than one use of each.
    /// On boards made 300 rows tall, plain routes fall through the empty rows first and still
    /// lock every unit exactly where asked, deepest lock or highest; the text replays without error.
    #[test]
    fn plain_routes_fall_through_empty_rows_and_lock_where_asked() {
        let phrases = PhraseSet::known();
        for id in [9, 18, 24] {
            let mut problem = setup(id).problem;
            problem.height = 300;
            problem.filled.clear();
            let setup = Setup::new(problem);
            let seed = setup.problem.source_seeds[0];
            let mut game = Game::new(&setup, seed);
            let mut scribe = Scribe::new(&phrases);
            let mut fell = 0;
            for turn in 0..30 {
                if game.is_over() {
                    break;
                }
                let all = placements(&game);
                let goal = if turn % 3 == 2 {
                    all.iter().min_by_key(|p| p.pos.y)
                } else {
                    all.iter().max_by_key(|p| p.pos.y)
                }
                .unwrap()
                .pos;
                let (locked, before, text) =
                    (game.locked(), game.board().clone(), scribe.text.len());
                let mut expected = before;
                for c in game.unit().cells(goal) {
                    expected.set(c);
                }
                scribe.route(&mut game, goal, None, false);
                assert_eq!(game.locked(), locked + 1, "problem {id}");
                if game.prev_lines() == 0 {
                    assert_eq!(game.board(), &expected, "problem {id} turn {turn}");
                }
                fell += usize::from(scribe.text.len() - text > 200);
            }
            assert!(fell > 0, "problem {id}: no unit fell 200 rows");
            let scored = evaluate(&setup, seed as u64, scribe.text(), &phrases).unwrap();
            assert_eq!(scored.error, None, "problem {id}");
            assert_eq!(scored.locked, game.locked(), "problem {id}");
        }
    }

    #[test]
    fn routes_lock_where_asked_and_repeat_phrases() {
        let phrases = PhraseSet::known();
        for id in [0, 3, 6, 14] {
            let setup = setup(id);
            let seed = setup.problem.source_seeds[0];
            let mut game = Game::new(&setup, seed);
            let mut scribe = Scribe::new(&phrases);
            for _ in 0..20 {
                if game.is_over() {
                    break;
                }
                let goal = placements(&game)
                    .into_iter()
                    .max_by_key(|p| p.pos.y)
                    .unwrap()
                    .pos;
                let mut cells = game.unit().cells(goal);
                cells.sort_by_key(|c| (c.y, c.x));
                let locked_before = game.locked();
                let board_before = game.board().clone();
                scribe.route(&mut game, goal, None, true);
                assert_eq!(game.locked(), locked_before + 1, "problem {id}");
                let mut expected = board_before;
                let unit_cells = cells.clone();
                for c in unit_cells {
                    expected.set(c);
                }
                // Without cleared rows the board is the old one plus the unit's cells.
                if game.prev_lines() == 0 {
                    assert_eq!(game.board(), &expected, "problem {id}");
                }
            }
            let scored = evaluate(&setup, seed as u64, scribe.text(), &phrases).unwrap();
            assert_eq!(scored.error, None, "problem {id}");
            let uses: u64 = scored.counts.iter().sum();
            let distinct = scored.counts.iter().filter(|&&n| n > 0).count() as u64;
            assert!(uses > distinct, "problem {id}: {:?}", scored.counts);
        }
    }

    /// The DP's routes to every lock of a unit in one pass give the texts and games of routing
    /// to each lock alone, with the known phrases and plain-move ones, on single cells (1),
    /// 10-column boards (8, 11), 15-column ones (20, 12: units of up to 12 cells); none on a
    /// board wider than the one-pass DP takes (14, 50 columns).
    #[test]
    fn routes_searched_together_are_those_searched_alone() {
        let sets = [
            PhraseSet::known(),
            PhraseSet::new(vec!["aaaa".into(), "lll".into(), "ali".into()]).unwrap(),
        ];
        for phrases in &sets {
            for id in [1, 8, 11, 20, 12, 14] {
                let setup = setup(id);
                let seed = setup.problem.source_seeds[0];
                let mut game = Game::new(&setup, seed);
                let mut scribe = Scribe::for_setup(phrases, &setup);
                let mut compared = 0;
                for _ in 0..5 {
                    if game.is_over() {
                        break;
                    }
                    // Every third lock: deep ones, high ones, both sides.
                    let goals: Vec<Pos> = placements(&game)
                        .into_iter()
                        .step_by(3)
                        .map(|p| p.pos)
                        .collect();
                    let routes = scribe.dp_routes(&game, &goals);
                    if id == 14 {
                        assert!(routes.is_none());
                    } else {
                        let routes = routes.expect("a narrow board");
                        assert_eq!(routes.len(), goals.len());
                        for (&goal, route) in goals.iter().zip(routes) {
                            let (mut alone, mut alone_game) = (scribe.clone(), game.clone());
                            alone.route(&mut alone_game, goal, None, true);
                            let (mut together, mut together_game) = (scribe.clone(), game.clone());
                            together.route_with(&mut together_game, goal, route);
                            assert_eq!(alone.text(), together.text(), "problem {id} {goal:?}");
                            assert_eq!(alone_game.board(), together_game.board());
                            compared += 1;
                        }
                    }
                    // On to the next unit by the deepest lock.
                    let deepest = goals.iter().max_by_key(|p| p.y).copied().unwrap();
                    scribe.route(&mut game, deepest, None, true);
                }
                assert!(id == 14 || compared > 10, "problem {id}: {compared}");
            }
        }
    }

    /// The same locks (each unit's deepest) routed with the narrow and the broad DP: both texts
    /// are legal and lock every unit, and on problem 14's 50-column board (one-cell units that
    /// cannot turn, lanes beside its drawing) the broad routes spell more.
    #[test]
    fn broad_routes_are_legal_and_spell_more_on_wide_boards() {
        let phrases = PhraseSet::known();
        for (id, more) in [(14, true), (6, false), (24, false)] {
            let setup = setup(id);
            let seed = setup.problem.source_seeds[0];
            let mut power = [0u64; 2];
            for (b, broad) in [false, true].into_iter().enumerate() {
                let mut game = Game::new(&setup, seed);
                let mut scribe = Scribe::for_setup(&phrases, &setup);
                scribe.dp_broad = broad;
                for _ in 0..30 {
                    if game.is_over() {
                        break;
                    }
                    let goal = placements(&game)
                        .into_iter()
                        .max_by_key(|p| (p.pos.y, p.pos.x))
                        .unwrap()
                        .pos;
                    let locked = game.locked();
                    scribe.route(&mut game, goal, None, true);
                    assert_eq!(game.locked(), locked + 1, "problem {id} broad {broad}");
                }
                let scored = evaluate(&setup, seed as u64, scribe.text(), &phrases).unwrap();
                assert_eq!(scored.error, None, "problem {id} broad {broad}");
                assert_eq!(scored.power_score, scribe.power_score(), "problem {id}");
                power[b] = scored.power_score;
            }
            if more {
                assert!(power[1] > power[0], "problem {id}: {power:?}");
            }
        }
    }

    /// Each word knows the phrases it spells whole (a phrase's rest after its border may be
    /// another phrase: `" ia!"` here); the unused words are those whole phrases, most points
    /// first, and a phrase spelled leaves the list.
    #[test]
    fn unused_words_follow_the_phrases_spelled() {
        let phrases = PhraseSet::new(vec!["Ia! Ia!".into(), " IA!".into(), "Ei!".into()]).unwrap();
        let mut scribe = Scribe::new(&phrases);
        let bytes: Vec<&[u8]> = scribe.words.iter().map(|w| &w.bytes[..]).collect();
        assert_eq!(bytes, [&b" ia!"[..], b"ia! ia!", b" ia!", b"ei!"]);
        let index: Vec<&[usize]> = scribe.words.iter().map(|w| &w.phrases[..]).collect();
        assert_eq!(index, [&[1][..], &[0], &[1], &[2]]);
        assert_eq!(scribe.unused_words(u32::MAX), [1, 0, 2, 3]);
        assert_eq!(
            scribe.unused_words(0),
            Vec::<usize>::new(),
            "every word descends"
        );
        let setup = setup(10);
        let mut game = Game::new(&setup, setup.problem.source_seeds[0]);
        scribe.replay(&mut game, "ei!");
        assert_eq!(scribe.power_score(), 300 + 2 * 3);
        assert_eq!(scribe.unused_words(u32::MAX), [1, 0, 2]);
    }

    /// Broad only while the time left holds the units left at the broad pace with the margin;
    /// never on a game's first route, nor without the DP.
    #[test]
    fn pace_goes_broad_only_with_time_to_spare() {
        let phrases = PhraseSet::known();
        let mut scribe = Scribe::new(&phrases);
        scribe.pace(10.0, 100, 0.0);
        assert!(!scribe.dp_broad, "the first route is narrow");
        scribe.pace(10.0, 100, 0.01);
        assert!(scribe.dp_broad, "10 s hold 100 units at 3 x 10 ms x 1.5");
        scribe.pace(4.0, 100, 0.01);
        assert!(!scribe.dp_broad, "4 s do not");
        scribe.broad_routes = (10, 0.1);
        scribe.pace(2.0, 100, 0.05);
        assert!(scribe.dp_broad, "the broad routes' own pace: 10 ms");
        scribe.use_dp = false;
        scribe.pace(2.0, 100, 0.05);
        assert!(!scribe.dp_broad, "no DP, no broad DP");
    }
}
