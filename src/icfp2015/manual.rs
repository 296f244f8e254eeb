//! `podium icfp2015 manual`: a problem played by hand in a full-screen terminal game; every key
//! typed is recorded as typed, an illegal command is refused, and Ctrl-S saves the output JSON.

use super::rules::commands::{decode_char, Command, Symbol};
use super::rules::game::{evaluate, Evaluation, Game, Outcome, Probe, Setup, Status};
use super::rules::hex::Cell;
use super::rules::phrases::PhraseSet;
use super::rules::problem::Solution;
use crate::core::cli::CliError;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, queue, style, terminal};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code after Ctrl-C, as a shell reports a process ended by SIGINT.
pub const EXIT_INTERRUPTED: u8 = 130;

/// The tag of the saved solution.
const TAG: &str = "manual";

/// What the screen says about the keys, one line each.
const KEY_HELP: [&str; 7] = [
    "keys: any command character is typed as itself:",
    "  W p'!.03  E bcefy2  SW aghij4",
    "  SE lmno5 and space  CW dqrvz1  CCW kstuwx",
    "  Left/Right W/E   Shift+Left/Right SW/SE",
    "  (or End/PgDn SW/SE)   Up CW   Down CCW",
    "  Backspace/Ctrl-Z undo   Ctrl-S/F2 save",
    "  Esc/Ctrl-Q quit   Ctrl-C quit at once",
];

/// The keys in two lines, for a screen too narrow for the panel.
const SHORT_KEY_HELP: [&str; 2] = [
    "keys: command characters as typed; Left/Right W/E; Shift+Left/Right SW/SE; Up CW; Down CCW",
    "Backspace undo; Ctrl-S save; Esc/Ctrl-Q quit; Ctrl-C quit at once",
];

/// How many of the coming units the panel draws.
const NEXT_UNITS: usize = 3;

/// Where a game of `problem` and `seed` is saved unless `--output` says otherwise.
pub fn default_output(problem: i64, seed: u32) -> PathBuf {
    PathBuf::from(format!("icfp2015-manual-problem{problem}-seed{seed}.json"))
}

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Record this character (a command character, typed or given by an arrow key).
    Type(char),
    Undo,
    Save,
    /// Quit, after a confirmation if there are unsaved commands.
    Quit,
    /// Ctrl-C: quit at once.
    Interrupt,
}

/// The action of a key press, if it has one.
pub fn action(key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let control = key.modifiers.contains(KeyModifiers::CONTROL);
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    let command = |c: Command| Some(Action::Type(c.char()));
    match key.code {
        KeyCode::Char('c') if control => Some(Action::Interrupt),
        KeyCode::Char('z') if control => Some(Action::Undo),
        KeyCode::Char('s') if control => Some(Action::Save),
        KeyCode::Char('q') if control => Some(Action::Quit),
        _ if control || key.modifiers.contains(KeyModifiers::ALT) => None,
        KeyCode::Char(c) => Some(Action::Type(c)),
        KeyCode::Left if shift => command(Command::SW),
        KeyCode::Right if shift => command(Command::SE),
        KeyCode::Left => command(Command::W),
        KeyCode::Right => command(Command::E),
        KeyCode::End => command(Command::SW),
        KeyCode::PageDown => command(Command::SE),
        KeyCode::Up => command(Command::CW),
        KeyCode::Down => command(Command::CCW),
        KeyCode::Backspace => Some(Action::Undo),
        KeyCode::F(2) => Some(Action::Save),
        KeyCode::Esc => Some(Action::Quit),
        _ => None,
    }
}

