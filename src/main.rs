//! The `podium` command line: one subcommand per problem, plus `bench`, `bundle` and `verify`.

use clap::{Parser, Subcommand};
use podium::bench::{BenchArgs, Section};
use podium::cephalopod;
use podium::cephalopod::cli::KernelArg;
use podium::core::cli::{finish, CliError};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "podium",
    version,
    propagate_version = true,
    about = "Fast, strong solvers for five contest problems"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Cephalopod: the sum of final-board hashes after DEPTH turns (CodinGame input).
    Cephalopod(cephalopod::cli::CephalopodArgs),
    /// Bananagrams: solve hands, query anagrams, check grids, play and benchmark games.
    Bananagrams {
        #[command(subcommand)]
        command: podium::bananagrams::cli::BananagramsCommand,
    },
    /// ICFP 2015 (hex Tetris with phrases of power): score and replay command strings.
    Icfp2015 {
        #[command(subcommand)]
        command: podium::icfp2015::cli::Icfp2015Command,
    },
    /// Slider (TopCoder MM126): score, solve, generate and replay.
    Slider {
        #[command(subcommand)]
        command: podium::slider::cli::SliderCommand,
    },
    /// Tetromino square (Anadea IT Duel 2015): solve, verify, serve and play the puzzle API.
    Tetromino {
        #[command(subcommand)]
        command: podium::tetromino::cli::TetrominoCommand,
    },
    /// Run every solver on the bundled data and print a table (the main job).
    Bench {
        /// Only these problems (repeatable; default: all).
        #[arg(long, value_enum)]
        problem: Vec<Section>,
        /// Cephalopod: only cases whose id contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// ICFP 2015: seconds per problem.
        #[arg(long = "icfp-time", alias = "icfp-seconds", value_name = "SECONDS", default_value_t = 0.5, allow_negative_numbers = true, value_parser = podium::core::cli::parse_seconds)]
        icfp_seconds: f64,
        /// Slider: seconds per instance (the contest's limit is 10; `podium slider bench` runs
        /// the full 9.5).
        #[arg(long = "slider-time", alias = "slider-seconds", value_name = "SECONDS", default_value_t = 0.25, allow_negative_numbers = true, value_parser = podium::core::cli::parse_seconds)]
        slider_seconds: f64,
        /// Runs per case; the table shows the median time.
        #[arg(long, default_value_t = 3, value_parser = |t: &str| podium::core::cli::parse_bounded(t, "runs", 1, 1000))]
        runs: u64,
        /// Cephalopod: the lane kernel (auto: the fastest this CPU has).
        #[arg(long, value_enum, default_value_t = KernelArg::Auto)]
        kernel: KernelArg,
        /// JSON lines on stdout, one record per case (fields in the README), instead of the
        /// tables (bananagrams: its hands; the games bench has no records yet).
        #[arg(long)]
        json: bool,
        /// No progress bar on stderr (it shows only when stdout is not a terminal).
        #[arg(long)]
        quiet: bool,
        /// Only shard I of N (0-based): the cases whose id hashes to I; the N shards' --json
        /// lines together are one whole run's (README "Beyond one machine").
        #[arg(long, value_name = "I/N", value_parser = podium::core::shard::Shard::parse)]
        shard: Option<podium::core::shard::Shard>,
    },
    /// The best-solution store: merge stores, export submissions, join shards' runs.
    Best {
        #[command(subcommand)]
        command: podium::store::cli::BestCommand,
    },
    /// Compare two runs' JSON lines (`bench --json`) case by case: differences, ratios, and a
    /// verdict; with --fail-if-worse, exit 1 when a problem got worse by more than PCT percent.
    Compare {
        /// The reference run.
        a: PathBuf,
        /// The run compared with it.
        b: PathBuf,
        /// Exit 1 when a problem's time, instructions or score sum got worse by more than PCT
        /// percent (noise included: pick PCT above the runs' spread).
        #[arg(long, value_name = "PCT", allow_negative_numbers = true,
              value_parser = |t: &str| podium::core::cli::parse_bounded(t, "percent", 0, 1_000_000))]
        fail_if_worse: Option<u64>,
        /// Also draw the per-case ratios as an SVG picture into FILE.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Write one std-only Rust file of a solver for a contest judge (prints its size).
    Bundle {
        /// The solver: cephalopod or slider.
        problem: String,
        /// Output file; stdout when absent.
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Check answers by re-simulating the rules independently of the solvers.
    Verify {
        #[command(subcommand)]
        problem: VerifyCommand,
    },
}

