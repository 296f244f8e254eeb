//! Bananagrams games: 2..8 players sharing one bunch with PEEL, DUMP and BANANAS, played either
//! one thread per player or deterministically on a simulated clock (a seed replays a game).
//
// Simulated clock: each action costs ACTION_COST plus the work units the player reports (moves
// generated, grid cells scanned, search nodes), and the player with the earliest clock acts
// next (lowest seat on ties). Work units stand in for CPU time so that a faster strategy wins
// races as it would in real play, without the wall clock making a game unrepeatable.
//
// DUMP with fewer than three tiles left: the dumped tile goes back first, then the player takes
// all that is there (up to three), which may be the tile it just returned.

use super::dict::Lexicon;
use super::letters::Tiles;
use super::players::{Action, Context, Kind, Player};
use super::scorers::LetterStats;
use super::validate::validate;
use crate::core::rng::Rng;
use std::sync::{Arc, Barrier, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Simulated time every action costs on top of the player's work (a work unit is about 200 ns,
/// more than the game's own bookkeeping per action).
pub const ACTION_COST: u64 = 1;
/// Actions (all players together) after which a game counts as hung.
pub const MAX_ACTIONS: u64 = 200_000;
/// Wall-clock limit for a threaded game before it counts as hung.
pub const THREADED_WALL_LIMIT: Duration = Duration::from_secs(60);

/// Tiles each player starts with (official rules).
pub fn starting_hand(players: usize) -> usize {
    match players {
        0..=4 => 21,
        5 | 6 => 15,
        _ => 11,
    }
}

/// What every game needs: the dictionary and the letter tables the players share.
#[derive(Clone)]
pub struct Setup {
    pub lexicon: Lexicon,
    pub stats: Arc<LetterStats>,
}

impl Setup {
    pub fn new(lexicon: Lexicon) -> Setup {
        let stats = Arc::new(LetterStats::new(&lexicon.dawg));
        Setup { lexicon, stats }
    }

    fn player(&self, kind: Kind) -> Box<dyn Player> {
        kind.build(self.lexicon.dawg, &self.stats)
    }
}

/// Something that happened in a game, for the move log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Dealt(Tiles),
    /// Tiles went down (or the grid was rearranged): tiles now on the grid, left in the hand.
    Played {
        grid: u16,
        hand: u16,
    },
    /// Called PEEL; every player still in took one tile.
    Peel,
    Dump {
        letter: u8,
        got: Tiles,
    },
    Wait,
    /// Called BANANAS with a valid grid.
    Bananas,
    /// Called BANANAS (or PEEL) with a grid that does not hold: out of the game.
    Rotten(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// Simulated time in deterministic games, a sequence number in threaded ones.
    pub time: u64,
    pub player: u8,
    pub event: Event,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The winner, its grid as text and the tiles it held (checked by the validator).
    Won {
        player: usize,
        grid: String,
        tiles: Tiles,
    },
    /// Everyone still in is waiting and nothing can change, or every player went out.
    NoWinner,
    /// No end within the action limit (or the wall limit, threaded).
    Hung,
}

#[derive(Clone, Debug)]
pub struct GameResult {
    pub outcome: Outcome,
    /// Seats of the players that went out with rotten bananas, in order.
    pub rotten: Vec<usize>,
    pub peels: u32,
    pub dumps: u32,
    pub actions: u64,
    /// The winner's simulated clock (deterministic games), 0 otherwise.
    pub time: u64,
    pub log: Vec<LogEntry>,
    /// Each seat's grid and hand at the end, with the log (deterministic games).
    pub final_grids: Vec<(String, Tiles)>,
}

impl GameResult {
    /// A game with nothing played yet, hung until it ends otherwise.
    fn hung() -> GameResult {
        GameResult {
            outcome: Outcome::Hung,
            rotten: Vec::new(),
            peels: 0,
            dumps: 0,
            actions: 0,
            time: 0,
            log: Vec::new(),
            final_grids: Vec::new(),
        }
    }

    pub fn winner(&self) -> Option<usize> {
        match self.outcome {
            Outcome::Won { player, .. } => Some(player),
            _ => None,
        }
    }
}

/// One game's seats and seed.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub seats: Vec<Kind>,
    pub seed: u64,
    /// Keep the move log (deterministic games; threaded logs are in arrival order).
    pub log: bool,
}