/// A game by hand: the characters recorded so far and the game after them.
pub struct Session<'a> {
    setup: &'a Setup,
    seed: u32,
    phrases: &'a PhraseSet,
    /// Every character recorded, as typed (ignored characters only from `--load`).
    text: String,
    game: Game<'a>,
    /// What the last key did, or why it was refused.
    message: String,
    /// The text last saved, if any.
    saved: Option<String>,
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

    /// The screen, `width` x `height` characters, one string (with colours) per line.
    pub fn screen(&self, width: usize, height: usize, output: &Path) -> Vec<String> {
        let evaluation = self.evaluation();
        let game = &self.game;
        let problem = &self.setup.problem;
        let units = game.order().len();
        let progress = if game.is_over() {
            format!("{}/{units} units locked", game.locked())
        } else {
            format!(
                "unit {}/{units} (#{}, spawned at {}, {})",
                game.locked() + 1,
                game.unit_index(),
                game.unit().spawn.x,
                game.unit().spawn.y
            )
        };
        let status = match game.status() {
            Status::Playing => "playing",
            Status::OutOfUnits => "over: every unit locked",
            Status::NoSpawn => "over: the next unit cannot spawn",
            Status::Repeated(_) => "over: repeated a position",
        };
        let mut lines = Vec::with_capacity(height);
        let mut line = Line::new(width);
        line.styled(BOLD, "podium icfp2015 manual");
        line.plain(&format!(
            " | problem {} seed {} | {progress} | {status}",
            problem.id, self.seed
        ));
        lines.push(line.done());
        let mut line = Line::new(width);
        line.styled(
            BOLD,
            &format!(
                "score {} = moves {} + power {}",
                evaluation.score, evaluation.move_score, evaluation.power_score
            ),
        );
        line.plain(&format!(
            " | commands {} | lines at the last lock {}{}",
            self.commands(),
            game.prev_lines(),
            if self.is_unsaved() { " | unsaved" } else { "" }
        ));
        lines.push(line.done());
        let mut line = Line::new(width);
        let refused = self.message.starts_with("refused") || self.message.starts_with("cannot");
        line.styled(if refused { RED } else { GREEN }, &self.message);
        lines.push(line.done());
        let mut line = Line::new(width);
        let typed: String = self.text.chars().map(visible).collect();
        let room = width.saturating_sub(10);
        let skip = typed.chars().count().saturating_sub(room);
        line.plain("typed: \"");
        line.plain(&typed.chars().skip(skip).collect::<String>());
        line.plain("\"");
        lines.push(line.done());

        let panel_width = if width >= 80 { 46 } else { 0 };
        if panel_width == 0 {
            for help in SHORT_KEY_HELP {
                let mut line = Line::new(width);
                line.plain(help);
                lines.push(line.done());
            }
        }
        let top = lines.len() + 1;
        let board_width = width.saturating_sub(panel_width + usize::from(panel_width > 0) * 2);
        let rows = height.saturating_sub(top);
        let (board, view) = self.board_lines(board_width, rows);
        let mut line = Line::new(width);
        line.plain(&view);
        lines.push(line.done());
        let panel = self.panel(panel_width, output, &evaluation);
        let panel_column = board.iter().map(|l| l.width).max().unwrap_or(0) + 3;
        for i in 0..rows {
            let mut line = board
                .get(i)
                .cloned()
                .unwrap_or_else(|| Line::new(board_width));
            if let Some(right) = panel.get(i) {
                line.pad_to(panel_column);
                line.append(right);
            }
            lines.push(line.done());
        }
        lines.truncate(height);
        lines
    }

    /// The board rows that fit `width` x `rows`, scrolled to show the unit, and a line saying
    /// which part of the board they are.
    fn board_lines(&self, width: usize, rows: usize) -> (Vec<Line>, String) {
        let game = &self.game;
        let board = game.board();
        let cells = game.unit_cells();
        let pivot = (!game.is_over()).then(|| Cell::new(game.pos().x, game.pos().y));
        let (board_w, board_h) = (board.width(), board.height());
        let columns = (width.saturating_sub(1) / 2).clamp(1, board_w.max(1));
        let rows = rows.clamp(1, board_h.max(1));
        let focus = |pick: fn(&Cell) -> i32| -> Option<(i32, i32)> {
            let lo = cells.iter().map(pick).min()?;
            let hi = cells.iter().map(pick).max()?;
            Some((lo, hi))
        };
        let x0 = window(focus(|c| c.x), columns, board_w);
        let y0 = window(focus(|c| c.y), rows, board_h);
        let mut out = Vec::with_capacity(rows);
        for y in y0..y0 + rows {
            let mut line = Line::new(width);
            if y & 1 == 1 {
                line.plain(" ");
            }
            for x in x0..x0 + columns {
                let cell = Cell::new(x as i32, y as i32);
                let member = cells.contains(&cell);
                let (style, glyph) = match (member, pivot == Some(cell), board.get(cell)) {
                    (true, true, _) => (PIVOT, "@"),
                    (true, false, _) => (UNIT, "o"),
                    (false, true, _) => (PIVOT, "+"),
                    (false, false, true) => (FILLED, "#"),
                    (false, false, false) => (EMPTY, "."),
                };
                line.styled(style, glyph);
                line.plain(" ");
            }
            out.push(line);
        }
        let whole = columns == board_w && rows == board_h;
        let view = if whole {
            format!("board {board_w} x {board_h}")
        } else {
            format!(
                "board {board_w} x {board_h}, showing columns {}-{} rows {}-{}",
                x0,
                x0 + columns - 1,
                y0,
                y0 + rows - 1
            )
        };
        (out, view)
    }

    /// The right-hand panel: the keys, the coming units and the phrases' counts.
    fn panel(&self, width: usize, output: &Path, evaluation: &Evaluation) -> Vec<Line> {
        let mut out = Vec::new();
        if width == 0 {
            return out;
        }
        let text_line = |text: &str| {
            let mut line = Line::new(width);
            line.plain(text);
            line
        };
        for help in KEY_HELP {
            out.push(text_line(help));
        }
        out.push(text_line(&format!("  saves to {}", output.display())));
        out.push(Line::new(width));
        let game = &self.game;
        let coming: Vec<u32> = game
            .order()
            .iter()
            .skip(game.locked() as usize + 1)
            .filter(|_| !game.is_over())
            .take(NEXT_UNITS)
            .copied()
            .collect();
        if coming.is_empty() {
            out.push(text_line("next units: none"));
        } else {
            out.push(text_line("next units:"));
            let drawings: Vec<Vec<String>> = coming
                .iter()
                .map(|&u| unit_drawing(self.setup, u as usize))
                .collect();
            let labels: Vec<String> = coming.iter().map(|u| format!("#{u}")).collect();
            let widths: Vec<usize> = drawings
                .iter()
                .zip(&labels)
                .map(|(d, l)| d.iter().map(String::len).max().unwrap_or(0).max(l.len()) + 3)
                .collect();
            let mut line = Line::new(width);
            line.plain("  ");
            for (label, used) in labels.iter().zip(&widths) {
                let start = line.width;
                line.plain(label);
                line.pad_to(start + used);
            }
            out.push(line);
            let tall = drawings.iter().map(Vec::len).max().unwrap_or(0);
            for row in 0..tall {
                let mut line = Line::new(width);
                line.plain("  ");
                for (drawing, used) in drawings.iter().zip(&widths) {
                    let start = line.width;
                    if let Some(text) = drawing.get(row) {
                        line.styled(UNIT, text);
                    }
                    line.pad_to(start + used);
                }
                out.push(line);
            }
        }
        out.push(Line::new(width));
        out.push(text_line("phrases of power: count (power)"));
        let names = self.phrases.phrases();
        for (i, name) in names.iter().enumerate() {
            let count = evaluation.counts[i];
            let mut line = Line::new(width);
            let power = if count > 0 {
                2 * self.phrases.phrase_len(i) as u64 * count + 300
            } else {
                0
            };
            let text = format!("  {count:>3} ({power:>4}) {name}");
            if count > 0 {
                line.styled(GREEN, &text);
            } else {
                line.plain(&text);
            }
            out.push(line);
        }
        out
    }
}

