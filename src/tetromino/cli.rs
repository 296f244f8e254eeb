//! `podium tetromino solve|verify|serve|net-solve|gen`: the clap types and their runner.
//! Exit codes: 0 solved or valid, 1 invalid solution or failed request, 2 bad input, 3 proven
//! unsolvable, 4 gave up at the budget.

use super::client::{net_solve, NetError};
use super::generate::{impossible, random_multiset, random_solvable, skewed};
use super::server::{PuzzleServer, ServerConfig};
use super::show;
use super::signature::Signature;
use super::solution::{parse_json, to_json, verify};
use super::solver::{Options, Outcome, MAX_SIZE};
use crate::core::http::Limits;
use crate::core::report::{Record, Report};
use crate::core::rng::Rng;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::Subcommand, Debug, Clone)]
pub enum TetrominoCommand {
    /// Tile the N x N square with the signature's figures: the contest JSON on stdout, or
    /// "unsolvable: REASON" (exit 3), or "gave up" at the budget (exit 4).
    Solve {
        /// The square's side, an even number up to the solver's limit.
        #[arg(long, short = 'n', value_name = "N")]
        size: usize,
        /// Counts per figure, e.g. I1,J1,L1,Z1 (omitted figures: 0).
        #[arg(long, short = 's', value_name = "S")]
        signature: String,
        /// Draw the tiling in the terminal (on stderr, so stdout stays JSON).
        #[arg(long)]
        show: bool,
        /// Write the tiling as an SVG picture.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Plain letters instead of ANSI colours for --show.
        #[arg(long)]
        no_color: bool,
        /// Give up (exit 4) after this many seconds, 0 to 1000000: every run ends, also on
        /// squares that no proof decides.
        #[arg(long = "time", alias = "budget", value_name = "SECONDS", default_value_t = 30.0,
              allow_negative_numbers = true, value_parser = crate::core::cli::parse_seconds)]
        time: f64,
        /// Give up after this many placements.
        #[arg(long, value_name = "COUNT")]
        nodes: Option<u64>,
        /// Memory the search's memo may hold, in MiB [default: 16 KiB per cell of the board,
        /// between 16 and 256 MiB].
        #[arg(long, value_name = "MIB", value_parser = crate::core::cli::parse_megabytes)]
        memory: Option<u64>,
        /// Seed of the tie-breaks between restarts.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print placements tried, restarts and time on stderr.
        #[arg(long)]
        stats: bool,
        /// Show the search step by step: full screen when stdin and stdout are terminals (q or
        /// Ctrl-C stops, exit 4), else a text trace on stderr (every event up to #100, then
        /// powers of two, stages and the verdict).
        #[arg(long)]
        watch: bool,
        /// Milliseconds the full-screen --watch pauses after each step, 0 to 60000.
        #[arg(long, value_name = "MS", default_value_t = 100, requires = "watch",
              value_parser = clap::value_parser!(u64).range(0..=60_000))]
        delay: u64,
    },
    /// Check a solution (JSON from FILE or stdin) against a size and signature, naming the
    /// first off-board piece, overlap, gap, unknown figure/angle or wrong count (exit 1).
    Verify {
        /// The square's side, an even number up to the solver's limit.
        #[arg(long, short = 'n', value_name = "N")]
        size: usize,
        /// Counts per figure, e.g. I1,J1,L1,Z1 (omitted figures: 0).
        #[arg(long, short = 's', value_name = "S")]
        signature: String,
        /// Solution file; stdin when absent.
        file: Option<PathBuf>,
        /// One JSON record on stdout (ok, and the verdict as its answer) instead of the line.
        #[arg(long)]
        json: bool,
    },
    /// Serve the contest's API: GET /api/puzzle (token, size) and POST /api/puzzle
    /// (token, id, solution).
    Serve {
        /// Port to listen on.
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// An accepted token (repeatable; at least one).
        #[arg(long = "token", value_name = "T", required = true)]
        tokens: Vec<String>,
        /// Largest size issued.
        #[arg(long, default_value_t = 200)]
        max_size: usize,
        /// Seed of the puzzle ids and tilings, so a run reproduces.
        #[arg(long, default_value_t = 2016)]
        seed: u64,
    },
    /// Fetch a puzzle of SIZE from the API, solve it within TIMEOUT seconds and submit it,
    /// printing each step's time.
    NetSolve {
        /// The server, e.g. http://127.0.0.1:8080 (/api/puzzle is appended).
        #[arg(long)]
        url: String,
        /// The token the server accepts.
        #[arg(long)]
        token: String,
        /// The square's side to ask for.
        size: usize,
        /// Seconds the solver may take [default: 30; memory as for solve].
        #[arg(long = "time", value_name = "SECONDS", allow_negative_numbers = true,
              value_parser = crate::core::cli::parse_seconds)]
        time: Option<f64>,
        /// The old positional form of --time.
        #[arg(hide = true, allow_negative_numbers = true, value_parser = crate::core::cli::parse_seconds)]
        timeout: Option<f64>,
    },
    /// Print random signatures: from random tilings (solvable), skewed block tilings (solvable),
    /// counts a colouring forbids (the proof on stderr), or uniform random multisets.
    Gen {
        /// The square's side, an even number up to the solver's limit.
        #[arg(long, short = 'n', value_name = "N")]
        size: usize,
        /// How many signatures.
        #[arg(long, default_value_t = 1)]
        count: usize,
        /// Seed of the first signature; the others follow from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Uniform random multisets (mostly unsolvable) instead of random tilings' counts.
        #[arg(long, conflicts_with_all = ["skewed", "impossible"])]
        multiset: bool,
        /// Mixes dominated by two or three figures, tiled by blocks drawn towards them (solvable).
        #[arg(long, conflicts_with = "impossible")]
        skewed: bool,
        /// Counts a stated colouring invariant forbids (each proof on stderr).
        #[arg(long)]
        impossible: bool,
    },
}

