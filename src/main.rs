//! The `podium` command line: one subcommand per problem, plus `bench`, `bundle` and `verify`.

use clap::{Parser, Subcommand, ValueEnum};
use podium::cephalopod::{self, cases, KernelChoice, Problem};
use podium::core::cli::{finish, CliError, EXIT_INVALID};
use podium::core::counters::{peak_rss_bytes, CounterReport, CounterSet};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "podium",
    version,
    about = "Fast, strong solvers for five contest problems"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Cephalopod: the sum of final-board hashes after DEPTH turns (CodinGame input).
    Cephalopod {
        /// Input file (depth, then 3 lines of 3 cells 0..6); stdin when absent.
        file: Option<PathBuf>,
        /// Also print per-depth state counts, time per phase, peak memory and counters.
        #[arg(long)]
        stats: bool,
        #[arg(long, value_enum, default_value_t = KernelArg::Auto)]
        kernel: KernelArg,
        /// Fault in the memory of the widest public case before reading the input, as a
        /// CodinGame submission would (costs ~3 ms, so it only pays when the clock starts
        /// at the input).
        #[arg(long)]
        prefault: bool,
    },
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
        problem: Vec<BenchProblem>,
        /// Cephalopod: only cases whose id contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// ICFP 2015: seconds per problem.
        #[arg(long, default_value_t = 0.5, allow_negative_numbers = true, value_parser = podium::core::cli::parse_seconds)]
        icfp_seconds: f64,
        /// Slider: seconds per instance (the contest's limit is 10; `podium slider bench` runs
        /// the full 9.5).
        #[arg(long, default_value_t = 0.25, allow_negative_numbers = true, value_parser = podium::core::cli::parse_seconds)]
        slider_seconds: f64,
        /// Runs per case; the table shows the median time.
        #[arg(long, default_value_t = 3, value_parser = |t: &str| podium::core::cli::parse_bounded(t, "runs", 1, 1000))]
        runs: u64,
        #[arg(long, value_enum, default_value_t = KernelArg::Auto)]
        kernel: KernelArg,
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
        letters: String,
        #[command(flatten)]
        dict: podium::bananagrams::cli::DictArg,
    },
    /// Recompute a cephalopod answer by brute force over boards and compare.
    Cephalopod {
        /// Input file; stdin when absent.
        file: Option<PathBuf>,
        /// The answer to check; without it, the solver's answer is checked.
        #[arg(long)]
        answer: Option<u32>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BenchProblem {
    Cephalopod,
    Icfp2015,
    Tetromino,
    Slider,
    Bananagrams,
}

#[derive(Clone, Copy, ValueEnum)]
enum KernelArg {
    Auto,
    Avx2,
    Portable,
}

impl From<KernelArg> for KernelChoice {
    fn from(k: KernelArg) -> KernelChoice {
        match k {
            KernelArg::Auto => KernelChoice::Auto,
            KernelArg::Avx2 => KernelChoice::Avx2,
            KernelArg::Portable => KernelChoice::Portable,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Cephalopod {
            file,
            stats,
            kernel,
            prefault,
        } => run_cephalopod(file, stats, prefault, kernel.into()),
        Command::Bench {
            problem,
            filter,
            icfp_seconds,
            slider_seconds,
            runs,
            kernel,
        } => run_benches(
            &problem,
            filter.as_deref(),
            [icfp_seconds, slider_seconds],
            runs as usize,
            kernel.into(),
        ),
        Command::Tetromino { command } => podium::tetromino::cli::run(command),
        Command::Slider { command } => podium::slider::cli::run(command),
        Command::Bananagrams { command } => podium::bananagrams::cli::run(command),
        Command::Icfp2015 { command } => podium::icfp2015::cli::run(command),
        Command::Bundle { problem, out } => podium::bundle::write(&problem, out.as_deref())
            .map(|_| ())
            .map_err(CliError::input),
        Command::Verify {
            problem: VerifyCommand::Cephalopod { file, answer },
        } => verify_cephalopod(file, answer),
        Command::Verify {
            problem:
                VerifyCommand::Bananagrams {
                    grid,
                    letters,
                    dict,
                },
        } => podium::bananagrams::cli::run(podium::bananagrams::cli::BananagramsCommand::Check {
            grid,
            letters,
            dict,
        }),
    };
    finish("podium", result)
}

fn read_input(file: Option<&PathBuf>) -> Result<Vec<u8>, CliError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    match file {
        Some(path) => {
            bytes = std::fs::read(path)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?
        }
        None => {
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| CliError::input(format!("cannot read stdin: {e}")))?;
        }
    }
    Ok(bytes)
}

