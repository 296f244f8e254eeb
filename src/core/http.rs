//! The HTTP server every podium service runs on (the tetromino puzzle API, the Bananagrams game):
//! axum routes over hyper connections, with the limits a slow, silent or hostile client meets.
//!
//! Why this stack: the tiny_http server before it parsed heads on its own threads but handed the
//! requests to one loop, so a client that announced a body and sent nothing stalled everyone, and
//! it has no WebSocket. Here every connection is a tokio task, so a silent client costs a socket
//! and a timer, not a thread; axum brings the WebSocket upgrade the game server needs, and hyper
//! the head-size and header-timeout limits. A cold release build of axum + tokio + hyper
//! measured 23 s against 12 s for tiny_http + tungstenite (2 cores, `cargo build --release` of
//! a one-route server with a WebSocket echo, 2026-11-25): the 11 s buy maintained, widely used
//! crates and one stack for both servers.

use axum::body::{Body, Bytes};
use axum::http::{header, StatusCode};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

/// What one server lets its clients hold at once.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Open connections; one more waits in the kernel's backlog until another one closes.
    pub connections: usize,
    /// A request's head (request line and headers) in bytes; a longer one is refused.
    pub head_bytes: usize,
    /// From a connection's first byte, or its idle start between requests, to a complete head.
    pub header_timeout: Duration,
    /// For a whole request body, once its head is in.
    pub body_timeout: Duration,
    /// Request body bytes that all connections together may hold in memory.
    pub body_bytes_in_flight: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections: 1024,
            head_bytes: 16 << 10,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            body_bytes_in_flight: 256 << 20,
        }
    }
}

/// Why a request was not read: the status to answer and one line saying why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: StatusCode,
    pub message: String,
}

impl Refusal {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
        }
    }
}

/// The budget of request bodies in memory, shared by a server's handlers.
#[derive(Clone, Debug)]
pub struct BodyBudget {
    /// One permit per KiB.
    kib: Arc<Semaphore>,
    timeout: Duration,
}

impl BodyBudget {
    fn new(limits: &Limits) -> BodyBudget {
        let kib = (limits.body_bytes_in_flight >> 10).clamp(1, Semaphore::MAX_PERMITS);
        BodyBudget {
            kib: Arc::new(Semaphore::new(kib)),
            timeout: limits.body_timeout,
        }
    }

    /// Reads a body of at most `max_bytes` within the body timeout, holding its size from the
    /// shared budget while it reads: 413 when it is longer, 408 when it is too slow.
    pub async fn read(
        &self,
        headers: &header::HeaderMap,
        body: Body,
        max_bytes: usize,
    ) -> Result<Bytes, Refusal> {
        let announced = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if announced.is_some_and(|n| n > max_bytes as u64) {
            return Err(too_large(max_bytes));
        }
        let expected = announced.map_or(max_bytes, |n| n as usize);
        let kib = u32::try_from((expected >> 10) + 1).unwrap_or(u32::MAX);
        let read = async {
            let _held = self
                .kib
                .acquire_many(kib.min(Semaphore::MAX_PERMITS as u32))
                .await
                .map_err(|_| Refusal::new(StatusCode::SERVICE_UNAVAILABLE, "server stopping"))?;
            axum::body::to_bytes(body, max_bytes).await.map_err(|e| {
                if e.to_string().contains("length limit") {
                    too_large(max_bytes)
                } else {
                    Refusal::new(StatusCode::BAD_REQUEST, "cannot read the request body")
                }
            })
        };
        tokio::time::timeout(self.timeout, read)
            .await
            .unwrap_or_else(|_| {
                Err(Refusal::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!("request body not complete within {:?}", self.timeout),
                ))
            })
    }
}

fn too_large(max_bytes: usize) -> Refusal {
    Refusal::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("request body exceeds {max_bytes} bytes"),
    )
}

