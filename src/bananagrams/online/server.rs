//! The game server: the page's files, `GET /ws` sessions bound by size, rate and time, the rooms
//! and their podium seats, on the shared HTTP stack (core::http) with its one way to bind and stop.

use super::assets::asset;
use super::latency::Histogram;
use super::protocol::{parse, Entry, Intent, Refused, Request, SeatPlan, ServerMessage, MAX_FRAME};
use super::room::{Phase, Room, Status};
use super::seat_player::SeatPlayer;
use super::secret;
use crate::bananagrams::dict::Lexicon;
use crate::bananagrams::game::Setup;
use crate::bananagrams::players::Kind;
use crate::core::http::{HttpServer, Limits};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Semaphore};

#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// How long a dropped seat may rejoin before its tiles go back.
    pub grace: Duration,
    /// A connection not in a room by then is closed.
    pub join_timeout: Duration,
    /// A connection silent this long is closed (it is pinged every third of it).
    pub idle_timeout: Duration,
    /// Sustained messages per second per connection, and the burst above it.
    pub rate: f64,
    pub burst: f64,
    /// Rooms at once; `create` is refused beyond.
    pub max_rooms: usize,
    /// The fastest pace a podium seat may be given (a faster one is slowed to it), so rooms of
    /// podium players cannot take every core.
    pub min_pace: Duration,
    /// WebSocket sessions at once; the upgrade is refused (503) beyond.
    pub max_sessions: usize,
    /// How long a finished room is kept for rejoining to see its end.
    pub keep_over: Duration,
    /// One line per room event on stderr.
    pub log: bool,
    pub limits: Limits,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            grace: Duration::from_secs(60),
            join_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            rate: 40.0,
            burst: 80.0,
            max_rooms: 4096,
            min_pace: Duration::from_millis(100),
            max_sessions: 4096,
            keep_over: Duration::from_secs(600),
            log: true,
            limits: Limits::default(),
        }
    }
}

/// A session's read and write buffers: two of the largest frames.
const SOCKET_BUFFER: usize = 2 * MAX_FRAME;
/// Frames waiting for a slow client before it counts as gone.
const QUEUE: usize = 512;
/// Refused messages past the rate after which a connection is closed.
const MAX_OVER_RATE: u32 = 200;

/// A frame for a client, with when the action that caused it reached the server.
type Outgoing = (Arc<str>, Instant);
type Sender = mpsc::Sender<Outgoing>;

/// A room and the connections of its person seats.
struct RoomEntry {
    room: Room,
    senders: Vec<Option<(u64, Sender)>>,
    /// When no person has been connected since (for dropping abandoned rooms).
    empty_since: Option<Instant>,
}

/// What the server counts, for the logs and the load test.
#[derive(Default)]
pub struct Counters {
    pub rooms_created: AtomicU64,
    pub games_won: AtomicU64,
    pub games_without_winner: AtomicU64,
    pub rejected: AtomicU64,
    pub sessions: AtomicU64,
    /// From a message's arrival (or a podium seat's action) to each frame it caused being
    /// written to its socket.
    pub broadcast: Histogram,
}

impl Counters {
    /// One line: rooms, games, refusals and the action-to-broadcast latency.
    pub fn summary(&self) -> String {
        let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let ms = |q: f64| self.broadcast.quantile(q).as_secs_f64() * 1e3;
        format!(
            "{} rooms, {} games won, {} without a winner, {} sessions, {} messages refused; \
             {} frames sent, action to broadcast p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            n(&self.rooms_created),
            n(&self.games_won),
            n(&self.games_without_winner),
            n(&self.sessions),
            n(&self.rejected),
            self.broadcast.count(),
            ms(0.5),
            ms(0.99),
            ms(1.0)
        )
    }
}

struct Shared {
    config: ServerConfig,
    setup: Setup,
    rooms: Mutex<HashMap<String, Arc<Mutex<RoomEntry>>>>,
    sessions: Arc<Semaphore>,
    next_connection: AtomicU64,
    counters: Arc<Counters>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// A bound game server; [`GameServer::serve`] answers until [`GameServer::stop`] or a signal.
pub struct GameServer {
    http: HttpServer,
    shared: Arc<Shared>,
}

impl GameServer {
    /// Binds `address` (`127.0.0.1:0` for any free port).
    pub fn bind(address: &str, config: ServerConfig) -> Result<GameServer, String> {
        let threads = crate::core::cli::threads_available(usize::MAX);
        let http = HttpServer::bind(address, config.limits.clone(), threads)
            .map_err(|e| format!("serve: {e}"))?;
        let shared = Arc::new(Shared {
            sessions: Arc::new(Semaphore::new(config.max_sessions.max(1))),
            config,
            setup: Setup::new(Lexicon::enable()),
            rooms: Mutex::new(HashMap::new()),
            next_connection: AtomicU64::new(1),
            counters: Arc::new(Counters::default()),
        });
        Ok(GameServer { http, shared })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.http.local_addr()
    }

