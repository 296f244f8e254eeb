//! A full-screen terminal session (raw mode, alternate screen, hidden cursor) that is always given
//! back: when dropped, on a panic, and after SIGTERM or SIGHUP, which the session's loop polls.

use crossterm::{cursor, execute, queue, style, terminal};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Whether the terminal is in the session's modes, so that restoring it happens once.
static TAKEN: AtomicBool = AtomicBool::new(false);

/// How often a loop waiting for keys should look at [`hung_up`]: a signal ends the session
/// within this.
pub const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// How long the session's own loop has to end after SIGTERM or SIGHUP before the watchdog ends
/// the process.
const HANGUP_GRACE: Duration = Duration::from_millis(500);

/// The exit code after an interruption (Ctrl-C, SIGTERM, SIGHUP), as a shell reports SIGINT.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Leaves raw mode and the alternate screen and shows the cursor, if a session took them.
fn restore() {
    if TAKEN.swap(false, Ordering::SeqCst) {
        let _ = execute!(
            std::io::stdout(),
            style::ResetColor,
            cursor::Show,
            terminal::LeaveAlternateScreen
        );
        let _ = terminal::disable_raw_mode();
    }
}

/// [`restore`] for the watchdog: the command's thread may hold stdout's lock for its whole run,
/// so the escape codes (reset colours, show the cursor, leave the alternate screen) go to file
/// descriptor 1 directly.
fn restore_without_stdout_lock() {
    if TAKEN.swap(false, Ordering::SeqCst) {
        const CODES: &[u8] = b"\x1b[0m\x1b[?25h\x1b[?1049l";
        // SAFETY: writes CODES.len() bytes from a live static buffer to descriptor 1; a closed or
        // dead terminal only makes the call fail, which is ignored.
        let _ = unsafe { libc::write(1, CODES.as_ptr().cast(), CODES.len()) };
        let _ = terminal::disable_raw_mode();
    }
}

/// True once SIGTERM or SIGHUP arrived during a session: its loop should end and drop it.
pub fn hung_up() -> bool {
    super::signal::arrived()
}

/// The terminal in raw mode on the alternate screen until dropped, even on a panic.
pub struct FullScreen(());

impl FullScreen {
    pub fn take() -> std::io::Result<FullScreen> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        super::signal::catch(&[libc::SIGTERM, libc::SIGHUP]);
        // A dead terminal can keep the key reader spinning on end-of-file without returning to
        // the loop that polls the flag (seen: a tmux server killed under the game), so a
        // watchdog ends the process if the loop has not ended a grace period after the signal.
        std::thread::spawn(|| loop {
            std::thread::sleep(SIGNAL_POLL);
            if hung_up() {
                std::thread::sleep(HANGUP_GRACE);
                restore_without_stdout_lock();
                std::process::exit(i32::from(EXIT_INTERRUPTED));
            }
        });
        TAKEN.store(true, Ordering::SeqCst);
        let screen = FullScreen(());
        terminal::enable_raw_mode()?;
        execute!(
            std::io::stdout(),
            terminal::EnterAlternateScreen,
            cursor::Hide,
            terminal::Clear(terminal::ClearType::All)
        )?;
        Ok(screen)
    }
}

/// The terminal's size in (columns, rows).
pub fn size() -> std::io::Result<(usize, usize)> {
    let (columns, rows) = terminal::size()?;
    Ok((columns as usize, rows as usize))
}

/// Replaces the screen by `lines` (as many as fit), in one synchronized update so the terminal
/// never shows half a frame. Each line must fit the width already (it may hold colour codes).
pub fn draw(lines: &[String]) -> std::io::Result<()> {
    let (_, rows) = size()?;
    let shown = lines.len().min(rows);
    let mut out = std::io::stdout().lock();
    queue!(out, terminal::BeginSynchronizedUpdate)?;
    for (row, line) in lines[..shown].iter().enumerate() {
        queue!(
            out,
            cursor::MoveTo(0, row as u16),
            style::Print(line),
            terminal::Clear(terminal::ClearType::UntilNewLine)
        )?;
    }
    queue!(
        out,
        cursor::MoveTo(0, shown as u16),
        terminal::Clear(terminal::ClearType::FromCursorDown),
        terminal::EndSynchronizedUpdate
    )?;
    out.flush()
}

impl Drop for FullScreen {
    fn drop(&mut self) {
        restore();
    }
}