/// A bound listener and its runtime; [`HttpServer::serve`] answers until [`HttpServer::stop`].
pub struct HttpServer {
    runtime: tokio::runtime::Runtime,
    listener: Mutex<Option<std::net::TcpListener>>,
    address: SocketAddr,
    limits: Limits,
    body_budget: BodyBudget,
    stop: watch::Sender<bool>,
}

impl HttpServer {
    /// Binds `address` (`127.0.0.1:0` for any free port) with `threads` request threads.
    pub fn bind(address: &str, limits: Limits, threads: usize) -> Result<HttpServer, String> {
        let listener = std::net::TcpListener::bind(address)
            .map_err(|e| format!("cannot listen on {}: {e}", super::text::quote(address)))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let address = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads.max(1))
            .max_blocking_threads(threads.max(1) * 2)
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| format!("cannot start the server's threads: {e}"))?;
        let body_budget = BodyBudget::new(&limits);
        Ok(HttpServer {
            runtime,
            listener: Mutex::new(Some(listener)),
            address,
            limits,
            body_budget,
            stop: watch::channel(false).0,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// The budget that handlers read request bodies from.
    pub fn body_budget(&self) -> BodyBudget {
        self.body_budget.clone()
    }

    /// The server's runtime, e.g. to start a background task on it.
    pub fn handle(&self) -> tokio::runtime::Handle {
        self.runtime.handle().clone()
    }

    /// Answers with `routes` until [`HttpServer::stop`]; only the first call serves.
    pub fn serve(&self, routes: Router) -> Result<(), String> {
        let listener = self
            .listener
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .ok_or("serve: this server is already serving")?;
        let mut stopped = self.stop.subscribe();
        let limits = self.limits.clone();
        self.runtime.block_on(async move {
            let listener =
                tokio::net::TcpListener::from_std(listener).map_err(|e| format!("serve: {e}"))?;
            let open = Arc::new(Semaphore::new(limits.connections.max(1)));
            loop {
                let permit = tokio::select! {
                    _ = stopped.wait_for(|&s| s) => return Ok(()),
                    permit = Arc::clone(&open).acquire_owned() => permit,
                };
                let Ok(permit) = permit else { return Ok(()) };
                let stream = tokio::select! {
                    _ = stopped.wait_for(|&s| s) => return Ok(()),
                    accepted = listener.accept() => match accepted {
                        Ok((stream, _)) => stream,
                        // Out of descriptors or a connection reset before accept: the listener
                        // itself is fine, so wait a moment and go on.
                        Err(_) => {
                            tokio::time::sleep(Duration::from_millis(20)).await;
                            continue;
                        }
                    },
                };
                let service = TowerToHyperService::new(routes.clone());
                let mut http = hyper::server::conn::http1::Builder::new();
                http.timer(TokioTimer::new())
                    .header_read_timeout(limits.header_timeout)
                    .max_buf_size(limits.head_bytes.max(8192));
                tokio::spawn(async move {
                    // A client that hangs up or times out ends only its own connection.
                    let _ = http
                        .serve_connection(TokioIo::new(stream), service)
                        .with_upgrades()
                        .await;
                    drop(permit);
                });
            }
        })
    }

    pub fn stop(&self) {
        self.stop.send_replace(true);
    }

    /// Stops serving on SIGINT or SIGTERM (checked every 100 ms on the server's runtime), so
    /// `serve` returns and the command exits 0.
    pub fn stop_on_signals(&self) {
        for signal in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: `on_stop_signal` only stores to an atomic, which is async-signal-safe, and
            // it lives as long as the process.
            unsafe {
                libc::signal(
                    signal,
                    on_stop_signal as extern "C" fn(libc::c_int) as usize,
                )
            };
        }
        let stop = self.stop.clone();
        self.runtime.spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(100));
            while !STOP_SIGNALLED.load(std::sync::atomic::Ordering::Relaxed) {
                tick.tick().await;
            }
            stop.send_replace(true);
        });
    }
}

static STOP_SIGNALLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

extern "C" fn on_stop_signal(_signal: libc::c_int) {
    STOP_SIGNALLED.store(true, std::sync::atomic::Ordering::Relaxed);
}
