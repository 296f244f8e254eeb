//! Game players behind one trait: the seed report's Standard, Dangling, Stranding and
//! TwoLetterStranding strategies, the Pseudo benchmark opponent and podium's own Podium.
//
// Every player keeps its grid valid after every action (moves come from the move generator,
// lifts only take off words that hang by one junction), so an empty hand is always a winning
// grid if the generator is right; the game still validates every claim. When stuck, a player
// climbs a fixed ladder (lift a hanging word, dump, rebuild from scratch) counted by `stuck`,
// which only tiles from the bunch reset, so it can never loop: past the ladder it waits.

use super::board::{Board, Dir, SIZE};
use super::dict::{Dawg, Lexicon};
use super::letters::Tiles;
use super::movegen::{generate, Move, MoveList, Options};
use super::scorers::{LetterStats, Scorer, VOWELS};
use super::solver;
use crate::core::budget::Budget;
use std::sync::Arc;

/// What a player may know about the game when it acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context {
    /// Tiles left in the bunch.
    pub bunch: usize,
    /// Players still in the game, this one included.
    pub players: usize,
}

/// The outcome of one [`Player::act`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Tiles went down or the grid was rearranged; the hand is not empty.
    Played,
    /// The hand is empty and the grid complete: PEEL or BANANAS, as the bunch decides.
    Done,
    /// Return this letter (already taken out of the hand) to the bunch for up to three.
    Dump(u8),
    /// Nothing useful to do until tiles arrive or the bunch changes.
    Wait,
}

/// A game player: gets tiles, acts one step at a time, shows its grid when it calls BANANAS.
/// Given the same tiles and contexts in the same order it makes the same moves.
pub trait Player: Send {
    fn name(&self) -> &'static str;
    /// Tiles from the bunch: the starting hand, a peel, the result of a dump.
    fn receive(&mut self, tiles: &Tiles);
    fn act(&mut self, context: &Context) -> Action;
    fn board(&self) -> &Board;
    fn hand(&self) -> &Tiles;
    /// Deterministic work so far (moves generated, cells scanned, search nodes): what the
    /// simulated clock charges.
    fn work(&self) -> u64;
}

/// The players that can be asked for by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Standard,
    Dangling,
    Stranding,
    TwoLetterStranding,
    Pseudo,
    Podium,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Standard,
        Kind::Dangling,
        Kind::Stranding,
        Kind::TwoLetterStranding,
        Kind::Pseudo,
        Kind::Podium,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Standard => "Standard",
            Kind::Dangling => "Dangling",
            Kind::Stranding => "Stranding",
            Kind::TwoLetterStranding => "TwoLetterStranding",
            Kind::Pseudo => "Pseudo",
            Kind::Podium => "Podium",
        }
    }

    /// Case-insensitive; `tls` is short for TwoLetterStranding.
    pub fn by_name(name: &str) -> Option<Kind> {
        if name.eq_ignore_ascii_case("tls") {
            return Some(Kind::TwoLetterStranding);
        }
        Kind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }

    /// The scorer the player ranks its word plays by.
    pub fn default_scorer(self) -> Scorer {
        match self {
            Kind::Standard | Kind::Pseudo => Scorer::LetterCount,
            Kind::Dangling => Scorer::HandBalance,
            Kind::Stranding => Scorer::SimpleStranding,
            Kind::TwoLetterStranding | Kind::Podium => Scorer::DeadLetterAvoidance,
        }
    }

    pub fn build(self, dawg: Dawg, stats: &Arc<LetterStats>) -> Box<dyn Player> {
        self.build_with(dawg, stats, self.default_scorer())
    }

    pub fn build_with(
        self,
        dawg: Dawg,
        stats: &Arc<LetterStats>,
        scorer: Scorer,
    ) -> Box<dyn Player> {
        match self {
            Kind::Pseudo => Box::new(Pseudo::default()),
            kind => Box::new(Strategist::new(kind, scorer, dawg, Arc::clone(stats))),
        }
    }
}

