//! Slider replay views: the board after any number of turns as ANSI-coloured text or as an SVG,
//! for `podium slider show`.

use super::board::{step, Outcome, Problem, Turn, HOLE};

/// The board after the first `upto` turns, with the score and turns played so far.
pub struct Frame {
    pub cells: Vec<i8>,
    pub score: i64,
    pub played: usize,
    /// The cell the last turn started from, if any.
    pub last: Option<usize>,
}

pub fn replay(problem: &Problem, turns: &[Turn], upto: usize) -> Frame {
    let n = problem.n;
    let mut cells = problem.cells.clone();
    let mut score = 0i64;
    let mut last = None;
    let played = upto.min(turns.len());
    for (t, turn) in turns[..played].iter().enumerate() {
        last = Some(turn.row * n + turn.col);
        if let Outcome::Dropped(value) = step(&mut cells, n, *turn) {
            score += (n * n - t) as i64 * i64::from(value - 1);
        }
    }
    Frame {
        cells,
        score,
        played,
        last,
    }
}

/// 256-colour ANSI background per block value 1..9.
const ANSI: [u8; 10] = [0, 250, 39, 46, 226, 208, 196, 201, 93, 21];
const SVG_FILL: [&str; 10] = [
    "#fff", "#bbb", "#3af", "#3c3", "#ee2", "#f93", "#e33", "#e3e", "#83e", "#33c",
];

pub fn ansi(problem: &Problem, frame: &Frame, colour: bool) -> String {
    let n = problem.n;
    let mut out = format!(
        "turn {} of at most {}, score {}\n",
        frame.played,
        n * n,
        frame.score
    );
    for row in 0..n {
        for col in 0..n {
            let i = row * n + col;
            let cell = frame.cells[i];
            let text = match cell {
                HOLE => " O".to_string(),
                0 => " .".to_string(),
                v => format!(" {v}"),
            };
            let mark = frame.last == Some(i);
            if colour && cell > 0 {
                let fg = if mark { "1;4;30" } else { "30" };
                out += &format!("\x1b[{fg};48;5;{}m{text}\x1b[0m", ANSI[cell as usize]);
            } else if colour && cell == HOLE {
                out += &format!("\x1b[1;37;40m{text}\x1b[0m");
            } else {
                out += &text;
            }
        }
        out.push('\n');
    }
    out
}

pub fn svg(problem: &Problem, frame: &Frame) -> String {
    let n = problem.n;
    let size = 24;
    let side = n * size;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{side}\" height=\"{}\" \
         font-family=\"monospace\" font-size=\"14\">\n<rect width=\"{side}\" height=\"{side}\" \
         fill=\"#fff\" stroke=\"#888\"/>\n",
        side + 24
    );
    for (i, &cell) in frame.cells.iter().enumerate() {
        let (x, y) = ((i % n) * size, (i / n) * size);
        match cell {
            HOLE => {
                out += &format!(
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#111\"/>\n",
                    x + size / 2,
                    y + size / 2,
                    size / 2 - 2
                )
            }
            0 => {}
            v => {
                out += &format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{}\" \
                     stroke=\"#333\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{v}</text>\n",
                    x + 1,
                    y + 1,
                    size - 2,
                    size - 2,
                    SVG_FILL[v as usize],
                    x + size / 2,
                    y + size / 2 + 5
                )
            }
        }
    }
    out += &format!(
        "<text x=\"4\" y=\"{}\">turn {}, score {}</text>\n</svg>\n",
        side + 18,
        frame.played,
        frame.score
    );
    out
}
