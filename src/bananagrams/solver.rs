//! The hand solver: a grid from all of a hand's letters, a proof that none exists, or "gave
//! up"; and `extend`, which adds peeled tiles to a grid, lifting as few words as it can.
//
// Search: depth-first over placements from the move generator, best-first by a letter score
// (hard letters first, balanced leftovers), with a table of grids already explored (a hash of
// (cell, letter), the same for any order of the same words). Every grid on the way is valid,
// so the first one that empties the hand is the answer. The search is heuristic; "impossible"
// is said only with a proof that holds for every grid (`prove_impossible`), never because the
// search ran out of moves.

use super::board::{Board, Dir, Placement, SIZE};
use super::dict::{Dawg, Node, ROOT};
use super::letters::{Tiles, LETTERS};
use super::movegen::{generate, MoveList, Options};
use crate::core::budget::Budget;
use crate::core::rng::splitmix64;
use std::collections::HashSet;

/// A node (a grid expanded) generates its moves, so the clock is read every 2^5 of them.
const CLOCK_EVERY_SHIFT: u32 = 5;

pub enum Verdict {
    Solved(Box<Board>),
    /// No valid grid exists; the reason is a proof.
    Impossible(String),
    GaveUp,
}

/// What one search did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub nodes: u64,
    pub moves: u64,
}

/// Difficulty of placing each letter, A..Z: high for letters in few words and few two-letter
/// words (J, Q, X, Z, V, K...), low for the ones that fit anywhere.
const HARDNESS: [i32; LETTERS] = [
    1, 3, 3, 2, 1, 3, 3, 2, 1, 9, 5, 2, 2, 1, 1, 3, 12, 1, 1, 1, 2, 6, 4, 7, 3, 9,
];
const VOWELS: u32 = 1 << 0 | 1 << 4 | 1 << 8 | 1 << 14 | 1 << 20;

pub fn solve(dawg: &Dawg, hand: &Tiles, budget: Budget) -> Verdict {
    solve_with_stats(dawg, hand, budget).0
}

/// The search's budget counts grids expanded (deterministic), and its deadline if it has one.
pub fn solve_with_stats(dawg: &Dawg, hand: &Tiles, budget: Budget) -> (Verdict, Stats) {
    if hand.is_empty() {
        return (Verdict::Impossible("no tiles".into()), Stats::default());
    }
    if hand.len() == 1 {
        let mut board = Board::new();
        board.put_tile(SIZE / 2, SIZE / 2, hand.letters().next().expect("one tile"));
        return (Verdict::Solved(Box::new(board)), Stats::default());
    }
    if let Some(proof) = prove_impossible(dawg, hand) {
        return (Verdict::Impossible(proof), Stats::default());
    }
    let mut search = Search::new(dawg, Board::new(), *hand, budget);
    let found = search.broadening();
    let stats = search.stats;
    if found {
        (Verdict::Solved(Box::new(search.board)), stats)
    } else {
        (Verdict::GaveUp, stats)
    }
}

/// The grid's tiles plus `new`, on a valid grid, lifting as few of the grid's words as it can:
/// first none, then one word, two, ... and at last a fresh solve of everything.
pub fn extend(dawg: &Dawg, board: &Board, new: &Tiles, budget: Budget) -> Option<Board> {
    extend_with_stats(dawg, board, new, budget, true).0
}

/// [`extend`] with the search done, and the fresh solve only if `rebuild` (it is the costly
/// step on big grids: a player may rather dump).
pub fn extend_with_stats(
    dawg: &Dawg,
    board: &Board,
    new: &Tiles,
    budget: Budget,
    rebuild: bool,
) -> (Option<Board>, Stats) {
    let mut total = Stats::default();
    let mut add = |stats: Stats| {
        total.nodes += stats.nodes;
        total.moves += stats.moves;
    };
    let mut search = Search::new(dawg, board.clone(), *new, budget.share(0.25));
    let found = search.broadening();
    add(search.stats);
    if found {
        return (Some(search.board), total);
    }
    // Lift removable words, one more each round, and try again.
    let mut trial = board.clone();
    let mut hand = *new;
    for _ in 0..3 {
        if !lift_one_word(dawg, &mut trial, &mut hand) {
            break;
        }
        let mut search = Search::new(dawg, trial.clone(), hand, budget.share(0.125));
        let found = search.broadening();
        add(search.stats);
        if found {
            return (Some(search.board), total);
        }
    }
    if !rebuild {
        return (None, total);
    }
    let (verdict, stats) = solve_with_stats(dawg, &board.tiles().union(new), budget.share(0.5));
    add(stats);
    match verdict {
        Verdict::Solved(board) => (Some(*board), total),
        _ => (None, total),
    }
}

