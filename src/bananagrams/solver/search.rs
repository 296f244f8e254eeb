//! The search for a grid: depth-first over the move generator's placements, best first by a
//! letter score, broadened from the best move per grid to all, within a node budget.

use super::hardness::{HARDNESS, VOWELS};
use crate::bananagrams::board::{Board, Placement, SIZE};
use crate::bananagrams::dict::Dawg;
use crate::bananagrams::letters::{Tiles, LETTERS};
use crate::bananagrams::movegen::{generate, MoveList, Options};
use crate::core::budget::Budget;
use crate::core::hash::RandomKeySet;
use crate::core::rng::splitmix64;

/// A node (a grid expanded) generates its moves, so the clock is read every 2^5 of them.
const CLOCK_EVERY_SHIFT: u32 = 5;

/// What one search did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub nodes: u64,
    pub moves: u64,
}

/// One search from a grid and a hand: the grid as it is built, the grids already explored
/// (by hash), and what is left of the budget.
pub(super) struct Search<'a> {
    dawg: &'a Dawg,
    pub(super) board: Board,
    hand: Tiles,
    budget: Budget,
    pub(super) stats: Stats,
    hash: u64,
    seen: RandomKeySet<u64>,
    lists: Vec<MoveList>,
    out_of_budget: bool,
    /// Moves tried per grid in this pass, best first.
    width: usize,
    /// Whether some grid had more moves than `width`.
    narrowed: bool,
    /// Most hand letters offered to the move generator at once (see [`window`]).
    window: usize,
}

impl<'a> Search<'a> {
    pub(super) fn new(dawg: &'a Dawg, board: Board, hand: Tiles, budget: Budget) -> Search<'a> {
        let mut hash = 0;
        for (row, column) in board.occupancy().iter() {
            hash ^= cell_key(row, column, board.get(row, column).expect("occupied"));
        }
        Search {
            dawg,
            board,
            hand,
            budget: budget.with_clock_every(CLOCK_EVERY_SHIFT),
            stats: Stats::default(),
            hash,
            seen: RandomKeySet::default(),
            lists: Vec::new(),
            out_of_budget: false,
            width: usize::MAX,
            narrowed: false,
            window: if hand.len() > WINDOW_ABOVE {
                WINDOW
            } else {
                usize::MAX
            },
        }
    }

    /// Iterative broadening: depth-first passes trying the best 1, 2, 4, ... moves per grid,
    /// then all, so a wrong early choice costs one narrow pass instead of its whole subtree.
    pub(super) fn broadening(&mut self) -> bool {
        let mut width = 1;
        loop {
            self.width = width;
            self.narrowed = false;
            self.seen.clear();
            if self.dfs(0) {
                return true;
            }
            if self.out_of_budget || !self.narrowed {
                return false;
            }
            width = if width >= 16 { usize::MAX } else { width * 2 };
        }
    }

    fn dfs(&mut self, depth: usize) -> bool {
        if self.hand.is_empty() {
            return true;
        }
        if self.budget.spend().is_err() {
            self.out_of_budget = true;
            return false;
        }
        self.stats.nodes += 1;
        if self.lists.len() <= depth {
            self.lists.push(MoveList::default());
        }
        let mut list = std::mem::take(&mut self.lists[depth]);
        list.clear();
        let window = window(&self.hand, self.window);
        generate(
            self.dawg,
            &self.board,
            &window,
            Options::default(),
            &mut list,
        );
        self.stats.moves += list.len() as u64;
        // Best first, ties in generation order: one u64 key per move, smallest first.
        let hand_vowels = self
            .hand
            .letters()
            .filter(|&c| VOWELS >> c & 1 != 0)
            .count() as i32;
        let mut order: Vec<u64> = list
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let value = self.value(list.word(m), m.new, hand_vowels);
                // Order-preserving map of i32 to u32, inverted so the best sorts first.
                let rank = !((value as u32) ^ 0x8000_0000);
                (rank as u64) << 32 | i as u64
            })
            .collect();
        let mut found = false;
        if order.len() > self.width {
            self.narrowed = true;
            order.select_nth_unstable(self.width);
            order.truncate(self.width);
        }
        order.sort_unstable();
        for &key in &order {
            let m = list.moves[key as u32 as usize];
            let placement: Placement = list.placement(&m);
            let filled = self
                .board
                .place(&placement, &mut self.hand)
                .expect("generated moves fit");
            let key = filled.iter().fold(0, |h, &(r, c)| {
                h ^ cell_key(
                    r as usize,
                    c as usize,
                    self.board.get(r as usize, c as usize).expect("just placed"),
                )
            });
            self.hash ^= key;
            if self.seen.insert(self.hash) && self.dfs(depth + 1) {
                found = true;
                break;
            }
            self.hash ^= key;
            self.board.lift(&filled, &mut self.hand);
            if self.out_of_budget {
                break;
            }
        }
        self.lists[depth] = list;
        found
    }

    /// Move order: hard letters placed now are worth most; a leftover hand far from 40% vowels
    /// costs.
    fn value(&self, word: &[u8], new: u64, hand_vowels: i32) -> i32 {
        let (mut gain, mut used, mut vowels_used) = (0, 0, 0);
        let mut bits = new;
        while bits != 0 {
            let c = word[bits.trailing_zeros() as usize] as usize;
            bits &= bits - 1;
            gain += HARDNESS[c] * HARDNESS[c] * 2 + 8;
            used += 1;
            vowels_used += (VOWELS >> c & 1) as i32;
        }
        let n = self.hand.len() as i32 - used;
        if n == 0 {
            return i32::MAX;
        }
        let imbalance = ((hand_vowels - vowels_used) * 10 - n * 4).abs();
        gain - imbalance
    }
}