    pub fn counters(&self) -> Arc<Counters> {
        Arc::clone(&self.shared.counters)
    }

    /// Rooms open now.
    pub fn rooms(&self) -> usize {
        lock(&self.shared.rooms).len()
    }

    /// Stops on SIGINT or SIGTERM too.
    pub fn stop_on_signals(&self) {
        self.http.stop_on_signals();
    }

    /// Answers until `stop` is called.
    pub fn serve(&self) -> Result<(), String> {
        self.http.handle().spawn(sweep(Arc::clone(&self.shared)));
        let routes = Router::new()
            .route("/ws", get(upgrade))
            .fallback(page)
            .with_state(Arc::clone(&self.shared));
        self.http.serve(routes)
    }

    pub fn stop(&self) {
        self.http.stop();
    }
}

async fn page(uri: Uri) -> Response {
    match asset(uri.path()) {
        Some((body, kind)) => ([(header::CONTENT_TYPE, kind)], body).into_response(),
        None => (StatusCode::NOT_FOUND, "not found (the game is at /)\n").into_response(),
    }
}

async fn upgrade(State(shared): State<Arc<Shared>>, ws: WebSocketUpgrade) -> Response {
    let Ok(permit) = Arc::clone(&shared.sessions).try_acquire_owned() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "too many players connected\n",
        )
            .into_response();
    };
    // tungstenite's default buffers are 128 KiB each way: 50 MiB for 400 players (the load
    // run's peak RSS went from 65 MiB to 21 MiB with these).
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .read_buffer_size(SOCKET_BUFFER)
        .write_buffer_size(SOCKET_BUFFER)
        .on_upgrade(move |socket| async move {
            shared.counters.sessions.fetch_add(1, Ordering::Relaxed);
            Session::new(shared).run(socket).await;
            drop(permit);
        })
}

/// Sends a room's waiting messages to the connected seats and logs its events; `since`: when
/// the action that caused them arrived.
fn flush(shared: &Shared, entry: &mut RoomEntry, since: Instant) {
    loop {
        let mut fallen_behind = Vec::new();
        for (seat, message) in entry.room.take_messages() {
            if let Some((_, sender)) = &entry.senders[seat] {
                if sender.try_send((message.to_json().into(), since)).is_err() {
                    fallen_behind.push(seat);
                }
            }
        }
        if fallen_behind.is_empty() {
            break;
        }
        // A client that let QUEUE frames pile up is gone for the room (its seat is away, its
        // token can take it back); its session closes when it finds the seat not its own.
        for seat in fallen_behind {
            entry.senders[seat] = None;
            entry.room.disconnect(seat, since);
        }
    }
    for line in entry.room.take_log() {
        if shared.config.log {
            eprintln!("{line}");
        }
    }
}

/// One WebSocket: its seat once it has one, and the budget that bounds its messages.
struct Session {
    shared: Arc<Shared>,
    id: u64,
    seat: Option<(Arc<Mutex<RoomEntry>>, usize)>,
    outbox: Sender,
    inbox: mpsc::Receiver<Outgoing>,
    /// When the frame being handled arrived.
    arrived: Instant,
    /// One room per connection.
    created: bool,
    tokens: f64,
    refilled: Instant,
    over_rate: u32,
}

enum Next {
    Go,
    Close(u16, &'static str),
}

impl Session {
    fn new(shared: Arc<Shared>) -> Session {
        let (outbox, inbox) = mpsc::channel(QUEUE);
        let id = shared.next_connection.fetch_add(1, Ordering::Relaxed);
        let tokens = shared.config.burst;
        Session {
            shared,
            id,
            seat: None,
            outbox,
            inbox,
            tokens,
            refilled: Instant::now(),
            over_rate: 0,
            arrived: Instant::now(),
            created: false,
        }
    }