/// The shuffled bunch for `seed`: tiles are drawn from the end.
pub(crate) fn shuffled_bunch(rng: &mut Rng) -> Vec<u8> {
    let mut bunch: Vec<u8> = Tiles::full_bunch().letters().collect();
    rng.shuffle(&mut bunch);
    bunch
}

/// Up to `count` tiles off the top of the bunch (fewer when it runs out).
pub(crate) fn draw(bunch: &mut Vec<u8>, count: usize) -> Tiles {
    let mut tiles = Tiles::EMPTY;
    for _ in 0..count {
        match bunch.pop() {
            Some(letter) => tiles.add(letter),
            None => break,
        }
    }
    tiles
}

/// The tiles in flight that have arrived by `time`, taken out of `in_flight`.
fn deliver(in_flight: &mut Vec<(u64, Tiles)>, time: u64) -> Tiles {
    let mut arrived = Tiles::EMPTY;
    in_flight.retain(|(at, tiles)| {
        if *at <= time {
            arrived = arrived.union(tiles);
            false
        } else {
            true
        }
    });
    arrived
}

/// The tile goes back at a random place, then up to three come off the top.
pub(crate) fn dump(bunch: &mut Vec<u8>, rng: &mut Rng, letter: u8) -> Tiles {
    let at = rng.range(0..bunch.len() + 1);
    bunch.insert(at, letter);
    draw(bunch, 3)
}

/// A rotten banana's tiles go back and the bunch is shuffled.
pub(crate) fn return_tiles(bunch: &mut Vec<u8>, rng: &mut Rng, tiles: &Tiles) {
    bunch.extend(tiles.letters());
    rng.shuffle(bunch);
}

/// Checks a BANANAS call: the player's grid must hold exactly the tiles the game gave it.
fn check_bananas(setup: &Setup, player: &dyn Player, owned: &Tiles) -> Result<String, String> {
    let grid = player.board().render();
    match validate(&grid, owned, &setup.lexicon.list) {
        Ok(()) => Ok(grid),
        Err(invalid) => Err(invalid.to_string()),
    }
}

/// A game on the simulated clock: the same spec always plays the same game.
pub fn play_deterministic(setup: &Setup, spec: &GameSpec) -> GameResult {
    let mut players: Vec<Box<dyn Player>> = spec.seats.iter().map(|&k| setup.player(k)).collect();
    let mut result = play_on_clock(setup, spec, &mut players);
    if spec.log {
        result.final_grids = players
            .iter()
            .map(|p| (p.board().render(), *p.hand()))
            .collect();
    }
    result
}