/// The first index of a `size`-long window over `0..total` that holds `focus` (centred on it
/// when it can).
fn window(focus: Option<(i32, i32)>, size: usize, total: usize) -> usize {
    let Some((lo, hi)) = focus else { return 0 };
    let last = total.saturating_sub(size) as i64;
    let centre = (lo as i64 + hi as i64) / 2;
    (centre - size as i64 / 2).clamp(0, last) as usize
}

/// Unit `unit` of the problem as it spawns, one string per row.
fn unit_drawing(setup: &Setup, unit: usize) -> Vec<String> {
    let shape = &setup.units[unit];
    let cells = shape.cells(shape.spawn);
    let (Some(x_min), Some(y_min), Some(y_max)) = (
        cells.iter().map(|c| c.x).min(),
        cells.iter().map(|c| c.y).min(),
        cells.iter().map(|c| c.y).max(),
    ) else {
        return Vec::new();
    };
    (y_min..=y_max)
        .map(|y| {
            let mut row = String::new();
            if y & 1 == 1 {
                row.push(' ');
            }
            let mut xs: Vec<i32> = cells.iter().filter(|c| c.y == y).map(|c| c.x).collect();
            xs.sort_unstable();
            let mut at = 0;
            for x in xs {
                while at < x - x_min {
                    row.push_str("  ");
                    at += 1;
                }
                row.push_str("o ");
                at += 1;
            }
            row.trim_end().to_string()
        })
        .collect()
}

/// A character of the recorded text as the screen shows it (ignored ones as `~`).
fn visible(c: char) -> char {
    if c.is_ascii_graphic() || c == ' ' {
        c
    } else {
        '~'
    }
}

/// A character quoted for a message.
fn shown(c: char) -> String {
    match c {
        ' ' => "space".to_string(),
        c if c.is_ascii_graphic() => format!("'{c}'"),
        c => format!("{:?}", c.escape_default().to_string()),
    }
}