pub use crate::core::cli::CliError;

/// Runs a command on the process's stdin, stdout and stderr.
pub fn run(cmd: TetrominoCommand) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    run_with(
        cmd,
        &mut std::io::stdin().lock(),
        &mut stdout.lock(),
        &mut stderr.lock(),
    )
}

fn checked_size(size: usize) -> Result<usize, CliError> {
    if (1..=MAX_SIZE).contains(&size) {
        Ok(size)
    } else {
        Err(CliError::input(format!(
            "tetromino: size {size} outside 1..={MAX_SIZE}"
        )))
    }
}

fn write_out(out: &mut dyn Write, text: &str) -> Result<(), CliError> {
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| CliError::write("stdout", e))
}

/// Runs a command on the given streams (what `run` does, testable in-process).
pub fn run_with(
    cmd: TetrominoCommand,
    input: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), CliError> {
    match cmd {
        TetrominoCommand::Solve {
            size,
            signature,
            show: draw,
            svg,
            no_color,
            time,
            nodes,
            memory,
            seed,
            stats,
            watch,
            delay,
        } => {
            let size = checked_size(size)?;
            let signature = Signature::parse(&signature).map_err(CliError::input)?;
            let options = Options {
                seed,
                node_budget: nodes,
                time_budget: Some(Duration::from_secs_f64(time)),
                memory_budget: memory.map(|mib| usize::try_from(mib << 20).unwrap_or(usize::MAX)),
                ..Options::default()
            };
            let (outcome, counters) = if watch {
                solve_watched(size, &signature, &options, delay, !no_color, err)?
            } else {
                super::decide::solve(size, &signature, &options)
            };
            if stats {
                let _ = writeln!(
                    err,
                    "stats: {} placements, {} attempts, {} memo hits, {} states remembered, {:.3} ms",
                    counters.nodes,
                    counters.attempts,
                    counters.memo_hits,
                    counters.memo_size,
                    counters.elapsed.as_secs_f64() * 1e3
                );
            }
            match outcome {
                Outcome::Solved(placements) => {
                    if draw {
                        let picture = show::terminal(size, &placements, !no_color);
                        let _ = writeln!(err, "{picture}{}", show::legend(!no_color));
                    }
                    if let Some(path) = svg {
                        std::fs::write(&path, show::svg(size, &placements)).map_err(|e| {
                            CliError::new(
                                1,
                                format!("tetromino: cannot write {}: {e}", path.display()),
                            )
                        })?;
                    }
                    write_out(out, &format!("{}\n", to_json(&placements)))
                }
                Outcome::Unsolvable(reason) => {
                    Err(CliError::new(3, format!("unsolvable: {reason}")))
                }
                Outcome::GaveUp(message) => Err(CliError::new(4, message)),
            }
        }
        TetrominoCommand::Verify {
            size,
            signature,
            file,
            json,
        } => {
            let size = checked_size(size)?;
            let signature = Signature::parse(&signature).map_err(CliError::input)?;
            let text = match file {
                Some(path) => std::fs::read_to_string(&path).map_err(|e| {
                    CliError::input(format!("tetromino: cannot read {}: {e}", path.display()))
                })?,
                None => {
                    let mut text = String::new();
                    input.read_to_string(&mut text).map_err(|e| {
                        CliError::input(format!("tetromino: cannot read stdin: {e}"))
                    })?;
                    text
                }
            };
            let placements = parse_json(&text).map_err(CliError::input)?;
            let checked = verify(size, &signature, &placements)
                .map(|()| {
                    format!(
                        "ok: {} pieces tile the {size}x{size} square with {signature}",
                        placements.len()
                    )
                })
                .map_err(|e| format!("invalid: {e}"));
            let case = format!("{size} {signature}");
            crate::core::report::check_outcome(out, json, "tetromino", case, checked)
        }
        TetrominoCommand::Serve {
            port,
            host,
            tokens,
            max_size,
            seed,
        } => {
            let max_size = checked_size(max_size)?;
            let server = PuzzleServer::bind(
                &format!("{host}:{port}"),
                ServerConfig {
                    tokens,
                    seed,
                    max_size,
                    limits: Limits::default(),
                },
            )
            .map_err(CliError::input)?;
            let address = server.local_addr();
            let _ = writeln!(err, "serving http://{address}/api/puzzle");
            server.stop_on_signals();
            server.serve().map_err(|e| CliError::new(1, e))
        }
        TetrominoCommand::NetSolve {
            url,
            token,
            size,
            time,
            timeout,
        } => {
            let size = checked_size(size)?;
            let timeout = time.or(timeout).map(Duration::from_secs_f64);
            match net_solve(&url, &token, size, timeout, out) {
                Ok(report) if report.solved => Ok(()),
                Ok(report) => Err(CliError::new(
                    1,
                    format!("net-solve: the server did not accept puzzle {}", report.id),
                )),
                Err(NetError::Request(m)) => Err(CliError::new(1, m)),
                Err(NetError::Unsolvable(m)) => Err(CliError::new(3, m)),
                Err(NetError::GaveUp(m)) => Err(CliError::new(4, m)),
            }
        }
        TetrominoCommand::Gen {
            size,
            count,
            seed,
            multiset,
            skewed: skew,
            impossible: forbidden,
        } => {
            let size = checked_size(size)?;
            if size % 2 == 1 || size < 2 {
                return Err(CliError::input(format!(
                    "tetromino: gen needs an even size, not {size}"
                )));
            }
            let mut rng = Rng::new(seed);
            // One line at a time, so a long run shows its signatures as they come.
            for _ in 0..count {
                let signature = if multiset {
                    random_multiset(size, &mut rng)
                } else if skew {
                    skewed(size, &mut rng)
                } else if forbidden {
                    impossible(size, &mut rng).map(|(signature, reason)| {
                        let _ = writeln!(err, "{signature}: {reason}");
                        signature
                    })
                } else {
                    random_solvable(size, rng.next_u64())
                }
                .ok_or_else(|| {
                    CliError::input(format!(
                        "tetromino: gen cannot make a square of size {size}"
                    ))
                })?;
                write_out(out, &format!("{signature}\n"))?;
            }
            Ok(())
        }
    }
}

