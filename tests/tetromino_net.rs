//! The contest API on 127.0.0.1: a server on a free port in a thread, `net-solve` against it,
//! token and malformed-request errors, then shutdown. Loopback only, bounded in time.

use podium::core::http::Limits;
use podium::tetromino::client::{net_solve, NetError};
use podium::tetromino::server::{PuzzleServer, ServerConfig};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

fn call(request: ureq::RequestBuilder<ureq::typestate::WithoutBody>) -> (u16, Value) {
    let mut response = request.call().expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).expect("a JSON answer"))
}

fn post(agent: &ureq::Agent, url: &str, form: &[(&str, &str)]) -> (u16, Value) {
    let mut response = agent
        .post(url)
        .send_form(form.iter().copied())
        .expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).expect("a JSON answer"))
}

#[test]
fn serve_and_net_solve_on_loopback() {
    let config = ServerConfig {
        tokens: vec!["secret".into()],
        seed: 5,
        max_size: 60,
        limits: Limits::default(),
    };
    let server = Arc::new(PuzzleServer::bind("127.0.0.1:0", config).unwrap());
    let address = server.local_addr();
    assert!(address.ip().is_loopback());
    let runner = {
        let server = Arc::clone(&server);
        std::thread::spawn(move || server.serve())
    };
    let base = format!("http://{address}");
    let url = format!("{base}/api/puzzle");

    for size in [4, 20, 50] {
        let mut log = Vec::new();
        let report = net_solve(
            &base,
            "secret",
            size,
            Some(Duration::from_secs(20)),
            &mut log,
        )
        .unwrap();
        assert!(report.solved, "{:?}", report.lines);
        let log = String::from_utf8(log).unwrap();
        for step in ["fetch", "solve", "submit", "total"] {
            assert!(
                log.lines()
                    .any(|l| l.starts_with(step) && l.contains(" ms")),
                "{log}"
            );
        }
    }
    let denied = net_solve(&base, "wrong", 4, None, &mut Vec::new()).unwrap_err();
    assert!(
        matches!(&denied, NetError::Request(m) if m.contains("403")),
        "{denied:?}"
    );

    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(20)))
        .build()
        .into();
    let (status, body) = call(agent.get(&url).query("size", "4"));
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("missing token"))
    );
    let (status, body) = call(agent.get(&url).query("token", "nope").query("size", "4"));
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("invalid token"))
    );
    for size in ["5", "abc", "1000"] {
        let (status, body) = call(agent.get(&url).query("token", "secret").query("size", size));
        assert_eq!(status, 400, "{size}");
        assert!(
            body["error"].as_str().unwrap().contains("even number"),
            "{body}"
        );
    }
    let (status, body) = call(agent.get(format!("{base}/elsewhere")));
    assert_eq!(status, 404, "{body}");

    let (status, puzzle) = call(agent.get(&url).query("token", "secret").query("size", "4"));
    assert_eq!(status, 200);
    let id = puzzle["id"].as_u64().unwrap().to_string();
    let (status, body) = post(
        &agent,
        &url,
        &[("token", "secret"), ("id", &id), ("solution", "[[\"Z\",0")],
    );
    assert_eq!(status, 400);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("solution: not valid JSON"),
        "{body}"
    );
    let (status, body) = post(
        &agent,
        &url,
        &[("token", "secret"), ("id", "x"), ("solution", "[]")],
    );
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("id \"x\" is not a number"))
    );
    let (status, _) = post(
        &agent,
        &url,
        &[("token", "secret"), ("id", "1"), ("solution", "[]")],
    );
    assert_eq!(status, 404);
    let (status, _) = post(&agent, &url, &[("id", &id), ("solution", "[]")]);
    assert_eq!(status, 401);
    let (status, body) = post(
        &agent,
        &url,
        &[
            ("token", "secret"),
            ("id", &id),
            ("solution", "[[\"O\",0,0,0]]"),
        ],
    );
    assert_eq!(status, 200);
    assert_eq!(body["solved"], Value::Bool(false));
    assert!(
        body["reason"].as_str().unwrap().starts_with("gap"),
        "{body}"
    );
    assert!(body["submitted_at"].as_str().unwrap().ends_with('Z'));

    server.stop();
    runner.join().unwrap().unwrap();
}

