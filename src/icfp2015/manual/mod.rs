//! `podium icfp2015 manual`: a problem played by hand in a full-screen terminal game; every key
//! typed is recorded as typed, an illegal command is refused, and Ctrl-S saves the output JSON.

mod screen;
mod session;

pub use session::Session;

use super::rules::commands::Command;
use super::rules::game::Setup;
use super::rules::phrases::PhraseSet;
use crate::core::cli::CliError;
use crate::core::terminal::{self, hung_up, FullScreen, SIGNAL_POLL};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

pub use crate::core::terminal::EXIT_INTERRUPTED;

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

fn draw(session: &Session, output: &Path) -> std::io::Result<()> {
    let (width, height) = terminal::size()?;
    terminal::draw(&session.screen(width, height, output))
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
        if hung_up() {
            return Ok(Ending::Interrupted);
        }
        if !event::poll(SIGNAL_POLL)? {
            continue;
        }
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
        let _screen = FullScreen::take()
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
    use crate::icfp2015::rules::game::Status;
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
