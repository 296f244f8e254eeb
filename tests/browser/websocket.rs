//! A minimal blocking WebSocket client (RFC 6455 text frames over one TcpStream), enough to speak
//! Chromium's DevTools protocol from a test without a client crate among the dependencies.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const TEXT: u8 = 0x1;
const CONTINUATION: u8 = 0x0;
const CLOSE: u8 = 0x8;
const PING: u8 = 0x9;
const PONG: u8 = 0xA;

pub struct WebSocket {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    mask_seed: u32,
}

fn broken(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

impl WebSocket {
    /// Opens `ws://HOST:PORT/PATH`; every later read waits at most `timeout`.
    pub fn connect(url: &str, timeout: Duration) -> io::Result<WebSocket> {
        let rest = url
            .strip_prefix("ws://")
            .ok_or_else(|| broken(format!("not a ws:// address: {url}")))?;
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let path = if path.is_empty() { "/" } else { path };
        let stream = TcpStream::connect(authority)?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_nodelay(true)?;
        let mut writer = stream.try_clone()?;
        write!(
            writer,
            "GET {path} HTTP/1.1\r\nHost: {authority}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: cG9kaXVtLWJyb3dzZXItdA==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )?;
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status)?;
        if !status.contains(" 101 ") {
            return Err(broken(format!("handshake answered {}", status.trim())));
        }
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line)? == 0 {
                return Err(broken("connection closed during the handshake"));
            }
            if line == "\r\n" {
                break;
            }
        }
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0x5eed, |d| d.subsec_nanos());
        Ok(WebSocket {
            reader,
            writer,
            mask_seed: nanos | 1,
        })
    }

    pub fn send_text(&mut self, text: &str) -> io::Result<()> {
        self.send_frame(TEXT, text.as_bytes())
    }

    fn send_frame(&mut self, opcode: u8, payload: &[u8]) -> io::Result<()> {
        let mut frame = Vec::with_capacity(payload.len() + 14);
        frame.push(0x80 | opcode);
        match payload.len() {
            n if n < 126 => frame.push(0x80 | n as u8),
            n if n <= u16::MAX as usize => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                frame.push(0x80 | 127);
                frame.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        // xorshift: client frames must be masked, and a changing mask is what the RFC asks.
        self.mask_seed ^= self.mask_seed << 13;
        self.mask_seed ^= self.mask_seed >> 17;
        self.mask_seed ^= self.mask_seed << 5;
        let mask = self.mask_seed.to_be_bytes();
        frame.extend_from_slice(&mask);
        frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.writer.write_all(&frame)
    }

    /// The next whole text message (continuation frames joined; pings answered).
    pub fn read_text(&mut self) -> io::Result<String> {
        let mut message = Vec::new();
        loop {
            let mut head = [0u8; 2];
            self.reader.read_exact(&mut head)?;
            let fin = head[0] & 0x80 != 0;
            let opcode = head[0] & 0x0F;
            let masked = head[1] & 0x80 != 0;
            let mut len = u64::from(head[1] & 0x7F);
            if len == 126 {
                let mut bytes = [0u8; 2];
                self.reader.read_exact(&mut bytes)?;
                len = u64::from(u16::from_be_bytes(bytes));
            } else if len == 127 {
                let mut bytes = [0u8; 8];
                self.reader.read_exact(&mut bytes)?;
                len = u64::from_be_bytes(bytes);
            }
            let mut mask = [0u8; 4];
            if masked {
                self.reader.read_exact(&mut mask)?;
            }
            let len = usize::try_from(len).map_err(|_| broken("frame too long"))?;
            let mut payload = vec![0u8; len];
            self.reader.read_exact(&mut payload)?;
            if masked {
                payload
                    .iter_mut()
                    .enumerate()
                    .for_each(|(i, b)| *b ^= mask[i % 4]);
            }
            match opcode {
                TEXT | CONTINUATION => {
                    message.extend_from_slice(&payload);
                    if fin {
                        return String::from_utf8(message).map_err(|_| broken("text not UTF-8"));
                    }
                }
                PING => self.send_frame(PONG, &payload)?,
                CLOSE => return Err(broken("the peer closed the WebSocket")),
                _ => {}
            }
        }
    }
}
