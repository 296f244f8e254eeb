//! The rules: a problem's precomputed `Setup`, the `Game` state machine (moves, rotations,
//! locking, row clearing, repeated positions, game end, move score) and the evaluator's scoring.

use super::board::Board;
use super::commands::{Command, DECODE, IGNORED, INVALID};
use super::hex::Cell;
use super::phrases::PhraseSet;
use super::problem::{Problem, SeedError};
use super::source::unit_order;
use super::unit::{Pos, Unit};
use crate::core::stamp::StampSet;
use std::fmt;

/// A problem with its units precomputed and its starting board; shared by every game on it.
#[derive(Clone, Debug)]
pub struct Setup {
    pub problem: Problem,
    pub units: Vec<Unit>,
    pub start: Board,
}

impl Setup {
    /// The setup of a qualifier problem from `data/icfp2015/problems`, for unit tests.
    #[cfg(test)]
    pub(crate) fn bundled(id: usize) -> Setup {
        let path = format!(
            "{}/data/icfp2015/problems/problem_{id}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(&path).expect("bundled problem");
        Setup::new(Problem::parse(&bytes, &path).expect("bundled problems parse"))
    }

    pub fn new(problem: Problem) -> Setup {
        let units: Vec<Unit> = problem
            .units
            .iter()
            .map(|u| Unit::new(u, problem.width))
            .collect();
        let mut start = Board::new(problem.width, problem.height);
        for &c in &problem.filled {
            start.set(c);
        }
        Setup {
            problem,
            units,
            start,
        }
    }

    pub fn width(&self) -> usize {
        self.problem.width
    }

    pub fn height(&self) -> usize {
        self.problem.height
    }
}

/// Why a game is over, or that it is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Playing,
    /// All `sourceLength` units were locked.
    OutOfUnits,
    /// The next unit could not spawn (not an error; the score is kept).
    NoSpawn,
    /// The command brought the unit back to a position it already had; the score is 0.
    Repeated(Command),
}

/// What one command did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The unit moved or turned.
    Moved,
    /// The command was blocked: the unit locked, `lines` rows were cleared and the next unit
    /// spawned, unless the game is now over.
    Locked { lines: u32 },
    /// Repeated position: the game is over with an error.
    Repeated,
    /// The game was already over; nothing changed.
    AfterEnd,
}

/// What a command would do ([`Game::probe`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// The unit would move or turn to this position.
    Moves(Pos),
    /// The unit would lock where it is.
    Locks,
    /// The command would repeat a position (an error).
    Repeats,
    /// The game is over.
    AfterEnd,
}

/// One game: a problem's setup, a seed, and the state after the commands so far.
#[derive(Clone, Debug)]
pub struct Game<'a> {
    setup: &'a Setup,
    order: Vec<u32>,
    board: Board,
    /// Index into `setup.units` of the falling unit, and the unit.
    unit: u32,
    current: &'a Unit,
    pos: Pos,
    status: Status,
    locked: u32,
    moves: u64,
    move_score: u64,
    prev_lines: u32,
    /// Positions seen since the last SW/SE, at `left * 6 + canonical`, where `left` is the
    /// unit's leftmost column. Within one row, equal `(left, canonical)` means equal
    /// `(pivot, member set)`, and `left` is on the board.
    seen: StampSet,
}

/// Per command: the pivot's column change on an even row, on an odd row, and the row change.
const MOVES: [[i32; 3]; 6] = [
    [-1, -1, 0], // W
    [1, 1, 0],   // E
    [-1, 0, 1],  // SW
    [0, 1, 1],   // SE
    [0, 0, 0],   // CW
    [0, 0, 0],   // CCW
];

/// Per command and orientation: the orientation after the command.
const TURNS: [[u8; 6]; 6] = [
    [0, 1, 2, 3, 4, 5],
    [0, 1, 2, 3, 4, 5],
    [0, 1, 2, 3, 4, 5],
    [0, 1, 2, 3, 4, 5],
    [1, 2, 3, 4, 5, 0],
    [5, 0, 1, 2, 3, 4],
];

/// Where `command` takes a unit at `here` (whether or not it fits there).
#[inline]
pub fn target(here: Pos, command: Command) -> Pos {
    let delta = MOVES[command as usize];
    Pos {
        x: here.x + delta[(here.y & 1) as usize],
        y: here.y + delta[2],
        orientation: TURNS[command as usize][here.orientation as usize % 6],
    }
}