fn play_on_clock(setup: &Setup, spec: &GameSpec, players: &mut [Box<dyn Player>]) -> GameResult {
    let seats = spec.seats.len();
    assert!((2..=8).contains(&seats), "2 to 8 players");
    let mut rng = Rng::new(spec.seed);
    let mut bunch = shuffled_bunch(&mut rng);
    let mut owned = vec![Tiles::EMPTY; seats];
    let mut out = vec![false; seats];
    let mut waiting = vec![false; seats];
    let mut clock = vec![0u64; seats];
    // Peeled tiles reach a player at the peel's time, not before: a player whose clock is
    // behind it keeps acting without them. (Moving its clock up to the peel instead favoured
    // the player with the longer actions, the one whose peels land later: the earlier clock
    // gave Podium 99.5% against TwoLetterStranding in simulation and 38% threaded.)
    let mut in_flight: Vec<Vec<(u64, Tiles)>> = vec![Vec::new(); seats];
    let mut result = GameResult::hung();
    let log = |result: &mut GameResult, time: u64, player: usize, event: Event| {
        if spec.log {
            result.log.push(LogEntry {
                time,
                player: player as u8,
                event,
            });
        }
    };
    for seat in 0..seats {
        let hand = draw(&mut bunch, starting_hand(seats));
        owned[seat] = hand;
        players[seat].receive(&hand);
        log(&mut result, 0, seat, Event::Dealt(hand));
    }
    loop {
        let Some(seat) = (0..seats)
            .filter(|&s| !out[s] && !waiting[s])
            .min_by_key(|&s| (clock[s], s))
        else {
            result.outcome = Outcome::NoWinner;
            return result;
        };
        result.actions += 1;
        if result.actions > MAX_ACTIONS {
            result.outcome = Outcome::Hung;
            return result;
        }
        let active = out.iter().filter(|&&o| !o).count();
        let context = Context {
            bunch: bunch.len(),
            players: active,
        };
        let arrived = deliver(&mut in_flight[seat], clock[seat]);
        if !arrived.is_empty() {
            players[seat].receive(&arrived);
        }
        let work_before = players[seat].work();
        let action = players[seat].act(&context);
        clock[seat] += ACTION_COST + (players[seat].work() - work_before);
        let now = clock[seat];
        // Other players hear about a change at `now`: waiting ones wake up then.
        let wake = |waiting: &mut [bool], clock: &mut [u64]| {
            for s in 0..seats {
                if waiting[s] {
                    waiting[s] = false;
                    clock[s] = clock[s].max(now);
                }
            }
        };
        match action {
            Action::Played => {
                let event = Event::Played {
                    grid: players[seat].board().tile_count() as u16,
                    hand: players[seat].hand().len() as u16,
                };
                log(&mut result, now, seat, event);
            }
            Action::Wait => {
                log(&mut result, now, seat, Event::Wait);
                match in_flight[seat].iter().map(|&(t, _)| t).min() {
                    Some(first) => clock[seat] = clock[seat].max(first),
                    None => waiting[seat] = true,
                }
            }
            Action::Dump(letter) => {
                if !owned[seat].take(letter) {
                    out[seat] = true;
                    in_flight[seat].clear();
                    result.rotten.push(seat);
                    return_tiles(&mut bunch, &mut rng, &owned[seat]);
                    let reason = format!("dumped {} it does not hold", (b'A' + letter) as char);
                    log(&mut result, now, seat, Event::Rotten(reason));
                    wake(&mut waiting, &mut clock);
                    continue;
                }
                let got = dump(&mut bunch, &mut rng, letter);
                owned[seat] = owned[seat].union(&got);
                players[seat].receive(&got);
                result.dumps += 1;
                log(&mut result, now, seat, Event::Dump { letter, got });
                wake(&mut waiting, &mut clock);
            }
            Action::Done => {
                if let Some(&(first, _)) = in_flight[seat].iter().min_by_key(|(t, _)| *t) {
                    // Tiles are on their way: the hand is not empty, wait for them.
                    clock[seat] = clock[seat].max(first);
                    continue;
                }
                let on_grid = players[seat].board().tile_count();
                if bunch.len() >= active && on_grid == owned[seat].len() {
                    result.peels += 1;
                    log(&mut result, now, seat, Event::Peel);
                    for s in (0..seats).filter(|&s| !out[s]) {
                        let tile = draw(&mut bunch, 1);
                        owned[s] = owned[s].union(&tile);
                        if s == seat {
                            players[s].receive(&tile);
                        } else {
                            in_flight[s].push((now, tile));
                        }
                    }
                    wake(&mut waiting, &mut clock);
                    continue;
                }
                match check_bananas(setup, &*players[seat], &owned[seat]) {
                    Ok(grid) if bunch.len() < active => {
                        log(&mut result, now, seat, Event::Bananas);
                        result.time = now;
                        result.outcome = Outcome::Won {
                            player: seat,
                            grid,
                            tiles: owned[seat],
                        };
                        return result;
                    }
                    checked => {
                        let reason = checked
                            .err()
                            .unwrap_or_else(|| "called PEEL with tiles off the grid".into());
                        out[seat] = true;
                        in_flight[seat].clear();
                        result.rotten.push(seat);
                        return_tiles(&mut bunch, &mut rng, &owned[seat]);
                        log(&mut result, now, seat, Event::Rotten(reason));
                        wake(&mut waiting, &mut clock);
                        if out.iter().all(|&o| o) {
                            result.outcome = Outcome::NoWinner;
                            return result;
                        }
                    }
                }
            }
        }
    }
}