#[derive(Subcommand)]
enum VerifyCommand {
    /// Check a Bananagrams grid (text rows, `.` empty) against a hand with the validator.
    Bananagrams {
        /// The grid file.
        grid: PathBuf,
        /// The hand the grid must use exactly.
        letters: String,
        #[command(flatten)]
        dict: podium::bananagrams::cli::DictArg,
        /// One JSON record on stdout (ok, and the verdict as its answer) instead of the line.
        #[arg(long)]
        json: bool,
    },
    /// Recompute a cephalopod answer by brute force over boards and compare.
    Cephalopod {
        /// Input file; stdin when absent.
        file: Option<PathBuf>,
        /// The answer to check; without it, the solver's answer is checked.
        #[arg(long)]
        answer: Option<u32>,
        /// One JSON record on stdout (ok, and the verdict as its answer) instead of the line.
        #[arg(long)]
        json: bool,
    },
}

/// `podium cephalopod [FILE]` with no option, read as clap reads it but without building every
/// problem's subcommands first (~330 k instructions of a ~0.8 M process on a small case, #19);
/// any other command line, help and errors included, goes to clap.
fn cephalopod_fast_path(args: &[OsString]) -> Option<cephalopod::cli::CephalopodArgs> {
    let file = match args {
        [command] if command == "cephalopod" => None,
        [command, file]
            if command == "cephalopod"
                && !file.is_empty()
                && !file.to_string_lossy().starts_with('-') =>
        {
            Some(PathBuf::from(file))
        }
        _ => return None,
    };
    Some(cephalopod::cli::CephalopodArgs {
        file,
        stats: false,
        kernel: KernelArg::Auto,
        prefault: false,
        svg: None,
        engine: cephalopod::cli::EngineArg::Auto,
    })
}

fn main() -> ExitCode {
    if let Err(code) = podium::core::cli::check_cpu("podium") {
        return code;
    }
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if let Some(args) = cephalopod_fast_path(&args) {
        return finish("podium", cephalopod::cli::run(args));
    }
    let cli = match podium::core::cli::parse_args::<Cli>("podium") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Cephalopod(args) => cephalopod::cli::run(args),
        Command::Bench {
            problem,
            filter,
            icfp_seconds,
            slider_seconds,
            runs,
            kernel,
            json,
            quiet,
            shard,
        } => podium::bench::run(&BenchArgs {
            sections: &problem,
            filter: filter.as_deref(),
            icfp_time: Duration::from_secs_f64(icfp_seconds),
            slider_seconds,
            runs: runs as usize,
            kernel: kernel.into(),
            json,
            quiet,
            shard,
        }),
        Command::Best { command } => podium::store::cli::run(command),
        Command::Compare {
            a,
            b,
            fail_if_worse,
            svg,
        } => podium::compare::read_run(&a).and_then(|run_a| {
            let run_b = podium::compare::read_run(&b)?;
            podium::compare::compare(
                &run_a,
                &run_b,
                fail_if_worse.map(|p| p as f64),
                svg.as_deref(),
                &mut std::io::stdout(),
            )
        }),
        Command::Tetromino { command } => podium::tetromino::cli::run(command),
        Command::Slider { command } => podium::slider::cli::run(command),
        Command::Bananagrams { command } => podium::bananagrams::cli::run(command),
        Command::Icfp2015 { command } => podium::icfp2015::cli::run(command),
        Command::Bundle { problem, out } => podium::bundle::write(&problem, out.as_deref())
            .map(|_| ())
            .map_err(CliError::input),
        Command::Verify {
            problem: VerifyCommand::Cephalopod { file, answer, json },
        } => cephalopod::cli::verify(file, answer, json),
        Command::Verify {
            problem:
                VerifyCommand::Bananagrams {
                    grid,
                    letters,
                    dict,
                    json,
                },
        } => podium::bananagrams::cli::run(podium::bananagrams::cli::BananagramsCommand::Check {
            grid,
            letters,
            dict,
            json,
        }),
    };
    finish("podium", result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cephalopod_fast_path_reads_what_clap_reads_and_leaves_the_rest() {
        let lines: [(&[&str], bool); 10] = [
            (&["cephalopod"], true),
            (&["cephalopod", "case.txt"], true),
            (&["cephalopod", "help"], true),
            (&["cephalopod", "--stats"], false),
            (&["cephalopod", "-"], false),
            (&["cephalopod", ""], false),
            (&["cephalopod", "case.txt", "--engine", "pips"], false),
            (&["cephalopod", "a", "b"], false),
            (&["slider", "case.txt"], false),
            (&[], false),
        ];
        for (line, taken) in lines {
            let args: Vec<OsString> = line.iter().map(OsString::from).collect();
            let fast = cephalopod_fast_path(&args);
            assert_eq!(fast.is_some(), taken, "{line:?}");
            let Some(fast) = fast else { continue };
            let parsed = Cli::try_parse_from(std::iter::once("podium").chain(line.iter().copied()))
                .expect("clap accepts what the fast path takes");
            let Command::Cephalopod(by_clap) = parsed.command else {
                panic!("clap read {line:?} as another command")
            };
            assert_eq!(format!("{fast:?}"), format!("{by_clap:?}"), "{line:?}");
        }
    }
}
