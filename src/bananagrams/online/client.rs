//! A blocking WebSocket client of the game protocol, for the `bot` command and the tests: JSON
//! messages out, server messages in, with a time limit on every wait.

use super::protocol::{ClientMessage, ServerMessage};
use std::io::ErrorKind;
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

pub struct Client {
    socket: WebSocket<TcpStream>,
}

/// `http://host:port`, `ws://host:port` or either with `/ws`: the socket's `ws://` URL and the
/// `host:port` to dial.
pub fn socket_url(server: &str) -> Result<(String, String), String> {
    let rest = server
        .strip_prefix("ws://")
        .or_else(|| server.strip_prefix("http://"))
        .ok_or_else(|| {
            format!("server {server:?}: give it as http://HOST:PORT or ws://HOST:PORT")
        })?;
    let authority = rest.split('/').next().unwrap_or_default();
    if authority.is_empty() {
        return Err(format!("server {server:?} has no HOST:PORT"));
    }
    let authority = if authority.contains(':') {
        authority.to_string()
    } else {
        format!("{authority}:80")
    };
    Ok((format!("ws://{authority}/ws"), authority))
}

/// Why a wait for a message ended without one.
#[derive(Debug, PartialEq, Eq)]
pub enum Silence {
    TimedOut,
    /// The server closed the socket (with its reason, if it gave one) or it broke.
    Closed(String),
}

impl Client {
    pub fn connect(server: &str) -> Result<Client, String> {
        let (url, authority) = socket_url(server)?;
        let stream = TcpStream::connect(&authority)
            .map_err(|e| format!("cannot connect to {authority}: {e}"))?;
        let _ = stream.set_nodelay(true);
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .map_err(|e| format!("{authority}: {e}"))?;
        let (socket, _) = tungstenite::client(url.as_str(), stream)
            .map_err(|e| format!("no WebSocket at {url}: {e}"))?;
        Ok(Client { socket })
    }

    /// Sends `message` with `id` if given.
    pub fn send(&mut self, message: &ClientMessage, id: Option<u64>) -> Result<(), String> {
        let mut value = serde_json::to_value(message).expect("client messages are plain data");
        if let (Some(id), Some(object)) = (id, value.as_object_mut()) {
            object.insert("id".into(), id.into());
        }
        self.send_text(&value.to_string())
    }

    /// Sends any text as a frame (the tests' hostile clients).
    pub fn send_text(&mut self, text: &str) -> Result<(), String> {
        self.socket
            .send(Message::Text(text.into()))
            .map_err(|e| format!("send: {e}"))
    }

    /// The next server message within `wait`.
    pub fn receive(&mut self, wait: Duration) -> Result<ServerMessage, Silence> {
        let until = Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Silence::TimedOut);
            }
            let _ = self.socket.get_mut().set_read_timeout(Some(left));
            match self.socket.read() {
                Ok(Message::Text(text)) => match serde_json::from_str(text.as_str()) {
                    Ok(message) => return Ok(message),
                    Err(e) => return Err(Silence::Closed(format!("unreadable message: {e}"))),
                },
                Ok(Message::Close(frame)) => {
                    let reason =
                        frame.map_or(String::new(), |f| format!("{} {}", f.code, f.reason));
                    return Err(Silence::Closed(reason));
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                {
                    return Err(Silence::TimedOut)
                }
                Err(e) => return Err(Silence::Closed(e.to_string())),
            }
        }
    }

    /// Messages until one `pick` accepts, within `wait` in all.
    pub fn wait_for<T>(
        &mut self,
        wait: Duration,
        mut pick: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> Result<T, Silence> {
        let until = Instant::now() + wait;
        loop {
            let message = self.receive(until.saturating_duration_since(Instant::now()))?;
            if let Some(found) = pick(&message) {
                return Ok(found);
            }
        }
    }
}
