//! The viewer: replays a command string command by command and draws any step, in the
//! terminal (ANSI colours or plain text) or as an SVG with one hexagon per cell.

use super::rules::commands::Command;
use super::rules::game::{EvalError, Game, Outcome, Setup, Status};
use super::rules::hex::Cell;
use super::rules::phrases::PhraseSet;
use std::fmt::Write;

/// A replay in progress: the game after the first `applied` commands of a solution.
pub struct Replay<'a> {
    game: Game<'a>,
    seed: u32,
    text: &'a str,
    /// Each command with the byte offset just past its character in `text`.
    commands: Vec<(Command, usize)>,
    applied: usize,
    error: Option<EvalError>,
    phrases: &'a PhraseSet,
}

impl<'a> Replay<'a> {
    /// A replay of `text`, whose characters must all be commands or ignored ones.
    pub fn new(
        setup: &'a Setup,
        seed: u32,
        text: &'a str,
        phrases: &'a PhraseSet,
    ) -> Result<Replay<'a>, super::rules::commands::CommandError> {
        if let Some(e) = super::rules::commands::first_invalid(text) {
            return Err(e);
        }
        let commands = text
            .char_indices()
            .filter_map(|(i, c)| match super::rules::commands::decode_char(c) {
                super::rules::commands::Symbol::Command(cmd) => Some((cmd, i + c.len_utf8())),
                _ => None,
            })
            .collect();
        Ok(Replay {
            game: Game::new(setup, seed),
            seed,
            text,
            commands,
            applied: 0,
            error: None,
            phrases,
        })
    }

    /// Number of commands in the solution.
    pub fn len(&self) -> usize {
        self.commands.len()
    }

    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// Commands applied so far (the step shown).
    pub fn step(&self) -> usize {
        self.applied
    }

    pub fn game(&self) -> &Game<'a> {
        &self.game
    }

    /// The error the replay stopped on, if any.
    pub fn error(&self) -> Option<&EvalError> {
        self.error.as_ref()
    }

    /// Applies the next command; false when there is none or the replay stopped on an error.
    pub fn advance(&mut self) -> bool {
        self.next_outcome().is_some()
    }

    /// Applies the next command and says what it did; `None` when there is none or the replay
    /// stopped on an error.
    fn next_outcome(&mut self) -> Option<Outcome> {
        if self.error.is_some() || self.applied == self.commands.len() {
            return None;
        }
        let (command, _) = self.commands[self.applied];
        self.applied += 1;
        let outcome = self.game.step(command);
        if outcome == Outcome::AfterEnd {
            self.error = Some(EvalError::CommandAfterEnd);
        } else if let Status::Repeated(c) = self.game.status() {
            self.error = Some(EvalError::CommandCausedError(c));
        }
        Some(outcome)
    }

    /// Replays the rest of the solution and describes each lock: where the time of a route
    /// went (how far the pivot fell, what it spelled) and what the board became.
    pub fn locks(&mut self) -> Vec<LockRow> {
        let mut rows = Vec::new();
        let mut state = PhraseSet::START;
        let mut used = vec![false; self.phrases.len()];
        // Text read into the phrase automaton so far, and the current unit's tallies.
        let mut read = self.applied_end();
        let (mut commands, mut power) = (0usize, 0u64);
        let mut spawn_y = self.game.pos().y;
        while !self.game.is_over() {
            let unit = self.game.unit_index();
            let pivot = self.game.pos();
            let Some(outcome) = self.next_outcome() else {
                break;
            };
            commands += 1;
            let end = self.applied_end();
            for &b in &self.text.as_bytes()[read..end] {
                state = self.phrases.advance(state, b.to_ascii_lowercase());
                for &p in self.phrases.ends_at(state) {
                    power += 2 * self.phrases.phrase_len(p as usize) as u64;
                    if !std::mem::replace(&mut used[p as usize], true) {
                        power += 300;
                    }
                }
            }
            read = end;
            if let Outcome::Locked { lines } = outcome {
                let board = self.game.board();
                let top = board.rows().iter().position(|&r| r != 0);
                rows.push(LockRow {
                    unit,
                    size: self.game.setup().units[unit].size,
                    pivot: Cell::new(pivot.x, pivot.y),
                    fell: pivot.y - spawn_y,
                    commands,
                    power,
                    lines,
                    stack: top.map_or(0, |t| board.height() - t),
                    filled: board.count(),
                });
                (commands, power) = (0, 0);
                spawn_y = self.game.pos().y;
            }
        }
        rows
    }

    /// Advances until `step` commands are applied or the replay stops.
    pub fn advance_to(&mut self, step: usize) {
        while self.applied < step && self.advance() {}
    }

    /// Byte offset in the text just past the last applied command.
    fn applied_end(&self) -> usize {
        match self.applied {
            0 => 0,
            n => self.commands[n - 1].1,
        }
    }

    /// Power score of the raw text up to the last applied command.
    fn power_so_far(&self) -> u64 {
        self.phrases
            .power_score(&self.phrases.count(&self.text[..self.applied_end()]))
    }

    fn status_text(&self) -> String {
        if let Some(e) = &self.error {
            return format!("error: {e}");
        }
        match self.game.status() {
            Status::Playing => "playing".to_string(),
            Status::OutOfUnits => "over: every unit locked".to_string(),
            Status::NoSpawn => "over: the next unit cannot spawn".to_string(),
            Status::Repeated(c) => format!("error: {} repeated a position", c.name()),
        }
    }

    /// Two header lines: where the replay is and the score so far.
    pub fn header(&self) -> [String; 2] {
        let g = &self.game;
        let last = match self.applied {
            0 => "none".to_string(),
            n => {
                let (c, end) = self.commands[n - 1];
                let ch = self.text[..end].chars().next_back().unwrap_or(' ');
                format!("{} {ch:?}", c.name())
            }
        };
        let units = g.order().len();
        let progress = if g.is_over() {
            format!("{}/{units} units locked", g.locked())
        } else {
            format!("unit {}/{units}", g.locked() + 1)
        };
        let (moves, power) = if self.error.is_some() {
            (0, 0)
        } else {
            (g.move_score(), self.power_so_far())
        };
        [
            format!(
                "problem {} seed {} | step {}/{} | {progress} | last {last} | {}",
                g.setup().problem.id,
                self.seed,
                self.applied,
                self.commands.len(),
                self.status_text()
            ),
            format!(
                "score {} = moves {moves} + power {power} | lines at the last lock {}",
                moves + power,
                g.prev_lines()
            ),
        ]
    }

    /// The board as text: two characters per cell, odd rows indented by one.
    pub fn ansi(&self, color: bool) -> String {
        let g = &self.game;
        let board = g.board();
        let cells = g.unit_cells();
        let pivot = (!g.is_over()).then(|| Cell::new(g.pos().x, g.pos().y));
        let mut out = String::new();
        for line in self.header() {
            out.push_str(&line);
            out.push('\n');
        }
        if let Some(p) = pivot.filter(|&p| !board.is_on_board(p)) {
            let _ = writeln!(out, "pivot ({}, {}) is off the board", p.x, p.y);
        }
        for y in 0..board.height() as i32 {
            if y & 1 == 1 {
                out.push(' ');
            }
            for x in 0..board.width() as i32 {
                let cell = Cell::new(x, y);
                let member = cells.contains(&cell);
                let is_pivot = pivot == Some(cell);
                let (plain, fancy) = match (member, is_pivot, board.get(cell)) {
                    (true, true, _) => ('@', "\x1b[1;91m\u{25c9}\x1b[0m"),
                    (true, false, _) => ('o', "\x1b[1;93m\u{2b22}\x1b[0m"),
                    (false, true, _) => ('+', "\x1b[1;91m+\x1b[0m"),
                    (false, false, true) => ('#', "\x1b[34m\u{2b22}\x1b[0m"),
                    (false, false, false) => ('.', "\x1b[2m\u{00b7}\x1b[0m"),
                };
                if color {
                    out.push_str(fancy);
                } else {
                    out.push(plain);
                }
                out.push(' ');
            }
            while out.ends_with(' ') {
                out.pop();
            }
            out.push('\n');
        }
        out
    }

    /// The board as an SVG document: pointy-top hexagons, filled cells, the unit and its pivot.
    pub fn svg(&self) -> String {
        const R: f64 = 12.0;
        const PAD: f64 = 10.0;
        const TOP: f64 = 44.0;
        let w = 3f64.sqrt() * R;
        let g = &self.game;
        let board = g.board();
        let cells = g.unit_cells();
        let centre = |c: Cell| {
            (
                PAD + w / 2.0 + c.x as f64 * w + (c.y & 1) as f64 * w / 2.0,
                TOP + PAD + R + c.y as f64 * 1.5 * R,
            )
        };
        let width = (2.0 * PAD + (board.width() as f64 + 0.5) * w).max(480.0);
        let height = TOP + 2.0 * PAD + 2.0 * R + (board.height() as f64 - 1.0).max(0.0) * 1.5 * R;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
             viewBox=\"0 0 {width:.1} {height:.1}\">"
        );
        let [first, second] = self.header();
        let _ = writeln!(out, "<title>{}</title>", escape(&first));
        let _ = writeln!(
            out,
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>"
        );
        let _ = writeln!(
            out,
            "<text x=\"{PAD}\" y=\"18\" font-family=\"monospace\" font-size=\"12\">{}</text>",
            escape(&first)
        );
        let _ = writeln!(
            out,
            "<text x=\"{PAD}\" y=\"36\" font-family=\"monospace\" font-size=\"12\">{}</text>",
            escape(&second)
        );
        let _ = writeln!(out, "<g stroke=\"#9a9a9a\" stroke-width=\"1\">");
        for y in 0..board.height() as i32 {
            for x in 0..board.width() as i32 {
                let cell = Cell::new(x, y);
                let fill = if cells.contains(&cell) {
                    "#f2a93b"
                } else if board.get(cell) {
                    "#3b5b92"
                } else {
                    "#f4f4f4"
                };
                let (cx, cy) = centre(cell);
                let mut points = String::new();
                for k in 0..6 {
                    let angle = (60.0 * k as f64 - 30.0).to_radians();
                    let _ = write!(
                        points,
                        "{}{:.1},{:.1}",
                        if k == 0 { "" } else { " " },
                        cx + R * angle.cos(),
                        cy + R * angle.sin()
                    );
                }
                let _ = writeln!(out, "<polygon points=\"{points}\" fill=\"{fill}\"/>");
            }
        }
        let _ = writeln!(out, "</g>");
        if !g.is_over() {
            let (cx, cy) = centre(Cell::new(g.pos().x, g.pos().y));
            let _ = writeln!(
                out,
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"#c0392b\"/>",
                R / 3.0
            );
        }
        out.push_str("</svg>\n");
        out
    }
}

