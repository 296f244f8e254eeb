//! Bananagrams games: deterministic games replay exactly, threaded games never end in an
//! invalid win, every player finishes games against Pseudo, and the games bench runs.

use podium::bananagrams::dict::Lexicon;
use podium::bananagrams::game::{
    play_deterministic, play_threaded, starting_hand, Event, GameSpec, Outcome, Setup,
};
use podium::bananagrams::games_bench::{bench, GamesArgs};
use podium::bananagrams::players::Kind;
use podium::bananagrams::validate::validate;

fn setup() -> Setup {
    Setup::new(Lexicon::enable())
}

fn spec(seats: &[Kind], seed: u64) -> GameSpec {
    GameSpec {
        seats: seats.to_vec(),
        seed,
        log: true,
    }
}

fn assert_valid_win(setup: &Setup, outcome: &Outcome) {
    if let Outcome::Won { grid, tiles, .. } = outcome {
        assert_eq!(
            validate(grid, tiles, &setup.lexicon.list),
            Ok(()),
            "invalid win:\n{grid}"
        );
    }
}

#[test]
fn deterministic_games_replay_identically() {
    let setup = setup();
    let tables: [&[Kind]; 3] = [
        &[Kind::Podium, Kind::TwoLetterStranding],
        &[Kind::Standard, Kind::Dangling, Kind::Stranding],
        &[
            Kind::Podium,
            Kind::TwoLetterStranding,
            Kind::Standard,
            Kind::Dangling,
            Kind::Stranding,
            Kind::Pseudo,
            Kind::Podium,
            Kind::TwoLetterStranding,
        ],
    ];
    for seats in tables {
        for seed in 0..4 {
            let first = play_deterministic(&setup, &spec(seats, seed));
            let again = play_deterministic(&setup, &spec(seats, seed));
            assert_eq!(first.outcome, again.outcome, "seed {seed} {seats:?}");
            assert_eq!(first.log, again.log, "seed {seed} {seats:?}");
            assert!(first.log.len() > seats.len());
            assert_ne!(first.outcome, Outcome::Hung, "seed {seed} {seats:?}");
            assert_valid_win(&setup, &first.outcome);
        }
    }
}

#[test]
fn games_deal_the_official_hands_and_differ_by_seed() {
    let setup = setup();
    for (players, hand) in [(2, 21), (4, 21), (5, 15), (6, 15), (7, 11), (8, 11)] {
        assert_eq!(starting_hand(players), hand);
        let seats = vec![Kind::TwoLetterStranding; players];
        let result = play_deterministic(&setup, &spec(&seats, 9));
        let dealt: Vec<usize> = result
            .log
            .iter()
            .filter_map(|e| match &e.event {
                Event::Dealt(tiles) => Some(tiles.len()),
                _ => None,
            })
            .collect();
        assert_eq!(dealt, vec![hand; players]);
    }
    let seats = [Kind::Podium, Kind::TwoLetterStranding];
    let a = play_deterministic(&setup, &spec(&seats, 1));
    let b = play_deterministic(&setup, &spec(&seats, 2));
    assert_ne!(a.log, b.log);
}

#[test]
fn threaded_games_never_end_in_an_invalid_win() {
    let setup = setup();
    let tables: [&[Kind]; 3] = [
        &[Kind::Podium, Kind::TwoLetterStranding],
        &[
            Kind::Standard,
            Kind::Stranding,
            Kind::Dangling,
            Kind::Pseudo,
        ],
        &[Kind::TwoLetterStranding; 8],
    ];
    for seats in tables {
        for seed in 0..6 {
            let result = play_threaded(&setup, &spec(seats, seed));
            assert_ne!(result.outcome, Outcome::Hung, "seed {seed} {seats:?}");
            assert_valid_win(&setup, &result.outcome);
            assert!(
                result.winner().is_some(),
                "seed {seed} {seats:?}: {:?}",
                result.outcome
            );
        }
    }
}

#[test]
fn every_player_finishes_games_against_pseudo() {
    let setup = setup();
    for kind in Kind::ALL.into_iter().filter(|&k| k != Kind::Pseudo) {
        for seed in 0..8 {
            let seats = [kind, Kind::Pseudo];
            let result = play_deterministic(&setup, &spec(&seats, seed));
            assert_eq!(
                result.winner(),
                Some(0),
                "{} seed {seed}: {:?} {:?}",
                kind.name(),
                result.outcome,
                result.final_grids.first()
            );
            assert_valid_win(&setup, &result.outcome);
            let threaded = play_threaded(&setup, &spec(&seats, seed));
            assert_eq!(
                threaded.winner(),
                Some(0),
                "{} threaded seed {seed}",
                kind.name()
            );
        }
    }
}