/// The bunch and everything the player threads share, behind one lock.
struct Shared {
    bunch: Vec<u8>,
    rng: Rng,
    inbox: Vec<Tiles>,
    owned: Vec<Tiles>,
    out: Vec<bool>,
    /// Bumped on every change a waiting player could care about.
    version: u64,
    /// `Some(version)` while a player waits for a change after that version.
    waiting_at: Vec<Option<u64>>,
    outcome: Option<Outcome>,
    result: GameResult,
    sequence: u64,
    log: bool,
}

impl Shared {
    fn active(&self) -> usize {
        self.out.iter().filter(|&&o| !o).count()
    }

    fn record(&mut self, player: usize, event: Event) {
        self.sequence += 1;
        if self.log {
            self.result.log.push(LogEntry {
                time: self.sequence,
                player: player as u8,
                event,
            });
        }
    }

    fn go_out(&mut self, seat: usize, reason: String) {
        self.out[seat] = true;
        self.result.rotten.push(seat);
        let tiles = self.owned[seat];
        let pending = std::mem::take(&mut self.inbox[seat]);
        debug_assert!(tiles.contains(&pending));
        return_tiles(&mut self.bunch, &mut self.rng, &tiles);
        self.record(seat, Event::Rotten(reason));
        self.version += 1;
        if self.active() == 0 {
            self.outcome = Some(Outcome::NoWinner);
        }
    }

    /// Everyone still in waits for a change that nobody can make.
    fn stalled(&self) -> bool {
        (0..self.out.len()).all(|s| {
            self.out[s] || (self.waiting_at[s] == Some(self.version) && self.inbox[s].is_empty())
        })
    }
}

/// CPU time of the thread that made it (a software perf event: no unsafe code, and it works at
/// `perf_event_paranoid` 2); None where perf events are not allowed.
pub struct ThreadCpu(Option<perf_event::Counter>);

impl ThreadCpu {
    pub fn start() -> ThreadCpu {
        let counter = perf_event::Builder::new()
            .kind(perf_event::events::Software::TASK_CLOCK)
            .build()
            .and_then(|mut c| c.enable().map(|()| c));
        ThreadCpu(counter.ok())
    }

    /// Nanoseconds of CPU since `start`.
    pub fn ns(&mut self) -> Option<u64> {
        self.0.as_mut().and_then(|c| c.read().ok())
    }
}

/// A game with one thread per player, the bunch behind a mutex, peeled tiles delivered to each
/// player's inbox; not repeatable. The result's `time` is the CPU ns of the player threads
/// together (0 without perf events).
pub fn play_threaded(setup: &Setup, spec: &GameSpec) -> GameResult {
    let seats = spec.seats.len();
    assert!((2..=8).contains(&seats), "2 to 8 players");
    let mut rng = Rng::new(spec.seed);
    let mut bunch = shuffled_bunch(&mut rng);
    let mut owned = vec![Tiles::EMPTY; seats];
    for hand in owned.iter_mut() {
        *hand = draw(&mut bunch, starting_hand(seats));
    }
    let shared = Mutex::new(Shared {
        bunch,
        rng,
        inbox: owned.clone(),
        owned,
        out: vec![false; seats],
        version: 0,
        waiting_at: vec![None; seats],
        outcome: None,
        result: GameResult::hung(),
        sequence: 0,
        log: spec.log,
    });
    let changed = Condvar::new();
    let cpu_total = Mutex::new(0u64);
    // Everyone starts on GO. Even so, on a loaded 2-core machine a whole game (1-3 ms of CPU)
    // can be shorter than a scheduler time slice: logs showed one thread playing a whole game
    // before the other acted once, so threaded win rates measure scheduling, not strategy.
    let go = Barrier::new(seats);
    std::thread::scope(|scope| {
        for (seat, &kind) in spec.seats.iter().enumerate() {
            let (shared, changed, cpu_total, go) = (&shared, &changed, &cpu_total, &go);
            scope.spawn(move || {
                let mut cpu = ThreadCpu::start();
                let player = setup.player(kind);
                go.wait();
                run_seat(setup, seat, player, shared, changed);
                if let Some(ns) = cpu.ns() {
                    *cpu_total.lock().expect("cpu lock") += ns;
                }
            });
        }
        let deadline = Instant::now() + THREADED_WALL_LIMIT;
        let mut state = shared.lock().expect("bunch lock");
        while state.outcome.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                state.outcome = Some(Outcome::Hung);
                changed.notify_all();
                break;
            }
            state = changed.wait_timeout(state, left).expect("bunch lock").0;
        }
    });
    let state = shared.into_inner().expect("bunch lock");
    let mut result = state.result;
    result.outcome = state.outcome.unwrap_or(Outcome::Hung);
    result.time = cpu_total.into_inner().expect("cpu lock");
    result
}

