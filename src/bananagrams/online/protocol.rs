//! The online game's messages (JSON, one object per WebSocket text frame) and the parsing that
//! bounds and checks every client message before a room sees it (docs/bananagrams-online.md).

use crate::bananagrams::board::SIZE;
use crate::bananagrams::players::Kind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;

/// The largest frame either side sends: the whole 64 x 64 grid as rows is 4,160 bytes.
pub const MAX_FRAME: usize = 8 << 10;
pub const MAX_NAME: usize = 24;
pub const MAX_SEATS: usize = 8;
pub const MIN_SEATS: usize = 2;
pub const MAX_PACE_MS: u64 = 60_000;
pub const DEFAULT_PACE_MS: u64 = 1_500;
/// Ids are echoed to JavaScript clients, whose numbers are exact up to 2^53.
const MAX_ID: u64 = 1 << 53;
/// A reason names the input it refuses, cut to this many characters.
const MAX_REASON: usize = 160;

/// A grid cell: (row, column), both below [`SIZE`].
pub type Cell = (u8, u8);

/// A seat as a client asks for it in `create`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SeatRequest {
    Person,
    Podium {
        player: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pace_ms: Option<u64>,
    },
}

/// Every message a client may send, as written on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    Create {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        seats: Vec<SeatRequest>,
    },
    Join {
        room: String,
        name: String,
    },
    Rejoin {
        room: String,
        token: String,
    },
    Place {
        row: u64,
        col: u64,
        letter: String,
    },
    Move {
        from: [u64; 2],
        to: [u64; 2],
    },
    Remove {
        row: u64,
        col: u64,
    },
    Grid {
        top: u64,
        left: u64,
        rows: Vec<String>,
    },
    Peel {},
    Dump {
        letter: String,
    },
    Bananas {},
    Stuck {},
}

/// A seat of a room being created, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatPlan {
    Person,
    Podium { kind: Kind, pace: Duration },
}

/// A checked message that enters a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The seats, and the creator's name when it takes the first person seat.
    Create {
        name: Option<String>,
        seats: Vec<SeatPlan>,
    },
    Join {
        room: String,
        name: String,
    },
    Rejoin {
        room: String,
        token: String,
    },
}

/// A checked move in a game: letters 0..26, cells inside the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Intent {
    Place {
        at: Cell,
        letter: u8,
    },
    Move {
        from: Cell,
        to: Cell,
    },
    Remove {
        at: Cell,
    },
    /// A whole grid: its tiles.
    Grid(Vec<(Cell, u8)>),
    Peel,
    Dump(u8),
    Bananas,
    Stuck,
}

impl Intent {
    /// The message type it came as, for `ack` and `rejected`.
    pub fn name(&self) -> &'static str {
        match self {
            Intent::Place { .. } => "place",
            Intent::Move { .. } => "move",
            Intent::Remove { .. } => "remove",
            Intent::Grid(_) => "grid",
            Intent::Peel => "peel",
            Intent::Dump(_) => "dump",
            Intent::Bananas => "bananas",
            Intent::Stuck => "stuck",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Entry(Entry),
    Play(Intent),
}

/// A client message, checked: its `id` if it gave one, and what it asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub id: Option<u64>,
    pub request: Request,
}

/// Why a frame changed nothing: the message type (or `frame`), one line, and its id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub of: String,
    pub reason: String,
    pub id: Option<u64>,
}

impl Refused {
    pub fn message(self) -> ServerMessage {
        ServerMessage::Rejected {
            of: self.of,
            reason: self.reason,
            id: self.id,
        }
    }
}

/// A grid as text rows (`.` empty) with the board cell of its first row and column.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridText {
    pub top: usize,
    pub left: usize,
    pub rows: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub name: String,
    /// `person` or `podium`.
    pub kind: String,
    /// The podium player's name; absent for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

