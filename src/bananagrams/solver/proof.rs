//! Proofs that no grid uses all of a hand: a letter in no word of the hand's letters, too few
//! vowels to share words with the rest, or a doubled rare letter whose words cannot pair up.

use super::hardness::{HARDNESS, VOWELS};
use crate::bananagrams::dict::{Dawg, Node, ROOT};
use crate::bananagrams::letters::{Tiles, LETTERS};

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

#[cfg(test)]
mod tests {
    use super::super::{solve, Verdict};
    use super::*;
    use crate::bananagrams::dict::Lexicon;
    use crate::bananagrams::validate::validate;
    use crate::core::budget::Budget;
    use crate::core::rng::Rng;
    use std::collections::HashSet;

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
}
