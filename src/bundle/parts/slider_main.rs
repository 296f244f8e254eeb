//! Bundle-only entry point for Slider: the official input on stdin, the official output on
//! stdout; the search time is SLIDER_TIME seconds (or the first argument), 9.5 by default.

use crate::core::timer::Deadline;
use crate::slider::board::{output_text, Problem};
use crate::slider::solve::solve;
use std::io::{Read, Write};
use std::process::exit;

fn main() {
    let deadline = {
        let setting = std::env::args()
            .nth(1)
            .or_else(|| std::env::var("SLIDER_TIME").ok());
        let seconds = setting.and_then(|s| s.parse::<f64>().ok()).unwrap_or(9.5);
        Deadline::from_secs_f64(seconds)
    };
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("cannot read stdin: {e}");
        exit(2);
    }
    let problem = Problem::parse(&input).unwrap_or_else(|e| {
        eprintln!("{e}");
        exit(2)
    });
    let solved = solve(&problem, deadline, 1);
    // As `podium slider solve`: a closed pipe ends quietly, another write error is exit 1.
    let mut out = std::io::stdout().lock();
    let text = output_text(&solved.turns);
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("cannot write stdout: {e}");
            exit(1);
        }
    }
}
