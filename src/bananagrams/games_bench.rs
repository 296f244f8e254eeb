//! `podium bananagrams bench --games N --players A,B --seed S [--threaded] [--shard I/N]`: many
//! seeded games, win rates per player, invalid wins, rotten bananas, hung games, time per game.

use super::dict::Lexicon;
use super::game::{play_deterministic, play_threaded, GameSpec, Outcome, Setup, ThreadCpu};
use super::players::Kind;
use super::validate::validate;
use crate::core::cli::CliError;
use crate::core::progress::Progress;
use crate::core::report::Record;
use crate::core::rng::Rng;
use crate::core::shard::{takes, Shard};
use std::fmt::Write as _;
use std::time::Instant;

#[derive(clap::Args, Clone, Debug)]
pub struct GamesArgs {
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// 2 to 8 players by name, comma separated: Standard, Dangling, Stranding,
    /// TwoLetterStranding (tls), Pseudo, Podium. Seats rotate from game to game.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "Podium,TwoLetterStranding"
    )]
    pub players: Vec<String>,
    /// Seed of the first game's shuffle; the others follow from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// One thread per player (real concurrency, not repeatable) instead of the simulated clock.
    #[arg(long)]
    pub threaded: bool,
    /// Word list file (one word per line) instead of the embedded ENABLE.
    #[arg(long)]
    pub dict: Option<String>,
    /// No progress bar on stderr (there is none when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
    /// JSON lines on stdout, one record per player (score: its win rate; ok: no invalid win and
    /// no hung game), instead of the table.
    #[arg(long)]
    pub json: bool,
    /// With --json, one record per game instead (case: the game's number and seed; answer: the
    /// winner's seat and player, or why there is none): what shards concatenate into.
    #[arg(long)]
    pub per_game: bool,
    /// Only shard I of N (0-based) of the games, by a hash of the game's number; the games keep
    /// their seeds, so the shards' games are exactly the whole run's. Implies --per-game.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
}

/// Per-player tallies, by position in `--players`.
#[derive(Clone, Default)]
struct Tally {
    wins: usize,
    rotten: usize,
}