/// A player by name, for `lexicon`.
pub fn by_name(name: &str, lexicon: &Lexicon) -> Option<Box<dyn Player>> {
    let stats = Arc::new(LetterStats::new(&lexicon.dawg));
    Kind::by_name(name).map(|kind| kind.build(lexicon.dawg, &stats))
}

/// Only takes tiles (starting hand and peels), never plays: an opponent that keeps the bunch
/// shared without competing.
#[derive(Default)]
pub struct Pseudo {
    board: Board,
    hand: Tiles,
}

impl Player for Pseudo {
    fn name(&self) -> &'static str {
        "Pseudo"
    }
    fn receive(&mut self, tiles: &Tiles) {
        self.hand = self.hand.union(tiles);
    }
    fn act(&mut self, _: &Context) -> Action {
        Action::Wait
    }
    fn board(&self) -> &Board {
        &self.board
    }
    fn hand(&self) -> &Tiles {
        &self.hand
    }
    fn work(&self) -> u64 {
        0
    }
}

/// Restructuring steps without new tiles before a player waits instead.
const MAX_STUCK: u32 = 48;
/// Search nodes for Podium's hand solver calls. Against TwoLetterStranding on the simulated
/// clock, 200 games each: solving the opening hand is what wins (44.5% without it, 73% with
/// it); extend at 300 nodes won 78% (3.0 ms median per game), at 1,000 nodes 73% (3.3 ms); an
/// opening budget of 500 nodes instead of 2,000 won 71.5%.
const SOLVE_NODES: u64 = 2_000;
const EXTEND_NODES: u64 = 300;
/// Most tiles Podium gives the hand solver: its last resort is a fresh solve of every tile, and
/// its nodes cost far more with a 70-letter hand. Against TwoLetterStranding, seed 1 (win rate,
/// CPU per game median and p99): no limit 78.3%, 5.2 ms, 89 ms (10,000 games); 60 tiles 72.4%,
/// 4.1 ms, 56 ms; 50 tiles 69.5%, 3.9 ms, 36 ms; 40 tiles 66.9%, 3.5 ms, 21 ms (2,000 games).
const SOLVER_MAX_TILES: usize = 40;
/// Largest grid rebuilt from nothing early on the stuck ladder; larger ones only from rung
/// `LATE_REBUILD` on. Rebuilds were the p99 of game time (up to 0.5 s with the whole hand given
/// to the move generator; much less since it sees `MOVEGEN_HAND` letters at a time).
const REBUILD_MAX_TILES: usize = 30;
const LATE_REBUILD: u32 = 24;
/// Most hand letters the move generator sees at once.
const MOVEGEN_HAND: usize = 10;
/// Tiles kept clear of the grid's edge before the grid is moved back to the middle.
const EDGE_MARGIN: usize = 3;

/// Every playing strategy: one engine, the kind choosing the plays and the restructuring.
pub struct Strategist {
    kind: Kind,
    scorer: Scorer,
    dawg: Dawg,
    stats: Arc<LetterStats>,
    board: Board,
    hand: Tiles,
    moves: MoveList,
    work: u64,
    /// Restructuring steps since tiles last arrived.
    stuck: u32,
    /// Grids rebuilt from nothing so far: which starting word to try next.
    rebuilds: u32,
    /// The bunch's size when this player last waited, to try again when it changes.
    waited_at: Option<usize>,
}

/// A place for one hand tile beside a grid tile, making exactly one new two-letter word.
#[derive(Clone, Copy, Debug)]
struct JunkSpot {
    row: usize,
    column: usize,
    letter: u8,
    score: i32,
}

impl Strategist {
    pub fn new(kind: Kind, scorer: Scorer, dawg: Dawg, stats: Arc<LetterStats>) -> Strategist {
        Strategist {
            kind,
            scorer,
            dawg,
            stats,
            board: Board::new(),
            hand: Tiles::EMPTY,
            moves: MoveList::default(),
            work: 0,
            stuck: 0,
            rebuilds: 0,
            waited_at: None,
        }
    }

