//! The six commands and their characters: a 256-entry decoding table (case-insensitive,
//! `\t \n \r` ignored, anything else invalid) and one-line errors naming the position.

use std::fmt;

/// A command. The discriminant is the index used by the engine's move tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Command {
    W = 0,
    E = 1,
    SW = 2,
    SE = 3,
    CW = 4,
    CCW = 5,
}

impl Command {
    pub const ALL: [Command; 6] = [
        Command::W,
        Command::E,
        Command::SW,
        Command::SE,
        Command::CW,
        Command::CCW,
    ];

    /// Every character that encodes this command (lower case; upper case works too).
    pub fn characters(self) -> &'static str {
        match self {
            Command::W => "p'!.03",
            Command::E => "bcefy2",
            Command::SW => "aghij4",
            Command::SE => "lmno 5",
            Command::CW => "dqrvz1",
            Command::CCW => "kstuwx",
        }
    }

    /// The character used when writing this command out.
    pub fn char(self) -> char {
        self.characters().as_bytes()[0] as char
    }

    /// The official evaluator's name (`command caused error: MoveRight`).
    pub fn evaluator_name(self) -> &'static str {
        match self {
            Command::W => "MoveLeft",
            Command::E => "MoveRight",
            Command::SW => "MoveDownLeft",
            Command::SE => "MoveDownRight",
            Command::CW => "RotClock",
            Command::CCW => "RotAnti",
        }
    }

    /// Short human name (`SW`, `CCW`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Command::W => "W",
            Command::E => "E",
            Command::SW => "SW",
            Command::SE => "SE",
            Command::CW => "CW",
            Command::CCW => "CCW",
        }
    }

    #[inline]
    pub fn from_index(index: u8) -> Command {
        Command::ALL[index as usize % 6]
    }

    /// SW and SE: the moves that leave the row and reset the position history.
    #[inline]
    pub fn descends(self) -> bool {
        matches!(self, Command::SW | Command::SE)
    }
}

/// Table entry for `\t`, `\n` and `\r`.
pub const IGNORED: u8 = 6;
/// Table entry for a byte that is not a command.
pub const INVALID: u8 = 7;

/// Byte -> command index (0..6), [`IGNORED`] or [`INVALID`].
pub static DECODE: [u8; 256] = build_decode();

const fn build_decode() -> [u8; 256] {
    let mut table = [INVALID; 256];
    table[b'\t' as usize] = IGNORED;
    table[b'\n' as usize] = IGNORED;
    table[b'\r' as usize] = IGNORED;
    let sets: [&[u8]; 6] = [
        b"p'!.03", b"bcefy2", b"aghij4", b"lmno 5", b"dqrvz1", b"kstuwx",
    ];
    let mut command = 0;
    while command < 6 {
        let set = sets[command];
        let mut i = 0;
        while i < set.len() {
            let c = set[i];
            table[c as usize] = command as u8;
            table[c.to_ascii_uppercase() as usize] = command as u8;
            i += 1;
        }
        command += 1;
    }
    table
}

/// What one character of a command string is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbol {
    Command(Command),
    Ignored,
    Invalid,
}

/// Decodes one character (non-ASCII characters are invalid).
#[inline]
pub fn decode_char(c: char) -> Symbol {
    if !c.is_ascii() {
        return Symbol::Invalid;
    }
    match DECODE[c as usize] {
        IGNORED => Symbol::Ignored,
        INVALID => Symbol::Invalid,
        i => Symbol::Command(Command::from_index(i)),
    }
}

/// A character that is not a command, at a 0-based character position of the raw string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError {
    pub position: usize,
    pub character: char,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "icfp2015 commands: position {}: character {:?} is not a command",
            self.position, self.character
        )
    }
}

impl std::error::Error for CommandError {}

/// The first character of `text` that is neither a command nor ignored, if any.
pub fn first_invalid(text: &str) -> Option<CommandError> {
    text.chars()
        .enumerate()
        .find(|&(_, c)| decode_char(c) == Symbol::Invalid)
        .map(|(position, character)| CommandError {
            position,
            character,
        })
}

/// The commands of `text` in order, skipping ignored characters; the first invalid one is an error.
pub fn decode(text: &str) -> Result<Vec<Command>, CommandError> {
    let mut commands = Vec::with_capacity(text.len());
    for (position, character) in text.chars().enumerate() {
        match decode_char(character) {
            Symbol::Command(c) => commands.push(c),
            Symbol::Ignored => {}
            Symbol::Invalid => {
                return Err(CommandError {
                    position,
                    character,
                })
            }
        }
    }
    Ok(commands)
}

/// `commands` written with one character each ([`Command::char`]).
pub fn encode(commands: &[Command]) -> String {
    commands.iter().map(|c| c.char()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_character_decodes_in_both_cases() {
        for command in Command::ALL {
            for c in command.characters().chars() {
                assert_eq!(decode_char(c), Symbol::Command(command));
                assert_eq!(
                    decode_char(c.to_ascii_uppercase()),
                    Symbol::Command(command)
                );
            }
        }
        let listed: usize = Command::ALL.iter().map(|c| c.characters().len()).sum();
        let letters_doubled = DECODE.iter().filter(|&&v| v < 6).count();
        // 36 characters, of which the 26 letters also have an upper case.
        assert_eq!(listed, 36);
        assert_eq!(letters_doubled, 36 + 26);
        for c in ['\t', '\n', '\r'] {
            assert_eq!(decode_char(c), Symbol::Ignored);
        }
        for c in ['#', '6', '\u{0}', 'é', '\u{b}'] {
            assert_eq!(decode_char(c), Symbol::Invalid);
        }
    }

    #[test]
    fn decode_names_the_position() {
        assert_eq!(
            decode("Ei!\n p").unwrap(),
            [Command::E, Command::SW, Command::W, Command::SE, Command::W]
        );
        let err = decode("pp\nbé#").unwrap_err();
        assert_eq!(
            err.to_string(),
            "icfp2015 commands: position 4: character 'é' is not a command"
        );
        assert_eq!(
            first_invalid("ab#"),
            Some(CommandError {
                position: 2,
                character: '#'
            })
        );
        assert_eq!(encode(&decode("PBAL DK").unwrap()), "pballdk");
    }
}
