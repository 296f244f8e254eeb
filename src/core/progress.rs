//! Progress of a long run on stderr, for people: cases done, elapsed, an estimate of the time left
//! and a running note; drawn only when stderr is a terminal and the run is not `--quiet`.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Redraws at most this often, so a fast loop does not spend its time on the terminal.
const REDRAW_EVERY: Duration = Duration::from_millis(100);
const BAR_WIDTH: usize = 30;

/// One line on stderr, redrawn in place as cases finish.
pub struct Progress {
    label: String,
    total: usize,
    done: usize,
    started: Instant,
    drawn: Option<Instant>,
    visible: bool,
}

impl Progress {
    /// A bar over `total` cases; invisible when `quiet` or stderr is not a terminal.
    pub fn new(label: impl Into<String>, total: usize, quiet: bool) -> Progress {
        Progress::shown(label, total, !quiet && std::io::stderr().is_terminal())
    }

    fn shown(label: impl Into<String>, total: usize, visible: bool) -> Progress {
        Progress {
            label: label.into(),
            total,
            done: 0,
            started: Instant::now(),
            drawn: None,
            visible,
        }
    }

    /// One more case finished; `note` is shown after the counts (e.g. the running total
    /// against the reference).
    pub fn advance(&mut self, note: &str) {
        self.done += 1;
        let due = self.drawn.is_none_or(|at| at.elapsed() >= REDRAW_EVERY);
        if self.visible && (due || self.done == self.total) {
            let line = self.line(note);
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{line}\x1b[K");
            let _ = err.flush();
            self.drawn = Some(Instant::now());
        }
    }

    /// What the bar says now.
    fn line(&self, note: &str) -> String {
        let total = self.total.max(1);
        let filled = self.done.min(total) * BAR_WIDTH / total;
        let elapsed = self.started.elapsed().as_secs_f64();
        let left = if self.done == 0 {
            String::from("?")
        } else {
            let rest = elapsed / self.done as f64 * self.total.saturating_sub(self.done) as f64;
            format!("{rest:.0} s")
        };
        format!(
            "{} [{}{}] {}/{} {elapsed:.0} s, about {left} left{}{note}",
            self.label,
            "#".repeat(filled),
            ".".repeat(BAR_WIDTH - filled),
            self.done,
            self.total,
            if note.is_empty() { "" } else { "; " },
        )
    }

    /// Leaves the terminal on a fresh line.
    pub fn finish(&mut self) {
        if self.visible && self.drawn.is_some() {
            let _ = writeln!(std::io::stderr().lock());
        }
        self.visible = false;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_counts_cases_and_estimates_the_rest() {
        let mut progress = Progress::shown("slider", 4, false);
        assert!(progress
            .line("")
            .starts_with("slider [..............................] 0/4 "));
        progress.advance("");
        progress.advance("");
        let line = progress.line("ours/best 1.0021");
        assert!(
            line.contains("[###############...............] 2/4"),
            "{line}"
        );
        assert!(line.ends_with("left; ours/best 1.0021"), "{line}");
    }
}
