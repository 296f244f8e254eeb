//! `podium bananagrams bot`: a podium player that takes a person seat of a room over the same
//! protocol as the page, acting at its pace until the game ends.

use super::client::{Client, Silence};
use super::grid::Grid;
use super::protocol::{ClientMessage, FinalGrid, Intent, ServerMessage};
use super::seat_player::SeatPlayer;
use crate::bananagrams::game::Setup;
use crate::bananagrams::letters::Tiles;
use crate::bananagrams::players::{Context, Kind};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Below this pace a bot's two messages per action would pass the server's rate (40 a second).
pub const MIN_PACE: Duration = Duration::from_millis(50);

#[derive(Clone, Debug)]
pub struct BotOptions {
    pub server: String,
    pub room: String,
    pub kind: Kind,
    /// The seat's name as the others see it.
    pub name: String,
    /// Between two actions ([`MIN_PACE`] keeps within the server's default rate).
    pub pace: Duration,
    /// Gives up when the game has not ended by then.
    pub limit: Duration,
}

/// How a bot's game went.
#[derive(Clone, Debug)]
pub struct BotReport {
    pub seat: usize,
    pub winner: Option<usize>,
    pub reason: String,
    pub grids: Vec<FinalGrid>,
    /// From sending each message to its `ack` (the broadcasts it caused were queued before).
    pub latencies: Vec<Duration>,
    pub rejected: u64,
}

/// What the bot knows of the game from the server's messages.
#[derive(Default)]
struct View {
    seat: Option<usize>,
    playing: bool,
    /// This seat still in (playing or stuck).
    in_game: bool,
    owned: Tiles,
    bunch: usize,
    active: usize,
}

fn owned_of(rack: &str, rows: &[String]) -> Tiles {
    let mut tiles = Tiles::EMPTY;
    for b in rack
        .bytes()
        .chain(rows.iter().flat_map(|r| r.bytes().collect::<Vec<u8>>()))
    {
        if b.is_ascii_uppercase() && tiles.len() < crate::bananagrams::letters::MAX_HAND {
            tiles.add(b - b'A');
        }
    }
    tiles
}

fn message_of(intent: &Intent) -> ClientMessage {
    let letter = |l: u8| char::from(b'A' + l).to_string();
    match intent {
        Intent::Place { at, letter: l } => ClientMessage::Place {
            row: at.0.into(),
            col: at.1.into(),
            letter: letter(*l),
        },
        Intent::Move { from, to } => ClientMessage::Move {
            from: [from.0.into(), from.1.into()],
            to: [to.0.into(), to.1.into()],
        },
        Intent::Remove { at } => ClientMessage::Remove {
            row: at.0.into(),
            col: at.1.into(),
        },
        Intent::Grid(tiles) => {
            let text = Grid::from_tiles(tiles).text();
            ClientMessage::Grid {
                top: text.top as u64,
                left: text.left as u64,
                rows: text.rows,
            }
        }
        Intent::Peel => ClientMessage::Peel {},
        Intent::Dump(l) => ClientMessage::Dump { letter: letter(*l) },
        Intent::Bananas => ClientMessage::Bananas {},
        Intent::Stuck => ClientMessage::Stuck {},
    }
}

/// Joins `options.room` and plays until the game ends; `note` gets one line per public event.
pub fn play(
    options: &BotOptions,
    setup: &Setup,
    mut note: impl FnMut(&str),
) -> Result<BotReport, String> {
    let mut client = Client::connect(&options.server)?;
    let join = ClientMessage::Join {
        room: options.room.clone(),
        name: options.name.clone(),
    };
    client.send(&join, None)?;
    let mut player = SeatPlayer::new(options.kind, setup);
    let mut view = View::default();
    // Sent and not yet answered: when, and the letter of a dump.
    let mut sent: HashMap<u64, (Instant, Option<u8>)> = HashMap::new();
    let mut next_id = 1u64;
    let mut latencies = Vec::new();
    let mut rejected = 0;
    let pace = options.pace;
    let started = Instant::now();
    let mut next_act = started;
    loop {
        let now = Instant::now();
        if now.duration_since(started) > options.limit {
            return Err(format!("the game did not end within {:?}", options.limit));
        }
        let wait = if view.playing && view.in_game {
            next_act.saturating_duration_since(now)
        } else {
            Duration::from_secs(1)
        };
        match client.receive(wait) {
            Ok(message) => match message {
                ServerMessage::Welcome { seat, .. } => view.seat = Some(seat),
                ServerMessage::State {
                    phase,
                    rack,
                    grid,
                    bunch,
                    seats,
                } => {
                    view.playing = phase == "playing";
                    view.owned = owned_of(&rack, &grid.rows);
                    view.bunch = bunch;
                    let in_game = |status: &str| matches!(status, "playing" | "away" | "stuck");
                    view.active = seats.iter().filter(|s| in_game(&s.status)).count();
                    view.in_game = view
                        .seat
                        .and_then(|s| seats.get(s))
                        .is_some_and(|s| s.status == "playing" || s.status == "stuck");
                }
                ServerMessage::Ack { id, .. } => {
                    if let Some((at, _)) = sent.remove(&id) {
                        latencies.push(at.elapsed());
                    }
                }
                ServerMessage::Rejected { of, reason, id } => {
                    rejected += 1;
                    if let Some((_, Some(letter))) = id.and_then(|id| sent.remove(&id)) {
                        player.undumped(letter);
                    }
                    if view.seat.is_none() {
                        return Err(format!("the server refused the {of}: {reason}"));
                    }
                }
                ServerMessage::Dumped { gave, .. } => {
                    if let Some(&b) = gave.as_bytes().first() {
                        player.dumped(b.wrapping_sub(b'A'));
                    }
                }
                ServerMessage::Log { text, .. } => note(&text),
                ServerMessage::Over {
                    winner,
                    reason,
                    grids,
                } => {
                    let seat = view
                        .seat
                        .ok_or("the game ended before this bot had a seat")?;
                    return Ok(BotReport {
                        seat,
                        winner,
                        reason,
                        grids,
                        latencies,
                        rejected,
                    });
                }
                ServerMessage::Room { .. } | ServerMessage::Peeled { .. } => {}
            },
            Err(Silence::TimedOut) => {}
            Err(Silence::Closed(reason)) => {
                return Err(format!("the server closed the connection: {reason}"))
            }
        }
        let now = Instant::now();
        if view.playing && view.in_game && now >= next_act {
            player.sync(&view.owned);
            let context = Context {
                bunch: view.bunch,
                players: view.active.max(1),
            };
            for intent in player.act(&context) {
                let dump = match intent {
                    Intent::Dump(letter) => Some(letter),
                    _ => None,
                };
                sent.insert(next_id, (Instant::now(), dump));
                client.send(&message_of(&intent), Some(next_id))?;
                next_id += 1;
            }
            next_act = now + pace;
        }
    }
}