/// Lifts the tiles of one word that crosses nothing but one junction (the last such word in
/// reading order), keeping the grid valid and connected; false if there is none.
fn lift_one_word(dawg: &Dawg, board: &mut Board, hand: &mut Tiles) -> bool {
    let words = board.words();
    for word in words.iter().rev() {
        let own: Vec<(u8, u8)> = (0..word.letters.len())
            .map(|i| word.cell(i))
            .filter(|&(r, c)| !in_perpendicular_run(board, word.dir, r, c))
            .map(|(r, c)| (r as u8, c as u8))
            .collect();
        if own.is_empty() || own.len() == word.letters.len() {
            continue;
        }
        let mut trial = board.clone();
        let mut lifted = *hand;
        trial.lift(&own, &mut lifted);
        if grid_is_sound(dawg, &trial) {
            *board = trial;
            *hand = lifted;
            return true;
        }
    }
    false
}

fn in_perpendicular_run(board: &Board, dir: Dir, row: usize, column: usize) -> bool {
    match dir {
        Dir::Across => {
            (row > 0 && board.get(row - 1, column).is_some())
                || (row + 1 < SIZE && board.get(row + 1, column).is_some())
        }
        Dir::Down => {
            (column > 0 && board.get(row, column - 1).is_some())
                || (column + 1 < SIZE && board.get(row, column + 1).is_some())
        }
    }
}

/// Connected, and every run of 2+ a word: checked with the board's own runs (the solver's
/// view; finished grids are re-checked by the independent validator).
fn grid_is_sound(dawg: &Dawg, board: &Board) -> bool {
    let Some(first) = board.occupancy().first_set() else {
        return true;
    };
    let mut seen = crate::core::bitboard::Bitboard::<SIZE>::EMPTY;
    let mut stack = vec![first];
    seen.set(first.0, first.1);
    let mut reached = 0;
    while let Some((r, c)) = stack.pop() {
        reached += 1;
        let around = [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ];
        for (nr, nc) in around {
            if nr < SIZE && nc < SIZE && board.get(nr, nc).is_some() && !seen.get(nr, nc) {
                seen.set(nr, nc);
                stack.push((nr, nc));
            }
        }
    }
    reached == board.tile_count()
        && board
            .words()
            .iter()
            .all(|w| dawg.contains(w.text().as_bytes()))
}

/// A reason no grid can use all of `hand`, true for every grid: a letter that is in no word
/// made only of the hand's letters (every tile of a grid of 2+ tiles lies in a word, and every
/// word of the grid is made of the hand's tiles).
pub fn prove_impossible(dawg: &Dawg, hand: &Tiles) -> Option<String> {
    if hand.len() < 2 {
        return None;
    }
    let needed = hand.mask();
    let mut counts = *hand.counts();
    let mut covered = 0u32;
    cover(dawg, ROOT, &mut counts, 0, needed, &mut covered);
    if covered & needed == needed {
        return [VOWELS, VOWELS | 1 << (b'Y' - b'A')]
            .into_iter()
            .find_map(|key| prove_by_key_capacity(dawg, hand, key))
            .or_else(|| prove_by_pairs(dawg, hand));
    }
    let stranded: String = (0..LETTERS as u8)
        .filter(|&c| (needed & !covered) >> c & 1 != 0)
        .map(|c| (b'A' + c) as char)
        .collect();
    Some(format!(
        "no word made of these letters contains {stranded}, and every tile of a grid is in a word"
    ))
}

/// A proof from scarce key letters (vowels): tiles whose letter is in no key-free word of the
/// hand must each share a word with a key tile; a key tile lies in at most two words, each of
/// at most `longest - 1` other tiles (`longest`: the hand's longest word with a key letter), so
/// more such tiles than `2 * keys * (longest - 1)` cannot all be placed.
fn prove_by_key_capacity(dawg: &Dawg, hand: &Tiles, key: u32) -> Option<String> {
    let keys: usize = (0..LETTERS as u8)
        .filter(|&c| key >> c & 1 != 0)
        .map(|c| hand.count(c) as usize)
        .sum();
    if keys > 4 {
        return None; // never proves anything with this many, and the word walk grows
    }
    let mut free = 0u32;
    let mut longest = 0usize;
    let mut counts = *hand.counts();
    let mut visit = |mask: u32, len: usize| {
        if mask & key == 0 {
            free |= mask;
        } else {
            longest = longest.max(len);
        }
    };
    each_word(dawg, ROOT, &mut counts, 0, 0, &mut visit);
    let needy: usize = (0..LETTERS as u8)
        .filter(|&c| (key | free) >> c & 1 == 0)
        .map(|c| hand.count(c) as usize)
        .sum();
    let capacity = 2 * keys * longest.saturating_sub(1);
    (needy > capacity).then(|| {
        format!(
            "{needy} tiles are in no word without a vowel, but the {keys} vowel tiles can share \
             words (of at most {longest} letters) with at most {capacity}"
        )
    })
}

