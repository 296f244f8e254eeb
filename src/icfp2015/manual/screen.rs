//! The game's screen as lines of text with colours: the board, the scores, the typed string
//! and the panel of keys, coming units and phrases, fitted to the terminal's size.

use super::session::Session;
use crate::icfp2015::rules::game::{Evaluation, Setup, Status};
use crate::icfp2015::rules::hex::Cell;
use std::path::Path;

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

impl Session<'_> {
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