const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[1;31m";
const GREEN: &str = "\x1b[32m";
const PIVOT: &str = "\x1b[1;91m";
const UNIT: &str = "\x1b[1;93m";
const FILLED: &str = "\x1b[34m";
const EMPTY: &str = "\x1b[2m";

/// One screen line being built: text with colours, cut at `limit` visible characters.
#[derive(Clone, Debug)]
struct Line {
    text: String,
    width: usize,
    limit: usize,
}

impl Line {
    fn new(limit: usize) -> Line {
        Line {
            text: String::new(),
            width: 0,
            limit,
        }
    }

    fn plain(&mut self, text: &str) {
        self.styled("", text);
    }

    fn styled(&mut self, style: &str, text: &str) {
        let part: String = text
            .chars()
            .take(self.limit.saturating_sub(self.width))
            .collect();
        if part.is_empty() {
            return;
        }
        self.width += part.chars().count();
        if style.is_empty() {
            self.text.push_str(&part);
        } else {
            self.text.push_str(style);
            self.text.push_str(&part);
            self.text.push_str("\x1b[0m");
        }
    }

    fn pad_to(&mut self, column: usize) {
        while self.width < column {
            self.text.push(' ');
            self.width += 1;
        }
    }

    fn append(&mut self, other: &Line) {
        self.text.push_str(&other.text);
        self.width += other.width;
    }

    fn done(self) -> String {
        self.text
    }
}

/// Whether the terminal is in the game's modes, so that restoring it happens once.
static TERMINAL_TAKEN: AtomicBool = AtomicBool::new(false);

/// Leaves raw mode and the alternate screen and shows the cursor, if the game took them.
fn restore_terminal() {
    if TERMINAL_TAKEN.swap(false, Ordering::SeqCst) {
        let _ = execute!(
            std::io::stdout(),
            style::ResetColor,
            cursor::Show,
            terminal::LeaveAlternateScreen
        );
        let _ = terminal::disable_raw_mode();
    }
}

/// The terminal in raw mode on the alternate screen until dropped, even on a panic.
struct TerminalGuard;

impl TerminalGuard {
    fn take() -> std::io::Result<TerminalGuard> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            previous(info);
        }));
        TERMINAL_TAKEN.store(true, Ordering::SeqCst);
        let guard = TerminalGuard;
        terminal::enable_raw_mode()?;
        execute!(
            std::io::stdout(),
            terminal::EnterAlternateScreen,
            cursor::Hide,
            terminal::Clear(terminal::ClearType::All)
        )?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

fn draw(session: &Session, output: &Path) -> std::io::Result<()> {
    let (width, height) = terminal::size()?;
    let lines = session.screen(width as usize, height as usize, output);
    let mut out = std::io::stdout().lock();
    queue!(out, terminal::BeginSynchronizedUpdate)?;
    for (row, line) in lines.iter().enumerate() {
        queue!(
            out,
            cursor::MoveTo(0, row as u16),
            style::Print(line),
            terminal::Clear(terminal::ClearType::UntilNewLine)
        )?;
    }
    if lines.len() < height as usize {
        queue!(
            out,
            cursor::MoveTo(0, lines.len() as u16),
            terminal::Clear(terminal::ClearType::FromCursorDown)
        )?;
    }
    queue!(out, terminal::EndSynchronizedUpdate)?;
    out.flush()
}

/// How the game ended.
enum Ending {
    Quit,
    Interrupted,
}

fn event_loop(session: &mut Session, output: &Path) -> std::io::Result<Ending> {
    let mut confirm_quit = false;
    draw(session, output)?;
    loop {
        let key = match event::read()? {
            Event::Key(key) => key,
            Event::Resize(..) => {
                draw(session, output)?;
                continue;
            }
            _ => continue,
        };
        let Some(act) = action(key) else {
            continue;
        };
        let quitting = confirm_quit;
        confirm_quit = false;
        match act {
            Action::Type(c) => {
                session.type_char(c);
            }
            Action::Undo => {
                session.undo();
            }
            Action::Save => {
                session.save(output);
            }
            Action::Interrupt => return Ok(Ending::Interrupted),
            Action::Quit if quitting || !session.is_unsaved() => return Ok(Ending::Quit),
            Action::Quit => {
                confirm_quit = true;
                session.message =
                    "refused to quit: unsaved commands; Esc/Ctrl-Q again quits, Ctrl-S saves"
                        .to_string();
            }
        }
        draw(session, output)?;
    }
}

