//! Bananagrams online: real-time games for people and podium's players over JSON WebSockets,
//! the server holding every tile (protocol and design in docs/bananagrams-online.md).

pub mod assets;
pub mod bot;
pub mod client;
pub mod grid;
pub mod latency;
pub mod protocol;
pub mod room;
pub mod seat_player;
pub mod secret;
pub mod server;
