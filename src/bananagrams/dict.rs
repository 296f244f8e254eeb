//! The dictionary in two independent forms: the minimal DAWG the solvers walk, and the sorted
//! word list the validator searches. ENABLE's are compiled by build.rs and carried in the binary.

use super::letters::{Tiles, LETTERS};
use crate::core::cli::CliError;

#[path = "../../tables/bananagrams.rs"]
#[allow(dead_code)]
mod compiler;
pub use compiler::ListError;

/// A state of the DAWG: the words that continue from a prefix.
pub type Node = u32;
pub const ROOT: Node = 0;

#[repr(C, align(4))]
struct Aligned<Bytes: ?Sized> {
    bytes: Bytes,
}

static ENABLE_DAWG: &Aligned<[u8]> = &Aligned {
    bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/bananagrams_enable.dawg")),
};
static ENABLE_OFFSETS: &Aligned<[u8]> = &Aligned {
    bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/bananagrams_enable.offsets")),
};
static ENABLE_WORDS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bananagrams_enable.words"));

/// The minimal DAWG (layout in `tables/bananagrams.rs`).
#[derive(Clone, Copy)]
pub struct Dawg {
    /// `[letters | TERMINAL, first edge]` per state.
    states: &'static [[u32; 2]],
    edges: &'static [u32],
    words: usize,
    longest: usize,
}

/// The sorted word list: `text[offsets[i]..offsets[i + 1]]` is word i.
#[derive(Clone, Copy)]
pub struct WordList {
    text: &'static [u8],
    offsets: &'static [u32],
}

/// A dictionary: the DAWG for search, the word list for validation.
#[derive(Clone, Copy)]
pub struct Lexicon {
    pub dawg: Dawg,
    pub list: WordList,
    pub name: &'static str,
}

impl Lexicon {
    /// ENABLE, as compiled into the binary.
    pub fn enable() -> Lexicon {
        let image: &'static [u32] = bytemuck::cast_slice(&ENABLE_DAWG.bytes);
        Lexicon {
            dawg: Dawg::from_image(image).expect("build.rs writes a valid DAWG"),
            list: WordList {
                text: ENABLE_WORDS,
                offsets: bytemuck::cast_slice(&ENABLE_OFFSETS.bytes),
            },
            name: "ENABLE",
        }
    }

    /// A word list file (one word per line), compiled now. The structures live for the rest of
    /// the process (they are leaked), as the embedded ones do.
    pub fn from_list_file(path: &str) -> Result<Lexicon, CliError> {
        let text = std::fs::read(path)
            .map_err(|e| CliError::input(format!("bananagrams dictionary {path}: {e}")))?;
        Lexicon::from_list(&text).map_err(|e| {
            // Line 0 is the whole list (it has no usable word).
            let place = if e.line == 0 {
                String::new()
            } else {
                format!("line {}: ", e.line)
            };
            CliError::input(format!(
                "bananagrams dictionary {path}: {place}{}",
                e.message
            ))
        })
    }

    pub fn from_list(text: &[u8]) -> Result<Lexicon, ListError> {
        let words = compiler::parse_list(text)?;
        let image: &'static [u32] = Vec::leak(compiler::compile(&words));
        let (joined, offsets) = compiler::word_list(&words);
        Ok(Lexicon {
            dawg: Dawg::from_image(image).expect("the compiler writes a valid DAWG"),
            list: WordList {
                text: Vec::leak(joined),
                offsets: Vec::leak(offsets),
            },
            name: "custom",
        })
    }
}

impl Dawg {
    fn from_image(image: &'static [u32]) -> Option<Dawg> {
        let header = image.get(..compiler::HEADER_WORDS)?;
        let [magic, states, edges, words, longest] = header.try_into().ok()?;
        if magic != compiler::MAGIC {
            return None;
        }
        let (states, edges) = (states as usize, edges as usize);
        let body = &image[compiler::HEADER_WORDS..];
        if body.len() != 2 * states + edges {
            return None;
        }
        let (state_words, edge_words) = body.split_at(2 * states);
        let dawg = Dawg {
            states: bytemuck::cast_slice(state_words),
            edges: edge_words,
            words: words as usize,
            longest: longest as usize,
        };
        // Every edge range and child must be in bounds, so walking never indexes out of range.
        let sound = dawg.states.iter().all(|&[letters, first]| {
            (first as usize + (letters & !compiler::TERMINAL).count_ones() as usize) <= edges
        }) && dawg.edges.iter().all(|&child| (child as usize) < states);
        sound.then_some(dawg)
    }

    pub fn word_count(&self) -> usize {
        self.words
    }

