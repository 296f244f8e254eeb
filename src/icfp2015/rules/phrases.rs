//! Phrases of power: the set in play (the `-p` arguments, or the 18 known ones), counting overlapping,
//! case-insensitive occurrences on the raw string with an Aho-Corasick automaton, and the power score.

use std::fmt;

/// The 18 phrases of the qualifier, in the evaluator's index order.
pub const KNOWN_PHRASES: [&str; 18] = [
    "Ei!",
    "Ia! Ia!",
    "R'lyeh",
    "Yuggoth",
    "Tsathoggua",
    "YogSothoth",
    "Necronomicon",
    "vigintillion",
    "Cthulhu fhtagn!",
    "Ph'nglui mglw'nafh Cthulhu R'lyeh wgah'nagl fhtagn.",
    "In his house at R'lyeh dead Cthulhu waits dreaming.",
    "The Laundry",
    "Planet 10",
    "Yoyodyne",
    "monkeyboy",
    "John Bigboote",
    "BLUE HADES",
    "CASE NIGHTMARE GREEN",
];

/// A phrase argument that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhraseError(pub String);

impl fmt::Display for PhraseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "icfp2015 phrases: {}", self.0)
    }
}

impl std::error::Error for PhraseError {}

/// The phrases in play and an automaton that counts them.
#[derive(Clone, Debug)]
pub struct PhraseSet {
    phrases: Vec<String>,
    lower: Vec<Vec<u8>>,
    /// Byte -> symbol class; class 0 is every byte that occurs in no phrase.
    class_of: [u16; 256],
    classes: usize,
    /// `next[state * classes + class]`: the automaton's full transition table.
    next: Vec<u32>,
    /// Phrases ending at each state: `ends[end_start[s]..end_start[s + 1]]`.
    end_start: Vec<u32>,
    ends: Vec<u32>,
    /// Characters of the phrase prefix each state stands for.
    depth: Vec<u32>,
}

impl Default for PhraseSet {
    fn default() -> PhraseSet {
        PhraseSet::known()
    }
}

impl PhraseSet {
    /// The 18 known phrases.
    pub fn known() -> PhraseSet {
        PhraseSet::new(KNOWN_PHRASES.iter().map(|s| s.to_string()).collect())
            .expect("the known phrases are valid")
    }

    /// No phrases: the move score alone counts.
    pub fn none() -> PhraseSet {
        PhraseSet::build(Vec::new(), Vec::new())
    }

    /// The phrases of `-p` (`extra`), after the 18 known ones if `known` (`--known-phrases`).
    pub fn with(extra: &[String], known: bool) -> Result<PhraseSet, PhraseError> {
        let mut all: Vec<String> = if known {
            KNOWN_PHRASES.iter().map(|s| s.to_string()).collect()
        } else {
            Vec::new()
        };
        all.extend(extra.iter().cloned());
        PhraseSet::new(all)
    }

    /// A set of phrases; a phrase equal (ignoring case) to an earlier one is dropped.
    pub fn new(phrases: Vec<String>) -> Result<PhraseSet, PhraseError> {
        let mut kept: Vec<String> = Vec::new();
        let mut lower: Vec<Vec<u8>> = Vec::new();
        for phrase in phrases {
            if phrase.is_empty() {
                return Err(PhraseError("a phrase is empty".to_string()));
            }
            if phrase.chars().count() > 1000 {
                return Err(PhraseError(format!(
                    "phrase {:?}... is longer than 1000 characters",
                    phrase.chars().take(20).collect::<String>()
                )));
            }
            let low = phrase.to_lowercase().into_bytes();
            if !lower.contains(&low) {
                kept.push(phrase);
                lower.push(low);
            }
        }
        let total: usize = lower.iter().map(Vec::len).sum();
        if total > 20_000 {
            return Err(PhraseError(format!(
                "the phrases hold {total} bytes; at most 20000 are supported"
            )));
        }
        Ok(PhraseSet::build(kept, lower))
    }

    /// What the set is, for the line a run prints: none, the 18 known, or how many and which.
    pub fn describe(&self) -> String {
        let known = KNOWN_PHRASES.len();
        let is_known =
            self.len() == known && self.phrases.iter().zip(KNOWN_PHRASES).all(|(a, b)| a == b);
        match self.len() {
            0 => "no phrases of power (move score only)".to_string(),
            _ if is_known => format!("the {known} known phrases of power"),
            n => {
                let shown: Vec<String> = self
                    .phrases
                    .iter()
                    .take(6)
                    .map(|p| format!("{p:?}"))
                    .collect();
                let more = if n > 6 { ", ..." } else { "" };
                format!("{n} phrases of power: {}{more}", shown.join(", "))
            }
        }
    }

