//! The contest's puzzle API, for real: a server (tiny_http) issuing signatures of random tilings
//! and checking submissions with the verifier, and the `net-solve` client (ureq) with timings.

use super::generate::random_solvable;
use super::signature::Signature;
use super::solution::{parse_json, to_json, verify};
use super::solver::{self, Options, Outcome};
use crate::core::rng::Rng;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The largest request body read (a N = 200 solution is about 150 kB).
const MAX_BODY: u64 = 8 << 20;

#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Accepted tokens; a request without one gets 401, with another one 403.
    pub tokens: Vec<String>,
    /// Seeds the puzzle ids and tilings, so a run reproduces.
    pub seed: u64,
    /// Sizes issued: even, from 2 to this.
    pub max_size: usize,
}

struct Puzzle {
    size: usize,
    signature: Signature,
}

struct State {
    rng: Rng,
    puzzles: HashMap<u64, Puzzle>,
}

/// A bound server; [`PuzzleServer::serve`] answers requests until [`PuzzleServer::stop`].
pub struct PuzzleServer {
    http: tiny_http::Server,
    config: ServerConfig,
    state: Mutex<State>,
    stopped: AtomicBool,
}

/// A JSON answer: status and body.
struct Reply {
    status: u16,
    body: Value,
}

fn error(status: u16, message: impl Into<String>) -> Reply {
    Reply {
        status,
        body: json!({ "error": message.into() }),
    }
}

impl PuzzleServer {
    /// Binds `address` (e.g. `127.0.0.1:0` for any free port).
    pub fn bind(address: &str, config: ServerConfig) -> Result<PuzzleServer, String> {
        if config.tokens.is_empty() {
            return Err("serve: give at least one --token".into());
        }
        let http = tiny_http::Server::http(address)
            .map_err(|e| format!("serve: cannot listen on {address}: {e}"))?;
        let rng = Rng::new(config.seed);
        Ok(PuzzleServer {
            http,
            config,
            state: Mutex::new(State {
                rng,
                puzzles: HashMap::new(),
            }),
            stopped: AtomicBool::new(false),
        })
    }

    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.http.server_addr().to_ip()
    }

    /// Answers requests one at a time until `stop` is called (checked every 100 ms).
    pub fn serve(&self) -> Result<(), String> {
        while !self.stopped.load(Ordering::Relaxed) {
            match self.http.recv_timeout(Duration::from_millis(100)) {
                Ok(Some(request)) => self.answer(request),
                Ok(None) => {}
                Err(e) => return Err(format!("serve: {e}")),
            }
        }
        Ok(())
    }

    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        self.http.unblock();
    }

    fn answer(&self, mut request: tiny_http::Request) {
        let reply = self.route(&mut request);
        let body = reply.body.to_string();
        let header = tiny_http::Header::from_bytes("Content-Type", "application/json")
            .expect("a valid header");
        let response = tiny_http::Response::from_string(body)
            .with_status_code(reply.status)
            .with_header(header);
        // A client that hung up cannot be told anything more.
        let _ = request.respond(response);
    }

    fn route(&self, request: &mut tiny_http::Request) -> Reply {
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        if path != "/api/puzzle" {
            return error(404, format!("no such resource {path:?} (try /api/puzzle)"));
        }
        match request.method() {
            tiny_http::Method::Get => self.issue(&fields(query.as_bytes())),
            tiny_http::Method::Post => {
                let mut body = Vec::new();
                if let Err(e) = request
                    .as_reader()
                    .take(MAX_BODY + 1)
                    .read_to_end(&mut body)
                {
                    return error(400, format!("cannot read the request body: {e}"));
                }
                if body.len() as u64 > MAX_BODY {
                    return error(413, format!("request body exceeds {MAX_BODY} bytes"));
                }
                self.check(&fields(&body))
            }
            other => error(405, format!("method {other} not allowed (GET or POST)")),
        }
    }

    fn authorise(&self, fields: &HashMap<String, String>) -> Option<Reply> {
        match fields.get("token") {
            None => Some(error(401, "missing token")),
            Some(t) if !self.config.tokens.contains(t) => Some(error(403, "invalid token")),
            Some(_) => None,
        }
    }

    fn issue(&self, fields: &HashMap<String, String>) -> Reply {
        if let Some(denied) = self.authorise(fields) {
            return denied;
        }
        let max = self.config.max_size;
        let Some(size) = fields.get("size") else {
            return error(400, "missing size");
        };
        let size = match size.parse::<usize>() {
            Ok(n) if n % 2 == 0 && (2..=max).contains(&n) => n,
            _ => {
                return error(
                    400,
                    format!("size {size:?} must be an even number from 2 to {max}"),
                )
            }
        };
        let (id, seed) = {
            let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
            let mut id = 100_000 + state.rng.below(900_000);
            while state.puzzles.contains_key(&id) {
                id += 1;
            }
            (id, state.rng.next_u64())
        };
        let Some(signature) = random_solvable(size, seed) else {
            return error(500, "no tiling generated");
        };
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.puzzles.insert(id, Puzzle { size, signature });
        Reply {
            status: 200,
            body: json!({ "id": id, "size": size, "signature": signature.to_string() }),
        }
    }

    fn check(&self, fields: &HashMap<String, String>) -> Reply {
        if let Some(denied) = self.authorise(fields) {
            return denied;
        }
        let Some(id) = fields.get("id") else {
            return error(400, "missing id");
        };
        let Ok(id) = id.parse::<u64>() else {
            return error(400, format!("id {id:?} is not a number"));
        };
        let Some(text) = fields.get("solution") else {
            return error(400, "missing solution");
        };
        let placements = match parse_json(text) {
            Ok(p) => p,
            Err(e) => return error(400, e),
        };
        let state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let Some(puzzle) = state.puzzles.get(&id) else {
            return error(404, format!("no puzzle {id}"));
        };
        let verdict = verify(puzzle.size, &puzzle.signature, &placements);
        let mut body = json!({
            "id": id,
            "solved": verdict.is_ok(),
            "submitted_at": timestamp(SystemTime::now()),
        });
        if let Err(reason) = verdict {
            body["reason"] = Value::String(reason);
        }
        Reply { status: 200, body }
    }
}

