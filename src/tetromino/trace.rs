//! What the search reports as it goes, for `solve --watch`: the events, the observer the solver
//! is generic over ([`Silent`] compiles to nothing), and the bounded one-line-per-event text trace.

use super::solution::Placement;
use crate::core::budget::Exhausted;
use std::io::Write;

/// Why a placement was taken back at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pruned {
    /// It enclosed an empty region of a size not divisible by 4, or a 4-cell one no figure left fits.
    Pocket,
    /// The state it made was searched before without a tiling.
    Memo,
}

/// One step of deciding a square.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A stage starts: the rules, the quick search, the blocks, the full search.
    Stage(&'static str),
    /// A search attempt starts on an empty board, with its node limit (a restart after the first).
    Attempt { number: u32, limit: u64 },
    /// The figure tried at the first empty cell in diagonal order, `(row, column)`.
    Try {
        cell: (usize, usize),
        placement: Placement,
        depth: usize,
    },
    /// The placement just tried is taken back.
    Prune { placement: Placement, why: Pruned },
    /// Every figure at a cell failed: the placement that led there is taken back.
    Backtrack { placement: Placement, depth: usize },
    /// The budget ran out in this search.
    Budget(Exhausted),
    /// The verdict.
    Done(Verdict<'a>),
}

/// The end of a decision, as the observer sees it.
#[derive(Clone, Copy, Debug)]
pub enum Verdict<'a> {
    Solved(&'a [Placement]),
    /// The proof, one line.
    Unsolvable(&'a str),
    /// What ran out and what was tried.
    GaveUp(&'a str),
}

/// Receives the search's events; `ACTIVE` false compiles every report away.
pub trait Observer {
    const ACTIVE: bool;
    /// False stops the search (it then gives up).
    fn see(&mut self, event: Event<'_>) -> bool;
}

/// No observer: the solver as it runs without `--watch`.
pub struct Silent;

impl Observer for Silent {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn see(&mut self, _: Event<'_>) -> bool {
        true
    }
}

/// Running totals of the events, shown beside each step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub tried: u64,
    pub pockets: u64,
    pub memo: u64,
    pub backtracks: u64,
    pub attempts: u64,
}

impl Counters {
    pub fn count(&mut self, event: &Event<'_>) {
        match event {
            Event::Try { .. } => self.tried += 1,
            Event::Prune {
                why: Pruned::Pocket,
                ..
            } => self.pockets += 1,
            Event::Prune {
                why: Pruned::Memo, ..
            } => self.memo += 1,
            Event::Backtrack { .. } => self.backtracks += 1,
            Event::Attempt { .. } => self.attempts += 1,
            _ => {}
        }
    }
}

impl std::fmt::Display for Counters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "tried {} | pruned: pocket {} memo {} | backtracks {} | attempts {}",
            self.tried, self.pockets, self.memo, self.backtracks, self.attempts
        )
    }
}

/// One line describing an event (without the counters).
pub fn describe(event: &Event<'_>) -> String {
    let piece = |p: &Placement| format!("{}{} at x={} y={}", p.figure, p.angle, p.x, p.y);
    match event {
        Event::Stage(name) => format!("stage: {name}"),
        Event::Attempt { number, limit } => {
            format!("attempt {number} on an empty board (limit {limit} placements)")
        }
        Event::Try {
            cell,
            placement,
            depth,
        } => format!(
            "try {} for cell ({}, {}) depth {depth}",
            piece(placement),
            cell.0,
            cell.1
        ),
        Event::Prune {
            placement,
            why: Pruned::Pocket,
        } => format!("prune {}: encloses a pocket", piece(placement)),
        Event::Prune {
            placement,
            why: Pruned::Memo,
        } => format!("prune {}: memoised failure", piece(placement)),
        Event::Backtrack { placement, depth } => {
            format!(
                "backtrack {} depth {depth}: no figure fits below",
                piece(placement)
            )
        }
        Event::Budget(which) => format!("stop: the {which} ran out"),
        Event::Done(Verdict::Solved(p)) => format!("solved: {} pieces placed", p.len()),
        Event::Done(Verdict::Unsolvable(reason)) => format!("unsolvable: {reason}"),
        Event::Done(Verdict::GaveUp(message)) => message.to_string(),
    }
}

/// Events the text trace prints in full before it samples.
pub const TRACE_HEAD: u64 = 100;

/// The text trace: one line per event, numbered; stages and the verdict always, every other
/// event only while its number is at most [`TRACE_HEAD`] or a power of two, so a search of
/// 10^9 placements prints about 130 lines.
pub struct TextTrace<'w> {
    out: &'w mut dyn Write,
    events: u64,
    printed: u64,
    counters: Counters,
}

impl<'w> TextTrace<'w> {
    pub fn new(out: &'w mut dyn Write) -> TextTrace<'w> {
        TextTrace {
            out,
            events: 0,
            printed: 0,
            counters: Counters::default(),
        }
    }
}

impl Observer for TextTrace<'_> {
    const ACTIVE: bool = true;

    fn see(&mut self, event: Event<'_>) -> bool {
        self.events += 1;
        self.counters.count(&event);
        let n = self.events;
        let always = matches!(event, Event::Stage(_) | Event::Done(_) | Event::Budget(_));
        if always || n <= TRACE_HEAD || n.is_power_of_two() {
            self.printed += 1;
            let _ = writeln!(self.out, "#{n} {} [{}]", describe(&event), self.counters);
        }
        if let Event::Done(_) = event {
            let _ = writeln!(
                self.out,
                "trace: {} events, {} printed (all up to #{TRACE_HEAD}, then powers of two, stages and the verdict)",
                self.events,
                self.printed + 1
            );
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tetromino::figures::Figure;

    #[test]
    fn the_text_trace_samples_past_its_head() {
        let mut text = Vec::new();
        let mut trace = TextTrace::new(&mut text);
        let placement = Placement {
            figure: Figure::T,
            angle: 1,
            x: 2,
            y: 3,
        };
        for _ in 0..5000 {
            trace.see(Event::Try {
                cell: (3, 3),
                placement,
                depth: 1,
            });
        }
        trace.see(Event::Done(Verdict::GaveUp("gave up")));
        let text = String::from_utf8(text).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // 100 in full, 128 .. 4096 (6 powers of two), the verdict and the summary.
        assert_eq!(lines.len(), 100 + 6 + 2, "{text}");
        assert!(lines[0].starts_with("#1 try T1 at x=2 y=3 for cell (3, 3)"));
        assert!(lines[100].starts_with("#128 try"));
        assert!(lines[106].starts_with("#5001 gave up"));
        assert!(lines[107].starts_with("trace: 5001 events, 108 printed"));
    }
}