    fn generate(&mut self, min_new: u32, hard: bool) {
        self.moves.clear();
        let hand = self.playable_part(hard);
        generate(
            &self.dawg,
            &self.board,
            &hand,
            Options { min_new },
            &mut self.moves,
        );
        self.work += 16 + self.moves.len() as u64 * 5 / 4 + self.board.tile_count() as u64 / 8;
    }

    /// At most `MOVEGEN_HAND` letters of the hand: with `hard` the two hardest letters, then
    /// the most plentiful at about 40% vowels. The move generator's left parts grow
    /// exponentially with the hand, and a player that fell behind held 30+ letters (35 ms
    /// median per game with the whole hand, 2.5 ms with ten letters).
    fn playable_part(&self, hard: bool) -> Tiles {
        if self.hand.len() <= MOVEGEN_HAND {
            return self.hand;
        }
        let mut left = self.hand;
        let mut part = Tiles::EMPTY;
        if hard {
            let mut letters: Vec<u8> = self.hand.letters().collect();
            letters.sort_by_key(|&c| (self.stats.two_letter_count[c as usize], c));
            for &c in letters.iter().take(2) {
                if self.stats.two_letter_count[c as usize] < 4 {
                    left.take(c);
                    part.add(c);
                }
            }
        }
        while part.len() < MOVEGEN_HAND && !left.is_empty() {
            let vowels = (0..26u8)
                .filter(|&c| VOWELS >> c & 1 != 0)
                .map(|c| part.count(c) as usize)
                .sum::<usize>();
            let want_vowel = 5 * vowels < 2 * (part.len() + 1);
            let pick = (0..26u8)
                .filter(|&c| left.count(c) > 0)
                .max_by_key(|&c| {
                    let matches = (VOWELS >> c & 1 != 0) == want_vowel;
                    (matches, left.count(c), std::cmp::Reverse(c))
                })
                .expect("letters left");
            left.take(pick);
            part.add(pick);
        }
        part
    }