/// A proof for a letter with two or more tiles (two Qs, say): in a valid grid the two tiles
/// lie in one word with both, or in two different runs, which share at most one tile, so two
/// of the hand's words containing the letter must fit in the hand together less at most one
/// common letter. When no word has the letter twice and no pair fits, no grid exists.
fn prove_by_pairs(dawg: &Dawg, hand: &Tiles) -> Option<String> {
    const MOST_WORDS: usize = 400;
    // Listing the hand's words costs ~1 ms for 21 tiles and ~100 ms for 144, so the proof is
    // tried only where it can work: a doubled letter that is in few words (J, Q, X, Z), in a
    // hand of at most 40 tiles.
    const MOST_TILES: usize = 40;
    const RARE: i32 = 7;
    if hand.len() > MOST_TILES {
        return None;
    }
    let mut words: Option<Vec<Vec<u8>>> = None;
    for letter in 0..LETTERS as u8 {
        if hand.count(letter) < 2 || HARDNESS[letter as usize] < RARE {
            continue;
        }
        let all = words.get_or_insert_with(|| dawg.anagrams(hand, None));
        let with: Vec<Tiles> = all
            .iter()
            .map(|w| Tiles::of_word(w))
            .filter(|t| t.count(letter) > 0)
            .collect();
        if with.len() > MOST_WORDS || with.iter().any(|t| t.count(letter) >= 2) {
            continue;
        }
        let fits = |a: &Tiles, b: &Tiles| {
            let mut excess = None;
            for c in 0..LETTERS as u8 {
                let over = (a.count(c) + b.count(c)).saturating_sub(hand.count(c));
                match over {
                    0 => {}
                    1 if excess.is_none() && a.count(c) > 0 && b.count(c) > 0 => excess = Some(c),
                    _ => return false,
                }
            }
            true
        };
        let any_pair = (0..with.len()).any(|i| (i..with.len()).any(|j| fits(&with[i], &with[j])));
        if !any_pair {
            let shown = (b'A' + letter) as char;
            return Some(format!(
                "the {} {shown} tiles need words containing {shown} that fit in the hand together \
                 (sharing at most one tile), and none of the {} such words pair up",
                hand.count(letter),
                with.len()
            ));
        }
    }
    None
}

/// Calls `visit(letters, length)` for every word buildable from `counts` below `node`.
fn each_word(
    dawg: &Dawg,
    node: Node,
    counts: &mut [u8; LETTERS],
    path: u32,
    len: usize,
    visit: &mut impl FnMut(u32, usize),
) {
    if dawg.is_word(node) && len >= 2 {
        visit(path, len);
    }
    let mut letters = dawg.letters(node);
    while letters != 0 {
        let letter = letters.trailing_zeros() as u8;
        letters &= letters - 1;
        if counts[letter as usize] == 0 {
            continue;
        }
        let child = dawg.child(node, letter).expect("letter in the node's mask");
        counts[letter as usize] -= 1;
        each_word(dawg, child, counts, path | 1 << letter, len + 1, visit);
        counts[letter as usize] += 1;
    }
}

/// ORs into `covered` the letters of every word buildable from `counts` below `node`; stops
/// early once every needed letter is covered.
fn cover(
    dawg: &Dawg,
    node: Node,
    counts: &mut [u8; LETTERS],
    path: u32,
    needed: u32,
    covered: &mut u32,
) {
    if dawg.is_word(node) && path.count_ones() > 0 {
        *covered |= path;
    }
    let mut letters = dawg.letters(node);
    while letters != 0 && *covered & needed != needed {
        let letter = letters.trailing_zeros() as u8;
        letters &= letters - 1;
        if counts[letter as usize] == 0 {
            continue;
        }
        // A branch that can only add letters already covered is not worth walking.
        let child = dawg.child(node, letter).expect("letter in the node's mask");
        counts[letter as usize] -= 1;
        cover(dawg, child, counts, path | 1 << letter, needed, covered);
        counts[letter as usize] += 1;
    }
}

