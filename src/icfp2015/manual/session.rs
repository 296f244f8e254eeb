//! The game by hand without the terminal: the characters recorded as typed, the game after
//! them, undo, scores, and the contest's output JSON.

use crate::icfp2015::rules::commands::{decode_char, Symbol};
use crate::icfp2015::rules::game::{evaluate, Evaluation, Game, Outcome, Probe, Setup, Status};
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::rules::problem::Solution;
use std::path::Path;

/// The tag of the saved solution.
const TAG: &str = "manual";

/// A game by hand: the characters recorded so far and the game after them.
pub struct Session<'a> {
    pub(super) setup: &'a Setup,
    pub(super) seed: u32,
    pub(super) phrases: &'a PhraseSet,
    /// Every character recorded, as typed (ignored characters only from `--load`).
    pub(super) text: String,
    pub(super) game: Game<'a>,
    /// What the last key did, or why it was refused.
    pub(super) message: String,
    /// The text last saved, if any.
    pub(super) saved: Option<String>,
}

impl<'a> Session<'a> {
    /// A session starting from `loaded`, which must score without an error.
    pub fn new(
        setup: &'a Setup,
        seed: u32,
        phrases: &'a PhraseSet,
        loaded: &str,
    ) -> Result<Session<'a>, String> {
        let evaluation =
            evaluate(setup, seed as u64, loaded, phrases).map_err(|e| e.to_string())?;
        if let Some(error) = evaluation.error {
            return Err(format!(
                "the loaded solution ends in an error ({error}); manual play keeps legal commands only"
            ));
        }
        let mut session = Session {
            setup,
            seed,
            phrases,
            text: loaded.to_string(),
            game: Game::new(setup, seed),
            message: String::new(),
            saved: None,
        };
        session.replay();
        session.message = if loaded.is_empty() {
            "new game: type commands (the keys are listed on screen)".to_string()
        } else {
            format!("loaded {} commands", session.commands())
        };
        Ok(session)
    }

    /// The characters recorded so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn game(&self) -> &Game<'a> {
        &self.game
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// Commands recorded (ignored characters aside).
    pub fn commands(&self) -> usize {
        self.text
            .chars()
            .filter(|&c| matches!(decode_char(c), Symbol::Command(_)))
            .count()
    }

    /// The official evaluator's verdict on the text so far.
    pub fn evaluation(&self) -> Evaluation {
        evaluate(self.setup, self.seed as u64, &self.text, self.phrases)
            .expect("the session's seed was checked")
    }

    /// Whether commands were recorded or undone since the last save.
    pub fn is_unsaved(&self) -> bool {
        match &self.saved {
            Some(saved) => *saved != self.text,
            None => !self.text.is_empty(),
        }
    }

    fn replay(&mut self) {
        self.game = Game::new(self.setup, self.seed);
        for c in self.text.chars() {
            if let Symbol::Command(command) = decode_char(c) {
                self.game.step(command);
            }
        }
    }

    /// Records `c` if it is a command the game allows now; true if it was recorded.
    pub fn type_char(&mut self, c: char) -> bool {
        let command = match decode_char(c) {
            Symbol::Command(command) => command,
            Symbol::Ignored | Symbol::Invalid => {
                self.message = format!("{} is not a command character (see the keys)", shown(c));
                return false;
            }
        };
        match self.game.probe(command) {
            Probe::AfterEnd => {
                self.message = format!(
                    "refused {} ({}): the game is over; Ctrl-S saves, Backspace undoes",
                    shown(c),
                    command.name()
                );
                return false;
            }
            Probe::Repeats => {
                self.message = format!(
                    "refused {} ({}): it would repeat a position; not recorded",
                    shown(c),
                    command.name()
                );
                return false;
            }
            Probe::Moves(_) | Probe::Locks => {}
        }
        let before = self.phrases.count(&self.text);
        let outcome = self.game.step(command);
        self.text.push(c);
        let after = self.phrases.count(&self.text);
        let mut message = match outcome {
            Outcome::Locked { lines } => format!(
                "{} ({}) locked unit {}, {lines} rows cleared",
                shown(c),
                command.name(),
                self.game.locked()
            ),
            _ => format!("{} ({})", shown(c), command.name()),
        };
        for (i, (&was, &now)) in before.iter().zip(&after).enumerate() {
            if now > was {
                message.push_str(&format!(
                    "; spelled {:?} (x{now})",
                    self.phrases.phrases()[i]
                ));
            }
        }
        match self.game.status() {
            Status::OutOfUnits => message.push_str("; game over: every unit locked"),
            Status::NoSpawn => message.push_str("; game over: the next unit cannot spawn"),
            Status::Playing | Status::Repeated(_) => {}
        }
        self.message = message;
        true
    }

    /// Removes the last command recorded (and any ignored characters after it).
    pub fn undo(&mut self) -> bool {
        while let Some(c) = self.text.pop() {
            if let Symbol::Command(command) = decode_char(c) {
                self.replay();
                self.message = format!("undid {} ({})", shown(c), command.name());
                return true;
            }
        }
        self.replay();
        self.message = "nothing to undo".to_string();
        false
    }

    /// The output file's entry for the text so far.
    pub fn solution(&self) -> Solution {
        Solution {
            problem_id: self.setup.problem.id,
            seed: self.seed as u64,
            tag: Some(TAG.to_string()),
            solution: self.text.clone(),
        }
    }

    /// Writes the contest's output JSON (one entry) to `path`.
    pub fn save(&mut self, path: &Path) -> bool {
        let json = Solution::to_json(&[self.solution()]) + "\n";
        match std::fs::write(path, json) {
            Ok(()) => {
                self.saved = Some(self.text.clone());
                self.message = format!(
                    "saved {} commands, score {}, to {}",
                    self.commands(),
                    self.evaluation().score,
                    path.display()
                );
                true
            }
            Err(e) => {
                self.message = format!("cannot save to {}: {e}", path.display());
                false
            }
        }
    }
}

/// A character quoted for a message.
pub(super) fn shown(c: char) -> String {
    match c {
        ' ' => "space".to_string(),
        c if c.is_ascii_graphic() => format!("'{c}'"),
        c => format!("{:?}", c.escape_default().to_string()),
    }
}