fn run_cephalopod(
    file: Option<PathBuf>,
    stats: bool,
    prefault: bool,
    choice: KernelChoice,
) -> Result<(), CliError> {
    let mut out = std::io::stdout();
    let kernel = cephalopod::select(choice).map_err(CliError::input)?;
    let clock = Instant::now();
    let arena = cephalopod::memory::arena();
    let mut buffers = cephalopod::memory::buffers(&arena);
    if prefault {
        cephalopod::memory::prefault_for(&mut buffers, cephalopod::engine::PREFAULT_STATES);
    }
    let reserved = clock.elapsed();
    let problem = Problem::parse(&read_input(file.as_ref())?).map_err(CliError::input)?;
    let read = clock.elapsed();
    let mut layers = Vec::new();
    let mut engine = cephalopod::Engine::new(buffers);
    let counters = stats.then(CounterSet::start);
    let parsed = clock.elapsed();
    let answer = cephalopod::arch::run(
        &mut engine,
        kernel,
        &problem.board,
        problem.depth,
        stats.then_some(&mut layers),
    );
    let solved = clock.elapsed();
    writeln!(out, "{answer}")?;
    if let Some(counters) = counters {
        print_cephalopod_stats(
            kernel,
            &layers,
            [reserved, read, parsed, solved],
            counters.stop(),
        );
    }
    Ok(())
}

fn print_cephalopod_stats(
    kernel: cephalopod::Kernel,
    layers: &[cephalopod::LayerStats],
    [reserved, read, parsed, solved]: [Duration; 4],
    counters: CounterReport,
) {
    eprintln!(
        "kernel: {} (cpu: {})",
        kernel.name(),
        podium::core::cpu::features()
    );
    eprintln!(
        "{:>5} {:>9} {:>11} {:>9} {:>9}",
        "depth", "states", "children", "terminal", "ms"
    );
    for l in layers {
        eprintln!(
            "{:>5} {:>9} {:>11} {:>9} {:>9.3}",
            l.depth,
            l.states,
            l.children,
            l.terminal,
            l.nanos as f64 / 1e6
        );
    }
    let total_states: usize = layers.iter().map(|l| l.states).sum();
    let children: u64 = layers.iter().map(|l| l.children).sum();
    let widest = layers.iter().map(|l| l.states).max().unwrap_or(0);
    eprintln!("states: {total_states} expanded over all depths, {widest} at the widest; {children} children");
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    eprintln!(
        "time: reserve {:.3} ms, read+parse {:.3} ms, open counters {:.3} ms, solve {:.3} ms, total {:.3} ms",
        ms(reserved),
        ms(read - reserved),
        ms(parsed - read),
        ms(solved - parsed),
        ms(solved)
    );
    eprintln!(
        "peak RSS: {:.1} MiB",
        peak_rss_bytes() as f64 / (1 << 20) as f64
    );
    eprintln!("counters during the solve:\n{counters}");
}

/// The contest server's 28 recorded signatures, each solved and verified; false on a failure.
fn run_tetromino_bench() -> Result<bool, CliError> {
    let mut out = std::io::stdout();
    use podium::tetromino::{solve, verify, Options, Outcome, Signature};
    const SERVER: &str = include_str!("../data/tetromino/server_signatures.txt");
    writeln!(
        out,
        "tetromino (the contest server's 28 signatures; solved and verified)"
    )?;
    writeln!(
        out,
        "{:>4} {:<40} {:>8} {:>10}",
        "N", "signature", "result", "ms"
    )?;
    let (mut all_ok, mut total) = (true, Duration::ZERO);
    for line in SERVER
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (size, text) = line
            .split_once(' ')
            .expect("bundled signatures are `N SIGNATURE`");
        let size: usize = size.parse().expect("bundled sizes are numbers");
        let signature = Signature::parse(text.trim()).expect("bundled signatures parse");
        let start = Instant::now();
        let (outcome, _) = solve(size, &signature, &Options::default());
        let time = start.elapsed();
        total += time;
        let ok = matches!(&outcome, Outcome::Solved(p) if verify(size, &signature, p).is_ok());
        all_ok &= ok;
        let shown: String = text.chars().take(40).collect();
        writeln!(
            out,
            "{size:>4} {shown:<40} {:>8} {:>10.3}",
            if ok { "ok" } else { "FAIL" },
            time.as_secs_f64() * 1e3
        )?;
    }
    writeln!(out, "total {:.3} ms", total.as_secs_f64() * 1e3)?;
    Ok(all_ok)
}