    /// The best generated move by the scorer (first in generation order on ties); on an empty
    /// board after rebuilds, the `rebuilds % 4`-th best opening, so rebuilds try other grids.
    fn pick(&self, scorers: &[Scorer]) -> Option<Move> {
        const Q: u8 = 16;
        const U: u8 = 20;
        let keeps_q = self.hand.count(Q) > 0;
        let score = |m: &Move| {
            let mut total = scorers
                .iter()
                .map(|s| s.score(&self.stats, &self.board, &self.moves, m, &self.hand))
                .sum::<i32>();
            if keeps_q {
                // A Q left over has few words (ENABLE has no QI, and a big hand may hold no U):
                // place it as soon as a word takes it, and never spend the last U elsewhere.
                let used = self.moves.used(m);
                total += 400 * i32::from(used.count(Q));
                if used.count(Q) < self.hand.count(Q) && used.count(U) >= self.hand.count(U) {
                    total -= 1000;
                }
            }
            total
        };
        if self.board.is_empty() && self.rebuilds > 0 {
            let mut ranked: Vec<(i32, usize)> = self
                .moves
                .moves
                .iter()
                .enumerate()
                .map(|(i, m)| (-score(m), i))
                .collect();
            ranked.sort_unstable();
            let rank = self.rebuilds as usize % 4;
            return ranked
                .get(rank)
                .or(ranked.first())
                .map(|&(_, i)| self.moves.moves[i]);
        }
        let mut best: Option<(i32, Move)> = None;
        for m in &self.moves.moves {
            let s = score(m);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, *m));
            }
        }
        best.map(|(_, m)| m)
    }

    fn play(&mut self, m: &Move) {
        let placement = self.moves.placement(m);
        self.board
            .place(&placement, &mut self.hand)
            .expect("generated moves fit the grid and the hand");
        self.keep_off_edges();
    }

    fn keep_off_edges(&mut self) {
        if let Some((top, left, bottom, right)) = self.board.bounds() {
            let low = EDGE_MARGIN;
            let high = SIZE - 1 - EDGE_MARGIN;
            if top < low || left < low || bottom > high || right > high {
                self.board.recentre();
            }
        }
    }

    /// Places the word play the scorer likes best taking at least `min_new` tiles.
    fn word_play(&mut self, min_new: u32, scorers: &[Scorer]) -> bool {
        self.generate(min_new, true);
        if self.moves.is_empty() && self.hand.len() > MOVEGEN_HAND {
            self.generate(min_new, false);
        }
        match self.pick(scorers) {
            Some(m) => {
                self.play(&m);
                true
            }
            None => false,
        }
    }

    /// The best junk spot for any hand letter: the hardest letter to place first, then the spot
    /// with most room around it. Costs one pass over the grid's tiles.
    fn junk_spot(&mut self) -> Option<JunkSpot> {
        self.work += self.board.tile_count() as u64 / 8 + 1;
        let hand_mask = self.hand.mask();
        let stats = &*self.stats;
        let occupied = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && (r as usize) < SIZE
                && (c as usize) < SIZE
                && self.board.get(r as usize, c as usize).is_some()
        };
        let mut best: Option<JunkSpot> = None;
        for (row, column) in self.board.occupancy().iter() {
            let anchor = self.board.get(row, column).expect("occupied cell") as usize;
            let (r, c) = (row as isize, column as isize);
            for (dr, dc) in [(0isize, 1isize), (1, 0), (0, -1), (-1, 0)] {
                let (tr, tc) = (r + dr, c + dc);
                if tr < 0 || tc < 0 || tr as usize >= SIZE || tc as usize >= SIZE {
                    continue;
                }
                if occupied(tr, tc)
                    || occupied(r - dr, c - dc)
                    || occupied(tr + dr, tc + dc)
                    || occupied(tr + dc, tc + dr)
                    || occupied(tr - dc, tc - dr)
                {
                    continue;
                }
                let room = i32::from(!occupied(tr + 2 * dr, tc + 2 * dc))
                    + i32::from(!occupied(tr + dr + dc, tc + dc + dr))
                    + i32::from(!occupied(tr + dr - dc, tc + dc - dr));
                let forward = dr + dc > 0;
                let mut letters = hand_mask;
                while letters != 0 {
                    let letter = letters.trailing_zeros() as usize;
                    letters &= letters - 1;
                    let fits = if forward {
                        stats.two_letter[anchor][letter]
                    } else {
                        stats.two_letter[letter][anchor]
                    };
                    if !fits {
                        continue;
                    }
                    let score = 10 * stats.dead[letter]
                        - 3 * i32::from(stats.junk_anchor_synergy[anchor][letter])
                        + room;
                    if best.is_none_or(|b| score > b.score) {
                        best = Some(JunkSpot {
                            row: tr as usize,
                            column: tc as usize,
                            letter: letter as u8,
                            score,
                        });
                    }
                }
            }
        }
        best
    }

    fn junk_play(&mut self) -> bool {
        match self.junk_spot() {
            Some(spot) => {
                assert!(self.hand.take(spot.letter), "junk letter from the hand");
                self.board.put_tile(spot.row, spot.column, spot.letter);
                self.keep_off_edges();
                true
            }
            None => false,
        }
    }

    /// Words that touch the rest of the grid through at most one tile, with the tiles lifting
    /// them would free (all but the junction); two-letter words first if `junk_first`.
    fn hanging_words(&self, junk_first: bool) -> Vec<Vec<(u8, u8)>> {
        let mut found: Vec<(usize, Vec<(u8, u8)>)> = Vec::new();
        let words = self.board.words();
        for word in &words {
            let mut free = Vec::with_capacity(word.letters.len());
            let mut junctions = 0;
            for i in 0..word.letters.len() {
                let (row, column) = word.cell(i);
                let crossed = match word.dir {
                    Dir::Across => {
                        (row > 0 && self.board.get(row - 1, column).is_some())
                            || (row + 1 < SIZE && self.board.get(row + 1, column).is_some())
                    }
                    Dir::Down => {
                        (column > 0 && self.board.get(row, column - 1).is_some())
                            || (column + 1 < SIZE && self.board.get(row, column + 1).is_some())
                    }
                };
                if crossed {
                    junctions += 1;
                } else {
                    free.push((row as u8, column as u8));
                }
            }
            if junctions == 1 && !free.is_empty() {
                let order = if junk_first && word.letters.len() == 2 {
                    0
                } else {
                    word.letters.len()
                };
                found.push((order, free));
            }
        }
        found.sort_by_key(|(order, _)| *order);
        found.into_iter().map(|(_, free)| free).collect()
    }

    /// One step up the stuck ladder: lift a hanging word, dump a hard letter, or rebuild.
    fn restructure(&mut self, context: &Context) -> Action {
        self.stuck += 1;
        if self.stuck > MAX_STUCK {
            self.waited_at = Some(context.bunch);
            return Action::Wait;
        }
        let step = self.stuck % 8;
        if self.kind == Kind::Standard {
            // No lifting: dump the hardest letter while the bunch has tiles, else start over.
            if let Some(letter) = self
                .stats
                .worst_letter(&self.hand)
                .filter(|_| context.bunch > 0)
            {
                self.hand.take(letter);
                return Action::Dump(letter);
            }
            self.rebuild();
            return Action::Played;
        }
        if step == 4 && context.bunch > 0 {
            if let Some(letter) = self.stats.worst_letter(&self.hand) {
                self.hand.take(letter);
                return Action::Dump(letter);
            }
        }
        let small = self.board.tile_count() <= REBUILD_MAX_TILES || self.stuck >= LATE_REBUILD;
        if step != 0 || !small {
            // Every eighth rung lifts one more word than the last time round.
            let words = if step == 0 { 1 + self.stuck / 8 } else { 1 };
            let mut lifted = false;
            for _ in 0..words {
                let hanging = self.hanging_words(self.kind == Kind::TwoLetterStranding);
                if hanging.is_empty() {
                    break;
                }
                let pick = &hanging[self.stuck as usize % hanging.len()];
                self.work += pick.len() as u64 + 8;
                self.board.lift(pick, &mut self.hand);
                lifted = true;
            }
            if lifted {
                return Action::Played;
            }
        }
        self.rebuild();
        Action::Played
    }

    /// Lifts every tile into the hand; Podium then asks the hand solver for a whole grid.
    fn rebuild(&mut self) {
        self.rebuilds += 1;
        self.hand = self.hand.union(&self.board.tiles());
        self.work += self.board.tile_count() as u64;
        self.board = Board::new();
        if self.kind == Kind::Podium && self.hand.len() <= SOLVER_MAX_TILES {
            let (solved, nodes) = hand_solve(&self.dawg, &self.hand, SOLVE_NODES);
            self.work += nodes;
            if let Some(board) = solved {
                self.board = board;
                self.hand = Tiles::EMPTY;
            }
        }
    }

    /// One step of the kind's play; false when it found nothing to place.
    fn step(&mut self) -> bool {
        match self.kind {
            Kind::Standard | Kind::Dangling | Kind::Stranding => self.word_play(1, &[self.scorer]),
            Kind::TwoLetterStranding => {
                // Main plays grow strands and spend hard letters; junk plays only two-letter words.
                let main = [Scorer::SimpleStranding, self.scorer];
                if self.hand.len() <= 2 || self.board.is_empty() {
                    self.junk_play() || self.word_play(1, &main)
                } else {
                    self.word_play(2, &main) || self.junk_play() || self.word_play(1, &main)
                }
            }
            Kind::Podium => {
                if self.board.is_empty()
                    && self.hand.len() <= SOLVER_MAX_TILES
                    && self.rebuilds == 0
                {
                    let (solved, nodes) = hand_solve(&self.dawg, &self.hand, SOLVE_NODES);
                    self.work += nodes;
                    if let Some(board) = solved {
                        self.board = board;
                        self.hand = Tiles::EMPTY;
                        return true;
                    }
                }
                if self.hand.len() <= 2 && self.junk_play() {
                    return true;
                }
                if self.word_play(1, &[self.scorer, Scorer::SimpleStranding]) {
                    return true;
                }
                if self.stuck == 0 {
                    // Past SOLVER_MAX_TILES only the search from the grid and the lifts, no
                    // fresh solve of every tile.
                    let rebuild = self.board.tile_count() + self.hand.len() <= SOLVER_MAX_TILES;
                    let (extended, work) =
                        hand_extend(&self.dawg, &self.board, &self.hand, EXTEND_NODES, rebuild);
                    self.work += work;
                    if let Some(board) = extended {
                        self.board = board;
                        self.hand = Tiles::EMPTY;
                        self.keep_off_edges();
                        return true;
                    }
                }
                false
            }
            Kind::Pseudo => false,
        }
    }
}

