//! Every legal word placement on a grid from a hand: Appel and Jacobson's anchor-based move
//! generation over the DAWG, with per-cell cross-check letter masks, in both orientations.
//
// A move is generated once, from the leftmost anchor (empty cell next to a tile) it covers:
// the left part before that anchor is either the tiles already there or hand letters on
// non-anchor cells, which have no neighbours and so no cross-check. Cross-checks are computed
// per line, only for cells with a perpendicular neighbour. A move of one tile that makes words
// both ways is produced by the across pass only.

use super::board::{Board, Dir, Placement, EMPTY, SIZE};
use super::dict::{Dawg, Node, ROOT};
use super::letters::{Tiles, LETTERS};

const ALL: u32 = (1 << LETTERS) - 1;

/// One generated placement: where, which letters (in the list's letter arena), which are new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub dir: Dir,
    pub line: u8,
    pub start: u8,
    pub len: u8,
    /// Bit i set when the word's i-th cell was empty (a tile from the hand).
    pub new: u64,
    offset: u32,
}

impl Move {
    pub fn new_tiles(&self) -> u32 {
        self.new.count_ones()
    }
}

/// Moves and the letters of their words.
#[derive(Default, Clone)]
pub struct MoveList {
    pub moves: Vec<Move>,
    letters: Vec<u8>,
}

impl MoveList {
    pub fn clear(&mut self) {
        self.moves.clear();
        self.letters.clear();
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The word's letters (0..26).
    pub fn word(&self, m: &Move) -> &[u8] {
        &self.letters[m.offset as usize..m.offset as usize + m.len as usize]
    }

    /// The letters `m` takes from the hand.
    pub fn used(&self, m: &Move) -> Tiles {
        let mut used = Tiles::EMPTY;
        for (i, &letter) in self.word(m).iter().enumerate() {
            if m.new >> i & 1 != 0 {
                used.add(letter);
            }
        }
        used
    }

    pub fn placement(&self, m: &Move) -> Placement {
        Placement {
            dir: m.dir,
            line: m.line,
            start: m.start,
            letters: self.word(m).to_vec(),
        }
    }
}

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Fewest tiles a move must take from the hand.
    pub min_new: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options { min_new: 1 }
    }
}

/// Appends every legal placement of hand letters on `board` to `out`. On an empty board, every
/// word from the hand once, across, starting at the centre.
pub fn generate(dawg: &Dawg, board: &Board, hand: &Tiles, options: Options, out: &mut MoveList) {
    let mut generator = Generator {
        dawg,
        board,
        counts: *hand.counts(),
        hand_mask: hand.mask(),
        options,
        out,
        word: Spelling::default(),
        cross: [ALL; SIZE],
        crossed: 0,
        dir: Dir::Across,
        line: 0,
        cells: &[EMPTY; SIZE],
        anchor: 0,
    };
    if board.is_empty() {
        generator.cells = board.line(Dir::Across, SIZE / 2);
        generator.line = SIZE / 2;
        generator.anchor = SIZE / 2;
        generator.extend_right(ROOT, SIZE / 2, SIZE / 2, 0);
        return;
    }
    for dir in Dir::BOTH {
        for line in 0..SIZE {
            generator.scan_line(dir, line);
        }
    }
}

/// The letters of the word being built: at most one line long, so a fixed array (a `Vec`'s
/// capacity checks were ~5% of generation).
struct Spelling {
    letters: [u8; SIZE],
    len: usize,
}

impl Default for Spelling {
    fn default() -> Self {
        Spelling {
            letters: [0; SIZE],
            len: 0,
        }
    }
}

impl Spelling {
    #[inline]
    fn push(&mut self, letter: u8) {
        self.letters[self.len] = letter;
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) {
        self.len -= 1;
    }

    #[inline]
    fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn as_slice(&self) -> &[u8] {
        &self.letters[..self.len]
    }
}

struct Generator<'a> {
    dawg: &'a Dawg,
    board: &'a Board,
    counts: [u8; LETTERS],
    hand_mask: u32,
    options: Options,
    out: &'a mut MoveList,
    /// The letters of the word being built, from its start.
    word: Spelling,
    /// Letters allowed at each position of the current line by the perpendicular run.
    cross: [u32; SIZE],
    /// Positions of the current line that have a perpendicular neighbour.
    crossed: u64,
    dir: Dir,
    line: usize,
    cells: &'a [u8; SIZE],
    anchor: usize,
}