/// Hand letters offered to the move generator at once: with a big hand nearly every path of
/// the DAWG is spellable and a grid has hundreds of thousands of moves (144 tiles: 490 k per
/// grid, 3.3 s for the whole solve), so a big hand plays like a Bananagrams hand that is
/// topped up: the hardest letters first, the rest keeping vowels near 40%.
/// Measured on the 144-tile hand: windows of 8, 12, 21 letters took 57, 204, 1235 ms; 21-tile
/// hands decide slightly more often with all their letters offered (488 vs 487 of 500).
const WINDOW: usize = 8;
const WINDOW_ABOVE: usize = 21;

fn window(hand: &Tiles, size: usize) -> Tiles {
    if hand.len() <= size {
        return *hand;
    }
    let mut rest = *hand;
    let mut chosen = Tiles::EMPTY;
    let mut by_hardness: Vec<u8> = (0..LETTERS as u8)
        .filter(|&c| HARDNESS[c as usize] >= 5)
        .collect();
    by_hardness.sort_by_key(|&c| std::cmp::Reverse(HARDNESS[c as usize]));
    for c in by_hardness {
        while chosen.len() < size / 3 && rest.take(c) {
            chosen.add(c);
        }
    }
    // Then round-robin over the letters, most plentiful first, vowels held near 40%.
    while chosen.len() < size {
        let vowels = chosen.letters().filter(|&c| VOWELS >> c & 1 != 0).count();
        let want_vowel = vowels * 5 < (chosen.len() + 1) * 2;
        let pick = (0..LETTERS as u8)
            .filter(|&c| rest.count(c) > 0)
            .max_by_key(|&c| {
                let matches = (VOWELS >> c & 1 != 0) == want_vowel;
                (matches, rest.count(c), std::cmp::Reverse(c))
            })
            .expect("the hand is larger than the window");
        rest.take(pick);
        chosen.add(pick);
    }
    chosen
}

#[inline]
fn cell_key(row: usize, column: usize, letter: u8) -> u64 {
    let mut state = ((row * SIZE + column) * 32 + letter as usize) as u64;
    splitmix64(&mut state)
}
