//! The Bananagrams dictionary compiler: a word list in, a minimal DAWG out, as flat `u32` words.
//! Pure (no I/O): `build.rs` runs it on ENABLE, and `--dict FILE` runs the same code at run time.
//
// Layout of the image (native-endian u32 words):
//   [MAGIC, states, edges, words, longest]
//   states x [letters | TERMINAL, first edge]   letters: bit c set if the state has a c-edge
//   edges  x child state                        a state's edges in letter order
// The child of state s by letter c is edges[first(s) + popcount(letters(s) & ((1 << c) - 1))].
// State 0 is the root. ENABLE gives 54,5xx states; see `podium bananagrams dict --stats`.
//
// Construction is Daciuk et al.'s incremental algorithm for sorted input: after each word, the
// states of the previous word beyond the common prefix are final and are merged with an equal
// registered state (same terminal flag, same edges) or registered themselves.

use std::collections::HashMap;

pub const MAGIC: u32 = 0x4447_4231; // "1BGD"
pub const TERMINAL: u32 = 1 << 31;
pub const HEADER_WORDS: usize = 5;
/// Longest word accepted: a word longer than any grid line could ever hold is a bad list entry.
pub const MAX_WORD: usize = 64;

/// Why a word list was refused: the 1-based line (0: the list as a whole) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListError {
    pub line: usize,
    pub message: String,
}

/// Registered states by (terminal, edges): equal keys mean equal right languages.
type Register = HashMap<(bool, Vec<(u8, u32)>), u32>;

struct State {
    terminal: bool,
    edges: Vec<(u8, u32)>,
}

/// Parses a word list (one word per line, letters A-Z in any case, blank lines skipped) into
/// sorted, deduplicated upper-case words of 2+ letters (one-letter words cannot be played).
pub fn parse_list(text: &[u8]) -> Result<Vec<Vec<u8>>, ListError> {
    let mut words = Vec::new();
    for (index, raw) in text.split(|&b| b == b'\n').enumerate() {
        let line = index + 1;
        let word = raw.strip_suffix(b"\r").unwrap_or(raw);
        let word: &[u8] = trim(word);
        if word.is_empty() {
            continue;
        }
        if let Some(at) = word.iter().position(|b| !b.is_ascii_alphabetic()) {
            // The character as written (UTF-8, not one byte read as Latin-1), and at most
            // `SHOWN` characters of the word, so a hostile line never becomes a huge message.
            const SHOWN: usize = 24;
            let bad = String::from_utf8_lossy(&word[at..])
                .chars()
                .next()
                .unwrap_or('?');
            let text = String::from_utf8_lossy(word);
            let mut shown: String = text.chars().take(SHOWN).collect();
            if text.chars().nth(SHOWN).is_some() {
                shown.push_str("...");
            }
            return Err(ListError {
                line,
                message: format!(
                    "word {shown:?} has the character {bad:?}; only letters A-Z are allowed"
                ),
            });
        }
        if word.len() > MAX_WORD {
            return Err(ListError {
                line,
                message: format!("word of {} letters; at most {MAX_WORD}", word.len()),
            });
        }
        if word.len() >= 2 {
            words.push(word.to_ascii_uppercase());
        }
    }
    if words.is_empty() {
        return Err(ListError {
            line: 0,
            message: "no words of two or more letters".into(),
        });
    }
    words.sort_unstable();
    words.dedup();
    Ok(words)
}

fn trim(mut word: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = word {
        word = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = word {
        word = rest;
    }
    word
}

/// The minimal DAWG image of `words`, which must be sorted, deduplicated and upper case.
pub fn compile(words: &[Vec<u8>]) -> Vec<u32> {
    let mut states = vec![State {
        terminal: false,
        edges: Vec::new(),
    }];
    let mut register = Register::new();
    // (parent, child) along the previous word, not yet minimised.
    let mut unchecked: Vec<(u32, u32)> = Vec::new();
    let mut previous: &[u8] = &[];
    let mut longest = 0;
    for word in words {
        assert!(
            previous < word.as_slice(),
            "compile: words must be sorted and unique"
        );
        longest = longest.max(word.len());
        let common = previous
            .iter()
            .zip(word)
            .take_while(|(a, b)| a == b)
            .count();
        minimise(&mut states, &mut register, &mut unchecked, common);
        let mut node = unchecked.last().map_or(0, |&(_, child)| child);
        for &letter in &word[common..] {
            let child = states.len() as u32;
            states.push(State {
                terminal: false,
                edges: Vec::new(),
            });
            states[node as usize].edges.push((letter - b'A', child));
            unchecked.push((node, child));
            node = child;
        }
        states[node as usize].terminal = true;
        previous = word;
    }
    minimise(&mut states, &mut register, &mut unchecked, 0);
    flatten(&states, words.len(), longest)
}

fn minimise(
    states: &mut [State],
    register: &mut Register,
    unchecked: &mut Vec<(u32, u32)>,
    keep: usize,
) {
    while unchecked.len() > keep {
        let (parent, child) = unchecked.pop().expect("len > keep");
        let key = (
            states[child as usize].terminal,
            states[child as usize].edges.clone(),
        );
        match register.get(&key) {
            Some(&same) => {
                let edge = states[parent as usize]
                    .edges
                    .last_mut()
                    .expect("the child hangs off the parent's last edge");
                edge.1 = same;
            }
            None => {
                register.insert(key, child);
            }
        }
    }
}

/// Renumbers the states reachable from the root in breadth-first order and writes the image.
fn flatten(states: &[State], words: usize, longest: usize) -> Vec<u32> {
    let mut number = vec![u32::MAX; states.len()];
    let mut order = vec![0u32];
    number[0] = 0;
    let mut head = 0;
    while head < order.len() {
        let state = order[head] as usize;
        head += 1;
        for &(_, child) in &states[state].edges {
            if number[child as usize] == u32::MAX {
                number[child as usize] = order.len() as u32;
                order.push(child);
            }
        }
    }
    let edge_count: usize = order.iter().map(|&s| states[s as usize].edges.len()).sum();
    let mut image = vec![
        MAGIC,
        order.len() as u32,
        edge_count as u32,
        words as u32,
        longest as u32,
    ];
    let mut edges = Vec::with_capacity(edge_count);
    for &s in &order {
        let state = &states[s as usize];
        let letters = state.edges.iter().fold(0u32, |m, &(c, _)| m | 1 << c);
        let terminal = if state.terminal { TERMINAL } else { 0 };
        image.push(letters | terminal);
        image.push(edges.len() as u32);
        edges.extend(state.edges.iter().map(|&(_, child)| number[child as usize]));
    }
    image.extend(edges);
    image
}

/// The words joined (no separators) and the offset of each word, plus the end: word i is
/// `text[offsets[i]..offsets[i + 1]]`; the validator's binary-searchable form.
pub fn word_list(words: &[Vec<u8>]) -> (Vec<u8>, Vec<u32>) {
    let mut text = Vec::new();
    let mut offsets = Vec::with_capacity(words.len() + 1);
    for word in words {
        offsets.push(text.len() as u32);
        text.extend_from_slice(word);
    }
    offsets.push(text.len() as u32);
    (text, offsets)
}

/// The image as native-endian bytes, as `build.rs` writes it for `include_bytes!`.
pub fn to_bytes(image: &[u32]) -> Vec<u8> {
    image.iter().flat_map(|w| w.to_ne_bytes()).collect()
}
