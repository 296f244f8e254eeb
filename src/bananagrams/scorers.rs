//! Word scorers for the game players (the seed report's Letter Count, Dead Letter Avoidance, Hand
//! Balance, Simple Stranding) and the two-letter-word tables they and the junk plays share.

use super::board::{Board, Dir, SIZE};
use super::dict::Dawg;
use super::letters::{Tiles, LETTERS};
use super::movegen::{Move, MoveList};

/// Per-dictionary letter facts, computed once from the DAWG.
#[derive(Clone, Debug)]
pub struct LetterStats {
    /// `two_letter[first][second]`: FIRST-SECOND is a word.
    pub two_letter: [[bool; LETTERS]; LETTERS],
    /// Two-letter words a letter appears in (either place); ENABLE: Q, V, C none, J one.
    pub two_letter_count: [u8; LETTERS],
    /// How much using a letter is worth, high for letters that make few two-letter words.
    pub dead: [i32; LETTERS],
    /// `junk_anchor_synergy[board][hand]`: two-letter words the pair makes (either order), so a
    /// hand letter can hang off that board letter as a junk play.
    pub junk_anchor_synergy: [[u8; LETTERS]; LETTERS],
}

/// A, E, I, O, U as a letter mask.
pub const VOWELS: u32 = 1 | 1 << 4 | 1 << 8 | 1 << 14 | 1 << 20;

impl LetterStats {
    pub fn new(dawg: &Dawg) -> LetterStats {
        let mut two_letter = [[false; LETTERS]; LETTERS];
        let mut two_letter_count = [0u8; LETTERS];
        for (a, row) in two_letter.iter_mut().enumerate() {
            for (b, cell) in row.iter_mut().enumerate() {
                *cell = dawg.contains(&[b'A' + a as u8, b'A' + b as u8]);
                if *cell {
                    two_letter_count[a] += 1;
                    two_letter_count[b] += 1;
                }
            }
        }
        let dead = std::array::from_fn(|c| 60 / (1 + i32::from(two_letter_count[c])));
        let junk_anchor_synergy = std::array::from_fn(|a| {
            std::array::from_fn(|h| u8::from(two_letter[a][h]) + u8::from(two_letter[h][a]))
        });
        LetterStats {
            two_letter,
            two_letter_count,
            dead,
            junk_anchor_synergy,
        }
    }

    /// The hand's least useful letter: fewest two-letter words, then rarest in play.
    pub fn worst_letter(&self, hand: &Tiles) -> Option<u8> {
        hand.letters()
            .min_by_key(|&c| (self.two_letter_count[c as usize], c))
    }

    /// How far a hand is from about 40% vowels, the share in the bunch (54 of 144 with Y out).
    pub fn imbalance(hand: &Tiles) -> i32 {
        let vowels: i32 = (0..LETTERS as u8)
            .filter(|&c| VOWELS >> c & 1 != 0)
            .map(|c| i32::from(hand.count(c)))
            .sum();
        let total = hand.len() as i32;
        (5 * vowels - 2 * total).abs()
    }
}

/// How a player ranks candidate placements; higher is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scorer {
    /// Tiles from the hand: the longest play.
    LetterCount,
    /// Tiles used, plus a bonus for letters that make few two-letter words (Q, V, J, X, C, Z).
    DeadLetterAvoidance,
    /// Tiles used, minus the vowel/consonant imbalance of the hand left behind.
    HandBalance,
    /// Tiles used, minus new tiles touching the grid sideways, plus room around the word's ends:
    /// strands that grow apart.
    SimpleStranding,
}

impl Scorer {
    pub const ALL: [Scorer; 4] = [
        Scorer::LetterCount,
        Scorer::DeadLetterAvoidance,
        Scorer::HandBalance,
        Scorer::SimpleStranding,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Scorer::LetterCount => "letter-count",
            Scorer::DeadLetterAvoidance => "dead-letter-avoidance",
            Scorer::HandBalance => "hand-balance",
            Scorer::SimpleStranding => "simple-stranding",
        }
    }

    pub fn by_name(name: &str) -> Option<Scorer> {
        Scorer::ALL.into_iter().find(|s| s.name() == name)
    }

    pub fn score(
        self,
        stats: &LetterStats,
        board: &Board,
        list: &MoveList,
        m: &Move,
        hand: &Tiles,
    ) -> i32 {
        let used = m.new_tiles() as i32;
        match self {
            Scorer::LetterCount => 100 * used,
            Scorer::DeadLetterAvoidance => {
                100 * used
                    + new_letters(list, m)
                        .map(|c| stats.dead[c as usize])
                        .sum::<i32>()
            }
            Scorer::HandBalance => {
                let left = hand.minus(&list.used(m)).unwrap_or(*hand);
                100 * used - 10 * LetterStats::imbalance(&left)
            }
            Scorer::SimpleStranding => 100 * used - 70 * side_contacts(board, m) + room(board, m),
        }
    }
}

fn new_letters<'a>(list: &'a MoveList, m: &'a Move) -> impl Iterator<Item = u8> + 'a {
    list.word(m)
        .iter()
        .enumerate()
        .filter(move |&(i, _)| m.new >> i & 1 != 0)
        .map(|(_, &c)| c)
}

/// New tiles of `m` with a tile beside them across the word's direction: each makes a cross
/// word and packs the grid.
pub fn side_contacts(board: &Board, m: &Move) -> i32 {
    let line = m.line as usize;
    let before = if line > 0 {
        board.line_bits(m.dir, line - 1)
    } else {
        0
    };
    let after = if line + 1 < SIZE {
        board.line_bits(m.dir, line + 1)
    } else {
        0
    };
    let new = m.new << m.start;
    ((before | after) & new).count_ones() as i32
}

/// Free cells past both ends of the word along its line, capped: room for the strand to grow.
fn room(board: &Board, m: &Move) -> i32 {
    let (first, last) = (m.start as usize, m.start as usize + m.len as usize - 1);
    let line = m.line as usize;
    let (ahead, behind) = match m.dir {
        Dir::Across => (board.free_right(line, last), board.free_left(line, first)),
        Dir::Down => (board.free_down(last, line), board.free_up(first, line)),
    };
    (ahead.min(4) + behind.min(4)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bananagrams::dict::Lexicon;

    #[test]
    fn dead_letters_are_the_ones_without_two_letter_words() {
        let stats = LetterStats::new(&Lexicon::enable().dawg);
        let letter = |c: u8| (c - b'A') as usize;
        for c in *b"QVC" {
            assert_eq!(stats.two_letter_count[letter(c)], 0, "{}", c as char);
        }
        assert!(stats.two_letter[letter(b'J')][letter(b'O')]);
        assert!(stats.dead[letter(b'Q')] > stats.dead[letter(b'E')]);
        assert_eq!(
            stats.worst_letter(&Tiles::parse("EAQ").unwrap()),
            Some(letter(b'Q') as u8)
        );
        assert_eq!(stats.junk_anchor_synergy[letter(b'O')][letter(b'X')], 1);
        assert_eq!(LetterStats::imbalance(&Tiles::parse("AEBCD").unwrap()), 0);
        assert!(Scorer::ALL
            .iter()
            .all(|&s| Scorer::by_name(s.name()) == Some(s)));
    }
}