/// The main job: every solver on its bundled data.
fn run_benches(
    problems: &[BenchProblem],
    filter: Option<&str>,
    [icfp_seconds, slider_seconds]: [f64; 2],
    runs: usize,
    kernel: KernelChoice,
) -> Result<(), CliError> {
    let mut out = std::io::stdout();
    let wanted = |p: BenchProblem| problems.is_empty() || problems.contains(&p);
    let mut result = Ok(());
    if wanted(BenchProblem::Cephalopod) {
        result = run_bench(filter, runs, kernel);
    }
    if wanted(BenchProblem::Icfp2015) {
        writeln!(out)?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let budget = Duration::from_secs_f64(icfp_seconds);
        podium::icfp2015::play::bench(budget, cores, &[], &mut out)?;
    }
    if wanted(BenchProblem::Tetromino) {
        writeln!(out)?;
        if !run_tetromino_bench()? {
            result = Err(CliError::new(
                EXIT_INVALID,
                "tetromino: a server signature failed",
            ));
        }
    }
    if wanted(BenchProblem::Slider) {
        writeln!(out)?;
        let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
        let bench = podium::slider::cli::SliderCommand::Bench {
            time: slider_seconds,
            jobs,
            seeds: Vec::new(),
        };
        podium::slider::cli::run(bench)?;
    }
    if wanted(BenchProblem::Bananagrams) {
        writeln!(out)?;
        let lexicon = podium::bananagrams::dict::Lexicon::enable();
        writeln!(out, "bananagrams: random hands through the hand solver")?;
        write!(
            out,
            "{}",
            podium::bananagrams::cli::hands(&lexicon, 1000, 21, 1, 1.0, false)
        )?;
        writeln!(out)?;
        let games = podium::bananagrams::games_bench::GamesArgs {
            games: 1000,
            players: vec!["Podium".into(), "TwoLetterStranding".into()],
            seed: 1,
            threaded: false,
            dict: None,
            quiet: true,
        };
        write!(out, "{}", podium::bananagrams::games_bench::bench(&games)?)?;
    }
    result
}

fn run_bench(filter: Option<&str>, runs: usize, choice: KernelChoice) -> Result<(), CliError> {
    let mut out = std::io::stdout();
    let kernel = cephalopod::select(choice).map_err(CliError::input)?;
    let all = cases::all();
    let selected: Vec<_> = all
        .iter()
        .filter(|c| filter.is_none_or(|f| c.id.contains(f)))
        .collect();
    if selected.is_empty() {
        return Err(CliError::input(format!(
            "bench: no cephalopod case id contains '{}'",
            podium::core::cli::quote(filter.unwrap_or_default())
        )));
    }
    let arena = cephalopod::memory::arena();
    let mut buffers = cephalopod::memory::buffers(&arena);
    cephalopod::memory::prefault_for(&mut buffers, cephalopod::engine::PREFAULT_STATES);
    let mut engine = cephalopod::Engine::new(buffers);
    writeln!(
        out,
        "cephalopod ({} kernel, median of {runs} runs)",
        kernel.name()
    )?;
    writeln!(
        out,
        "{:<14} {:>5} {:>11} {:>11} {:>4} {:>10}",
        "case", "depth", "answer", "expected", "ok", "ms"
    )?;
    let mut failures = 0;
    let mut total = Duration::ZERO;
    for case in selected {
        let mut times = Vec::with_capacity(runs);
        let mut answer = 0;
        for _ in 0..runs {
            let start = Instant::now();
            answer =
                cephalopod::arch::run(&mut engine, kernel, case.board(), case.problem.depth, None);
            times.push(start.elapsed());
        }
        times.sort();
        let median = times[runs / 2];
        total += median;
        let ok = answer == case.expected;
        failures += usize::from(!ok);
        writeln!(
            out,
            "{:<14} {:>5} {:>11} {:>11} {:>4} {:>10.3}",
            case.id,
            case.problem.depth,
            answer,
            case.expected,
            if ok { "ok" } else { "FAIL" },
            median.as_secs_f64() * 1e3
        )?;
    }
    writeln!(
        out,
        "total {:.3} ms (sum of medians, solve only, in-process)",
        total.as_secs_f64() * 1e3
    )?;
    if failures > 0 {
        return Err(CliError::new(
            EXIT_INVALID,
            format!("cephalopod: {failures} wrong answers"),
        ));
    }
    Ok(())
}

fn verify_cephalopod(file: Option<PathBuf>, answer: Option<u32>) -> Result<(), CliError> {
    let mut out = std::io::stdout();
    let problem = Problem::parse(&read_input(file.as_ref())?).map_err(CliError::input)?;
    let claimed = match answer {
        Some(a) => a,
        None => cephalopod::solve(
            &problem,
            cephalopod::select(KernelChoice::Auto).map_err(CliError::input)?,
        ),
    };
    let truth = cephalopod::reference::answer(&problem.board, problem.depth);
    if claimed == truth {
        writeln!(out, "ok: {truth}")?;
        Ok(())
    } else {
        Err(CliError::new(
            EXIT_INVALID,
            format!("cephalopod: answer {claimed} is wrong, the rules give {truth}"),
        ))
    }
}