impl Generator<'_> {
    fn scan_line(&mut self, dir: Dir, line: usize) {
        let here = self.board.line_bits(dir, line);
        let before = if line > 0 {
            self.board.line_bits(dir, line - 1)
        } else {
            0
        };
        let after = if line + 1 < SIZE {
            self.board.line_bits(dir, line + 1)
        } else {
            0
        };
        let crossed = (before | after) & !here;
        let anchors = (crossed | here << 1 | here >> 1) & !here;
        if anchors == 0 {
            return;
        }
        self.dir = dir;
        self.line = line;
        self.cells = self.board.line(dir, line);
        self.crossed = crossed;
        let mut bits = crossed;
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.cross[p] = self.cross_check(p);
        }
        let blocked = here | anchors;
        let mut bits = anchors;
        while bits != 0 {
            let anchor = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.anchor = anchor;
            if anchor > 0 && here >> (anchor - 1) & 1 != 0 {
                // The tiles already left of the anchor are the fixed left part.
                let run = (!(here << (SIZE - anchor))).leading_zeros() as usize;
                let start = anchor - run;
                let prefix = self.cells[start..anchor].iter().map(|&c| c - 1);
                if let Some(node) = self.dawg.walk(ROOT, prefix) {
                    self.word.clear();
                    for &c in &self.cells[start..anchor] {
                        self.word.push(c - 1);
                    }
                    self.extend_right(node, anchor, start, 0);
                }
            } else {
                let free = if anchor == 0 {
                    0
                } else {
                    ((blocked << (SIZE - anchor)).leading_zeros() as usize).min(anchor)
                };
                let tiles: usize = self.counts.iter().map(|&c| c as usize).sum();
                self.word.clear();
                self.left_part(ROOT, free.min(tiles.saturating_sub(1)));
            }
        }
        let mut bits = crossed;
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.cross[p] = ALL;
        }
    }

    /// Letters that make a word with the perpendicular run through position `p`.
    fn cross_check(&self, p: usize) -> u32 {
        let across = self.board.line(self.dir.other(), p);
        let at = self.line;
        let mut top = at;
        while top > 0 && across[top - 1] != EMPTY {
            top -= 1;
        }
        let mut bottom = at + 1;
        while bottom < SIZE && across[bottom] != EMPTY {
            bottom += 1;
        }
        let Some(node) = self.dawg.walk(ROOT, across[top..at].iter().map(|&c| c - 1)) else {
            return 0;
        };
        let mut allowed = 0;
        // Only letters the hand has can ever be placed here.
        let mut letters = self.dawg.letters(node) & self.hand_mask;
        while letters != 0 {
            let letter = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            let child = self.dawg.edges_child(node, letter);
            let end = self
                .dawg
                .walk(child, across[at + 1..bottom].iter().map(|&c| c - 1));
            if end.is_some_and(|n| self.dawg.is_word(n)) {
                allowed |= 1 << letter;
            }
        }
        allowed
    }

    fn left_part(&mut self, node: Node, limit: usize) {
        let start = self.anchor - self.word.len();
        let new = if self.word.is_empty() {
            0
        } else {
            (1u64 << self.word.len()) - 1
        };
        self.extend_right(node, self.anchor, start, new);
        if limit == 0 {
            return;
        }
        let mut letters = self.dawg.letters(node) & self.hand_mask;
        while letters != 0 {
            let letter = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            let child = self.dawg.edges_child(node, letter);
            self.take(letter);
            self.word.push(letter);
            self.left_part(child, limit - 1);
            self.word.pop();
            self.give(letter);
        }
    }

    fn extend_right(&mut self, node: Node, pos: usize, start: usize, new: u64) {
        if pos < SIZE && self.cells[pos] != EMPTY {
            let letter = self.cells[pos] - 1;
            if let Some(child) = self.dawg.child(node, letter) {
                self.word.push(letter);
                self.extend_right(child, pos + 1, start, new);
                self.word.pop();
            }
            return;
        }
        if pos > self.anchor && self.dawg.is_word(node) {
            self.record(start, new);
        }
        if pos == SIZE {
            return;
        }
        let mut letters = self.dawg.letters(node) & self.cross[pos] & self.hand_mask;
        while letters != 0 {
            let letter = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            let child = self.dawg.edges_child(node, letter);
            self.take(letter);
            self.word.push(letter);
            self.extend_right(child, pos + 1, start, new | 1 << (pos - start));
            self.word.pop();
            self.give(letter);
        }
    }

    fn record(&mut self, start: usize, new: u64) {
        let count = new.count_ones();
        if count < self.options.min_new {
            return;
        }
        if count == 1 && self.dir == Dir::Down {
            let p = start + new.trailing_zeros() as usize;
            let row_bits = self.board.line_bits(Dir::Across, p);
            let l = self.line;
            let across_neighbour = (l > 0 && row_bits >> (l - 1) & 1 != 0)
                || (l + 1 < SIZE && row_bits >> (l + 1) & 1 != 0);
            if across_neighbour {
                return;
            }
        }
        self.out.moves.push(Move {
            dir: self.dir,
            line: self.line as u8,
            start: start as u8,
            len: self.word.len() as u8,
            new,
            offset: self.out.letters.len() as u32,
        });
        self.out.letters.extend_from_slice(self.word.as_slice());
    }

    #[inline]
    fn take(&mut self, letter: u8) {
        let count = &mut self.counts[letter as usize];
        *count -= 1;
        if *count == 0 {
            self.hand_mask &= !(1 << letter);
        }
    }

    #[inline]
    fn give(&mut self, letter: u8) {
        self.counts[letter as usize] += 1;
        self.hand_mask |= 1 << letter;
    }
}

