//! Random phrase sets of the kinds the finals judged with: runs of plain moves, phrases that can
//! never be spelled (a move then its reverse, a turn then its reverse), long ones, and a mix.

use crate::core::rng::Rng;
use crate::icfp2015::rules::commands::Command;

/// A kind of phrase set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Runs of plain moves (W, E, SW, SE), never a move then its reverse: 3 to 12 commands.
    Moves,
    /// A move or turn followed at once by its reverse somewhere inside: never spelled in one
    /// unit's life.
    Unspellable,
    /// 20 to 51 characters of random commands (turns too): some spellable, most not.
    Long,
    /// Two of each of the kinds above.
    Mixed,
}

/// A letter of a command drawn from `Command::ALL[classes]`.
fn any_letter(rng: &mut Rng, classes: std::ops::Range<usize>) -> char {
    let command = Command::ALL[rng.range(classes)];
    letter(rng, command)
}

fn letter(rng: &mut Rng, command: Command) -> char {
    let chars = command.characters().as_bytes();
    chars[rng.range(0..chars.len())] as char
}

/// Plain moves, 3 to 12 of them: a west or east run, then descents, the run's way kept.
fn moves_phrase(rng: &mut Rng) -> String {
    let len = 3 + rng.range(0..10);
    let side = if rng.chance(0.5) {
        Command::W
    } else {
        Command::E
    };
    (0..len)
        .map(|_| {
            let c = match rng.range(0..3) {
                0 => side,
                1 => Command::SW,
                _ => Command::SE,
            };
            letter(rng, c)
        })
        .collect()
}

fn reverse(c: Command) -> Command {
    match c {
        Command::W => Command::E,
        Command::E => Command::W,
        Command::CW => Command::CCW,
        Command::CCW => Command::CW,
        other => other,
    }
}

/// A command and its reverse, between random descents and sideways moves.
fn unspellable_phrase(rng: &mut Rng) -> String {
    let core = [Command::W, Command::E, Command::CW, Command::CCW][rng.range(0..4)];
    let mut text: String = (0..rng.range(0..4))
        .map(|_| any_letter(rng, 0..4))
        .collect();
    text.push(letter(rng, core));
    text.push(letter(rng, reverse(core)));
    for _ in 0..rng.range(0..4) {
        text.push(any_letter(rng, 2..4));
    }
    text
}

fn long_phrase(rng: &mut Rng) -> String {
    let len = 20 + rng.range(0..32);
    (0..len).map(|_| any_letter(rng, 0..6)).collect()
}

/// A set of `count` phrases of `kind` from `seed` (distinct ignoring case).
pub fn phrase_set(kind: Kind, count: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed ^ 0x9A2A_5E75);
    let mut out: Vec<String> = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < 100 * count + 100 {
        tries += 1;
        let phrase = match kind {
            Kind::Moves => moves_phrase(&mut rng),
            Kind::Unspellable => unspellable_phrase(&mut rng),
            Kind::Long => long_phrase(&mut rng),
            Kind::Mixed => match out.len() % 3 {
                0 => moves_phrase(&mut rng),
                1 => unspellable_phrase(&mut rng),
                _ => long_phrase(&mut rng),
            },
        };
        let phrase = if rng.chance(0.3) {
            phrase.to_uppercase()
        } else {
            phrase
        };
        if !out.iter().any(|p| p.eq_ignore_ascii_case(&phrase)) {
            out.push(phrase);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::rules::commands::decode;

    #[test]
    fn sets_are_commands_deterministic_and_of_their_kind() {
        for kind in [Kind::Moves, Kind::Unspellable, Kind::Long, Kind::Mixed] {
            let set = phrase_set(kind, 6, 3);
            assert_eq!(set, phrase_set(kind, 6, 3));
            assert_eq!(set.len(), 6);
            for p in &set {
                let commands = decode(p).expect("command characters only");
                assert!(!commands.is_empty() && p.chars().count() <= 51, "{p:?}");
                if kind == Kind::Moves {
                    assert!(commands.len() <= 12 && commands.iter().all(|c| (*c as u8) < 4));
                }
            }
        }
    }
}