    async fn run(mut self, mut socket: WebSocket) {
        let config = self.shared.config.clone();
        let joined_by = tokio::time::Instant::now() + config.join_timeout;
        let mut ping = tokio::time::interval(config.idle_timeout / 3);
        ping.tick().await;
        let mut heard = Instant::now();
        let close = loop {
            let next = tokio::select! {
                frame = socket.recv() => match frame {
                    Some(Ok(frame)) => {
                        heard = Instant::now();
                        self.arrived = heard;
                        self.on_frame(frame)
                    }
                    // The client went away, or broke the protocol (a frame over MAX_FRAME).
                    _ => break None,
                },
                out = self.inbox.recv() => match out {
                    Some((text, since)) => match socket.send(Message::Text(text.as_ref().into())).await {
                        Ok(()) => {
                            self.shared.counters.broadcast.record(since.elapsed());
                            Next::Go
                        }
                        Err(_) => break None,
                    },
                    None => Next::Close(1008, "too slow to read the game"),
                },
                _ = ping.tick() => {
                    if heard.elapsed() >= config.idle_timeout {
                        Next::Close(1000, "silent too long")
                    } else if !self.still_seated() {
                        Next::Close(1008, "this seat is no longer this connection's")
                    } else {
                        let _ = socket.send(Message::Ping(Default::default())).await;
                        Next::Go
                    }
                },
                _ = tokio::time::sleep_until(joined_by), if self.seat.is_none() => {
                    Next::Close(1008, "no room created or joined in time")
                }
            };
            if let Next::Close(code, reason) = next {
                break Some((code, reason));
            }
        };
        if let Some((code, reason)) = close {
            // Whatever the room said last goes out first.
            while let Ok((text, _)) = self.inbox.try_recv() {
                let _ = socket.send(Message::Text(text.as_ref().into())).await;
            }
            let frame = CloseFrame {
                code,
                reason: reason.into(),
            };
            let _ = socket.send(Message::Close(Some(frame))).await;
        }
        self.leave();
    }