fn start(limits: Limits, max_size: usize) -> (Arc<PuzzleServer>, std::thread::JoinHandle<()>) {
    let config = ServerConfig {
        tokens: vec!["secret".into()],
        seed: 9,
        max_size,
        limits,
    };
    let server = Arc::new(PuzzleServer::bind("127.0.0.1:0", config).unwrap());
    let runner = {
        let server = Arc::clone(&server);
        std::thread::spawn(move || server.serve().unwrap())
    };
    (server, runner)
}

/// Sends `request` on a new connection and reads the answer until the server closes it (or 10 s).
fn raw(address: std::net::SocketAddr, request: &[u8]) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn quick_agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(5)))
        .build()
        .into()
}

#[test]
fn silent_and_slow_clients_stall_nobody() {
    use std::io::Write;
    // Timeouts far beyond the 5 s the other clients wait: only concurrency can serve them.
    let limits = Limits {
        header_timeout: Duration::from_secs(60),
        body_timeout: Duration::from_secs(60),
        ..Limits::default()
    };
    let (server, runner) = start(limits, 60);
    let address = server.local_addr();
    let silent: Vec<_> = (0..10)
        .map(|_| std::net::TcpStream::connect(address).unwrap())
        .collect();
    let mut stalled_post = std::net::TcpStream::connect(address).unwrap();
    stalled_post
        .write_all(b"POST /api/puzzle HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\ntoken=secret&id=1")
        .unwrap();
    let mut half_head = std::net::TcpStream::connect(address).unwrap();
    half_head
        .write_all(b"GET /api/puzzle?token=secret&si")
        .unwrap();

    let url = format!("http://{address}/api/puzzle");
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || {
                let agent = quick_agent();
                (0..5)
                    .map(|_| call(agent.get(&url).query("token", "secret").query("size", "50")).0)
                    .collect::<Vec<u16>>()
            })
        })
        .collect();
    for client in clients {
        assert_eq!(client.join().unwrap(), vec![200; 5]);
    }
    drop((silent, stalled_post, half_head));
    server.stop();
    runner.join().unwrap();
}

#[test]
fn timeouts_end_silent_and_slow_clients() {
    use std::io::Read;
    let limits = Limits {
        header_timeout: Duration::from_millis(300),
        body_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let (server, runner) = start(limits, 60);
    let address = server.local_addr();
    let answer = raw(
        address,
        b"POST /api/puzzle HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\ntoken=secret",
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("not complete within"), "{answer}");
    let mut silent = std::net::TcpStream::connect(address).unwrap();
    silent
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut rest = Vec::new();
    // The server closes it at the header timeout: end of stream, not the 10 s read timeout.
    let started = std::time::Instant::now();
    let _ = silent.read_to_end(&mut rest);
    assert!(started.elapsed() < Duration::from_secs(9));
    server.stop();
    runner.join().unwrap();
}

#[test]
fn hostile_requests_get_bounded_answers() {
    let (server, runner) = start(Limits::default(), 60);
    let address = server.local_addr();
    let base = format!("http://{address}");
    let url = format!("{base}/api/puzzle");
    let agent = quick_agent();

    let long_path = format!(
        "GET /{} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "a".repeat(100_000)
    );
    let answer = raw(address, long_path.as_bytes());
    assert!(
        answer.starts_with("HTTP/1.1 431") || answer.starts_with("HTTP/1.1 414"),
        "{}",
        &answer[..answer.len().min(200)]
    );
    assert!(answer.len() < 1000, "{} bytes", answer.len());
    let (status, body) = call(agent.get(format!("{base}/{}", "b".repeat(5000))));
    assert_eq!(status, 404);
    assert!(body.to_string().len() < 200, "{body}");

    let huge = raw(
        address,
        b"POST /api/puzzle HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 1000000000000\r\n\r\n",
    );
    assert!(huge.starts_with("HTTP/1.1 413"), "{huge}");
    let too_long = "x".repeat(4096 + 64 * 900 + 1);
    let (status, body) = post(
        &agent,
        &url,
        &[("token", "secret"), ("solution", &too_long)],
    );
    assert_eq!(status, 413, "{body}");

    for size in ["2147483648", &"9".repeat(10_000), "-2", "4.0"] {
        let (status, body) = call(agent.get(&url).query("token", "secret").query("size", size));
        assert_eq!(status, 400);
        assert!(body.to_string().len() < 200, "{body}");
    }
    let (status, body) = post(
        &agent,
        &url,
        &[
            ("token", "secret"),
            ("id", &"7".repeat(10_000)),
            ("solution", "[]"),
        ],
    );
    assert_eq!(status, 400);
    assert!(body.to_string().len() < 200, "{body}");
    let answer = raw(
        address,
        b"PUT /api/puzzle HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
    );
    assert!(answer.starts_with("HTTP/1.1 405"), "{answer}");
    let answer = raw(address, b"\x00\x01garbage\r\n\r\n");
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 400"),
        "{answer}"
    );
    server.stop();
    runner.join().unwrap();
}

