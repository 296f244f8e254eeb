//! `podium bananagrams solve|hands|anagrams|check|bench|dict|serve|bot`: the clap types and
//! their runner.
//! Exit codes: 0 solved (or valid), 2 bad input, 3 proven impossible (or invalid), 4 gave up.

use super::dict::{Lexicon, Place};
use super::game::Setup;
use super::games_bench::{bench, GamesArgs};
use super::letters::{BadHand, Tiles, MAX_HAND};
use super::online::bot::{self, BotOptions};
use super::online::client::socket_url;
use super::online::protocol::check_name;
use super::online::server::{GameServer, ServerConfig};
use super::players::Kind;
use super::solver::{solve_with_stats, Verdict};
use super::svg;
use super::validate::validate;
use crate::core::budget::Budget;
use crate::core::progress::Progress;
use crate::core::report::{Record, Report};
use crate::core::rng::Rng;
use crate::core::timer::Deadline;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub use crate::core::cli::CliError;

#[derive(clap::Subcommand, Debug, Clone)]
pub enum BananagramsCommand {
    /// Build a valid grid from all of LETTERS, prove that none exists, or give up at the budget.
    Solve {
        /// The hand: letters A-Z (any case), every one to be used.
        letters: String,
        /// Seconds before giving up (exit 4).
        #[arg(long = "time", alias = "budget", value_name = "SECONDS", default_value_t = 10.0,
              allow_negative_numbers = true, value_parser = crate::core::cli::parse_seconds)]
        budget: f64,
        /// Search nodes before giving up (deterministic, unlike --time).
        #[arg(long, default_value_t = u64::MAX)]
        nodes: u64,
        #[command(flatten)]
        dict: DictArg,
        /// Also draw the grid as an SVG.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Print search statistics on stderr.
        #[arg(long)]
        verbose: bool,
    },
    /// Random hands (drawn from the 144-tile bunch) through the solver: how many are solved,
    /// proven impossible or given up, and the time per hand.
    Hands {
        /// How many hands.
        #[arg(long, default_value_t = 1000)]
        count: usize,
        /// Tiles per hand.
        #[arg(long, default_value_t = 21)]
        tiles: usize,
        /// Seed of the first hand's draw; the others follow from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Seconds per hand before giving up.
        #[arg(long = "time", alias = "budget", value_name = "SECONDS", default_value_t = 1.0,
              allow_negative_numbers = true, value_parser = crate::core::cli::parse_seconds)]
        budget: f64,
        #[command(flatten)]
        dict: DictArg,
        /// Print every hand and its outcome.
        #[arg(long)]
        verbose: bool,
        /// JSON lines on stdout, one record per hand (fields in the README), instead of the
        /// summary.
        #[arg(long)]
        json: bool,
        /// No progress bar on stderr (shown only when stderr is a terminal).
        #[arg(long)]
        quiet: bool,
    },
    /// Every word buildable from LETTERS, optionally through one board letter.
    Anagrams {
        /// The letters available (A-Z, any case).
        letters: String,
        /// A board letter the word must use.
        #[arg(long, value_name = "LETTER")]
        through: Option<char>,
        /// Where the board letter must be.
        #[arg(long, value_enum, default_value_t = PlaceArg::Anywhere, requires = "through")]
        at: PlaceArg,
        #[command(flatten)]
        dict: DictArg,
    },
    /// Check a grid (text rows, `.` empty) against a hand: exit 0 if valid, 1 naming the fault.
    Check {
        /// The grid file.
        grid: PathBuf,
        /// The hand the grid must use exactly.
        letters: String,
        #[command(flatten)]
        dict: DictArg,
        /// One JSON record on stdout (ok, and the verdict as its answer) instead of the line.
        #[arg(long)]
        json: bool,
    },
    /// Play seeded games between players and print win rates, invalid wins, hung games and
    /// time per game.
    Bench(GamesArgs),
    /// The dictionary's size and structure.
    Dict {
        #[command(flatten)]
        dict: DictArg,
    },
    /// Serve real-time games for people and podium's players: the page at /, the WebSocket at
    /// /ws (protocol in docs/bananagrams-online.md). SIGINT or SIGTERM stops it.
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Port to listen on (0: any free port; the URL is printed on stderr).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Seconds a dropped seat may rejoin before its tiles go back to the bunch.
        #[arg(long, value_name = "SECONDS", default_value_t = 60)]
        grace: u64,
        /// No line per room event on stderr.
        #[arg(long)]
        quiet: bool,
    },
    /// Seat a podium player in a room of a game server, over the page's protocol; prints the
    /// end of the game (exit 0 when it ended, 1 when the server refused or went away).
    Bot {
        /// The server, e.g. http://127.0.0.1:8080.
        #[arg(long)]
        server: String,
        /// The room's code.
        #[arg(long)]
        room: String,
        /// The podium player (Podium, TwoLetterStranding or tls, Stranding, Dangling, Standard).
        #[arg(long, default_value = "Podium")]
        player: String,
        /// The seat's name in the room [default: the player's name].
        #[arg(long)]
        name: Option<String>,
        /// Milliseconds between two actions (at least 50).
        #[arg(long, value_name = "MS", default_value_t = 1500)]
        pace_ms: u64,
        /// Seconds before giving up on a game that does not end.
        #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
        limit: u64,
    },
}