impl<'a> Game<'a> {
    /// A new game; any seed works here (see [`Problem::check_seed`] for the problem's own).
    pub fn new(setup: &'a Setup, seed: u32) -> Game<'a> {
        let order = unit_order(seed, setup.units.len(), setup.problem.source_length);
        let mut game = Game {
            setup,
            order,
            board: setup.start.clone(),
            unit: 0,
            current: &setup.units[0],
            pos: Pos {
                x: 0,
                y: 0,
                orientation: 0,
            },
            status: Status::Playing,
            locked: 0,
            moves: 0,
            move_score: 0,
            prev_lines: 0,
            seen: StampSet::new(setup.width() * 6),
        };
        game.spawn();
        game
    }

    pub fn setup(&self) -> &'a Setup {
        self.setup
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn status(&self) -> Status {
        self.status
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.status != Status::Playing
    }

    /// The falling unit's index into the problem's units (meaningful while playing).
    pub fn unit_index(&self) -> usize {
        self.unit as usize
    }

    pub fn unit(&self) -> &'a Unit {
        self.current
    }

    /// The falling unit's position (meaningful while playing).
    pub fn pos(&self) -> Pos {
        self.pos
    }

    /// The falling unit's cells (empty once the game is over).
    pub fn unit_cells(&self) -> Vec<Cell> {
        if self.is_over() {
            Vec::new()
        } else {
            self.unit().cells(self.pos)
        }
    }

    /// Bytes this game holds on the heap: its unit order, board rows and position history.
    pub fn heap_bytes(&self) -> usize {
        self.order.len() * std::mem::size_of::<u32>()
            + self.seen.heap_bytes()
            + self.board.height() * std::mem::size_of::<u128>()
    }

    /// The unit order of this seed (indices into the problem's units).
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// Units locked so far.
    pub fn locked(&self) -> u32 {
        self.locked
    }

    /// Commands that moved, turned or locked (the evaluator's `moves`).
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// Sum of the move scores; 0 after an error.
    pub fn move_score(&self) -> u64 {
        if matches!(self.status, Status::Repeated(_)) {
            0
        } else {
            self.move_score
        }
    }

    /// Rows cleared by the last lock.
    pub fn prev_lines(&self) -> u32 {
        self.prev_lines
    }

    /// Whether the falling unit fits at `pos` on the current board.
    pub fn fits(&self, pos: Pos) -> bool {
        self.board
            .fits(self.unit().shape(pos.orientation, pos.y), pos.x, pos.y)
    }

    #[inline]
    fn seen_slot(&self, pos: Pos) -> usize {
        let left = pos.x + self.current.shape(pos.orientation, pos.y).dx_min;
        left as usize * 6 + self.current.canonical[pos.orientation as usize] as usize
    }

    /// Starts a fresh row history holding only `pos`.
    #[inline]
    fn reset_history(&mut self, pos: Pos) {
        self.seen.clear();
        self.seen.insert(self.seen_slot(pos));
    }

    fn spawn(&mut self) {
        if self.locked as usize >= self.order.len() {
            self.status = Status::OutOfUnits;
            return;
        }
        self.unit = self.order[self.locked as usize];
        self.current = &self.setup.units[self.unit as usize];
        let spawn = self.current.spawn;
        if !self.fits(spawn) {
            self.status = Status::NoSpawn;
            return;
        }
        self.pos = spawn;
        self.reset_history(spawn);
    }

    /// Where `command` would take the falling unit (whether or not it fits).
    #[inline]
    pub fn target(&self, command: Command) -> Pos {
        target(self.pos, command)
    }

    /// What `command` would do, without doing it.
    pub fn probe(&self, command: Command) -> Probe {
        if self.is_over() {
            return Probe::AfterEnd;
        }
        let next = self.target(command);
        if !self.fits(next) {
            Probe::Locks
        } else if !command.descends() && self.seen.contains(self.seen_slot(next)) {
            Probe::Repeats
        } else {
            Probe::Moves(next)
        }
    }