impl Player for Strategist {
    fn name(&self) -> &'static str {
        self.kind.name()
    }

    fn receive(&mut self, tiles: &Tiles) {
        self.hand = self.hand.union(tiles);
        if !tiles.is_empty() {
            self.stuck = 0;
            self.waited_at = None;
        }
    }

    fn act(&mut self, context: &Context) -> Action {
        if self.hand.is_empty() {
            return Action::Done;
        }
        if self.stuck > MAX_STUCK {
            if self.waited_at == Some(context.bunch) {
                return Action::Wait;
            }
            // The bunch changed since we gave up: a few more rungs, a dump among them.
            self.stuck = MAX_STUCK - 8;
            self.waited_at = None;
        }
        if self.step() {
            return if self.hand.is_empty() {
                Action::Done
            } else {
                Action::Played
            };
        }
        self.restructure(context)
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn hand(&self) -> &Tiles {
        &self.hand
    }

    fn work(&self) -> u64 {
        self.work
    }
}

/// A whole grid from `hand`, and the work it took (moves the solver generated).
fn hand_solve(dawg: &Dawg, hand: &Tiles, nodes: u64) -> (Option<Board>, u64) {
    match solver::solve_with_stats(dawg, hand, Budget::nodes(nodes)) {
        (solver::Verdict::Solved(board), stats) => (Some(*board), stats.moves),
        (_, stats) => (None, stats.moves),
    }
}