    /// Whether the rate allows one more message.
    fn allowed(&mut self) -> bool {
        let config = &self.shared.config;
        let now = Instant::now();
        let earned = now.duration_since(self.refilled).as_secs_f64() * config.rate;
        self.tokens = (self.tokens + earned).min(config.burst);
        self.refilled = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    fn send(&self, message: ServerMessage) {
        let _ = self
            .outbox
            .try_send((message.to_json().into(), self.arrived));
    }

    fn refuse(&self, refused: Refused) {
        self.shared
            .counters
            .rejected
            .fetch_add(1, Ordering::Relaxed);
        self.send(refused.message());
    }

    fn on_frame(&mut self, frame: Message) -> Next {
        let text = match frame {
            Message::Text(text) => text,
            Message::Binary(_) => {
                self.refuse(Refused {
                    of: "frame".into(),
                    reason: "binary frame; the protocol is JSON text".into(),
                    id: None,
                });
                return Next::Go;
            }
            Message::Close(_) => return Next::Close(1000, "bye"),
            Message::Ping(_) | Message::Pong(_) => return Next::Go,
        };
        if !self.allowed() {
            self.over_rate += 1;
            if self.over_rate > MAX_OVER_RATE {
                return Next::Close(1008, "too many messages");
            }
            self.refuse(Refused {
                of: "frame".into(),
                reason: "too many messages".into(),
                id: None,
            });
            return Next::Go;
        }
        match parse(text.as_str()) {
            Err(refused) => self.refuse(refused),
            Ok(parsed) => match parsed.request {
                Request::Entry(entry) => self.enter(entry, parsed.id),
                Request::Play(intent) => return self.play(intent, parsed.id),
            },
        }
        Next::Go
    }

    fn enter(&mut self, entry: Entry, id: Option<u64>) {
        let of = match &entry {
            Entry::Create { .. } => "create",
            Entry::Join { .. } => "join",
            Entry::Rejoin { .. } => "rejoin",
        };
        let refused = |reason: String| Refused {
            of: of.into(),
            reason,
            id,
        };
        if self.seat.is_some() {
            return self.refuse(refused("this connection already has a seat".into()));
        }
        let result = match entry {
            Entry::Create { name, seats } => self.create(name, seats),
            Entry::Join { room, name } => self.take_seat(&room, |r| r.join(&name)),
            Entry::Rejoin { room, token } => self.take_seat(&room, |r| r.rejoin(&token)),
        };
        match result {
            Ok(()) => {
                if let Some(id) = id {
                    self.send(ServerMessage::Ack { id, of: of.into() });
                }
            }
            Err(reason) => self.refuse(refused(reason)),
        }
    }

    fn create(&mut self, name: Option<String>, seats: Vec<SeatPlan>) -> Result<(), String> {
        if self.created {
            return Err("this connection has created a room already".into());
        }
        let shared = Arc::clone(&self.shared);
        let seats = seats
            .into_iter()
            .map(|plan| match plan {
                SeatPlan::Podium { kind, pace } => SeatPlan::Podium {
                    kind,
                    pace: pace.max(shared.config.min_pace),
                },
                person => person,
            })
            .collect::<Vec<_>>();
        let (code, entry) = {
            let mut rooms = lock(&shared.rooms);
            if rooms.len() >= shared.config.max_rooms {
                return Err("the server has no room for another game; try later".into());
            }
            let code = loop {
                let code = secret::code(secret::CODE_LENGTH)?;
                if !rooms.contains_key(&code) {
                    break code;
                }
            };
            let seat_count = seats.len();
            let room = Room::new(
                code.clone(),
                seats,
                shared.setup.lexicon.list,
                shared.config.grace,
                secret::seed()?,
            );
            let entry = Arc::new(Mutex::new(RoomEntry {
                room,
                senders: vec![None; seat_count],
                empty_since: Some(Instant::now()),
            }));
            rooms.insert(code.clone(), Arc::clone(&entry));
            (code, entry)
        };
        self.created = true;
        shared
            .counters
            .rooms_created
            .fetch_add(1, Ordering::Relaxed);
        if shared.config.log {
            eprintln!("room {code}: created");
        }
        self.send(ServerMessage::Room { room: code.clone() });
        match name {
            Some(name) => self.seat_in(entry, |r| r.join(&name)),
            None => Ok(()),
        }
    }

    fn take_seat(
        &mut self,
        code: &str,
        take: impl FnOnce(&mut Room) -> Result<usize, String>,
    ) -> Result<(), String> {
        let entry = lock(&self.shared.rooms).get(code).cloned();
        let entry = entry.ok_or_else(|| format!("no room {code}"))?;
        self.seat_in(entry, take)
    }

    fn seat_in(
        &mut self,
        entry: Arc<Mutex<RoomEntry>>,
        take: impl FnOnce(&mut Room) -> Result<usize, String>,
    ) -> Result<(), String> {
        let mut guard = lock(&entry);
        let before = guard.room.phase();
        let seat = take(&mut guard.room)?;
        guard.senders[seat] = Some((self.id, self.outbox.clone()));
        guard.empty_since = None;
        let started = before == Phase::Waiting && guard.room.phase() == Phase::Playing;
        flush(&self.shared, &mut guard, self.arrived);
        if started {
            start_podium_seats(&self.shared, &entry, &guard.room);
        }
        drop(guard);
        self.seat = Some((entry, seat));
        Ok(())
    }

    /// Whether this connection still holds its seat (a rejoin elsewhere or falling behind the
    /// game takes it away); true before it has one.
    fn still_seated(&self) -> bool {
        self.seat.as_ref().is_none_or(|(entry, seat)| {
            lock(entry).senders[*seat]
                .as_ref()
                .is_some_and(|(id, _)| *id == self.id)
        })
    }

    fn play(&mut self, intent: Intent, id: Option<u64>) -> Next {
        let of = intent.name();
        let Some((entry, seat)) = &self.seat else {
            self.refuse(Refused {
                of: of.into(),
                reason: "create or join a room first".into(),
                id,
            });
            return Next::Go;
        };
        let mut guard = lock(entry);
        if guard.senders[*seat]
            .as_ref()
            .is_none_or(|(c, _)| *c != self.id)
        {
            return Next::Close(1008, "this seat is no longer this connection's");
        }
        let result = guard.room.act(*seat, intent);
        count_end(&self.shared, &mut guard.room);
        flush(&self.shared, &mut guard, self.arrived);
        drop(guard);
        match result {
            Ok(()) => {
                if let Some(id) = id {
                    self.send(ServerMessage::Ack { id, of: of.into() });
                }
            }
            Err(reason) => self.refuse(Refused {
                of: of.into(),
                reason,
                id,
            }),
        }
        Next::Go
    }

    fn leave(&mut self) {
        let Some((entry, seat)) = self.seat.take() else {
            return;
        };
        let mut guard = lock(&entry);
        if guard.senders[seat]
            .as_ref()
            .is_some_and(|(id, _)| *id == self.id)
        {
            guard.senders[seat] = None;
            guard.room.disconnect(seat, Instant::now());
            if guard.senders.iter().all(Option::is_none) {
                guard.empty_since = Some(Instant::now());
            }
            flush(&self.shared, &mut guard, self.arrived);
        }
    }
}

/// Counts a game that just ended.
fn count_end(shared: &Shared, room: &mut Room) {
    if let Some(winner) = room.take_end() {
        let counter = if winner.is_some() {
            &shared.counters.games_won
        } else {
            &shared.counters.games_without_winner
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

fn start_podium_seats(shared: &Arc<Shared>, entry: &Arc<Mutex<RoomEntry>>, room: &Room) {
    for seat in 0..room.seat_count() {
        if let SeatPlan::Podium { kind, pace } = *room.plan(seat) {
            let (shared, entry) = (Arc::clone(shared), Arc::clone(entry));
            tokio::spawn(drive(shared, entry, seat, kind, pace));
        }
    }
}

/// A podium seat: waits its pace, acts on a blocking thread, tells the room what it did.
async fn drive(
    shared: Arc<Shared>,
    entry: Arc<Mutex<RoomEntry>>,
    seat: usize,
    kind: Kind,
    pace: Duration,
) {
    let mut player = SeatPlayer::new(kind, &shared.setup);
    let poll = pace.max(Duration::from_millis(50));
    loop {
        if pace.is_zero() {
            tokio::task::yield_now().await;
        } else {
            tokio::time::sleep(pace).await;
        }
        let context = {
            let guard = lock(&entry);
            let room = &guard.room;
            if room.phase() != Phase::Playing || room.status(seat) != Status::Playing {
                return;
            }
            player.sync(&room.owned(seat));
            room.context()
        };
        let Ok((back, intents)) = tokio::task::spawn_blocking(move || {
            let intents = player.act(&context);
            (player, intents)
        })
        .await
        else {
            return;
        };
        player = back;
        let stuck = intents.contains(&Intent::Stuck) || intents.is_empty();
        let now = Instant::now();
        let seen = {
            let mut guard = lock(&entry);
            for intent in intents {
                let dump = match intent {
                    Intent::Dump(letter) => Some(letter),
                    _ => None,
                };
                let result = guard.room.act(seat, intent);
                match (dump, result) {
                    (Some(letter), Ok(())) => player.dumped(letter),
                    (Some(letter), Err(_)) => player.undumped(letter),
                    (None, Ok(())) => {}
                    (None, Err(_)) => break,
                }
            }
            count_end(&shared, &mut guard.room);
            flush(&shared, &mut guard, now);
            guard.room.version()
        };
        if stuck {
            // Nothing to do until a peel, dump or a seat going out changes the game.
            loop {
                tokio::time::sleep(poll).await;
                let guard = lock(&entry);
                if guard.room.phase() != Phase::Playing || guard.room.version() != seen {
                    break;
                }
            }
        }
    }
}

/// Once a second: grace periods, and rooms that are over or abandoned dropped.
async fn sweep(shared: Arc<Shared>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tick.tick().await;
        let now = Instant::now();
        let entries: Vec<(String, Arc<Mutex<RoomEntry>>)> = lock(&shared.rooms)
            .iter()
            .map(|(code, entry)| (code.clone(), Arc::clone(entry)))
            .collect();
        let mut gone = Vec::new();
        for (code, entry) in entries {
            let mut guard = lock(&entry);
            guard.room.expire(now);
            let abandoned = guard
                .empty_since
                .is_some_and(|since| now.duration_since(since) >= shared.config.grace);
            if abandoned && guard.room.phase() == Phase::Playing {
                guard.room.abandon("every person left".into());
            }
            count_end(&shared, &mut guard.room);
            flush(&shared, &mut guard, now);
            let finished = guard
                .room
                .ended_at()
                .is_some_and(|t| now.duration_since(t) >= shared.config.keep_over);
            if finished || (abandoned && guard.room.phase() != Phase::Playing) {
                gone.push(code);
            }
        }
        if !gone.is_empty() {
            let mut rooms = lock(&shared.rooms);
            for code in gone {
                rooms.remove(&code);
                if shared.config.log {
                    eprintln!("room {code}: closed");
                }
            }
        }
    }
}
