//! The judge's path (`cephalopod_judge`): the CodinGame input from a file or stdin, the answer on
//! stdout, with no argument parser, no huge pages and no pre-faulting before the input.

use super::cli::read_input;
use super::hybrid::{self, Hybrid};
use super::{memory, pips, select, Engine, KernelChoice, Problem};
use crate::core::cli::{CliError, EXIT_OK};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

const USAGE: &str = "usage: cephalopod_judge [FILE]  (the CodinGame input; stdin without FILE)";

/// Solves the input named by `args` (the arguments after the program's name) onto `out`.
pub fn run(args: &[OsString], out: &mut impl Write) -> Result<(), CliError> {
    let file = match args {
        [] => None,
        [flag] if flag == "-h" || flag == "--help" => {
            writeln!(out, "{USAGE}")?;
            return Ok(());
        }
        [file] if !file.to_string_lossy().starts_with('-') => Some(PathBuf::from(file)),
        _ => return Err(CliError::input(USAGE)),
    };
    let kernel = select(KernelChoice::Auto).map_err(CliError::input)?;
    let problem = Problem::parse(&read_input(file.as_ref())?).map_err(CliError::input)?;
    let (board, depth) = (&problem.board, problem.depth);
    let answer = if memory::is_small(depth, board.empty_cells()) {
        // A tiny game: the pip engine, which reserves nothing (the two cost the same there).
        pips::run(&mut pips::PipEngine::new(), kernel, board, depth)
    } else {
        // The default engine; its arena is address space, kept in small pages (see `cli`).
        let arena = memory::arena();
        let buffers = memory::buffers(&arena);
        memory::small_pages_first(&arena, &buffers);
        let mut engine = Hybrid::new(Engine::new(buffers));
        hybrid::run(&mut engine, kernel, board, depth)
    };
    writeln!(out, "{answer}")?;
    out.flush()?;
    Ok(())
}

/// The process's exit code for `run` on the command line: an error is one line on stderr.
pub fn main_code() -> i32 {
    if crate::core::cli::check_cpu("cephalopod_judge").is_err() {
        return i32::from(crate::core::cli::EXIT_INVALID);
    }
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match run(&args, &mut std::io::stdout().lock()) {
        Ok(()) => i32::from(EXIT_OK),
        Err(e) if e.is_closed_pipe() => i32::from(EXIT_OK),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "cephalopod_judge: {}", e.message);
            i32::from(e.code)
        }
    }
}
