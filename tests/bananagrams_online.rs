//! The online game on 127.0.0.1: real games with bots over the protocol, hostile clients each
//! refused while a game beside them plays on, and (ignored by default) 200 games at once.

use podium::bananagrams::dict::Lexicon;
use podium::bananagrams::game::Setup;
use podium::bananagrams::letters::Tiles;
use podium::bananagrams::online::bot::{self, BotOptions, BotReport};
use podium::bananagrams::online::client::{Client, Silence};
use podium::bananagrams::online::protocol::{ClientMessage, FinalGrid, ServerMessage, MAX_FRAME};
use podium::bananagrams::online::server::{GameServer, ServerConfig};
use podium::bananagrams::players::Kind;
use podium::bananagrams::validate::validate;
use podium::core::http::Limits;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(5);

struct Running {
    server: Arc<GameServer>,
    thread: Option<JoinHandle<Result<(), String>>>,
    url: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.server.stop();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A server on a free port with short timeouts, so each hostile case ends quickly.
fn start() -> Running {
    let config = ServerConfig {
        grace: Duration::from_secs(2),
        join_timeout: Duration::from_millis(400),
        idle_timeout: Duration::from_secs(3),
        rate: 400.0,
        burst: 100.0,
        min_pace: Duration::ZERO,
        log: false,
        limits: Limits {
            header_timeout: Duration::from_millis(500),
            ..Limits::default()
        },
        ..ServerConfig::default()
    };
    let server = Arc::new(GameServer::bind("127.0.0.1:0", config).unwrap());
    let url = format!("http://{}", server.local_addr());
    let thread = {
        let server = Arc::clone(&server);
        std::thread::spawn(move || server.serve())
    };
    Running {
        server,
        thread: Some(thread),
        url,
    }
}

fn connect(url: &str) -> Client {
    Client::connect(url).unwrap()
}

/// A room of `seats` (JSON), made by a connection that takes no seat; its code.
fn create(url: &str, seats: &str) -> String {
    let mut client = connect(url);
    client
        .send_text(&format!(r#"{{"type":"create","seats":{seats}}}"#))
        .unwrap();
    client
        .wait_for(WAIT, |m| match m {
            ServerMessage::Room { room } => Some(room.clone()),
            _ => None,
        })
        .unwrap()
}

/// Joins `room`; the client and its seat.
fn join(url: &str, room: &str, name: &str) -> (Client, usize, String) {
    let mut client = connect(url);
    let message = ClientMessage::Join {
        room: room.into(),
        name: name.into(),
    };
    client.send(&message, None).unwrap();
    let (seat, token) = client
        .wait_for(WAIT, |m| match m {
            ServerMessage::Welcome { seat, token, .. } => Some((*seat, token.clone())),
            _ => None,
        })
        .unwrap();
    (client, seat, token)
}

/// Takes a seat back with its token on a new connection: the client and the seat welcomed.
fn rejoin(url: &str, room: &str, token: &str) -> (Client, usize) {
    let mut client = connect(url);
    client
        .send_text(&format!(
            r#"{{"type":"rejoin","room":"{room}","token":"{token}"}}"#
        ))
        .unwrap();
    let seat = client
        .wait_for(WAIT, |m| match m {
            ServerMessage::Welcome { seat, .. } => Some(*seat),
            _ => None,
        })
        .unwrap();
    (client, seat)
}

fn bot_in(
    url: &str,
    room: &str,
    kind: Kind,
    pace_ms: u64,
) -> JoinHandle<Result<BotReport, String>> {
    let options = BotOptions {
        server: url.into(),
        room: room.into(),
        kind,
        name: format!("{} bot", kind.name()),
        pace: Duration::from_millis(pace_ms),
        limit: Duration::from_secs(60),
    };
    std::thread::spawn(move || bot::play(&options, &Setup::new(Lexicon::enable()), |_| {}))
}

/// The winner's grid holds: valid words, connected, exactly the tiles it was dealt.
fn check_winner(winner: Option<usize>, grids: &[FinalGrid]) {
    let Some(w) = winner else { return };
    let grid = &grids[w];
    let text: String = grid.grid.rows.iter().map(|r| format!("{r}\n")).collect();
    let tiles = Tiles::parse(&grid.tiles).unwrap();
    assert_eq!(
        validate(&text, &tiles, &Lexicon::enable().list),
        Ok(()),
        "the winner's grid:\n{text}"
    );
}

/// The next rejection's reason (other messages skipped).
fn rejection(client: &mut Client) -> String {
    client
        .wait_for(WAIT, |m| match m {
            ServerMessage::Rejected { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .unwrap()
}

fn closed(client: &mut Client) -> bool {
    loop {
        match client.receive(WAIT) {
            Ok(_) => continue,
            Err(Silence::Closed(_)) => return true,
            Err(Silence::TimedOut) => return false,
        }
    }
}

#[test]
fn bots_play_a_whole_game_over_the_protocol() {
    let server = start();
    // Two bots over the socket and a podium seat on the server, all fast.
    let room = create(
        &server.url,
        r#"[{"kind":"person"},{"kind":"person"},{"kind":"podium","player":"tls","pace_ms":5}]"#,
    );
    let bots = [
        bot_in(&server.url, &room, Kind::Podium, 3),
        bot_in(&server.url, &room, Kind::TwoLetterStranding, 3),
    ];
    let reports: Vec<BotReport> = bots
        .into_iter()
        .map(|b| b.join().unwrap().unwrap())
        .collect();
    let (a, b) = (&reports[0], &reports[1]);
    assert_ne!(a.seat, b.seat);
    assert_eq!(a.winner, b.winner);
    assert_eq!(a.grids.len(), 3);
    assert!(a.grids[2].player.as_deref() == Some("TwoLetterStranding"));
    check_winner(a.winner, &a.grids);
    assert!(!a.latencies.is_empty());
    let counters = server.server.counters();
    let ended = counters
        .games_won
        .load(std::sync::atomic::Ordering::Relaxed)
        + counters
            .games_without_winner
            .load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(ended, 1);
}

#[test]
fn the_page_is_served_and_other_paths_are_not() {
    let server = start();
    let address = server.url.trim_start_matches("http://");
    let get = |path: &str| {
        let mut stream = TcpStream::connect(address).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    let page = get("/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("text/html"));
    assert!(get("/app.js").starts_with("HTTP/1.1 200"));
    assert!(get("/etc/passwd").starts_with("HTTP/1.1 404"));
}

#[test]
fn hostile_clients_are_refused_and_the_game_beside_them_plays_on() {
    let server = start();
    let url = server.url.as_str();
    // The game beside: a bot against a podium seat.
    let calm = create(
        url,
        r#"[{"kind":"person"},{"kind":"podium","player":"Podium","pace_ms":20}]"#,
    );
    let calm_bot = bot_in(url, &calm, Kind::Podium, 20);

    let room = create(url, r#"[{"kind":"person"},{"kind":"person"}]"#);
    let (mut ann, ann_seat, _) = join(url, &room, "Ann");
    let (mut bob, _, bob_token) = join(url, &room, "Bob");

    // Malformed JSON, a binary frame's worth of junk, unknown fields: refused, still connected.
    ann.send_text("{\"type\":").unwrap();
    assert!(rejection(&mut ann).starts_with("not JSON"));
    ann.send_text(r#"{"type":"peel","seat":1}"#).unwrap();
    assert!(rejection(&mut ann).contains("unknown field"));
    // Claiming another seat: the other seat's token must be known, and a seated
    // connection cannot take a second one.
    ann.send_text(&format!(
        r#"{{"type":"rejoin","room":"{room}","token":"AAAAAAAAAAAAAAAAAAAAAAAAAA"}}"#
    ))
    .unwrap();
    assert!(rejection(&mut ann).contains("already has a seat"));
    let mut thief = connect(url);
    thief
        .send_text(&format!(
            r#"{{"type":"rejoin","room":"{room}","token":"AAAAAAAAAAAAAAAAAAAAAAAAAA"}}"#
        ))
        .unwrap();
    assert!(rejection(&mut thief).contains("no seat"));
    thief
        .send_text(&format!(
            r#"{{"type":"join","room":"{room}","name":"Eve"}}"#
        ))
        .unwrap();
    assert!(rejection(&mut thief).contains("started"));
    // A forged BANANAS: a grid of tiles never dealt, then BANANAS with tiles on the rack.
    ann.send_text(r#"{"type":"grid","top":0,"left":0,"rows":["ZZZZZZZZZZ"]}"#)
        .unwrap();
    assert!(rejection(&mut ann).contains("do not hold"));
    ann.send_text(r#"{"type":"bananas"}"#).unwrap();
    assert!(rejection(&mut ann).contains("on your rack"));
    // One room per connection.
    let mut maker = connect(url);
    let room_of_two = r#"{"type":"create","seats":[{"kind":"person"},{"kind":"person"}]}"#;
    maker.send_text(room_of_two).unwrap();
    maker.send_text(room_of_two).unwrap();
    assert!(rejection(&mut maker).contains("created a room already"));
    // An oversized message closes that connection only.
    let (mut big, _, _) = {
        let mut c = connect(url);
        c.send_text(&"x".repeat(MAX_FRAME + 1)).unwrap();
        (c, 0, ())
    };
    assert!(closed(&mut big));
    // A flood of DUMPs: the rate refuses most, then the connection is closed.
    for _ in 0..2_000 {
        if bob.send_text(r#"{"type":"dump","letter":"E"}"#).is_err() {
            break;
        }
    }
    assert!(closed(&mut bob));
    // Bob's seat is away, not lost: its token takes it back.
    let (_back, seat) = rejoin(url, &room, &bob_token);
    assert_eq!(seat, 1 - ann_seat);
    // A silent WebSocket is closed at the join timeout, a silent TCP connection at the
    // header timeout.
    let mut silent = connect(url);
    assert!(closed(&mut silent));
    let mut raw = TcpStream::connect(url.trim_start_matches("http://")).unwrap();
    raw.set_read_timeout(Some(WAIT)).unwrap();
    let started = Instant::now();
    let mut buffer = [0u8; 256];
    let read = raw.read(&mut buffer).unwrap_or(0);
    assert!(started.elapsed() < WAIT, "read {read} bytes");

    let report = calm_bot.join().unwrap().expect("the calm game ended");
    check_winner(report.winner, &report.grids);
}

/// The load run: 200 two-bot games at once against a `podium bananagrams serve` process, bots
/// acting every 100 ms. Run it with
/// `cargo test --release --test bananagrams_online -- --ignored --nocapture load`
/// (about a minute); it prints games, invalid wins, hung games, the server's peak memory and
/// the latency from action to answer.
#[test]
#[ignore]
fn load_200_games_of_bots() {
    use std::io::BufRead;
    const GAMES: usize = 200;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_podium"))
        .args(["bananagrams", "serve", "--port", "0", "--quiet"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let url = line
        .trim()
        .strip_prefix("serving ")
        .expect("the bound URL")
        .trim_end_matches('/')
        .to_string();
    let rooms: Vec<String> = (0..GAMES)
        .map(|_| create(&url, r#"[{"kind":"person"},{"kind":"person"}]"#))
        .collect();
    let setup = Setup::new(Lexicon::enable());
    let started = Instant::now();
    let bots: Vec<_> = rooms
        .iter()
        .flat_map(|room| {
            [
                (room.clone(), Kind::Podium),
                (room.clone(), Kind::TwoLetterStranding),
            ]
        })
        .map(|(room, kind)| {
            let options = BotOptions {
                server: url.clone(),
                room,
                kind,
                name: kind.name().into(),
                pace: Duration::from_millis(100),
                limit: Duration::from_secs(600),
            };
            let setup = setup.clone();
            std::thread::Builder::new()
                .stack_size(512 << 10)
                .spawn(move || bot::play(&options, &setup, |_| {}))
                .unwrap()
        })
        .collect();
    let reports: Vec<Result<BotReport, String>> =
        bots.into_iter().map(|b| b.join().unwrap()).collect();
    let elapsed = started.elapsed();
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
            .unwrap()
    };
    let (peak_kib, now_kib) = (field("VmHWM:"), field("VmRSS:"));
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", child.id())).unwrap();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    // utime and stime, in clock ticks of 10 ms.
    let server_cpu =
        (fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap()) / 100.0;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap();
    stop_server(&mut child);
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    eprintln!("server {}", rest.trim());
    eprintln!("server CPU {server_cpu:.1} s; load average {}", load.trim());
    let (mut won, mut no_winner, mut hung, mut invalid) = (0, 0, 0, 0);
    let mut latencies = Vec::new();
    for pair in reports.chunks(2) {
        match (&pair[0], &pair[1]) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.winner, b.winner);
                match a.winner {
                    Some(w) => {
                        let grid = &a.grids[w];
                        let text: String =
                            grid.grid.rows.iter().map(|r| format!("{r}\n")).collect();
                        let tiles = Tiles::parse(&grid.tiles).unwrap();
                        if validate(&text, &tiles, &Lexicon::enable().list).is_err() {
                            invalid += 1;
                        }
                        won += 1;
                    }
                    None => no_winner += 1,
                }
            }
            (a, b) => {
                eprintln!("hung: {:?} / {:?}", a.as_ref().err(), b.as_ref().err());
                hung += 1;
            }
        }
        for report in pair.iter().flatten() {
            latencies.extend(report.latencies.iter().copied());
        }
    }
    latencies.sort();
    let ms = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e3;
    eprintln!(
        "{GAMES} games, 2 bots each (Podium vs TwoLetterStranding, 100 ms pace), {:.1} s: \
         {won} won, {no_winner} without a winner, {hung} hung, {invalid} invalid wins; \
         server peak RSS {:.1} MiB (now {:.1} MiB); {} actions, latency from action to answer \
         p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        elapsed.as_secs_f64(),
        peak_kib as f64 / 1024.0,
        now_kib as f64 / 1024.0,
        latencies.len(),
        ms(0.5),
        ms(0.99),
        ms(1.0),
    );
    assert_eq!((hung, invalid), (0, 0));
    assert_eq!(won + no_winner, GAMES);
}

/// Stops the server process the way an operator does (SIGTERM), so it exits on its own.
fn stop_server(child: &mut std::process::Child) {
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let status = child.wait().unwrap();
    assert!(status.success(), "the server exits 0 on SIGTERM: {status}");
}

#[test]
fn a_rejoin_takes_the_seat_from_the_old_connection() {
    let server = start();
    let url = server.url.as_str();
    let room = create(
        url,
        r#"[{"kind":"person"},{"kind":"podium","player":"tls","pace_ms":60000}]"#,
    );
    let (mut old, seat, token) = join(url, &room, "Ann");
    let (mut new, again) = rejoin(url, &room, &token);
    assert_eq!(again, seat);
    old.send_text(r#"{"type":"stuck"}"#).unwrap();
    assert!(closed(&mut old));
    new.send_text(r#"{"type":"remove","row":0,"col":0,"id":9}"#)
        .unwrap();
    assert!(rejection(&mut new).contains("no tile"));
}

#[test]
fn the_bot_command_plays_a_seat_and_prints_the_end() {
    let server = start();
    let room = create(
        &server.url,
        r#"[{"kind":"person"},{"kind":"podium","player":"Podium","pace_ms":5}]"#,
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_podium"))
        .args([
            "bananagrams",
            "bot",
            "--server",
            &server.url,
            "--room",
            &room,
        ])
        .args(["--player", "tls", "--name", "far away", "--pace-ms", "50"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("seat 0 (far away): "), "{stdout}");
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_podium"))
        .args([
            "bananagrams",
            "bot",
            "--server",
            &server.url,
            "--room",
            "NOSUCHROOM",
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no room NOSUCHROOM"));
}