#[cfg(test)]
mod tests {
    use super::super::dict::Lexicon;
    use super::super::validate::validate;
    use super::*;
    use crate::core::rng::Rng;
    use std::collections::HashSet;

    /// Every legal placement by brute force: every word buildable from hand + board letters,
    /// at every start in every line near the tiles, kept if placing it leaves a valid grid.
    fn brute(lexicon: &Lexicon, board: &Board, hand: &Tiles) -> HashSet<Placement> {
        let (top, left, bottom, right) = board.bounds().unwrap();
        let pool = hand.union(&board.tiles());
        let words = lexicon.dawg.anagrams(&pool, None);
        let mut found = HashSet::new();
        for word in &words {
            let letters: Vec<u8> = word.iter().map(|b| b - b'A').collect();
            for dir in Dir::BOTH {
                let (lines, along) = match dir {
                    Dir::Across => (top.saturating_sub(1)..=bottom + 1, left),
                    Dir::Down => (left.saturating_sub(1)..=right + 1, top),
                };
                let far = match dir {
                    Dir::Across => right,
                    Dir::Down => bottom,
                };
                for line in lines {
                    let first = along.saturating_sub(letters.len());
                    for start in first..=far + 1 {
                        let p = Placement {
                            dir,
                            line: line as u8,
                            start: start as u8,
                            letters: letters.clone(),
                        };
                        let mut trial = board.clone();
                        let mut h = *hand;
                        let Ok(filled) = trial.place(&p, &mut h) else {
                            continue;
                        };
                        if filled.is_empty() {
                            continue;
                        }
                        // One tile making words both ways is the across move's.
                        if let ([(r, c)], Dir::Down) = (filled.as_slice(), dir) {
                            let (r, c) = (*r as usize, *c as usize);
                            let side = |col: Option<usize>| {
                                col.is_some_and(|col| col < SIZE && board.get(r, col).is_some())
                            };
                            if side(c.checked_sub(1)) || side(Some(c + 1)) {
                                continue;
                            }
                        }
                        // The word must be the whole run it lands in.
                        let before = start.checked_sub(1).map(|s| {
                            let q = Placement {
                                start: s as u8,
                                ..p.clone()
                            };
                            q.cell(0)
                        });
                        let after = p.cell(letters.len());
                        let occupied = |c: Option<(usize, usize)>| {
                            c.is_some_and(|(r, col)| {
                                r < SIZE && col < SIZE && board.get(r, col).is_some()
                            })
                        };
                        if occupied(before) || occupied(Some(after)) {
                            continue;
                        }
                        if validate(&trial.render(), &trial.tiles(), &lexicon.list).is_ok() {
                            found.insert(p);
                        }
                    }
                }
            }
        }
        found
    }

    fn generated(lexicon: &Lexicon, board: &Board, hand: &Tiles) -> Vec<Placement> {
        let mut list = MoveList::default();
        generate(&lexicon.dawg, board, hand, Options::default(), &mut list);
        list.moves.iter().map(|m| list.placement(m)).collect()
    }

    #[test]
    fn moves_match_brute_force_on_random_grids() {
        let lexicon = Lexicon::enable();
        let mut rng = Rng::new(11);
        let mut checked = 0;
        for _ in 0..12 {
            let mut bunch: Vec<u8> = Tiles::full_bunch().letters().collect();
            rng.shuffle(&mut bunch);
            let mut board = Board::new();
            let mut hand = Tiles::EMPTY;
            bunch.drain(..12).for_each(|l| hand.add(l));
            // Grow a grid by taking random generated moves.
            for _ in 0..3 {
                let moves = generated(&lexicon, &board, &hand);
                if moves.is_empty() {
                    break;
                }
                let pick = &moves[rng.below(moves.len() as u64) as usize];
                board.place(pick, &mut hand).unwrap();
                bunch.drain(..2).for_each(|l| hand.add(l));
            }
            if board.is_empty() {
                continue;
            }
            let small: Tiles = hand.letters().take(5).fold(Tiles::EMPTY, |mut t, l| {
                t.add(l);
                t
            });
            let got = generated(&lexicon, &board, &small);
            let unique: HashSet<Placement> = got.iter().cloned().collect();
            assert_eq!(unique.len(), got.len(), "duplicates on\n{}", board.render());
            let want = brute(&lexicon, &board, &small);
            let extra: Vec<String> = unique.difference(&want).map(|p| format!("{p:?}")).collect();
            let missing: Vec<String> = want.difference(&unique).map(|p| format!("{p:?}")).collect();
            assert!(
                extra.is_empty() && missing.is_empty(),
                "hand {small} on\n{}extra {extra:?}\nmissing {missing:?}",
                board.render()
            );
            checked += want.len();
        }
        assert!(checked > 100, "only {checked} moves compared");
    }

    #[test]
    fn empty_board_gives_each_word_once() {
        let lexicon = Lexicon::enable();
        let hand = Tiles::parse("RETAINS").unwrap();
        let got = generated(&lexicon, &Board::new(), &hand);
        assert_eq!(got.len(), lexicon.dawg.anagrams(&hand, None).len());
        assert!(got.iter().all(|p| p.start as usize == SIZE / 2));
    }
}