/// One lock of a replay (`Replay::locks`).
#[derive(Clone, Debug, PartialEq)]
pub struct LockRow {
    /// The unit's index into the problem's units, and its cells.
    pub unit: usize,
    pub size: u32,
    /// Where the pivot was when the unit locked.
    pub pivot: Cell,
    /// Rows the pivot fell from its spawn.
    pub fell: i32,
    /// Commands from the spawn to the lock, the locking one included.
    pub commands: usize,
    /// Power points of the phrases that end within those commands' characters (each phrase's
    /// +300 at its first occurrence).
    pub power: u64,
    /// Rows the lock cleared.
    pub lines: u32,
    /// Rows from the highest filled cell to the floor, and filled cells, after the lock.
    pub stack: usize,
    pub filled: usize,
}

/// `text` with the XML special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::rules::problem::Problem;

    const BAR: &str = r#"{"id":1,"width":5,"height":3,"sourceLength":2,"sourceSeeds":[0],
        "filled":[{"x":0,"y":2}],"units":[{"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":2,"y":0}],
        "pivot":{"x":1,"y":0}}]}"#;

    #[test]
    fn plain_text_board() {
        let setup = Setup::new(Problem::parse(BAR.as_bytes(), "t").unwrap());
        let phrases = PhraseSet::known();
        let mut replay = Replay::new(&setup, 0, "Ei!", &phrases).unwrap();
        assert_eq!(replay.len(), 3);
        let start = replay.ansi(false);
        assert!(
            start.ends_with(". o @ o .\n . . . . .\n# . . . .\n"),
            "{start}"
        );
        replay.advance_to(3);
        let text = replay.ansi(false);
        assert!(text.contains("step 3/3"), "{text}");
        assert!(text.contains("score 306 = moves 0 + power 306"), "{text}");
        assert!(replay.ansi(true).contains("\x1b["));
        assert!(!replay.advance());
    }

    #[test]
    fn each_lock_has_its_fall_route_and_board() {
        // The bar falls two rows down the east side and locks against the floor; the second
        // spells "Ei!" (+300 and 6), falls one row and locks on the pre-filled cell.
        let setup = Setup::new(Problem::parse(BAR.as_bytes(), "t").unwrap());
        let phrases = PhraseSet::known();
        let mut replay = Replay::new(&setup, 0, "lllEi!a", &phrases).unwrap();
        let lock = |pivot: (i32, i32), fell, commands, power, stack, filled| LockRow {
            unit: 0,
            size: 3,
            pivot: Cell::new(pivot.0, pivot.1),
            fell,
            commands,
            power,
            lines: 0,
            stack,
            filled,
        };
        assert_eq!(
            replay.locks(),
            vec![lock((3, 2), 2, 3, 0, 1, 4), lock((1, 1), 1, 4, 306, 2, 7)]
        );
        assert!(replay.game().is_over());
        assert_eq!(replay.power_so_far(), 306);
    }

    #[test]
    fn errors_stop_the_replay() {
        let setup = Setup::new(Problem::parse(BAR.as_bytes(), "t").unwrap());
        let phrases = PhraseSet::known();
        let mut replay = Replay::new(&setup, 0, "pbp", &phrases).unwrap();
        replay.advance_to(3);
        assert_eq!(replay.step(), 2);
        assert!(replay.header()[0].contains("error: command caused error: MoveRight"));
        assert!(Replay::new(&setup, 0, "p#", &phrases).is_err());
    }
}