fn run_seat(
    setup: &Setup,
    seat: usize,
    mut player: Box<dyn Player>,
    shared: &Mutex<Shared>,
    changed: &Condvar,
) {
    let mut actions = 0u64;
    loop {
        let (context, seen) = {
            let mut state = shared.lock().expect("bunch lock");
            if state.outcome.is_some() || state.out[seat] {
                return;
            }
            let got = std::mem::take(&mut state.inbox[seat]);
            let context = Context {
                bunch: state.bunch.len(),
                players: state.active(),
            };
            let seen = state.version;
            drop(state);
            player.receive(&got);
            (context, seen)
        };
        actions += 1;
        let action = player.act(&context);
        let mut state = shared.lock().expect("bunch lock");
        state.result.actions += 1;
        if state.outcome.is_some() || state.out[seat] {
            return;
        }
        if actions > MAX_ACTIONS {
            state.outcome = Some(Outcome::Hung);
            changed.notify_all();
            return;
        }
        match action {
            Action::Played => {
                let event = Event::Played {
                    grid: player.board().tile_count() as u16,
                    hand: player.hand().len() as u16,
                };
                state.record(seat, event);
            }
            Action::Wait => {
                state.waiting_at[seat] = Some(seen);
                if state.stalled() {
                    state.outcome = Some(Outcome::NoWinner);
                    changed.notify_all();
                    return;
                }
                while state.outcome.is_none()
                    && state.version == seen
                    && state.inbox[seat].is_empty()
                {
                    state = changed
                        .wait_timeout(state, Duration::from_millis(200))
                        .expect("bunch lock")
                        .0;
                }
                state.waiting_at[seat] = None;
            }
            Action::Dump(letter) => {
                if !state.owned[seat].take(letter) {
                    state.go_out(seat, "dumped a tile it does not hold".into());
                    changed.notify_all();
                    return;
                }
                let shared_state = &mut *state;
                let got = dump(&mut shared_state.bunch, &mut shared_state.rng, letter);
                state.owned[seat] = state.owned[seat].union(&got);
                state.inbox[seat] = state.inbox[seat].union(&got);
                state.result.dumps += 1;
                state.record(seat, Event::Dump { letter, got });
                state.version += 1;
                changed.notify_all();
            }
            Action::Done => {
                if !state.inbox[seat].is_empty() {
                    continue;
                }
                let active = state.active();
                let on_grid = player.board().tile_count();
                if state.bunch.len() >= active && on_grid == state.owned[seat].len() {
                    state.result.peels += 1;
                    state.record(seat, Event::Peel);
                    for s in 0..state.out.len() {
                        if !state.out[s] {
                            let tile = draw(&mut state.bunch, 1);
                            state.owned[s] = state.owned[s].union(&tile);
                            state.inbox[s] = state.inbox[s].union(&tile);
                        }
                    }
                    state.version += 1;
                    changed.notify_all();
                    continue;
                }
                match check_bananas(setup, &*player, &state.owned[seat]) {
                    Ok(grid) if state.bunch.len() < active => {
                        state.record(seat, Event::Bananas);
                        let tiles = state.owned[seat];
                        state.outcome = Some(Outcome::Won {
                            player: seat,
                            grid,
                            tiles,
                        });
                    }
                    checked => {
                        let reason = checked
                            .err()
                            .unwrap_or_else(|| "called PEEL with tiles off the grid".into());
                        state.go_out(seat, reason);
                    }
                }
                changed.notify_all();
                return;
            }
        }
    }
}