    fn build(phrases: Vec<String>, lower: Vec<Vec<u8>>) -> PhraseSet {
        let mut class_of = [0u16; 256];
        let mut classes = 1usize;
        for &b in lower.iter().flatten() {
            if class_of[b as usize] == 0 {
                class_of[b as usize] = classes as u16;
                classes += 1;
            }
        }
        // The trie, with sparse children while building.
        let mut children: Vec<Vec<(u16, u32)>> = vec![Vec::new()];
        let mut terminal: Vec<Vec<u32>> = vec![Vec::new()];
        let mut depth = vec![0u32];
        for (index, word) in lower.iter().enumerate() {
            let mut state = 0u32;
            for &b in word {
                let class = class_of[b as usize];
                state = match children[state as usize].iter().find(|&&(c, _)| c == class) {
                    Some(&(_, s)) => s,
                    None => {
                        let s = children.len() as u32;
                        children.push(Vec::new());
                        terminal.push(Vec::new());
                        depth.push(depth[state as usize] + 1);
                        children[state as usize].push((class, s));
                        s
                    }
                };
            }
            terminal[state as usize].push(index as u32);
        }
        let states = children.len();
        let mut next = vec![0u32; states * classes];
        let mut fail = vec![0u32; states];
        let mut order = Vec::with_capacity(states);
        for &(class, child) in &children[0] {
            next[class as usize] = child;
            order.push(child);
        }
        let mut head = 0;
        while head < order.len() {
            let state = order[head] as usize;
            head += 1;
            let f = fail[state] as usize;
            for class in 0..classes {
                let child = children[state].iter().find(|&&(c, _)| c as usize == class);
                match child {
                    Some(&(_, child)) => {
                        fail[child as usize] = next[f * classes + class];
                        next[state * classes + class] = child;
                        order.push(child);
                    }
                    None => next[state * classes + class] = next[f * classes + class],
                }
            }
            let inherited = terminal[fail[state] as usize].clone();
            terminal[state].extend(inherited);
        }
        let mut end_start = Vec::with_capacity(states + 1);
        let mut ends = Vec::new();
        for t in &terminal {
            end_start.push(ends.len() as u32);
            ends.extend_from_slice(t);
        }
        end_start.push(ends.len() as u32);
        PhraseSet {
            phrases,
            lower,
            class_of,
            classes,
            next,
            end_start,
            ends,
            depth,
        }
    }