/// What every seat may know of another one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatCount {
    pub name: String,
    /// Every tile the seat holds, rack and grid.
    pub tiles: usize,
    pub status: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalGrid {
    pub seat: usize,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    pub status: String,
    /// Every tile the seat held at the end.
    pub tiles: String,
    pub grid: GridText,
}

/// Every message the server sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    Room {
        room: String,
    },
    Welcome {
        room: String,
        seat: usize,
        token: String,
        seats: Vec<SeatInfo>,
        grace_s: u64,
    },
    State {
        phase: String,
        rack: String,
        grid: GridText,
        bunch: usize,
        seats: Vec<SeatCount>,
    },
    Ack {
        id: u64,
        of: String,
    },
    Peeled {
        seat: usize,
        got: String,
    },
    Dumped {
        gave: String,
        got: String,
    },
    Log {
        seq: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<usize>,
        event: String,
        text: String,
    },
    Rejected {
        of: String,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    Over {
        winner: Option<usize>,
        reason: String,
        grids: Vec<FinalGrid>,
    },
}

impl ServerMessage {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages are plain data")
    }
}

/// `text` cut to [`MAX_REASON`] characters, so a reason quoting input stays one short line.
fn short(text: &str) -> String {
    let mut cut: String = text.chars().take(MAX_REASON).collect();
    if cut.len() < text.len() {
        cut.push_str("...");
    }
    cut.replace(['\n', '\r'], " ")
}

/// Reads and checks one text frame.
pub fn parse(frame: &str) -> Result<Parsed, Refused> {
    let refuse = |of: &str, id: Option<u64>, reason: String| Refused {
        of: of.to_string(),
        reason: short(&reason),
        id,
    };
    if frame.len() > MAX_FRAME {
        return Err(refuse(
            "frame",
            None,
            format!("{} bytes; at most {MAX_FRAME}", frame.len()),
        ));
    }
    let mut value: Value =
        serde_json::from_str(frame).map_err(|e| refuse("frame", None, format!("not JSON: {e}")))?;
    let Some(object) = value.as_object_mut() else {
        return Err(refuse("frame", None, "not a JSON object".into()));
    };
    let id = match object.remove("id") {
        None => None,
        Some(v) => match v.as_u64() {
            Some(id) if id <= MAX_ID => Some(id),
            _ => {
                return Err(refuse(
                    "frame",
                    None,
                    format!("id {v} is not an integer from 0 to 2^53"),
                ))
            }
        },
    };
    let of = match object.get("type") {
        Some(Value::String(t)) => t.chars().take(16).collect::<String>(),
        _ => return Err(refuse("frame", id, "no \"type\" field".into())),
    };
    let message: ClientMessage =
        serde_json::from_value(value).map_err(|e| refuse(&of, id, e.to_string()))?;
    let request = check(message).map_err(|reason| refuse(&of, id, reason))?;
    Ok(Parsed { id, request })
}

/// A name: 1 to [`MAX_NAME`] characters, no control characters, trimmed.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    let count = name.chars().count();
    if count == 0 || count > MAX_NAME || name.chars().any(char::is_control) {
        return Err(format!("name must be 1 to {MAX_NAME} printable characters"));
    }
    Ok(name.to_string())
}

/// One letter A-Z (either case) as 0..26.
pub fn check_letter(text: &str) -> Result<u8, String> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Ok(c.to_ascii_uppercase() as u8 - b'A'),
        _ => Err(format!("letter {text:?} is not one letter A-Z")),
    }
}

fn check_cell(row: u64, col: u64) -> Result<Cell, String> {
    if row < SIZE as u64 && col < SIZE as u64 {
        Ok((row as u8, col as u8))
    } else {
        Err(format!(
            "cell ({row}, {col}) is outside the {SIZE} x {SIZE} board"
        ))
    }
}

