//! `podium tetromino solve --watch` on a terminal: the board as the search fills it, the cell in
//! diagonal order, the figure tried, each prune and backtrack with its reason, and the counters.

use super::figures::Figure;
use super::solution::Placement;
use super::trace::{describe, Counters, Event, Observer, Pruned, Verdict};
use crate::core::terminal::{self, hung_up, FullScreen, SIGNAL_POLL};
use crossterm::event::{self, Event as KeyInput, KeyCode, KeyModifiers};
use std::time::Duration;

/// The full-screen view: its own copy of the board, updated from the events.
pub struct Watch {
    size: usize,
    /// The figure on each cell, row-major.
    cells: Vec<Option<Figure>>,
    /// The cell being filled, and the cells of the piece just tried or taken back.
    current: Option<(usize, usize)>,
    highlight: Vec<(usize, usize)>,
    stage: &'static str,
    line: String,
    counters: Counters,
    delay: Duration,
    _screen: FullScreen,
}

impl Watch {
    /// Takes the terminal; `delay` is the pause after each step.
    pub fn start(size: usize, delay: Duration) -> std::io::Result<Watch> {
        Ok(Watch {
            size,
            cells: vec![None; size * size],
            current: None,
            highlight: Vec::new(),
            stage: "",
            line: String::new(),
            counters: Counters::default(),
            delay,
            _screen: FullScreen::take()?,
        })
    }

    fn put(&mut self, placement: &Placement, figure: Option<Figure>) {
        for (r, c) in placement.cells() {
            if r < self.size && c < self.size {
                self.cells[r * self.size + c] = figure;
            }
        }
    }

    /// The screen's lines: a window of the board around the current cell, then the text.
    fn lines(&self, width: usize, height: usize) -> Vec<String> {
        let rows = self.size.min(height.saturating_sub(5)).max(1);
        let columns = self.size.min(width / 2).max(1);
        let (focus_row, focus_column) = self.current.unwrap_or((0, 0));
        let top = focus_row.saturating_sub(rows / 2).min(self.size - rows);
        let left = focus_column
            .saturating_sub(columns / 2)
            .min(self.size - columns);
        let mut lines = vec![
            format!(
                "tetromino --watch  {}x{}  {}",
                self.size, self.size, self.stage
            ),
            self.line.clone(),
            self.counters.to_string(),
        ];
        for r in top..top + rows {
            let mut text = String::with_capacity(columns * 2);
            for c in left..left + columns {
                let mark = if self.current == Some((r, c)) {
                    '@'
                } else {
                    match self.cells[r * self.size + c] {
                        Some(f) if self.highlight.contains(&(r, c)) => {
                            f.letter().to_ascii_lowercase()
                        }
                        Some(f) => f.letter(),
                        None => '.',
                    }
                };
                text.push(mark);
                text.push(' ');
            }
            lines.push(text);
        }
        lines.push(
            "q or Ctrl-C stops; @ is the cell being filled, lower case the piece tried".into(),
        );
        lines
    }

    fn draw(&self) -> std::io::Result<()> {
        let (width, height) = terminal::size()?;
        let lines: Vec<String> = self
            .lines(width, height)
            .iter()
            .map(|line| line.chars().take(width).collect())
            .collect();
        terminal::draw(&lines)
    }

    /// Waits `delay`, answering keys: false once q, Esc or Ctrl-C is pressed, or SIGTERM/SIGHUP
    /// arrived.
    fn pause(&self) -> bool {
        let mut left = self.delay;
        loop {
            if hung_up() {
                return false;
            }
            let started = std::time::Instant::now();
            match event::poll(left.min(SIGNAL_POLL)) {
                Ok(true) => match event::read() {
                    Ok(KeyInput::Key(key))
                        if key.code == KeyCode::Char('q')
                            || key.code == KeyCode::Esc
                            || (key.code == KeyCode::Char('c')
                                && key.modifiers.contains(KeyModifiers::CONTROL)) =>
                    {
                        return false
                    }
                    Ok(_) => {}
                    Err(_) => return false,
                },
                Ok(false) => {}
                Err(_) => return false,
            }
            left = left.saturating_sub(started.elapsed());
            if left.is_zero() {
                return true;
            }
        }
    }
}

impl Observer for Watch {
    const ACTIVE: bool = true;

    fn see(&mut self, event: Event<'_>) -> bool {
        self.counters.count(&event);
        self.line = describe(&event);
        let mut taken_back = None;
        self.highlight.clear();
        match &event {
            Event::Stage(name) => self.stage = name,
            Event::Attempt { .. } => {
                self.cells.fill(None);
                self.current = None;
            }
            Event::Try {
                cell, placement, ..
            } => {
                self.current = Some(*cell);
                self.put(placement, Some(placement.figure));
                self.highlight.extend(placement.cells());
            }
            Event::Prune { placement, why } => {
                // Drawn once more in lower case, then taken back.
                self.put(placement, Some(placement.figure));
                self.highlight.extend(placement.cells());
                taken_back = Some(*placement);
                if *why == Pruned::Pocket {
                    self.line
                        .push_str(" (an empty region it closes cannot be tiled)");
                }
            }
            Event::Backtrack { placement, .. } => {
                self.put(placement, Some(placement.figure));
                self.highlight.extend(placement.cells());
                taken_back = Some(*placement);
            }
            Event::Budget(_) => {}
            Event::Done(outcome) => {
                self.current = None;
                if let Verdict::Solved(tiling) = outcome {
                    self.cells.fill(None);
                    for p in tiling.iter() {
                        self.put(p, Some(p.figure));
                    }
                }
            }
        }
        let drawn = self.draw().is_ok();
        let going = drawn && self.pause();
        if let Some(placement) = taken_back {
            self.put(&placement, None);
        }
        going
    }
}
