//! `podium bench`, the main job: every solver on its bundled data, as tables or as JSON lines,
//! one section per problem with progress between the sections on a terminal.

use crate::cephalopod::{self, KernelChoice};
use crate::core::cli::{CliError, EXIT_INVALID};
use crate::core::progress::Progress;
use crate::core::report::{table_out, Report};
use crate::core::shard::{takes, Shard};
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// The problems in the order the bench runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Section {
    Cephalopod,
    Icfp2015,
    Tetromino,
    Slider,
    Bananagrams,
}

impl Section {
    pub const ALL: [Section; 5] = [
        Section::Cephalopod,
        Section::Icfp2015,
        Section::Tetromino,
        Section::Slider,
        Section::Bananagrams,
    ];

    fn name(self) -> &'static str {
        match self {
            Section::Cephalopod => "cephalopod",
            Section::Icfp2015 => "icfp2015",
            Section::Tetromino => "tetromino",
            Section::Slider => "slider",
            Section::Bananagrams => "bananagrams",
        }
    }
}

/// What `podium bench` was asked for.
pub struct BenchArgs<'a> {
    /// Empty: every section.
    pub sections: &'a [Section],
    /// Cephalopod: only cases whose id contains this text.
    pub filter: Option<&'a str>,
    pub icfp_time: Duration,
    pub slider_seconds: f64,
    pub runs: usize,
    pub kernel: KernelChoice,
    pub json: bool,
    pub quiet: bool,
    /// Only this shard's cases (`--shard I/N`).
    pub shard: Option<Shard>,
}

/// What a case is sharded by: its id, except in the sections that run whole (tetromino's
/// signatures, bananagrams' one random stream of hands), which go by the problem's name.
pub fn shard_key<'a>(problem: &'a str, case: &'a str) -> &'a str {
    match problem {
        "tetromino" | "bananagrams" => problem,
        _ => case,
    }
}

/// Runs the chosen sections; a wrong answer in one is reported after the others ran.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    let chosen: Vec<Section> = Section::ALL
        .into_iter()
        .filter(|s| args.sections.is_empty() || args.sections.contains(s))
        .collect();
    let mut stdout = std::io::stdout();
    let mut report = if args.json {
        Report::json(&mut stdout)
    } else {
        Report::none()
    };
    // Tables or records streaming to a terminal are their own progress; a bar would tangle with
    // them. It shows when stdout goes to a file or a pipe and stderr is a terminal.
    let tables_on_terminal = std::io::stdout().is_terminal();
    let mut progress = Progress::new(
        "podium bench",
        chosen.len(),
        args.quiet || tables_on_terminal,
    );
    let mut result = Ok(());
    for (i, &section) in chosen.iter().enumerate() {
        if i > 0 {
            writeln!(table_out(args.json))?;
        }
        let outcome = run_section(section, args, &mut report);
        progress.advance(&format!("{} done", section.name()));
        match outcome {
            Ok(()) => {}
            Err(e) if e.code == EXIT_INVALID && result.is_ok() => result = Err(e),
            Err(e) => return Err(e),
        }
    }
    progress.finish();
    result
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn run_section(section: Section, args: &BenchArgs, report: &mut Report) -> Result<(), CliError> {
    match section {
        Section::Cephalopod => {
            cephalopod::cli::bench(args.filter, args.shard, args.runs, args.kernel, report)
        }
        Section::Icfp2015 => {
            let ids: Vec<i64> = (0..crate::icfp2015::play::QUALIFIER_PROBLEMS.len() as i64)
                .filter(|id| takes(args.shard, &id.to_string()))
                .collect();
            if args.shard.is_some() && ids.is_empty() {
                return Ok(());
            }
            Ok(crate::icfp2015::play::bench(
                args.icfp_time,
                cores(),
                &ids,
                &mut table_out(args.json),
                report,
            )?)
        }
        Section::Tetromino | Section::Bananagrams
            if !takes(args.shard, shard_key(section.name(), "")) =>
        {
            Ok(())
        }
        Section::Tetromino => {
            if crate::tetromino::cli::bench_server_signatures(report)? {
                Ok(())
            } else {
                Err(CliError::new(
                    EXIT_INVALID,
                    "tetromino: a server signature was not decided right",
                ))
            }
        }
        Section::Slider => crate::slider::cli::run(crate::slider::cli::SliderCommand::Bench {
            time: args.slider_seconds,
            jobs: cores(),
            seeds: Vec::new(),
            json: args.json,
            quiet: args.quiet,
            store: None,
            shard: args.shard,
        }),
        Section::Bananagrams => {
            let lexicon = crate::bananagrams::dict::Lexicon::enable();
            let mut out = table_out(args.json);
            writeln!(out, "bananagrams: random hands through the hand solver")?;
            let hands = crate::bananagrams::cli::hands(
                &lexicon,
                &crate::bananagrams::cli::HandsRun::bench(true),
                report,
            )?;
            write!(out, "{hands}")?;
            writeln!(out)?;
            let games = crate::bananagrams::games_bench::GamesArgs {
                games: 1000,
                players: vec!["Podium".into(), "TwoLetterStranding".into()],
                seed: 1,
                threaded: false,
                dict: None,
                quiet: true,
                json: args.json,
                per_game: false,
                shard: None,
            };
            let (table, records) = crate::bananagrams::games_bench::bench(&games)?;
            write!(out, "{table}")?;
            for record in &records {
                report.record(record)?;
            }
            Ok(())
        }
    }
}