fn fields(encoded: &[u8]) -> HashMap<String, String> {
    form_urlencoded::parse(encoded).into_owned().collect()
}

/// UTC time as `2016-04-16T12:34:56.789Z`.
pub fn timestamp(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let seconds = since.as_secs();
    let days = (seconds / 86_400) as i64;
    let of_day = seconds % 86_400;
    // Days to a proleptic Gregorian date, counting 400-year eras from 0000-03-01.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60,
        since.subsec_millis()
    )
}

/// Why `net-solve` stopped: the request failed, or the puzzle was proven unsolvable, or the
/// solver gave up within the timeout. The message is one line naming the step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    Request(String),
    Unsolvable(String),
    GaveUp(String),
}

impl NetError {
    pub fn message(&self) -> &str {
        match self {
            NetError::Request(m) | NetError::Unsolvable(m) | NetError::GaveUp(m) => m,
        }
    }
}

impl From<String> for NetError {
    fn from(message: String) -> NetError {
        NetError::Request(message)
    }
}

/// What one `net-solve` run did.
#[derive(Clone, Debug)]
pub struct NetReport {
    pub id: u64,
    pub solved: bool,
    pub lines: Vec<String>,
}

fn endpoint(url: &str) -> String {
    let base = url.trim_end_matches('/');
    if base.ends_with("/api/puzzle") {
        base.to_string()
    } else {
        format!("{base}/api/puzzle")
    }
}

