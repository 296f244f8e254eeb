//! The words a route spells: each phrase, and its rest after its longest border, as commands;
//! which word can follow which without a repeated position, and the phrases that pay most per row.

use super::power::spells;
use crate::icfp2015::rules::commands::{decode, Command};
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::rules::unit::Pos;

/// Text that can be appended to spell a phrase: a phrase, or the rest of one after its
/// longest border (`" ia!"` continues `"ia! ia!"`).
#[derive(Clone, Debug)]
pub(super) struct Word {
    pub(super) bytes: Vec<u8>,
    pub(super) commands: Vec<Command>,
    /// How many of the commands are SW or SE.
    pub(super) descents: u32,
    /// The phrases (indices in the set, in its order) whose lower-case text is this word's
    /// whole text: several where the set repeats a phrase or has two differing only in case.
    pub(super) phrases: Vec<usize>,
}

impl Word {
    fn new(bytes: Vec<u8>, commands: Vec<Command>, lower: &[String]) -> Word {
        let descents = commands.iter().filter(|c| c.descends()).count() as u32;
        let phrases = (0..lower.len())
            .filter(|&p| lower[p].as_bytes() == bytes)
            .collect();
        Word {
            bytes,
            commands,
            descents,
            phrases,
        }
    }
}

/// `follows[a * words.len() + b]`: whether spelling word b right after word a repeats no
/// position, on a board without walls (`canonical` gives the unit's orientation classes).
pub(super) fn follow_table(words: &[Word], canonical: &dyn Fn(Pos) -> Pos) -> Vec<bool> {
    let mut table = Vec::with_capacity(words.len() * words.len());
    for a in words {
        for b in words {
            table.push(spells(a.commands.iter().chain(&b.commands), canonical));
        }
    }
    table
}

/// The words of `phrases`, in their order: for each phrase that is ASCII commands, the rest
/// after its longest border (if it has one), then the whole phrase.
pub(super) fn words_of(phrases: &PhraseSet) -> Vec<Word> {
    let lowers: Vec<String> = phrases.phrases().iter().map(|p| p.to_lowercase()).collect();
    let mut words = Vec::new();
    for lower in &lowers {
        let lower = lower.clone();
        let Ok(commands) = decode(&lower) else {
            continue;
        };
        if commands.is_empty() || !lower.is_ascii() {
            continue;
        }
        let bytes = lower.into_bytes();
        let border = (1..bytes.len())
            .rev()
            .find(|&k| bytes[..k] == bytes[bytes.len() - k..])
            .unwrap_or(0);
        if border > 0 {
            let rest = &bytes[border..];
            if let Ok(rest_commands) = decode(std::str::from_utf8(rest).unwrap_or("#")) {
                if !rest_commands.is_empty() {
                    words.push(Word::new(rest.to_vec(), rest_commands, &lowers));
                }
            }
        }
        words.push(Word::new(bytes, commands, &lowers));
    }
    words
}

/// The phrases worth spelling over and over: those whose points per row of descent (over the
/// phrase or its continuation after a border) are within 60 % of the best, at most six; and
/// the index of each in `phrases`. A phrase without descents counts as one row.
pub(super) fn spam_phrases(phrases: &PhraseSet, words: &[Word]) -> (PhraseSet, Vec<usize>) {
    let ratio = |index: usize| -> f64 {
        let lower = phrases.phrases()[index].to_lowercase().into_bytes();
        let points = 2.0 * phrases.phrase_len(index) as f64;
        words
            .iter()
            .filter(|w| lower.ends_with(&w.bytes))
            .map(|w| points / w.descents.max(1) as f64)
            .fold(0.0, f64::max)
    };
    let mut ranked: Vec<(f64, usize)> = (0..phrases.len()).map(|i| (ratio(i), i)).collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let top = ranked.first().map_or(0.0, |r| r.0);
    let chosen: Vec<usize> = ranked
        .iter()
        .filter(|r| r.0 > 0.0 && r.0 >= 0.6 * top)
        .take(6)
        .map(|r| r.1)
        .collect();
    let set = PhraseSet::new(
        chosen
            .iter()
            .map(|&i| phrases.phrases()[i].clone())
            .collect(),
    )
    .expect("a subset of valid phrases is valid");
    (set, chosen)
}