#[derive(clap::Args, Debug, Clone)]
pub struct DictArg {
    /// A word list (one word per line) instead of the built-in ENABLE.
    #[arg(long = "dict", value_name = "FILE")]
    pub path: Option<PathBuf>,
}

impl DictArg {
    pub fn load(&self) -> Result<Lexicon, CliError> {
        match &self.path {
            None => Ok(Lexicon::enable()),
            Some(path) => Lexicon::from_list_file(&path.to_string_lossy()),
        }
    }
}

#[derive(clap::ValueEnum, Debug, Clone, Copy)]
pub enum PlaceArg {
    First,
    Last,
    Anywhere,
}

fn parse_hand(text: &str) -> Result<Tiles, CliError> {
    let hand = Tiles::parse(text).map_err(|e| {
        CliError::input(match e {
            BadHand::Letter { position, found } => format!(
                "bananagrams letters: character {position} is {found:?}; only letters A-Z are allowed"
            ),
            BadHand::TooMany { letters } => format!(
                "bananagrams letters: {letters} letters; at most {MAX_HAND}"
            ),
        })
    })?;
    if hand.is_empty() {
        return Err(CliError::input("bananagrams letters: no letters given"));
    }
    Ok(hand)
}

pub fn run(command: BananagramsCommand) -> Result<(), CliError> {
    let mut out = std::io::stdout();
    match command {
        BananagramsCommand::Solve {
            letters,
            budget,
            nodes,
            dict,
            svg: svg_path,
            verbose,
        } => {
            let hand = parse_hand(&letters)?;
            let lexicon = dict.load()?;
            let started = Instant::now();
            let deadline = Deadline::from_secs_f64(budget.max(0.0));
            let (verdict, stats) = solve_with_stats(
                &lexicon.dawg,
                &hand,
                Budget::nodes(nodes).with_deadline(deadline),
            );
            if verbose {
                eprintln!(
                    "{} tiles, {} nodes, {} moves generated, {:.3} ms",
                    hand.len(),
                    stats.nodes,
                    stats.moves,
                    started.elapsed().as_secs_f64() * 1e3
                );
            }
            match verdict {
                Verdict::Solved(board) => {
                    let grid = board.render();
                    validate(&grid, &hand, &lexicon.list).map_err(|e| {
                        CliError::new(1, format!("bananagrams: internal error, invalid grid: {e}"))
                    })?;
                    write!(out, "{grid}")?;
                    if let Some(path) = svg_path {
                        std::fs::write(&path, svg::render(&grid)).map_err(|e| {
                            CliError::output(format!("cannot write {}: {e}", path.display()))
                        })?;
                    }
                    Ok(())
                }
                Verdict::Impossible(proof) => {
                    writeln!(out, "impossible: {proof}")?;
                    Err(CliError::new(
                        3,
                        format!("bananagrams: {hand} is impossible"),
                    ))
                }
                Verdict::GaveUp => {
                    writeln!(out, "gave up")?;
                    Err(CliError::new(
                        4,
                        format!("bananagrams: gave up on {hand} after {} nodes", stats.nodes),
                    ))
                }
            }
        }
        BananagramsCommand::Hands {
            count,
            tiles,
            seed,
            budget,
            dict,
            verbose,
            json,
            quiet,
        } => {
            if count == 0 {
                return Err(CliError::input(
                    "bananagrams hands: --count must be at least 1",
                ));
            }
            if !(2..=144).contains(&tiles) {
                return Err(CliError::input(format!(
                    "bananagrams hands: --tiles {tiles} is outside 2..144"
                )));
            }
            let lexicon = dict.load()?;
            let run = HandsRun {
                count,
                tiles,
                seed,
                budget,
                verbose,
                quiet,
            };
            if json {
                hands(&lexicon, &run, &mut Report::json(&mut out))?;
                return Ok(());
            }
            let summary = hands(&lexicon, &run, &mut Report::none())?;
            write!(out, "{summary}")?;
            Ok(())
        }
        BananagramsCommand::Anagrams {
            letters,
            through,
            at,
            dict,
        } => {
            let hand = parse_hand(&letters)?;
            let lexicon = dict.load()?;
            let through = match through {
                None => None,
                Some(c) if c.is_ascii_alphabetic() => {
                    let place = match at {
                        PlaceArg::First => Place::First,
                        PlaceArg::Last => Place::Last,
                        PlaceArg::Anywhere => Place::Anywhere,
                    };
                    Some((c.to_ascii_uppercase() as u8 - b'A', place))
                }
                Some(c) => {
                    return Err(CliError::input(format!(
                        "bananagrams --through: {c:?} is not a letter"
                    )))
                }
            };
            let mut words = lexicon.dawg.anagrams(&hand, through);
            words.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
            words.dedup();
            for word in words {
                writeln!(out, "{}", String::from_utf8_lossy(&word))?;
            }
            Ok(())
        }
        BananagramsCommand::Check {
            grid,
            letters,
            dict,
            json,
        } => {
            let hand = parse_hand(&letters)?;
            let lexicon = dict.load()?;
            let text = std::fs::read_to_string(&grid)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", grid.display())))?;
            let checked = validate(&text, &hand, &lexicon.list)
                .map(|()| "valid".to_string())
                .map_err(|fault| format!("bananagrams: invalid grid: {fault}"));
            let case = format!("{} {letters}", grid.display());
            crate::core::report::check_outcome(&mut out, json, "bananagrams", case, checked)
        }
        BananagramsCommand::Bench(args) => {
            let (table, records) = bench(&args)?;
            if args.json {
                let mut report = Report::json(&mut out);
                for record in &records {
                    report.record(record)?;
                }
            } else {
                write!(out, "{table}")?;
            }
            Ok(())
        }
        BananagramsCommand::Dict { dict } => {
            let lexicon = dict.load()?;
            let dawg = &lexicon.dawg;
            writeln!(
                out,
                "{}: {} words (longest {}); DAWG {} states, {} edges, {} KiB",
                lexicon.name,
                dawg.word_count(),
                dawg.longest(),
                dawg.state_count(),
                dawg.edge_count(),
                (dawg.state_count() * 8 + dawg.edge_count() * 4) / 1024
            )?;
            Ok(())
        }
        BananagramsCommand::Serve {
            host,
            port,
            grace,
            quiet,
        } => serve(&host, port, grace, quiet),
        BananagramsCommand::Bot {
            server,
            room,
            player,
            name,
            pace_ms,
            limit,
        } => {
            let kind = Kind::by_name(&player).ok_or_else(|| {
                CliError::input(format!(
                    "bananagrams bot --player: no player {player:?} (try Podium or tls)"
                ))
            })?;
            let name = check_name(name.as_deref().unwrap_or(kind.name()))
                .map_err(|e| CliError::input(format!("bananagrams bot --name: {e}")))?;
            socket_url(&server).map_err(|e| CliError::input(format!("bananagrams bot: {e}")))?;
            let options = BotOptions {
                server,
                room,
                kind,
                name,
                pace: Duration::from_millis(pace_ms).max(bot::MIN_PACE),
                limit: Duration::from_secs(limit),
            };
            let setup = Setup::new(Lexicon::enable());
            let report = bot::play(&options, &setup, |line| eprintln!("{line}"))
                .map_err(|e| CliError::new(1, format!("bananagrams bot: {e}")))?;
            let outcome = match report.winner {
                Some(w) if w == report.seat => "won".to_string(),
                Some(w) => format!("lost to seat {w}"),
                None => "no winner".to_string(),
            };
            writeln!(
                out,
                "seat {} ({}): {outcome}: {}",
                report.seat, options.name, report.reason
            )?;
            Ok(())
        }
    }
}