/// Plays `setup` by hand from `loaded` in the terminal, saving to `output`; says how it ended
/// on `out` once the terminal is restored.
pub fn run(
    setup: &Setup,
    seed: u32,
    phrases: &PhraseSet,
    loaded: &str,
    output: &Path,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut session = Session::new(setup, seed, phrases, loaded)
        .map_err(|e| CliError::input(format!("icfp2015 manual --load: {e}")))?;
    for (name, is_terminal) in [
        ("stdin", std::io::stdin().is_terminal()),
        ("stdout", std::io::stdout().is_terminal()),
    ] {
        if !is_terminal {
            return Err(CliError::input(format!(
                "icfp2015 manual: {name} is not a terminal; the game needs one (score and show work without)"
            )));
        }
    }
    let ending = {
        let _guard = TerminalGuard::take()
            .map_err(|e| CliError::output(format!("icfp2015 manual: terminal: {e}")))?;
        event_loop(&mut session, output)
            .map_err(|e| CliError::output(format!("icfp2015 manual: terminal: {e}")))?
    };
    let score = session.evaluation().score;
    let saved = if session.is_unsaved() {
        format!("{} commands not saved", session.commands())
    } else {
        format!("saved to {}", output.display())
    };
    let summary = format!(
        "icfp2015 manual: problem {} seed {seed}: score {score}, {saved}",
        setup.problem.id
    );
    match ending {
        Ending::Quit => writeln!(out, "{summary}").map_err(|e| CliError::write("stdout", e)),
        Ending::Interrupted => Err(CliError::new(
            EXIT_INTERRUPTED,
            format!("{summary} (interrupted)"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::rules::problem::Problem;

    const BAR: &str = r#"{"id":1,"width":5,"height":3,"sourceLength":2,"sourceSeeds":[0],
        "filled":[{"x":0,"y":2}],"units":[{"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":2,"y":0}],
        "pivot":{"x":1,"y":0}}]}"#;

    fn plain(lines: &[String]) -> String {
        let mut out = String::new();
        for line in lines {
            let mut in_escape = false;
            for c in line.chars() {
                match c {
                    '\x1b' => in_escape = true,
                    'm' if in_escape => in_escape = false,
                    _ if in_escape => {}
                    c => out.push(c),
                }
            }
            out.push('\n');
        }
        out
    }

    #[test]
    fn typed_characters_are_recorded_and_a_repeat_is_refused() {
        let setup = Setup::new(Problem::parse(BAR.as_bytes(), "t").unwrap());
        let phrases = PhraseSet::known();
        let mut session = Session::new(&setup, 0, &phrases, "").unwrap();
        assert!(session.type_char('p'));
        assert!(!session.type_char('b'));
        assert!(session.message().contains("repeat a position"));
        assert_eq!(session.text(), "p");
        assert!(!session.type_char('#'));
        assert!(session.undo());
        for c in "Ei!".chars() {
            assert!(session.type_char(c), "{}", session.message());
        }
        assert!(session.message().contains("spelled \"Ei!\""));
        assert_eq!(session.evaluation().score, 306);
        let screen = plain(&session.screen(100, 30, Path::new("out.json")));
        assert!(
            screen.contains("score 306 = moves 0 + power 306"),
            "{screen}"
        );
        assert!(screen.contains("typed: \"Ei!\""), "{screen}");
    }

    #[test]
    fn loading_keeps_the_text_and_refuses_an_error() {
        let setup = Setup::new(Problem::parse(BAR.as_bytes(), "t").unwrap());
        let phrases = PhraseSet::known();
        let session = Session::new(&setup, 0, &phrases, "ala\nll").unwrap();
        assert_eq!(session.game().status(), Status::OutOfUnits);
        assert_eq!(session.commands(), 5);
        let mut session = session;
        assert!(!session.type_char('a'));
        assert!(session.undo());
        assert_eq!(session.text(), "ala\nl");
        assert!(Session::new(&setup, 0, &phrases, "pb").is_err());
    }

    #[test]
    fn keys_map_to_commands() {
        let key = |code, modifiers| action(KeyEvent::new(code, modifiers));
        assert_eq!(
            key(KeyCode::Left, KeyModifiers::NONE),
            Some(Action::Type('p'))
        );
        assert_eq!(
            key(KeyCode::Right, KeyModifiers::SHIFT),
            Some(Action::Type('l'))
        );
        assert_eq!(
            key(KeyCode::Char('s'), KeyModifiers::CONTROL),
            Some(Action::Save)
        );
        assert_eq!(
            key(KeyCode::Char('S'), KeyModifiers::SHIFT),
            Some(Action::Type('S'))
        );
        assert_eq!(
            key(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Some(Action::Interrupt)
        );
    }
}