/// Plays the games: the table for people, and one record per player for `--json`.
pub fn bench(args: &GamesArgs) -> Result<(String, Vec<Record>), CliError> {
    let kinds = args
        .players
        .iter()
        .map(|name| {
            Kind::by_name(name.trim()).ok_or_else(|| {
                CliError::input(format!("bananagrams bench: unknown player {name:?}"))
            })
        })
        .collect::<Result<Vec<Kind>, CliError>>()?;
    if !(2..=8).contains(&kinds.len()) {
        return Err(CliError::input(format!(
            "bananagrams bench: 2 to 8 players, got {}",
            kinds.len()
        )));
    }
    if args.games == 0 {
        return Err(CliError::input(
            "bananagrams bench: --games must be at least 1",
        ));
    }
    let lexicon = match &args.dict {
        Some(path) => Lexicon::from_list_file(path)?,
        None => Lexicon::enable(),
    };
    let setup = Setup::new(lexicon);
    let seats = kinds.len();
    let mut seeds = Rng::new(args.seed);
    let mut tally = vec![Tally::default(); seats];
    let (mut no_winner, mut hung, mut invalid_wins) = (0usize, 0usize, 0usize);
    let (mut peels, mut dumps) = (0u64, 0u64);
    let mut cpu_ms: Vec<f64> = Vec::with_capacity(args.games);
    let mut wall_ms: Vec<f64> = Vec::with_capacity(args.games);
    let mut sim_time: Vec<f64> = Vec::new();
    let mut cpu = ThreadCpu::start();
    let mut hung_seeds = Vec::new();
    let per_game = args.per_game || args.shard.is_some();
    let mut game_records = Vec::new();
    let mut played = 0usize;
    let mut progress = Progress::new("bananagrams games", args.games, args.quiet);
    for game in 0..args.games {
        let rotation = game % seats;
        let order: Vec<usize> = (0..seats).map(|s| (s + rotation) % seats).collect();
        let spec = GameSpec {
            seats: order.iter().map(|&p| kinds[p]).collect(),
            seed: seeds.next_u64(),
            log: false,
        };
        if !takes(args.shard, &game.to_string()) {
            progress.advance("");
            continue;
        }
        played += 1;
        let cpu_before = cpu.ns();
        let started = Instant::now();
        let result = if args.threaded {
            play_threaded(&setup, &spec)
        } else {
            play_deterministic(&setup, &spec)
        };
        wall_ms.push(started.elapsed().as_secs_f64() * 1e3);
        let game_cpu = if args.threaded {
            Some(result.time).filter(|&t| t > 0)
        } else {
            cpu_before.zip(cpu.ns()).map(|(a, b)| b - a)
        };
        if let Some(ns) = game_cpu {
            cpu_ms.push(ns as f64 / 1e6);
        }
        peels += u64::from(result.peels);
        dumps += u64::from(result.dumps);
        for &seat in &result.rotten {
            tally[order[seat]].rotten += 1;
        }
        let mut valid = true;
        match &result.outcome {
            Outcome::Won {
                player,
                grid,
                tiles,
            } => {
                if validate(grid, tiles, &setup.lexicon.list).is_err() {
                    invalid_wins += 1;
                    valid = false;
                }
                tally[order[*player]].wins += 1;
                if !args.threaded {
                    sim_time.push(result.time as f64);
                }
            }
            Outcome::NoWinner => no_winner += 1,
            Outcome::Hung => {
                hung += 1;
                hung_seeds.push(spec.seed);
            }
        }
        if per_game {
            game_records.push(game_record(
                game,
                &spec,
                &result.outcome,
                valid,
                &order,
                &kinds,
            ));
        }
        progress.advance("");
    }
    progress.finish();
    if played == 0 {
        return Err(CliError::input(format!(
            "bananagrams bench: shard {} holds none of the {} games",
            args.shard.map_or_else(String::new, |s| s.to_string()),
            args.games
        )));
    }
    let games = played as f64;
    let mut out = String::new();
    let mode = if args.threaded {
        "threaded (one thread per player)"
    } else {
        "deterministic (simulated clock)"
    };
    let shard = args
        .shard
        .map_or_else(String::new, |s| format!(" (shard {s}: {played})"));
    let _ = writeln!(
        out,
        "bananagrams games: {} games{shard}, {mode}, seed {}, dictionary {}",
        args.games, args.seed, setup.lexicon.name
    );
    let _ = writeln!(
        out,
        "{:<22} {:>7} {:>9} {:>8}",
        "player", "wins", "win rate", "rotten"
    );
    for (p, kind) in kinds.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:<22} {:>7} {:>8.1}% {:>8}",
            format!("{}. {}", p + 1, kind.name()),
            tally[p].wins,
            100.0 * tally[p].wins as f64 / games,
            tally[p].rotten
        );
    }
    let rotten: usize = tally.iter().map(|t| t.rotten).sum();
    let _ = writeln!(
        out,
        "no winner {no_winner}, invalid wins {invalid_wins}, rotten bananas {rotten}, hung games {hung}"
    );
    let _ = writeln!(
        out,
        "per game: {:.1} peels, {:.2} dumps",
        peels as f64 / games,
        dumps as f64 / games
    );
    let _ = writeln!(
        out,
        "{:<24} {:>9} {:>9} {:>9}",
        "time per game", "mean", "median", "p99"
    );
    if cpu_ms.len() == played {
        let _ = writeln!(out, "{}", stat_row("CPU (ms)", &mut cpu_ms));
    } else {
        let _ = writeln!(
            out,
            "CPU (ms)                 unavailable (perf events not allowed)"
        );
    }
    let _ = writeln!(out, "{}", stat_row("wall (ms)", &mut wall_ms));
    if !sim_time.is_empty() {
        let _ = writeln!(out, "{}", stat_row("winner's clock (work)", &mut sim_time));
    }
    if !hung_seeds.is_empty() {
        let _ = writeln!(out, "hung game seeds: {hung_seeds:?}");
    }
    wall_ms.sort_by(f64::total_cmp);
    let median_wall = wall_ms.get(wall_ms.len() / 2).copied().unwrap_or(0.0);
    let records = kinds
        .iter()
        .enumerate()
        .map(|(p, kind)| Record {
            problem: "bananagrams",
            case: format!(
                "games: seat {} {} of {}, {} games, seed {}, {mode}",
                p + 1,
                kind.name(),
                args.players.join(","),
                args.games,
                args.seed
            ),
            score: Some(tally[p].wins as f64 / games),
            answer: Some(format!("wins {}, rotten {}", tally[p].wins, tally[p].rotten).into()),
            ok: Some(invalid_wins == 0 && hung == 0),
            runs: vec![std::time::Duration::from_secs_f64(median_wall / 1e3)],
            ..Record::default()
        })
        .collect();
    Ok((out, if per_game { game_records } else { records }))
}

/// One game's record for `--per-game`: the same game (number and seed) gives the same case in
/// every shard, and its answer the same result on the simulated clock.
fn game_record(
    game: usize,
    spec: &GameSpec,
    outcome: &Outcome,
    valid: bool,
    order: &[usize],
    kinds: &[Kind],
) -> Record {
    let seats: Vec<&str> = spec.seats.iter().map(|k| k.name()).collect();
    let answer = match outcome {
        Outcome::Won { player, .. } => format!(
            "seat {} {} won (player {} of --players)",
            player + 1,
            kinds[order[*player]].name(),
            order[*player] + 1
        ),
        Outcome::NoWinner => "no winner".to_string(),
        Outcome::Hung => "hung".to_string(),
    };
    Record {
        problem: "bananagrams",
        case: format!("game {game} seed {:#018x}: {}", spec.seed, seats.join(",")),
        score: Some(f64::from(u8::from(matches!(outcome, Outcome::Won { .. })))),
        answer: Some(answer.into()),
        ok: Some(valid && !matches!(outcome, Outcome::Hung)),
        ..Record::default()
    }
}

fn stat_row(label: &str, values: &mut [f64]) -> String {
    values.sort_by(f64::total_cmp);
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    format!("{label:<24} {mean:>9.3} {:>9.3} {:>9.3}", at(0.5), at(0.99))
}
