//! Bundle-only entry point: the CodinGame input on stdin, the answer on stdout; bad input gets a
//! one-line message on stderr and exit status 2, as with `podium cephalopod`.

use crate::cephalopod::hybrid::{self, Hybrid};
use crate::cephalopod::pips::{self, PipEngine};
use crate::cephalopod::{arch, memory, tables, Engine, KernelChoice, Problem};
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
    // As `cephalopod_judge`: the pip engine on tiny games, else the default engine in a
    // small-page arena (address space only); nothing is pre-faulted.
    let (board, depth) = (&problem.board, problem.depth);
    let answer = if memory::is_small(depth, board.empty_cells()) {
        pips::run(&mut PipEngine::new(), kernel, board, depth)
    } else {
        let arena = memory::arena();
        arena.prefer_small_pages();
        let mut engine = Hybrid::new(Engine::new(memory::buffers(&arena)));
        hybrid::run(&mut engine, kernel, board, depth)
    };
    // As `podium cephalopod`: a closed pipe ends quietly, another write error is exit 1.
    if let Err(e) = writeln!(std::io::stdout(), "{answer}") {
        if e.kind() != ErrorKind::BrokenPipe {
            eprintln!("cannot write stdout: {e}");
            exit(1);
        }
    }
}
