//! The puzzle API under load (issue #17's target): 50 clients fetching size-50 puzzles while 10
//! silent connections and a POST whose body never comes hold the server; p99 must stay < 100 ms.

use podium::core::http::Limits;
use podium::tetromino::server::{PuzzleServer, ServerConfig};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

const CLIENTS: usize = 50;
const SILENT: usize = 10;
const TARGET_P99_MS: f64 = 100.0;

fn main() {
    let seconds: f64 = std::env::var("PODIUM_LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|s: &f64| s.is_finite() && *s > 0.0)
        .unwrap_or(5.0);
    let config = ServerConfig {
        tokens: vec!["load".into()],
        seed: 1,
        max_size: 200,
        limits: Limits::default(),
    };
    let server = Arc::new(PuzzleServer::bind("127.0.0.1:0", config).expect("a free port"));
    let address = server.local_addr();
    let runner = {
        let server = Arc::clone(&server);
        std::thread::spawn(move || server.serve())
    };
    let mut holders: Vec<_> = (0..SILENT)
        .map(|_| std::net::TcpStream::connect(address).expect("connect"))
        .collect();
    let mut stalled = std::net::TcpStream::connect(address).expect("connect");
    stalled
        .write_all(b"POST /api/puzzle HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\ntoken=")
        .expect("send");
    holders.push(stalled);

    let url = format!("http://{address}/api/puzzle");
    let end = Instant::now() + Duration::from_secs_f64(seconds);
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || {
                let agent: ureq::Agent = ureq::Agent::config_builder()
                    .timeout_global(Some(Duration::from_secs(30)))
                    .build()
                    .into();
                let mut latencies = Vec::new();
                while Instant::now() < end {
                    let start = Instant::now();
                    let mut response = agent
                        .get(&url)
                        .query("token", "load")
                        .query("size", "50")
                        .call()
                        .expect("a 200 answer");
                    let body = response.body_mut().read_to_string().expect("a body");
                    assert!(body.contains("signature"), "{body}");
                    latencies.push(start.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut latencies: Vec<Duration> = clients
        .into_iter()
        .flat_map(|c| c.join().expect("a client thread"))
        .collect();
    let wall = started.elapsed();
    drop(holders);
    server.stop();
    runner.join().expect("the server thread").expect("served");

    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e3;
    let p99 = at(0.99);
    println!(
        "tetromino server, {CLIENTS} clients + {SILENT} silent + 1 stalled POST, GET size 50, {seconds} s: \
         {} requests, {:.0}/s; p50 {:.2} ms, p90 {:.2} ms, p99 {p99:.2} ms, max {:.2} ms; \
         target p99 < {TARGET_P99_MS} ms: {}",
        latencies.len(),
        latencies.len() as f64 / wall.as_secs_f64(),
        at(0.5),
        at(0.9),
        at(1.0),
        if p99 < TARGET_P99_MS { "met" } else { "MISSED" }
    );
}