    pub fn state_count(&self) -> usize {
        self.states.len()
    }

    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    pub fn longest(&self) -> usize {
        self.longest
    }

    /// Letters that continue the prefix at `node` (bit c for letter c).
    #[inline]
    pub fn letters(&self, node: Node) -> u32 {
        self.states[node as usize][0] & !compiler::TERMINAL
    }

    /// Whether the prefix at `node` is itself a word.
    #[inline]
    pub fn is_word(&self, node: Node) -> bool {
        self.states[node as usize][0] & compiler::TERMINAL != 0
    }

    /// The state after `letter`, if some word continues with it.
    #[inline]
    pub fn child(&self, node: Node, letter: u8) -> Option<Node> {
        let [letters, first] = self.states[node as usize];
        if letters >> letter & 1 == 0 {
            return None;
        }
        let rank = (letters & ((1u32 << letter) - 1)).count_ones();
        Some(self.edges[(first + rank) as usize])
    }

    /// The state after the letters (0..26) of `prefix`.
    pub fn walk(&self, mut node: Node, prefix: impl IntoIterator<Item = u8>) -> Option<Node> {
        for letter in prefix {
            node = self.child(node, letter)?;
        }
        Some(node)
    }

    /// Whether the upper-case `word` is in the dictionary.
    pub fn contains(&self, word: &[u8]) -> bool {
        word.iter().all(u8::is_ascii_uppercase)
            && self
                .walk(ROOT, word.iter().map(|&b| b - b'A'))
                .is_some_and(|n| self.is_word(n))
    }

    /// Every word that can be built from `hand` (each tile used at most once), and, with
    /// `through`, one extra board letter that the word must use at the given place. Words come
    /// in alphabetical order, upper case.
    pub fn anagrams(&self, hand: &Tiles, through: Option<(u8, Place)>) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut counts = *hand.counts();
        let mut word = Vec::with_capacity(self.longest);
        match through {
            None => self.anagram_walk(ROOT, &mut counts, None, &mut word, &mut out),
            Some((letter, Place::First)) => {
                if let Some(node) = self.child(ROOT, letter) {
                    word.push(b'A' + letter);
                    self.anagram_walk(node, &mut counts, None, &mut word, &mut out);
                }
            }
            Some((letter, place)) => self.anagram_walk(
                ROOT,
                &mut counts,
                Some((letter, place)),
                &mut word,
                &mut out,
            ),
        }
        out
    }

    fn anagram_walk(
        &self,
        node: Node,
        counts: &mut [u8; LETTERS],
        extra: Option<(u8, Place)>,
        word: &mut Vec<u8>,
        out: &mut Vec<Vec<u8>>,
    ) {
        if extra.is_none() && self.is_word(node) && word.len() >= 2 {
            out.push(word.clone());
        }
        let mut letters = self.letters(node);
        while letters != 0 {
            let letter = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            let child = self.edges_child(node, letter);
            if counts[letter as usize] > 0 {
                counts[letter as usize] -= 1;
                word.push(b'A' + letter);
                self.anagram_walk(child, counts, extra, word, out);
                word.pop();
                counts[letter as usize] += 1;
            }
            match extra {
                Some((l, Place::Anywhere)) if l == letter => {
                    word.push(b'A' + letter);
                    self.anagram_walk(child, counts, None, word, out);
                    word.pop();
                }
                Some((l, Place::Last)) if l == letter && self.is_word(child) => {
                    word.push(b'A' + letter);
                    if word.len() >= 2 {
                        out.push(word.clone());
                    }
                    word.pop();
                }
                _ => {}
            }
        }
    }

    /// The child by a letter known to be in `letters(node)` (one popcount, no presence test).
    #[inline]
    pub fn edges_child(&self, node: Node, letter: u8) -> Node {
        debug_assert!(self.letters(node) >> letter & 1 != 0);
        let [letters, first] = self.states[node as usize];
        let rank = (letters & ((1u32 << letter) - 1)).count_ones();
        self.edges[(first + rank) as usize]
    }
}

/// Where a board letter must sit in a word found by [`Dawg::anagrams`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    First,
    Last,
    Anywhere,
}

