//! The contest's puzzle API, for real: issues the signatures of random tilings and checks
//! submissions with the verifier, on the shared HTTP stack (core::http) and its limits.

use super::generate::random_solvable;
use super::signature::Signature;
use super::solution::{parse_json, verify};
use crate::core::http::{BodyBudget, HttpServer, Limits, Refusal};
use crate::core::rng::Rng;
use crate::core::text::quote;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

/// Puzzles remembered for their submissions; past this the oldest is forgotten (~80 bytes each).
const PUZZLES_KEPT: usize = 1 << 17;

/// The largest form a solution of `size` needs: a URL-encoded placement `["L",3,1999,1999]` is
/// about 45 bytes, and the token and id fit in the 4 KiB.
fn max_body(size: usize) -> usize {
    4096 + 64 * (size * size / 4)
}

#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Accepted tokens; a request without one gets 401, with another one 403.
    pub tokens: Vec<String>,
    /// Seeds the puzzle ids and tilings, so a run reproduces.
    pub seed: u64,
    /// Sizes issued: even, from 2 to this.
    pub max_size: usize,
    /// What the clients may hold: connections, head size, timeouts, body bytes.
    pub limits: Limits,
}

#[derive(Clone, Copy)]
struct Puzzle {
    size: usize,
    signature: Signature,
}

/// The puzzles issued, the newest [`PUZZLES_KEPT`] of them.
struct PuzzleTable {
    capacity: usize,
    puzzles: HashMap<u64, Puzzle>,
    issued: VecDeque<u64>,
}

impl PuzzleTable {
    fn new(capacity: usize) -> PuzzleTable {
        PuzzleTable {
            capacity,
            puzzles: HashMap::new(),
            issued: VecDeque::new(),
        }
    }

    /// Stores a puzzle under a fresh six-digit id, forgetting the oldest one when full.
    fn insert(&mut self, rng: &mut Rng, size: usize, signature: Signature) -> u64 {
        if self.issued.len() >= self.capacity {
            if let Some(oldest) = self.issued.pop_front() {
                self.puzzles.remove(&oldest);
            }
        }
        let mut id = 100_000 + rng.below(900_000);
        while self.puzzles.contains_key(&id) {
            id = if id == 999_999 { 100_000 } else { id + 1 };
        }
        self.puzzles.insert(id, Puzzle { size, signature });
        self.issued.push_back(id);
        id
    }

    fn get(&self, id: u64) -> Option<Puzzle> {
        self.puzzles.get(&id).copied()
    }
}

struct Issuer {
    rng: Rng,
    table: PuzzleTable,
}

struct Shared {
    config: ServerConfig,
    state: Mutex<Issuer>,
    bodies: BodyBudget,
}

/// A bound server; [`PuzzleServer::serve`] answers requests until [`PuzzleServer::stop`].
pub struct PuzzleServer {
    http: HttpServer,
    shared: Arc<Shared>,
}

/// A JSON answer: status and body.
struct Reply {
    status: StatusCode,
    body: Value,
    /// The request's body was left unread, so the connection ends here: the answer says so,
    /// or a client that keeps connections would send its next request into a closed one.
    closes: bool,
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            self.body.to_string(),
        )
            .into_response();
        if self.closes {
            response.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
        }
        response
    }
}

fn error(status: StatusCode, message: impl Into<String>) -> Reply {
    Reply {
        status,
        body: json!({ "error": message.into() }),
        closes: false,
    }
}

impl From<Refusal> for Reply {
    fn from(refusal: Refusal) -> Reply {
        Reply {
            closes: true,
            ..error(refusal.status, refusal.message)
        }
    }
}

impl PuzzleServer {
    /// Binds `address` (e.g. `127.0.0.1:0` for any free port).
    pub fn bind(address: &str, config: ServerConfig) -> Result<PuzzleServer, String> {
        if config.tokens.is_empty() {
            return Err("serve: give at least one --token".into());
        }
        let threads = crate::core::cli::threads_available(usize::MAX);
        let http = HttpServer::bind(address, config.limits.clone(), threads)
            .map_err(|e| format!("serve: {e}"))?;
        let shared = Arc::new(Shared {
            state: Mutex::new(Issuer {
                rng: Rng::new(config.seed),
                table: PuzzleTable::new(PUZZLES_KEPT),
            }),
            config,
            bodies: http.body_budget(),
        });
        Ok(PuzzleServer { http, shared })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.http.local_addr()
    }

    /// Answers requests until `stop` is called.
    pub fn serve(&self) -> Result<(), String> {
        let routes = Router::new()
            .route("/api/puzzle", get(issue).post(check))
            .fallback(not_found)
            .method_not_allowed_fallback(not_allowed)
            .with_state(Arc::clone(&self.shared));
        self.http.serve(routes)
    }

    pub fn stop(&self) {
        self.http.stop();
    }

    /// Stops serving on SIGINT or SIGTERM, so `serve` returns and the command exits 0.
    pub fn stop_on_signals(&self) {
        self.http.stop_on_signals();
    }
}

async fn not_found(uri: Uri) -> Reply {
    error(
        StatusCode::NOT_FOUND,
        format!(
            "no such resource \"{}\" (try /api/puzzle)",
            quote(uri.path())
        ),
    )
}

async fn not_allowed(request: Request) -> Reply {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "method {} not allowed (GET or POST)",
            quote(request.method().as_str())
        ),
    )
}