/// The tiles of a grid given as rows from (top, left); `.` and space are empty cells.
pub fn check_grid(top: u64, left: u64, rows: &[String]) -> Result<Vec<(Cell, u8)>, String> {
    if top as usize + rows.len() > SIZE || left >= SIZE as u64 {
        return Err(format!(
            "the grid's {} rows from row {top} leave the {SIZE} x {SIZE} board",
            rows.len()
        ));
    }
    let mut tiles = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        if left as usize + row.chars().count() > SIZE {
            return Err(format!(
                "row {} is {} cells long from column {left}: it leaves the board",
                r + 1,
                row.chars().count()
            ));
        }
        for (c, ch) in row.chars().enumerate() {
            match ch {
                '.' | ' ' => {}
                ch if ch.is_ascii_alphabetic() => {
                    let cell = ((top as usize + r) as u8, (left as usize + c) as u8);
                    tiles.push((cell, ch.to_ascii_uppercase() as u8 - b'A'));
                }
                _ => {
                    return Err(format!(
                        "row {}, column {}: {ch:?} is not a letter or '.'",
                        r + 1,
                        c + 1
                    ))
                }
            }
        }
    }
    Ok(tiles)
}

fn check_seats(seats: Vec<SeatRequest>) -> Result<Vec<SeatPlan>, String> {
    if !(MIN_SEATS..=MAX_SEATS).contains(&seats.len()) {
        return Err(format!(
            "{} seats; a room has {MIN_SEATS} to {MAX_SEATS}",
            seats.len()
        ));
    }
    let plans = seats
        .into_iter()
        .map(|seat| match seat {
            SeatRequest::Person => Ok(SeatPlan::Person),
            SeatRequest::Podium { player, pace_ms } => {
                let kind = Kind::by_name(&player).ok_or_else(|| {
                    format!("no podium player {:?} (try Podium or tls)", short(&player))
                })?;
                let pace_ms = pace_ms.unwrap_or(DEFAULT_PACE_MS);
                if pace_ms > MAX_PACE_MS {
                    return Err(format!("pace_ms {pace_ms} is over {MAX_PACE_MS}"));
                }
                Ok(SeatPlan::Podium {
                    kind,
                    pace: Duration::from_millis(pace_ms),
                })
            }
        })
        .collect::<Result<Vec<_>, String>>()?;
    if !plans.contains(&SeatPlan::Person) {
        return Err("a room needs at least one person seat".into());
    }
    Ok(plans)
}

/// Room codes and tokens are short ASCII; anything else is no code of ours.
fn check_code(what: &str, text: &str) -> Result<String, String> {
    if text.is_empty() || text.len() > 64 || !text.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!(
            "{what} {:?} is not a code of this server",
            short(text)
        ));
    }
    Ok(text.to_ascii_uppercase())
}