/// `board`'s tiles plus `new` on one grid, and the work it took (moves the solver generated).
fn hand_extend(
    dawg: &Dawg,
    board: &Board,
    new: &Tiles,
    nodes: u64,
    rebuild: bool,
) -> (Option<Board>, u64) {
    let (extended, stats) =
        solver::extend_with_stats(dawg, board, new, Budget::nodes(nodes), rebuild);
    (extended, stats.moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bananagrams::validate::validate;

    #[test]
    fn names_round_trip() {
        for kind in Kind::ALL {
            assert_eq!(Kind::by_name(kind.name()), Some(kind));
            assert_eq!(Kind::by_name(&kind.name().to_lowercase()), Some(kind));
        }
        assert_eq!(Kind::by_name("tls"), Some(Kind::TwoLetterStranding));
        assert!(Kind::by_name("nobody").is_none());
    }

    #[test]
    fn every_player_empties_a_hand_into_a_valid_grid() {
        let lexicon = Lexicon::enable();
        let hand = Tiles::parse("RETAINSBANANAGRAMSQUIZ").unwrap();
        let context = Context {
            bunch: 0,
            players: 2,
        };
        for kind in Kind::ALL {
            if kind == Kind::Pseudo {
                continue;
            }
            let mut player = by_name(kind.name(), &lexicon).unwrap();
            player.receive(&hand);
            let mut actions = 0;
            loop {
                match player.act(&context) {
                    Action::Done => break,
                    Action::Wait => panic!("{} gave up on {hand}", kind.name()),
                    Action::Dump(_) => panic!("{} dumped with an empty bunch", kind.name()),
                    Action::Played => actions += 1,
                }
                assert!(actions < 10_000, "{} does not finish", kind.name());
            }
            let grid = player.board().render();
            assert_eq!(
                validate(&grid, &hand, &lexicon.list),
                Ok(()),
                "{}:\n{grid}",
                kind.name()
            );
        }
    }
}