/// Decides with `--watch`: the full-screen view when stdin and stdout are terminals (the final
/// board on `err` once the terminal is restored), else the text trace on `err`.
fn solve_watched(
    size: usize,
    signature: &Signature,
    options: &Options,
    delay_ms: u64,
    colour: bool,
    err: &mut dyn Write,
) -> Result<(Outcome, super::Stats), CliError> {
    use super::decide::solve_observed;
    use std::io::IsTerminal;
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        return Ok(solve_observed(
            size,
            signature,
            options,
            &mut super::trace::TextTrace::new(err),
        ));
    }
    let decided = {
        let mut view = super::watch::Watch::start(size, Duration::from_millis(delay_ms))
            .map_err(|e| CliError::output(format!("tetromino --watch: terminal: {e}")))?;
        solve_observed(size, signature, options, &mut view)
    };
    let verdict = super::trace::describe(&super::trace::Event::Done(decided.0.verdict()));
    if let Outcome::Solved(tiling) = &decided.0 {
        let _ = write!(err, "{}", show::terminal(size, tiling, colour));
    }
    let _ = writeln!(err, "watch: {verdict}");
    Ok(decided)
}

/// The contest server's 28 recorded signatures, each solved and verified, then generated skewed
/// (solved and verified) and invariant-impossible (refuted) mixes against the time targets;
/// false on a failure.
/// Under a writing `report` (`--json`), one record per signature replaces the tables.
pub fn bench_server_signatures(report: &mut Report) -> Result<bool, CliError> {
    let mut out = crate::core::report::table_out(report.is_json());
    use super::{solve, Options, Outcome};
    const SERVER: &str = include_str!("../../data/tetromino/server_signatures.txt");
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
        report.record(&Record {
            problem: "tetromino",
            case: format!("server {size} {}", text.trim()),
            answer: Some(if ok { "solved" } else { "not solved" }.into()),
            ok: Some(ok),
            runs: vec![time],
            ..Record::default()
        })?;
        let shown: String = text.chars().take(40).collect();
        writeln!(
            out,
            "{size:>4} {shown:<40} {:>8} {:>10.3}",
            if ok { "ok" } else { "FAIL" },
            time.as_secs_f64() * 1e3
        )?;
    }
    writeln!(out, "total {:.3} ms", total.as_secs_f64() * 1e3)?;
    writeln!(
        out,
        "tetromino generated mixes ({BENCH_SEEDS} seeds each; skewed must be solved and verified, impossible refuted)"
    )?;
    writeln!(
        out,
        "{:>4} {:<10} {:>11} {:>11} {:>10} {:>6}",
        "N", "kind", "median ms", "worst ms", "target ms", "result"
    )?;
    for size in BENCH_SIZES {
        let target = if size <= 48 { 1000.0 } else { 10_000.0 };
        for kind in ["skewed", "impossible"] {
            let mut rng = Rng::new(size as u64);
            let mut times = Vec::with_capacity(BENCH_SEEDS);
            let mut ok = true;
            for k in 0..BENCH_SEEDS {
                let signature = if kind == "skewed" {
                    skewed(size, &mut rng)
                } else {
                    impossible(size, &mut rng).map(|(signature, _)| signature)
                }
                .expect("bench sizes are even");
                let start = Instant::now();
                let (outcome, _) = solve(size, &signature, &Options::default());
                let took = start.elapsed();
                times.push(took.as_secs_f64() * 1e3);
                let right = match (&outcome, kind) {
                    (Outcome::Solved(p), "skewed") => verify(size, &signature, p).is_ok(),
                    (Outcome::Unsolvable(_), "impossible") => true,
                    _ => false,
                };
                ok &= right;
                report.record(&Record {
                    problem: "tetromino",
                    case: format!("{kind} {size} #{k}"),
                    answer: Some(signature.to_string().into()),
                    ok: Some(right),
                    runs: vec![took],
                    ..Record::default()
                })?;
            }
            times.sort_by(f64::total_cmp);
            let worst = times[times.len() - 1];
            ok &= worst <= target;
            all_ok &= ok;
            writeln!(
                out,
                "{size:>4} {kind:<10} {:>11.3} {worst:>11.3} {target:>10} {:>6}",
                times[times.len() / 2],
                if ok { "ok" } else { "FAIL" }
            )?;
        }
    }
    Ok(all_ok)
}

/// Board sides of the generated mixes in `podium bench`, and signatures per side and kind.
const BENCH_SIZES: [usize; 4] = [16, 48, 100, 200];
const BENCH_SEEDS: usize = 5;