    /// Applies one command.
    #[inline]
    pub fn step(&mut self, command: Command) -> Outcome {
        if self.status != Status::Playing {
            return Outcome::AfterEnd;
        }
        let next = self.target(command);
        let unit = self.current;
        let shape = unit.shape(next.orientation, next.y);
        if !self.board.fits(shape, next.x, next.y) {
            self.moves += 1;
            return self.lock();
        }
        let slot = (next.x + shape.dx_min) as usize * 6
            + unit.canonical[next.orientation as usize] as usize;
        if command.descends() {
            self.seen.clear();
        } else if self.seen.contains(slot) {
            self.status = Status::Repeated(command);
            return Outcome::Repeated;
        }
        self.seen.insert(slot);
        self.pos = next;
        self.moves += 1;
        Outcome::Moved
    }

    fn lock(&mut self) -> Outcome {
        let unit = self.current;
        let here = self.pos;
        let lines = self
            .board
            .lock(unit.shape(here.orientation, here.y), here.x, here.y);
        self.move_score += move_score(unit.size, lines, self.prev_lines);
        self.prev_lines = lines;
        self.locked += 1;
        self.spawn();
        Outcome::Locked { lines }
    }
}

/// The move score of locking a unit of `size` cells that clears `lines` rows, after a lock that
/// cleared `prev_lines`.
pub fn move_score(size: u32, lines: u32, prev_lines: u32) -> u64 {
    let (lines, prev_lines) = (lines as u64, prev_lines as u64);
    let points = size as u64 + 50 * (1 + lines) * lines;
    let bonus = if prev_lines > 1 {
        (prev_lines - 1) * points / 10
    } else {
        0
    };
    points + bonus
}

/// The error the official evaluator reports for a command string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A character that is no command, at this 0-based character position.
    InvalidCommand { position: usize, character: char },
    /// The last command repeated a position.
    CommandCausedError(Command),
    /// A command followed the one that ended the game (the evaluator reports this even when
    /// the game ended by an error).
    CommandAfterEnd,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::InvalidCommand { character, .. } => {
                write!(f, "invalid command: {character}")
            }
            EvalError::CommandCausedError(c) => {
                write!(f, "command caused error: {}", c.evaluator_name())
            }
            EvalError::CommandAfterEnd => write!(f, "command after end"),
        }
    }
}

/// The result of scoring one command string, as the official evaluator computes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    pub moves: u64,
    pub error: Option<EvalError>,
    /// Sum of the move scores (0 on an error).
    pub move_score: u64,
    /// Sum of the power scores (0 on an error).
    pub power_score: u64,
    pub score: u64,
    /// Occurrences of each phrase of the set in the raw string (counted even on an error).
    pub counts: Vec<u64>,
    /// Phrases used, in the evaluator's order (empty on an error, as the evaluator prints).
    pub used: Vec<usize>,
    /// How the game stood at the end.
    pub status: Status,
    /// Units locked.
    pub locked: u32,
}

impl Evaluation {
    /// The evaluator's list of used phrases, e.g. `[0,12,2]`.
    pub fn power_line(&self) -> String {
        let items: Vec<String> = self.used.iter().map(|i| i.to_string()).collect();
        format!("[{}]", items.join(","))
    }

    /// `no error` or the evaluator's error text.
    pub fn error_text(&self) -> String {
        match &self.error {
            None => "no error".to_string(),
            Some(e) => e.to_string(),
        }
    }
}

/// Plays `text` on `setup` from `seed` and scores it exactly as the official evaluator does:
/// ignored characters are skipped, the first invalid one stops the game with an error, a
/// command after the one that ended the game is an error, any error scores 0.
pub fn evaluate(
    setup: &Setup,
    seed: u64,
    text: &str,
    phrases: &PhraseSet,
) -> Result<Evaluation, SeedError> {
    let seed = setup.problem.check_seed(seed)?;
    let mut game = Game::new(setup, seed);
    let error = play(&mut game, text);
    let counts = phrases.count(text);
    let (move_score, power_score, used) = if error.is_some() {
        (0, 0, Vec::new())
    } else {
        (
            game.move_score(),
            phrases.power_score(&counts),
            phrases.used_in_evaluator_order(&counts),
        )
    };
    Ok(Evaluation {
        moves: game.moves(),
        error,
        move_score,
        power_score,
        score: move_score + power_score,
        counts,
        used,
        status: game.status(),
        locked: game.locked(),
    })
}