#[test]
fn bench_reports_no_invalid_wins_and_no_hung_games() {
    for threaded in [false, true] {
        let args = GamesArgs {
            games: 6,
            players: vec!["Podium".into(), "tls".into()],
            seed: 5,
            threaded,
            dict: None,
            quiet: true,
            json: false,
            per_game: false,
            shard: None,
        };
        let (table, records) = bench(&args).unwrap();
        assert!(table.contains("invalid wins 0"), "{table}");
        assert_eq!(records.len(), 2);
        assert!(records.iter().all(|r| r.ok == Some(true)));
        let rates: f64 = records.iter().filter_map(|r| r.score).sum();
        assert!(rates <= 1.0, "win rates add up to at most 1: {rates}");
        assert!(table.contains("hung games 0"), "{table}");
        assert!(table.contains("2. TwoLetterStranding"), "{table}");
    }
    let bad = GamesArgs {
        games: 1,
        players: vec!["Podium".into(), "Nobody".into()],
        seed: 1,
        threaded: false,
        dict: None,
        quiet: true,
        json: false,
        per_game: false,
        shard: None,
    };
    assert_eq!(bench(&bad).unwrap_err().code, 2);
}

/// CPU ns per simulated work unit for the solver and for the move generator (calibration of
/// the simulated clock): `cargo test --release --test bananagrams_games calibrate -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn calibrate_work_units() {
    use podium::bananagrams::game::ThreadCpu;
    use podium::bananagrams::letters::Tiles;
    use podium::bananagrams::movegen::{generate, MoveList, Options};
    use podium::bananagrams::solver::{extend, solve_with_stats, Verdict};
    use podium::core::budget::Budget;
    use podium::core::rng::Rng;
    let lexicon = Lexicon::enable();
    let mut rng = Rng::new(3);
    let mut cpu = ThreadCpu::start();
    let draw = |rng: &mut Rng, n: usize| {
        let mut bunch: Vec<u8> = Tiles::full_bunch().letters().collect();
        rng.shuffle(&mut bunch);
        let mut t = Tiles::EMPTY;
        for &c in &bunch[..n] {
            t.add(c);
        }
        t
    };
    let (mut solve_ns, mut solve_moves, mut solve_nodes) = (0u64, 0u64, 0u64);
    let (mut gen_ns, mut gen_units) = (0u64, 0u64);
    let mut by_size = [(0u64, 0u64, 0u64, 0u64); 4];
    let (mut ext_ns, mut ext_calls) = (0u64, 0u64);
    let mut moves = MoveList::default();
    for _ in 0..200 {
        let hand = draw(&mut rng, 21);
        let before = cpu.ns().unwrap();
        let (verdict, stats) = solve_with_stats(&lexicon.dawg, &hand, Budget::nodes(2_000));
        solve_ns += cpu.ns().unwrap() - before;
        solve_moves += stats.moves;
        solve_nodes += stats.nodes;
        let Verdict::Solved(board) = verdict else {
            continue;
        };
        for (i, size) in [1, 2, 5, 10].into_iter().enumerate() {
            let small = draw(&mut rng, size);
            let before = cpu.ns().unwrap();
            moves.clear();
            generate(
                &lexicon.dawg,
                &board,
                &small,
                Options::default(),
                &mut moves,
            );
            let ns = cpu.ns().unwrap() - before;
            gen_ns += ns;
            gen_units += (board.tile_count() + moves.len()) as u64 + 16;
            by_size[i].0 += ns;
            by_size[i].1 += board.tile_count() as u64;
            by_size[i].2 += moves.len() as u64;
            by_size[i].3 += 1;
        }
        let new = draw(&mut rng, 3);
        let before = cpu.ns().unwrap();
        let _ = extend(&lexicon.dawg, &board, &new, Budget::nodes(1_000));
        ext_ns += cpu.ns().unwrap() - before;
        ext_calls += 1;
    }
    println!(
        "solve: {} ns per move, {} ns per node; movegen: {} ns per unit; extend(1000 nodes): {} us per call",
        solve_ns / solve_moves.max(1),
        solve_ns / solve_nodes.max(1),
        gen_ns / gen_units.max(1),
        ext_ns / ext_calls.max(1) / 1000
    );
    for (size, (ns, tiles, moves, calls)) in [1, 2, 5, 10].iter().zip(by_size) {
        println!(
            "movegen, {size} letters: {} ns per call, {} tiles, {} moves",
            ns / calls.max(1),
            tiles / calls.max(1),
            moves / calls.max(1)
        );
    }
}
