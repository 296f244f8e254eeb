//! Bundle-only entry point: the CodinGame input on stdin, the answer on stdout; bad input gets a
//! one-line message on stderr and exit status 2, as with `podium cephalopod`.

use crate::cephalopod::pips::{self, PipEngine};
use crate::cephalopod::{arch, tables, KernelChoice, Problem};
use std::io::{ErrorKind, Read, Write};
use std::process::exit;

fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("{message}");
    exit(2)
}

fn main() {
    // Everything before the input is read stays out of a judge clock that starts there.
    // SAFETY: first thing in main: one thread, and nothing has read a table yet.
    unsafe { tables::init() };
    let kernel = arch::select(KernelChoice::Auto).unwrap_or_else(|e| fail(e));
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        fail(format!("cannot read stdin: {e}"));
    }
    let problem = Problem::parse(&input).unwrap_or_else(|e| fail(e));
    // The pip engine: its levels grow with the case, so nothing is reserved or pre-faulted.
    let answer = pips::run(&mut PipEngine::new(), kernel, &problem.board, problem.depth);
    // As `podium cephalopod`: a closed pipe ends quietly, another write error is exit 1.
    if let Err(e) = writeln!(std::io::stdout(), "{answer}") {
        if e.kind() != ErrorKind::BrokenPipe {
            eprintln!("cannot write stdout: {e}");
            exit(1);
        }
    }
}