fn fields(encoded: &[u8]) -> HashMap<String, String> {
    form_urlencoded::parse(encoded).into_owned().collect()
}

impl Shared {
    fn authorise(&self, fields: &HashMap<String, String>) -> Result<(), Reply> {
        match fields.get("token") {
            None => Err(error(StatusCode::UNAUTHORIZED, "missing token")),
            Some(t) if !self.config.tokens.contains(t) => {
                Err(error(StatusCode::FORBIDDEN, "invalid token"))
            }
            Some(_) => Ok(()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Issuer> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// GET: a new puzzle of the asked size.
async fn issue(State(shared): State<Arc<Shared>>, uri: Uri) -> Reply {
    let fields = fields(uri.query().unwrap_or("").as_bytes());
    if let Err(denied) = shared.authorise(&fields) {
        return denied;
    }
    let max = shared.config.max_size;
    let Some(size) = fields.get("size") else {
        return error(StatusCode::BAD_REQUEST, "missing size");
    };
    let size = match size.parse::<usize>() {
        Ok(n) if n % 2 == 0 && (2..=max).contains(&n) => n,
        _ => {
            return error(
                StatusCode::BAD_REQUEST,
                format!(
                    "size \"{}\" must be an even number from 2 to {max}",
                    quote(size)
                ),
            )
        }
    };
    let seed = shared.lock().rng.next_u64();
    // Large squares take seconds to tile: off the threads that answer the other clients.
    let Ok(Some(signature)) =
        tokio::task::spawn_blocking(move || random_solvable(size, seed)).await
    else {
        return error(StatusCode::INTERNAL_SERVER_ERROR, "no tiling generated");
    };
    let id = {
        let mut state = shared.lock();
        let Issuer { rng, table } = &mut *state;
        table.insert(rng, size, signature)
    };
    Reply {
        status: StatusCode::OK,
        body: json!({ "id": id, "size": size, "signature": signature.to_string() }),
        closes: false,
    }
}

/// POST: checks a submitted tiling of an issued puzzle.
async fn check(State(shared): State<Arc<Shared>>, request: Request) -> Reply {
    let (parts, body) = request.into_parts();
    let limit = max_body(shared.config.max_size);
    let bytes = match shared.bodies.read(&parts.headers, body, limit).await {
        Ok(bytes) => bytes,
        Err(refusal) => return refusal.into(),
    };
    let fields = fields(&bytes);
    drop(bytes);
    if let Err(denied) = shared.authorise(&fields) {
        return denied;
    }
    let Some(id) = fields.get("id") else {
        return error(StatusCode::BAD_REQUEST, "missing id");
    };
    let Ok(id) = id.parse::<u64>() else {
        return error(
            StatusCode::BAD_REQUEST,
            format!("id \"{}\" is not a number", quote(id)),
        );
    };
    let Some(puzzle) = shared.lock().table.get(id) else {
        return error(
            StatusCode::NOT_FOUND,
            format!("no puzzle {id} (the server keeps the newest {PUZZLES_KEPT})"),
        );
    };
    let mut fields = fields;
    let Some(text) = fields.remove("solution") else {
        return error(StatusCode::BAD_REQUEST, "missing solution");
    };
    let verdict = tokio::task::spawn_blocking(move || {
        parse_json(&text).map(|placements| verify(puzzle.size, &puzzle.signature, &placements))
    })
    .await;
    let verdict = match verdict {
        Ok(Ok(verdict)) => verdict,
        Ok(Err(unparsed)) => return error(StatusCode::BAD_REQUEST, unparsed),
        Err(_) => {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the check did not finish",
            )
        }
    };
    let mut body = json!({
        "id": id,
        "solved": verdict.is_ok(),
        "submitted_at": timestamp(SystemTime::now()),
    });
    if let Err(reason) = verdict {
        body["reason"] = Value::String(reason);
    }
    Reply {
        status: StatusCode::OK,
        body,
        closes: false,
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_iso_utc() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(1_460_810_096_789);
        assert_eq!(timestamp(t), "2016-04-16T12:34:56.789Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(timestamp(leap), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn the_puzzle_table_forgets_the_oldest_first() {
        let mut table = PuzzleTable::new(3);
        let signature = Signature::parse("O1").unwrap();
        let ids: Vec<u64> = (0..5)
            .map(|seed| table.insert(&mut Rng::new(seed), 2, signature))
            .collect();
        assert_eq!(table.puzzles.len(), 3);
        assert!(table.get(ids[0]).is_none() && table.get(ids[1]).is_none());
        assert!(ids[2..].iter().all(|&id| table.get(id).is_some()));
    }

    #[test]
    fn solutions_fit_the_body_limit() {
        let size = 200;
        let placements: Vec<_> = (0..size * size / 4)
            .map(|i| crate::tetromino::Placement {
                figure: crate::tetromino::Figure::L,
                angle: 3,
                x: i % size,
                y: i % size,
            })
            .collect();
        let form = form_urlencoded::Serializer::new(String::new())
            .append_pair("token", "a-long-token-of-forty-characters-xxxxxxx")
            .append_pair("id", "999999")
            .append_pair("solution", &crate::tetromino::to_json(&placements))
            .finish();
        assert!(
            form.len() <= max_body(size),
            "{} > {}",
            form.len(),
            max_body(size)
        );
    }
}