impl WordList {
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn word(&self, index: usize) -> &'static [u8] {
        &self.text[self.offsets[index] as usize..self.offsets[index + 1] as usize]
    }

    /// Binary search for the upper-case `word`.
    pub fn contains(&self, word: &[u8]) -> bool {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = (low + high) / 2;
            match self.word(middle).cmp(word) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }

    pub fn iter(&self) -> impl Iterator<Item = &'static [u8]> + '_ {
        (0..self.len()).map(|i| self.word(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_word_is_quoted_briefly_and_its_character_as_written() {
        let Err(e) = Lexicon::from_list("cat\ncafé\n".as_bytes()) else {
            panic!("café is not a word of A-Z")
        };
        assert_eq!(e.line, 2);
        assert!(e.message.contains("the character 'é'"), "{}", e.message);
        let huge = format!("{}1\n", "a".repeat(1300));
        let Err(e) = Lexicon::from_list(huge.as_bytes()) else {
            panic!("a digit is not a letter")
        };
        assert!(
            e.message.len() < 120,
            "{} bytes: {}",
            e.message.len(),
            e.message
        );
        assert!(e.message.contains("...\""), "{}", e.message);
    }

    #[test]
    fn enable_is_complete_in_both_forms() {
        let lexicon = Lexicon::enable();
        assert_eq!(lexicon.list.len(), 172_820);
        assert_eq!(lexicon.dawg.word_count(), 172_820);
        assert_eq!(lexicon.dawg.longest(), 28);
        for word in lexicon.list.iter() {
            assert!(
                lexicon.dawg.contains(word),
                "{}",
                String::from_utf8_lossy(word)
            );
        }
        for absent in [&b"QI"[..], b"ZA", b"OK", b"AAHX", b"A", b""] {
            assert!(!lexicon.dawg.contains(absent));
            assert!(!lexicon.list.contains(absent));
        }
        assert!(lexicon.list.contains(b"ZYZZYVAS"));
    }

    #[test]
    fn the_dawg_holds_exactly_the_list() {
        // Count the DAWG's words by walking it: no extra words sneak in through merged states.
        fn count(dawg: &Dawg, node: Node) -> usize {
            let mut total = dawg.is_word(node) as usize;
            let mut letters = dawg.letters(node);
            while letters != 0 {
                let c = letters.trailing_zeros() as u8;
                letters &= letters - 1;
                total += count(dawg, dawg.child(node, c).unwrap());
            }
            total
        }
        let lexicon = Lexicon::enable();
        assert_eq!(count(&lexicon.dawg, ROOT), 172_820);
        assert!(lexicon.dawg.state_count() < 100_000);
    }

    fn brute_anagrams(list: &WordList, hand: &Tiles, through: Option<(u8, Place)>) -> Vec<Vec<u8>> {
        list.iter()
            .filter(|w| match through {
                None => hand.contains(&Tiles::of_word(w)),
                Some((letter, place)) => {
                    let b = b'A' + letter;
                    let positions: Vec<usize> = match place {
                        Place::First => vec![0],
                        Place::Last => vec![w.len() - 1],
                        Place::Anywhere => (0..w.len()).collect(),
                    };
                    positions.into_iter().any(|p| {
                        w[p] == b && {
                            let mut rest = w.to_vec();
                            rest.remove(p);
                            hand.contains(&Tiles::of_word(&rest))
                        }
                    })
                }
            })
            .map(|w| w.to_vec())
            .collect()
    }

    #[test]
    fn anagrams_match_a_scan_of_the_list() {
        let lexicon = Lexicon::enable();
        let hands = ["RETAINS", "QATZXJKV", "BANANAGRAMS", "EEIOUAST"];
        for hand in hands {
            let tiles = Tiles::parse(hand).unwrap();
            let mut got = lexicon.dawg.anagrams(&tiles, None);
            got.sort();
            assert_eq!(got, brute_anagrams(&lexicon.list, &tiles, None), "{hand}");
            for place in [Place::First, Place::Last, Place::Anywhere] {
                for letter in [b'S' - b'A', b'Q' - b'A', b'E' - b'A'] {
                    let mut got = lexicon.dawg.anagrams(&tiles, Some((letter, place)));
                    got.sort();
                    got.dedup();
                    let want = brute_anagrams(&lexicon.list, &tiles, Some((letter, place)));
                    assert_eq!(got, want, "{hand} {place:?} {}", (b'A' + letter) as char);
                }
            }
        }
    }

    #[test]
    fn custom_lists_compile_and_bad_lines_are_named() {
        let lexicon = Lexicon::from_list(b"cat\nDOG\n\n  Cats \r\ndog\nx\n").unwrap();
        assert_eq!(lexicon.list.len(), 3);
        assert!(lexicon.dawg.contains(b"CATS") && lexicon.list.contains(b"DOG"));
        assert!(!lexicon.dawg.contains(b"CA"));
        let error = Lexicon::from_list(b"cat\nd0g\n").err().unwrap();
        assert_eq!(error.line, 2);
        assert!(error.message.contains("'0'"), "{}", error.message);
        assert!(Lexicon::from_list(b"\n\na\n").is_err());
    }
}