    pub fn len(&self) -> usize {
        self.phrases.len()
    }

    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }

    pub fn phrases(&self) -> &[String] {
        &self.phrases
    }

    /// Length of phrase `index` in characters (the `len(p)` of the power score).
    pub fn phrase_len(&self, index: usize) -> usize {
        self.phrases[index].chars().count()
    }

    /// Automaton start state.
    pub const START: u32 = 0;

    /// Bytes this set holds on the heap: its phrases and automaton.
    pub fn heap_bytes(&self) -> usize {
        let text: usize = self
            .phrases
            .iter()
            .map(|p| size_of::<String>() + p.len())
            .sum();
        let lower: usize = self
            .lower
            .iter()
            .map(|p| size_of::<Vec<u8>>() + p.len())
            .sum();
        let automaton = self.next.len() + self.end_start.len() + self.ends.len() + self.depth.len();
        text + lower + automaton * size_of::<u32>()
    }

    /// Number of automaton states (states are `0..states()`).
    pub fn states(&self) -> usize {
        self.depth.len()
    }

    /// The state after reading byte `byte` (already lower-case) in state `state`.
    #[inline]
    pub fn advance(&self, state: u32, byte: u8) -> u32 {
        self.next[state as usize * self.classes + self.class_of[byte as usize] as usize]
    }

    /// How many characters of a phrase the text read so far ends with, in `state`.
    #[inline]
    pub fn depth(&self, state: u32) -> u32 {
        self.depth[state as usize]
    }

    /// Indices of the phrases that end at `state`.
    #[inline]
    pub fn ends_at(&self, state: u32) -> &[u32] {
        let s = state as usize;
        &self.ends[self.end_start[s] as usize..self.end_start[s + 1] as usize]
    }

    /// The repeat points (2 x length per occurrence) of the phrases that end at `state`.
    pub fn repeat_points_at(&self, state: u32) -> u32 {
        self.ends_at(state)
            .iter()
            .map(|&p| 2 * self.phrase_len(p as usize) as u32)
            .sum()
    }

    /// Occurrences of every phrase in `text`, lower-cased, overlapping ones included.
    pub fn count(&self, text: &str) -> Vec<u64> {
        let mut counts = vec![0u64; self.phrases.len()];
        let mut state = Self::START;
        let lowered;
        let bytes = if text.is_ascii() {
            text.as_bytes()
        } else {
            lowered = text.to_lowercase();
            lowered.as_bytes()
        };
        for &b in bytes {
            state = self.advance(state, b.to_ascii_lowercase());
            for &p in self.ends_at(state) {
                counts[p as usize] += 1;
            }
        }
        counts
    }

    /// `sum over p of 2 len(p) reps(p) + (reps(p) > 0 ? 300 : 0)`.
    pub fn power_score(&self, counts: &[u64]) -> u64 {
        counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(i, &n)| 2 * self.phrase_len(i) as u64 * n + 300)
            .sum()
    }

    /// The indices of the phrases used at least once, in the official evaluator's order
    /// (sorted by the lower-cased phrase text).
    pub fn used_in_evaluator_order(&self, counts: &[u64]) -> Vec<usize> {
        let mut used: Vec<usize> = (0..self.len()).filter(|&i| counts[i] > 0).collect();
        used.sort_by(|&a, &b| self.lower[a].cmp(&self.lower[b]));
        used
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive count: every start position, every phrase.
    fn naive(phrases: &[&str], text: &str) -> Vec<u64> {
        let hay = text.to_lowercase();
        phrases
            .iter()
            .map(|p| {
                let needle = p.to_lowercase();
                (0..hay.len())
                    .filter(|&i| hay[i..].starts_with(&needle))
                    .count() as u64
            })
            .collect()
    }

    #[test]
    fn counts_overlapping_and_case_insensitive() {
        let set = PhraseSet::known();
        let text = "Cthulhu fhtagn!cthulhu FHTAGN!ei!Ei!ia! ia! ia!r'lyeh\nr'ly\neh";
        let counts = set.count(text);
        assert_eq!(counts, naive(&KNOWN_PHRASES, text));
        assert_eq!(counts[0], 2);
        assert_eq!(counts[1], 2);
        assert_eq!(counts[2], 1);
        assert_eq!(counts[8], 2);
        let custom = PhraseSet::new(vec!["cthulhu cthulhu".into()]).unwrap();
        assert_eq!(custom.count("cthulhu cthulhu cthulhu"), [2]);
    }

    #[test]
    fn matches_the_naive_count_on_random_text() {
        let mut rng = crate::core::rng::Rng::new(11);
        let words = ["aa", "aab", "ab", "b", "baab", "abab", "bbb"];
        let set = PhraseSet::new(words.iter().map(|s| s.to_string()).collect()).unwrap();
        for _ in 0..300 {
            let len = rng.range(0..40);
            let text: String = (0..len)
                .map(|_| ['a', 'b', 'A', 'B', 'c', '\n'][rng.range(0..6)])
                .collect();
            assert_eq!(set.count(&text), naive(&words, &text), "{text:?}");
        }
    }

    #[test]
    fn power_score_and_evaluator_order() {
        let set = PhraseSet::known();
        let counts = set.count("ei!ei!planet 10yuggoth");
        assert_eq!(
            set.power_score(&counts),
            (2 * 3 * 2 + 300) + (18 + 300) + (14 + 300)
        );
        assert_eq!(set.used_in_evaluator_order(&counts), [0, 12, 3]);
    }

    #[test]
    fn replacing_adding_and_rejecting() {
        let extra = vec!["pkkpdbbd".to_string(), "EI!".to_string()];
        let added = PhraseSet::with(&extra, true).unwrap();
        assert_eq!(added.len(), 19);
        assert_eq!(added.phrases()[18], "pkkpdbbd");
        let replaced = PhraseSet::with(&extra, false).unwrap();
        assert_eq!(replaced.phrases(), ["pkkpdbbd", "EI!"]);
        assert_eq!(
            PhraseSet::with(&[String::new()], false)
                .unwrap_err()
                .to_string(),
            "icfp2015 phrases: a phrase is empty"
        );
    }
}