#[test]
fn every_valid_size_is_answered_and_its_puzzle_solved() {
    // The tiling of a random mix failed now and then at size 200 and always at 1000: a 500.
    let (server, runner) = start(Limits::default(), 300);
    let base = format!("http://{}", server.local_addr());
    let agent = quick_agent();
    for size in [2, 4, 6, 8, 120, 202, 298, 300] {
        let (status, body) = call(
            agent
                .get(format!("{base}/api/puzzle"))
                .query("token", "secret")
                .query("size", size.to_string()),
        );
        assert_eq!(status, 200, "{size}: {body}");
    }
    let report = net_solve(
        &base,
        "secret",
        300,
        Some(Duration::from_secs(60)),
        &mut Vec::new(),
    )
    .unwrap();
    assert!(report.solved, "{:?}", report.lines);
    server.stop();
    runner.join().unwrap();
}

/// The HTTP handler on random requests: any method, path, query and body bytes get an answer
/// that is not a 5xx and quotes little of what was sent. Longer: `PODIUM_PROPTEST_CASES=20000`.
mod random_requests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    fn server() -> std::net::SocketAddr {
        static SERVER: OnceLock<std::net::SocketAddr> = OnceLock::new();
        *SERVER.get_or_init(|| {
            // Short timeouts: a case that announces more body than it sends ends in 0.2 s.
            let limits = Limits {
                header_timeout: Duration::from_millis(200),
                body_timeout: Duration::from_millis(200),
                ..Limits::default()
            };
            let (server, _runner) = start(limits, 40);
            server.local_addr()
        })
    }

    fn cases() -> u32 {
        std::env::var("PODIUM_PROPTEST_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(96)
    }

    fn query_part() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("token=secret".to_string()),
            Just("token=".to_string()),
            "size=[0-9-]{0,12}",
            "id=[0-9a-z]{0,8}",
            "solution=[\\[\\]\"0-9A-Z,%]{0,40}",
            "[ -~]{0,20}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: cases(),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        #[test]
        fn no_request_gets_a_5xx_or_an_echo(
            method in prop_oneof![Just("GET".to_string()), Just("POST".to_string()), Just("PUT".to_string()), Just("HEAD".to_string()), "[A-Z]{1,10}"],
            path in prop_oneof![Just("/api/puzzle".to_string()), "/[ -~&&[^ ?]]{0,300}"],
            query in proptest::collection::vec(query_part(), 0..5),
            body in proptest::collection::vec(any::<u8>(), 0..600),
            announce_more in any::<bool>(),
        ) {
            let length = body.len() + usize::from(announce_more && !body.is_empty());
            let mut request = format!(
                "{method} {path}?{} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {length}\r\n\r\n",
                query.join("&")
            )
            .into_bytes();
            request.extend_from_slice(&body);
            let answer = raw(server(), &request);
            if let Some(status) = answer.split(' ').nth(1) {
                prop_assert!(!status.starts_with('5'), "{answer}");
            }
            prop_assert!(answer.len() < 1200, "{} bytes: {}", answer.len(), &answer[..200]);
        }
    }
}