fn serve(host: &str, port: u16, grace: u64, quiet: bool) -> Result<(), CliError> {
    let config = ServerConfig {
        grace: Duration::from_secs(grace),
        log: !quiet,
        ..ServerConfig::default()
    };
    let server = GameServer::bind(&format!("{host}:{port}"), config)
        .map_err(|e| CliError::input(format!("bananagrams {e}")))?;
    server.stop_on_signals();
    eprintln!("serving http://{}/", server.local_addr());
    server
        .serve()
        .map_err(|e| CliError::new(1, format!("bananagrams serve: {e}")))?;
    eprintln!("stopped: {}", server.counters().summary());
    Ok(())
}

/// The `hands` report: outcome counts, the share decided within 100 ms and 1 s, and time per
/// hand (median, mean, p99), over `count` seeded random hands.
/// A run of random hands: how many, their size, the first draw's seed, seconds per hand, and
/// what is shown on stderr (every hand, or a progress bar unless quiet).
pub struct HandsRun {
    pub count: usize,
    pub tiles: usize,
    pub seed: u64,
    pub budget: f64,
    pub verbose: bool,
    pub quiet: bool,
}

impl HandsRun {
    /// The bench's run: 1,000 hands of 21 tiles from seed 1, a second each.
    pub fn bench(quiet: bool) -> HandsRun {
        HandsRun {
            count: 1000,
            tiles: 21,
            seed: 1,
            budget: 1.0,
            verbose: false,
            quiet,
        }
    }
}

