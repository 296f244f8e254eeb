//! Tiles as letter counts: a hand, a bunch, the letters of a word; the official 144-tile bunch.
//! Letters are 0..26 (A = 0) everywhere inside the engine; bytes b'A'.. only at the edges.

use std::fmt;

pub const LETTERS: usize = 26;

/// The official distribution (A13 B3 C3 D6 E18 F3 G4 H3 I12 J2 K2 L5 M3 N8 O11 P3 Q2 R9 S6 T9 U6
/// V3 W3 X2 Y3 Z2), 144 tiles.
pub const BUNCH: [u8; LETTERS] = [
    13, 3, 3, 6, 18, 3, 4, 3, 12, 2, 2, 5, 3, 8, 11, 3, 2, 9, 6, 9, 6, 3, 3, 2, 3, 2,
];

/// A multiset of letters.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Tiles {
    counts: [u8; LETTERS],
    total: u16,
}

/// Most tiles a hand given as text may hold: counts are bytes, and no grid of the 64 x 64
/// board needs more (the official bunch is 144).
pub const MAX_HAND: usize = 255;

/// Why a hand given as text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadHand {
    /// A character outside A-Z (1-based position in characters).
    Letter {
        position: usize,
        found: char,
    },
    TooMany {
        letters: usize,
    },
}

impl Tiles {
    pub const EMPTY: Tiles = Tiles {
        counts: [0; LETTERS],
        total: 0,
    };

    pub fn full_bunch() -> Tiles {
        Tiles::from_counts(BUNCH)
    }

    pub fn from_counts(counts: [u8; LETTERS]) -> Tiles {
        let total = counts.iter().map(|&c| c as u16).sum();
        Tiles { counts, total }
    }

    /// Letters A-Z in either case, at most [`MAX_HAND`]; spaces and commas are ignored.
    pub fn parse(text: &str) -> Result<Tiles, BadHand> {
        let mut tiles = Tiles::EMPTY;
        for (index, ch) in text.chars().enumerate() {
            match ch {
                'a'..='z' | 'A'..='Z' => {
                    if tiles.len() == MAX_HAND {
                        let letters = text.chars().filter(char::is_ascii_alphabetic).count();
                        return Err(BadHand::TooMany { letters });
                    }
                    tiles.add(ch.to_ascii_uppercase() as u8 - b'A')
                }
                ' ' | ',' | '\t' => {}
                found => {
                    return Err(BadHand::Letter {
                        position: index + 1,
                        found,
                    })
                }
            }
        }
        Ok(tiles)
    }

    /// The letters of an upper-case word.
    pub fn of_word(word: &[u8]) -> Tiles {
        let mut tiles = Tiles::EMPTY;
        for &b in word {
            tiles.add(b - b'A');
        }
        tiles
    }

    #[inline]
    pub fn count(&self, letter: u8) -> u8 {
        self.counts[letter as usize]
    }

    #[inline]
    pub fn counts(&self) -> &[u8; LETTERS] {
        &self.counts
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.total as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    #[inline]
    pub fn add(&mut self, letter: u8) {
        self.counts[letter as usize] += 1;
        self.total += 1;
    }

    /// Removes one `letter`; false (and no change) if there is none.
    #[inline]
    pub fn take(&mut self, letter: u8) -> bool {
        let count = &mut self.counts[letter as usize];
        if *count == 0 {
            return false;
        }
        *count -= 1;
        self.total -= 1;
        true
    }

    /// Bit c set when at least one letter c is present.
    #[inline]
    pub fn mask(&self) -> u32 {
        self.counts
            .iter()
            .enumerate()
            .fold(0, |m, (c, &n)| if n > 0 { m | 1 << c } else { m })
    }

    /// Whether every letter of `other` is here (as a multiset).
    pub fn contains(&self, other: &Tiles) -> bool {
        self.counts.iter().zip(&other.counts).all(|(a, b)| a >= b)
    }

    pub fn union(&self, other: &Tiles) -> Tiles {
        Tiles::from_counts(std::array::from_fn(|c| self.counts[c] + other.counts[c]))
    }

    /// `self - other`, or None when `other` is not contained.
    pub fn minus(&self, other: &Tiles) -> Option<Tiles> {
        self.contains(other)
            .then(|| Tiles::from_counts(std::array::from_fn(|c| self.counts[c] - other.counts[c])))
    }

    /// Each letter, repeated by its count, in alphabetical order.
    pub fn letters(&self) -> impl Iterator<Item = u8> + '_ {
        (0..LETTERS as u8)
            .flat_map(move |c| std::iter::repeat_n(c, self.counts[c as usize] as usize))
    }
}

impl fmt::Display for Tiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for letter in self.letters() {
            write!(f, "{}", (b'A' + letter) as char)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Tiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tiles({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bunch_has_144_tiles() {
        assert_eq!(Tiles::full_bunch().len(), 144);
        assert_eq!(Tiles::full_bunch().count(b'E' - b'A'), 18);
    }

    #[test]
    fn parse_and_multiset_arithmetic() {
        let hand = Tiles::parse("banana s").unwrap();
        assert_eq!(hand.to_string(), "AAABNNS");
        assert_eq!(hand.len(), 7);
        let word = Tiles::of_word(b"NABS");
        assert!(hand.contains(&word));
        assert_eq!(hand.minus(&word).unwrap().to_string(), "AAN");
        assert!(word.minus(&hand).is_none());
        assert_eq!(
            Tiles::parse("ab1"),
            Err(BadHand::Letter {
                position: 3,
                found: '1'
            })
        );
        assert_eq!(
            Tiles::parse(&"Q".repeat(300)),
            Err(BadHand::TooMany { letters: 300 })
        );
        assert_eq!(Tiles::parse(&"E".repeat(255)).unwrap().count(4), 255);
        let mut t = Tiles::EMPTY;
        assert!(!t.take(3));
        t.add(3);
        assert_eq!(t.mask(), 1 << 3);
        assert!(t.take(3));
        assert!(t.is_empty());
    }
}