/// Feeds the raw command string `text` to `game` with the evaluator's rules and returns its error.
/// As in the evaluator, a game already over before the first command (the first unit cannot
/// spawn) ignores that command, and it is an error only if another command follows.
pub fn play(game: &mut Game, text: &str) -> Option<EvalError> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let code = DECODE[bytes[i] as usize];
        i += 1;
        if code == IGNORED {
            continue;
        }
        if code == INVALID {
            let position = text[..i - 1].chars().count();
            let character = text[i - 1..].chars().next().unwrap_or('\u{fffd}');
            return Some(EvalError::InvalidCommand {
                position,
                character,
            });
        }
        let command = Command::from_index(code);
        game.step(command);
        if game.is_over() {
            let more = bytes[i..].iter().any(|&b| DECODE[b as usize] != IGNORED);
            return if more {
                Some(EvalError::CommandAfterEnd)
            } else if let Status::Repeated(c) = game.status() {
                Some(EvalError::CommandCausedError(c))
            } else {
                None
            };
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(json: &str) -> Setup {
        Setup::new(Problem::parse(json.as_bytes(), "test").unwrap())
    }

    const BAR: &str = r#"{"id":1,"width":5,"height":3,"sourceLength":2,"sourceSeeds":[0],
        "filled":[],"units":[{"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":2,"y":0}],
        "pivot":{"x":1,"y":0}}]}"#;

    #[test]
    fn three_turns_of_a_bar_repeat_its_position() {
        let s = setup(BAR);
        let mut g = Game::new(&s, 0);
        // Down one row first so the turned bar fits: the bar spans rows -1..=1 when upright.
        assert_eq!(g.step(Command::SE), Outcome::Moved);
        assert_eq!(g.step(Command::CW), Outcome::Moved);
        assert_eq!(g.step(Command::CW), Outcome::Moved);
        assert_eq!(g.step(Command::CW), Outcome::Repeated);
        assert_eq!(g.status(), Status::Repeated(Command::CW));
        assert_eq!(g.moves(), 3);
        assert_eq!(g.move_score(), 0);
        assert_eq!(g.step(Command::W), Outcome::AfterEnd);
    }

    #[test]
    fn history_holds_the_row_since_the_last_descent() {
        let s = setup(BAR);
        let mut g = Game::new(&s, 0);
        assert_eq!(g.step(Command::W), Outcome::Moved);
        assert_eq!(g.step(Command::E), Outcome::Repeated);
        let mut g = Game::new(&s, 0);
        for c in [Command::W, Command::SE, Command::E] {
            assert_eq!(g.step(c), Outcome::Moved);
        }
        // The position the descent reached is in the new history.
        assert_eq!(g.step(Command::W), Outcome::Repeated);
    }

    #[test]
    fn locking_scores_and_ends_the_source() {
        let s = setup(BAR);
        let mut g = Game::new(&s, 0);
        // Spawn at columns 1..=3 of row 0; drop to the bottom row and lock.
        assert_eq!(g.step(Command::SW), Outcome::Moved);
        assert_eq!(g.step(Command::SE), Outcome::Moved);
        assert_eq!(g.step(Command::SW), Outcome::Locked { lines: 0 });
        assert_eq!(g.move_score(), 3);
        assert_eq!(g.locked(), 1);
        assert_eq!(g.step(Command::SE), Outcome::Moved);
        assert_eq!(g.step(Command::SE), Outcome::Locked { lines: 0 });
        assert_eq!(g.status(), Status::OutOfUnits);
        assert_eq!(g.move_score(), 6);
    }

    #[test]
    fn evaluator_errors() {
        let s = setup(BAR);
        let phrases = PhraseSet::known();
        let e = evaluate(&s, 0, "alalla", &phrases).unwrap();
        assert_eq!(e.error_text(), "command after end");
        assert_eq!((e.moves, e.score), (5, 0));
        let e = evaluate(&s, 0, "ala\nll\n\t", &phrases).unwrap();
        assert_eq!((e.moves, e.score, e.error), (5, 6, None));
        assert_eq!(e.status, Status::OutOfUnits);
        let e = evaluate(&s, 0, "pb", &phrases).unwrap();
        assert_eq!(e.error_text(), "command caused error: MoveRight");
        assert_eq!(e.moves, 1);
        let e = evaluate(&s, 0, "p#b", &phrases).unwrap();
        assert_eq!(e.error_text(), "invalid command: #");
        assert_eq!(
            evaluate(&s, 3, "", &phrases).unwrap_err().to_string(),
            "icfp2015: seed 3 is not one of problem 1's sourceSeeds"
        );
    }
}