fn check(message: ClientMessage) -> Result<Request, String> {
    use ClientMessage as M;
    Ok(match message {
        M::Create { name, seats } => Request::Entry(Entry::Create {
            name: name.as_deref().map(check_name).transpose()?,
            seats: check_seats(seats)?,
        }),
        M::Join { room, name } => Request::Entry(Entry::Join {
            room: check_code("room", &room)?,
            name: check_name(&name)?,
        }),
        M::Rejoin { room, token } => Request::Entry(Entry::Rejoin {
            room: check_code("room", &room)?,
            token: check_code("token", &token)?,
        }),
        M::Place { row, col, letter } => Request::Play(Intent::Place {
            at: check_cell(row, col)?,
            letter: check_letter(&letter)?,
        }),
        M::Move { from, to } => Request::Play(Intent::Move {
            from: check_cell(from[0], from[1])?,
            to: check_cell(to[0], to[1])?,
        }),
        M::Remove { row, col } => Request::Play(Intent::Remove {
            at: check_cell(row, col)?,
        }),
        M::Grid { top, left, rows } => Request::Play(Intent::Grid(check_grid(top, left, &rows)?)),
        M::Peel {} => Request::Play(Intent::Peel),
        M::Dump { letter } => Request::Play(Intent::Dump(check_letter(&letter)?)),
        M::Bananas {} => Request::Play(Intent::Bananas),
        M::Stuck {} => Request::Play(Intent::Stuck),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(frame: &str) -> String {
        parse(frame).unwrap_err().reason
    }

    #[test]
    fn good_messages_parse() {
        let p = parse(r#"{"type":"place","row":3,"col":4,"letter":"q","id":7}"#).unwrap();
        assert_eq!(p.id, Some(7));
        assert_eq!(
            p.request,
            Request::Play(Intent::Place {
                at: (3, 4),
                letter: 16
            })
        );
        let p = parse(r#"{"type":"create","name":"Ann","seats":[{"kind":"person"},{"kind":"podium","player":"tls","pace_ms":10}]}"#).unwrap();
        assert_eq!(
            p.request,
            Request::Entry(Entry::Create {
                name: Some("Ann".into()),
                seats: vec![
                    SeatPlan::Person,
                    SeatPlan::Podium {
                        kind: Kind::TwoLetterStranding,
                        pace: Duration::from_millis(10)
                    }
                ]
            })
        );
        let p = parse(r#"{"type":"grid","top":10,"left":62,"rows":["CA",".T"]}"#).unwrap();
        assert_eq!(
            p.request,
            Request::Play(Intent::Grid(vec![
                ((10, 62), 2),
                ((10, 63), 0),
                ((11, 63), 19)
            ]))
        );
        assert_eq!(
            parse(r#"{"type":"peel"}"#).unwrap().request,
            Request::Play(Intent::Peel)
        );
    }

    #[test]
    fn bad_messages_are_named() {
        assert!(reason("{").starts_with("not JSON"));
        assert_eq!(reason("[1]"), "not a JSON object");
        assert_eq!(reason(r#"{"row":1}"#), "no \"type\" field");
        assert!(reason(r#"{"type":"fly"}"#).contains("unknown variant"));
        assert!(reason(r#"{"type":"peel","extra":1}"#).contains("unknown field"));
        assert!(reason(r#"{"type":"peel","id":-1}"#).contains("id -1"));
        assert!(reason(r#"{"type":"place","row":64,"col":0,"letter":"A"}"#).contains("outside"));
        assert!(reason(r#"{"type":"place","row":0,"col":0,"letter":"AB"}"#).contains("one letter"));
        assert!(reason(r#"{"type":"grid","top":0,"left":0,"rows":["C#T"]}"#).contains("'#'"));
        assert!(
            reason(r#"{"type":"grid","top":60,"left":0,"rows":["A","A","A","A","A"]}"#)
                .contains("leave")
        );
        assert!(reason(r#"{"type":"create","seats":[{"kind":"person"}]}"#).contains("2 to 8"));
        assert!(reason(r#"{"type":"create","seats":[{"kind":"podium","player":"Podium"},{"kind":"podium","player":"tls"}]}"#)
            .contains("person seat"));
        assert!(reason(
            r#"{"type":"create","seats":[{"kind":"person"},{"kind":"podium","player":"nobody"}]}"#
        )
        .contains("nobody"));
        assert!(reason(r#"{"type":"join","room":"AB CD","name":"x"}"#).contains("not a code"));
        assert!(reason(r#"{"type":"join","room":"ABCD","name":""}"#).contains("name"));
        let long = format!(
            r#"{{"type":"join","room":"ABCD","name":"{}"}}"#,
            "x".repeat(MAX_FRAME)
        );
        assert!(reason(&long).contains("at most 8192"));
        let hostile = format!(r#"{{"type":"{}"}}"#, "y".repeat(4000));
        assert!(reason(&hostile).len() <= MAX_REASON + 3);
    }

    #[test]
    fn server_messages_round_trip() {
        let m = ServerMessage::Rejected {
            of: "dump".into(),
            reason: "no Q on the rack".into(),
            id: None,
        };
        let json = m.to_json();
        assert_eq!(
            json,
            r#"{"type":"rejected","of":"dump","reason":"no Q on the rack"}"#
        );
        assert_eq!(serde_json::from_str::<ServerMessage>(&json).unwrap(), m);
    }
}