struct Search<'a> {
    dawg: &'a Dawg,
    board: Board,
    hand: Tiles,
    budget: Budget,
    stats: Stats,
    hash: u64,
    seen: HashSet<u64>,
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
    fn new(dawg: &'a Dawg, board: Board, hand: Tiles, budget: Budget) -> Search<'a> {
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
            seen: HashSet::new(),
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
    fn broadening(&mut self) -> bool {
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

#[cfg(test)]
mod tests {
    use super::super::dict::Lexicon;
    use super::super::validate::validate;
    use super::*;
    use crate::core::rng::Rng;

    fn random_hand(rng: &mut Rng, size: usize) -> Tiles {
        let mut bunch: Vec<u8> = Tiles::full_bunch().letters().collect();
        rng.shuffle(&mut bunch);
        bunch[..size].iter().fold(Tiles::EMPTY, |mut t, &l| {
            t.add(l);
            t
        })
    }

    #[test]
    fn solved_grids_are_valid() {
        let lexicon = Lexicon::enable();
        let mut rng = Rng::new(5);
        let mut solved = 0;
        for _ in 0..40 {
            let hand = random_hand(&mut rng, 21);
            if let Verdict::Solved(board) = solve(&lexicon.dawg, &hand, Budget::nodes(2000)) {
                assert_eq!(
                    validate(&board.render(), &hand, &lexicon.list),
                    Ok(()),
                    "{hand}"
                );
                solved += 1;
            }
        }
        assert!(solved >= 30, "only {solved} of 40 solved");
    }

    #[test]
    fn stranded_letters_are_proofs() {
        let lexicon = Lexicon::enable();
        let hand = Tiles::parse("QXZJ").unwrap();
        assert!(matches!(
            solve(&lexicon.dawg, &hand, Budget::nodes(100)),
            Verdict::Impossible(_)
        ));
        assert!(prove_impossible(&lexicon.dawg, &Tiles::parse("QAT").unwrap()).is_none());
        let proof = prove_impossible(&lexicon.dawg, &Tiles::parse("QEEERRTT").unwrap()).unwrap();
        assert!(proof.contains('Q'), "{proof}");
    }

    /// Every fixed polyomino of `size` cells, as cell lists normalised to start at (0, 0).
    fn polyominoes(size: usize) -> Vec<Vec<(i32, i32)>> {
        let mut shapes: HashSet<Vec<(i32, i32)>> = HashSet::from([vec![(0, 0)]]);
        for _ in 1..size {
            let mut grown = HashSet::new();
            for shape in &shapes {
                for &(r, c) in shape {
                    for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                        let cell = (r + dr, c + dc);
                        if shape.contains(&cell) {
                            continue;
                        }
                        let mut next = shape.clone();
                        next.push(cell);
                        let (r0, c0) = (
                            next.iter().map(|x| x.0).min().unwrap(),
                            next.iter().map(|x| x.1).min().unwrap(),
                        );
                        let mut next: Vec<(i32, i32)> =
                            next.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
                        next.sort();
                        grown.insert(next);
                    }
                }
            }
            shapes = grown;
        }
        shapes.into_iter().collect()
    }

    /// Whether any grid of the hand's tiles is valid: every shape, every order of the letters.
    fn brute_force_solvable(hand: &Tiles, shapes: &[Vec<(i32, i32)>]) -> bool {
        let lexicon = Lexicon::enable();
        let letters: Vec<u8> = hand.letters().collect();
        let mut orders = Vec::new();
        permutations(&mut letters.clone(), 0, &mut orders);
        shapes.iter().any(|shape| {
            let height = shape.iter().map(|x| x.0).max().unwrap() as usize + 1;
            let width = shape.iter().map(|x| x.1).max().unwrap() as usize + 1;
            orders.iter().any(|order| {
                let mut rows = vec![vec![b'.'; width]; height];
                for (&(r, c), &l) in shape.iter().zip(order) {
                    rows[r as usize][c as usize] = b'A' + l;
                }
                let text: String = rows
                    .iter()
                    .map(|r| String::from_utf8(r.clone()).unwrap() + "\n")
                    .collect();
                validate(&text, hand, &lexicon.list).is_ok()
            })
        })
    }

    fn permutations(items: &mut Vec<u8>, k: usize, out: &mut Vec<Vec<u8>>) {
        if k == items.len() {
            out.push(items.clone());
            return;
        }
        let mut tried = 0u32;
        for i in k..items.len() {
            if tried >> items[i] & 1 != 0 {
                continue;
            }
            tried |= 1 << items[i];
            items.swap(k, i);
            permutations(items, k + 1, out);
            items.swap(k, i);
        }
    }

    #[test]
    fn proofs_of_impossibility_hold_on_small_hands_by_brute_force() {
        let lexicon = Lexicon::enable();
        let mut rng = Rng::new(9);
        let mut proven = 0;
        let mut solved = 0;
        let consonant_heavy: Vec<u8> = b"BCDFGHJKLMNPQRSTVWXZAEIOUY"
            .iter()
            .flat_map(|&b| std::iter::repeat_n(b - b'A', if b"AEIOU".contains(&b) { 1 } else { 3 }))
            .collect();
        for size in [3, 4, 5] {
            let shapes = polyominoes(size);
            for _ in 0..60 {
                let hand = (0..size).fold(Tiles::EMPTY, |mut t, _| {
                    t.add(*rng.choose(&consonant_heavy).unwrap());
                    t
                });
                match solve(&lexicon.dawg, &hand, Budget::nodes(10_000)) {
                    Verdict::Impossible(proof) => {
                        assert!(!brute_force_solvable(&hand, &shapes), "{hand}: {proof}");
                        proven += 1;
                    }
                    Verdict::Solved(board) => {
                        assert_eq!(validate(&board.render(), &hand, &lexicon.list), Ok(()));
                        solved += 1;
                    }
                    Verdict::GaveUp => {}
                }
            }
        }
        assert!(
            proven >= 40 && solved >= 20,
            "{proven} proven, {solved} solved"
        );
        // Doubled rare letters exercise the pair proof.
        let mut paired = 0;
        for text in [
            "QQAT", "QQATA", "JJOAE", "ZZOA", "XXAE", "QQAIT", "VVEA", "KKAY",
        ] {
            let hand = Tiles::parse(text).unwrap();
            if let Some(proof) = prove_impossible(&lexicon.dawg, &hand) {
                let shapes = polyominoes(hand.len());
                assert!(!brute_force_solvable(&hand, &shapes), "{hand}: {proof}");
                paired += 1;
            }
        }
        assert!(paired >= 3, "only {paired} doubled-letter hands proven");
    }

    #[test]
    fn two_qs_without_room_for_two_q_words_are_proven_impossible() {
        let lexicon = Lexicon::enable();
        let hand = Tiles::parse("BCEFGHHIIKLOPQQRRRSWX").unwrap();
        let proof = prove_impossible(&lexicon.dawg, &hand).expect("a proof");
        assert!(proof.contains("2 Q tiles"), "{proof}");
        // QAT twice sharing the A: two Qs are fine with QATS... when the letters are there.
        assert!(prove_impossible(&lexicon.dawg, &Tiles::parse("QQATT").unwrap()).is_none());
    }

    #[test]
    fn a_one_vowel_hand_is_proven_impossible() {
        let lexicon = Lexicon::enable();
        let hand = Tiles::parse("CDDDFFGNNNPRRRSSTUVVZ").unwrap();
        let proof = prove_impossible(&lexicon.dawg, &hand).expect("a proof");
        assert!(proof.contains("vowel"), "{proof}");
    }

    #[test]
    fn all_144_tiles_make_one_grid() {
        let lexicon = Lexicon::enable();
        let hand = Tiles::full_bunch();
        let Verdict::Solved(board) = solve(&lexicon.dawg, &hand, Budget::nodes(5_000)) else {
            panic!("144 tiles not solved");
        };
        assert_eq!(validate(&board.render(), &hand, &lexicon.list), Ok(()));
    }

    #[test]
    fn extend_adds_peeled_tiles_to_a_valid_grid() {
        let lexicon = Lexicon::enable();
        let mut rng = Rng::new(77);
        let mut extended = 0;
        for _ in 0..10 {
            let hand = random_hand(&mut rng, 21);
            let Verdict::Solved(board) = solve(&lexicon.dawg, &hand, Budget::nodes(5_000)) else {
                continue;
            };
            let new = random_hand(&mut rng, 2);
            if let Some(grown) = extend(&lexicon.dawg, &board, &new, Budget::nodes(5_000)) {
                assert_eq!(
                    validate(&grown.render(), &hand.union(&new), &lexicon.list),
                    Ok(())
                );
                extended += 1;
            }
        }
        assert!(extended >= 8, "only {extended} of 10 grids extended");
    }
}