fn read_json(response: &mut ureq::http::Response<ureq::Body>, step: &str) -> Result<Value, String> {
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .read_to_string()
        .map_err(|e| format!("{step}: cannot read the answer: {e}"))?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{step}: HTTP {status}, answer is not JSON: {e}"))?;
    if status != 200 {
        let message = value["error"].as_str().unwrap_or("no error message");
        return Err(format!("{step}: HTTP {status}: {message}"));
    }
    Ok(value)
}

/// Fetches a puzzle of `size`, solves it within `timeout` and submits the answer, writing each
/// step's time to `out` as it happens. Errors are one line naming the step.
pub fn net_solve(
    url: &str,
    token: &str,
    size: usize,
    timeout: Option<Duration>,
    out: &mut dyn Write,
) -> Result<NetReport, NetError> {
    let endpoint = endpoint(url);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(30)))
        .http_status_as_error(false)
        .build()
        .into();
    let mut lines = Vec::new();
    let mut say = |line: String, out: &mut dyn Write| {
        let _ = writeln!(out, "{line}");
        lines.push(line);
    };
    let total = Instant::now();
    let start = Instant::now();
    let mut response = agent
        .get(&endpoint)
        .query("token", token)
        .query("size", size.to_string())
        .call()
        .map_err(|e| format!("fetch: {endpoint}: {e}"))?;
    let puzzle = read_json(&mut response, "fetch")?;
    let (Some(id), Some(got_size), Some(signature)) = (
        puzzle["id"].as_u64(),
        puzzle["size"].as_u64(),
        puzzle["signature"].as_str(),
    ) else {
        return Err(format!("fetch: answer lacks id, size or signature: {puzzle}").into());
    };
    let got_size = got_size as usize;
    let signature = Signature::parse(signature).map_err(|e| format!("fetch: {e}"))?;
    say(
        format!(
            "fetch   {:>9.3} ms  puzzle {id}: size {got_size}, {signature}",
            ms(start.elapsed())
        ),
        out,
    );
    if got_size > solver::MAX_SIZE {
        return Err(format!("fetch: size {got_size} exceeds {}", solver::MAX_SIZE).into());
    }
    let start = Instant::now();
    let options = Options {
        time_budget: timeout,
        ..Options::default()
    };
    let (outcome, stats) = solver::solve(got_size, &signature, &options);
    let placements = match outcome {
        Outcome::Solved(p) => p,
        Outcome::Unsolvable(reason) => {
            return Err(NetError::Unsolvable(format!("unsolvable: {reason}")))
        }
        Outcome::GaveUp(message) => return Err(NetError::GaveUp(message)),
    };
    say(
        format!(
            "solve   {:>9.3} ms  {} pieces, {} placements tried",
            ms(start.elapsed()),
            placements.len(),
            stats.nodes
        ),
        out,
    );
    let start = Instant::now();
    let mut response = agent
        .post(&endpoint)
        .send_form([
            ("token", token.to_string()),
            ("id", id.to_string()),
            ("solution", to_json(&placements)),
        ])
        .map_err(|e| format!("submit: {endpoint}: {e}"))?;
    let verdict = read_json(&mut response, "submit")?;
    let solved = verdict["solved"].as_bool() == Some(true);
    say(
        format!(
            "submit  {:>9.3} ms  solved: {solved}, submitted_at {}{}",
            ms(start.elapsed()),
            verdict["submitted_at"].as_str().unwrap_or("?"),
            verdict["reason"]
                .as_str()
                .map(|r| format!(", reason: {r}"))
                .unwrap_or_default()
        ),
        out,
    );
    say(format!("total   {:>9.3} ms", ms(total.elapsed())), out);
    Ok(NetReport { id, solved, lines })
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_iso_utc() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(1_460_810_096_789);
        assert_eq!(timestamp(t), "2016-04-16T12:34:56.789Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(timestamp(leap), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn endpoint_appends_the_api_path_once() {
        assert_eq!(endpoint("http://h:1/"), "http://h:1/api/puzzle");
        assert_eq!(endpoint("http://h:1/api/puzzle"), "http://h:1/api/puzzle");
    }
}