pub fn hands(lexicon: &Lexicon, run: &HandsRun, report: &mut Report) -> std::io::Result<String> {
    let HandsRun {
        count,
        tiles,
        seed,
        budget,
        verbose,
        quiet,
    } = *run;
    if count == 0 {
        return Ok("0 hands\n".to_string());
    }
    let mut rng = Rng::new(seed);
    let bunch: Vec<u8> = Tiles::full_bunch().letters().collect();
    let (mut solved, mut impossible, mut gave_up) = (0, 0, 0);
    let mut times = Vec::with_capacity(count);
    let mut decided_within = [0usize; 2];
    let mut progress = Progress::new("bananagrams hands", count, quiet || verbose);
    for k in 0..count {
        let mut shuffled = bunch.clone();
        rng.shuffle(&mut shuffled);
        let hand = shuffled[..tiles].iter().fold(Tiles::EMPTY, |mut t, &l| {
            t.add(l);
            t
        });
        let started = Instant::now();
        let deadline = Deadline::from_secs_f64(budget);
        let (verdict, stats) = solve_with_stats(
            &lexicon.dawg,
            &hand,
            Budget::unlimited().with_deadline(deadline),
        );
        let elapsed = started.elapsed();
        let outcome = match &verdict {
            Verdict::Solved(board) => {
                assert!(
                    validate(&board.render(), &hand, &lexicon.list).is_ok(),
                    "the solver built an invalid grid for {hand}"
                );
                solved += 1;
                "solved"
            }
            Verdict::Impossible(_) => {
                impossible += 1;
                "impossible"
            }
            Verdict::GaveUp => {
                gave_up += 1;
                "gave up"
            }
        };
        if !matches!(verdict, Verdict::GaveUp) {
            decided_within[0] += (elapsed <= Duration::from_millis(100)) as usize;
            decided_within[1] += (elapsed <= Duration::from_secs(1)) as usize;
        }
        if verbose {
            eprintln!(
                "{hand} {outcome} {:.3} ms {} nodes",
                elapsed.as_secs_f64() * 1e3,
                stats.nodes
            );
        }
        report.record(&Record {
            problem: "bananagrams",
            case: format!("{tiles} tiles, seed {seed}, hand {k}"),
            answer: Some(outcome.into()),
            ok: Some(!matches!(verdict, Verdict::GaveUp)),
            runs: vec![elapsed],
            ..Record::default()
        })?;
        times.push(elapsed);
        progress.advance(&format!("{solved} solved, {impossible} impossible"));
    }
    progress.finish();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let mean = times.iter().sum::<Duration>() / count.max(1) as u32;
    let share = |n: usize| 100.0 * n as f64 / count.max(1) as f64;
    Ok(format!(
        "{count} hands of {tiles} tiles (seed {seed}, {}, budget {budget} s)\n\
         solved {solved} ({:.1}%), proven impossible {impossible} ({:.1}%), gave up {gave_up} ({:.1}%)\n\
         decided within 100 ms: {:.1}%, within 1 s: {:.1}%\n\
         time per hand: median {:.3} ms, mean {:.3} ms, p99 {:.3} ms, max {:.3} ms\n",
        lexicon.name,
        share(solved),
        share(impossible),
        share(gave_up),
        share(decided_within[0]),
        share(decided_within[1]),
        ms(at(0.5)),
        ms(mean),
        ms(at(0.99)),
        ms(at(1.0)),
    ))
}
