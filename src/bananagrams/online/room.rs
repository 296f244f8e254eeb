//! The authority over one room's game: the bunch, the tiles dealt to each seat, their grids,
//! PEEL, DUMP, BANANAS, the rotten banana and dropped seats; intents in, messages out, no sockets.
//
// The rules are game.rs's: official hands, a DUMP puts the tile back at a random place and takes
// up to three (possibly the same tile), a rotten banana's tiles go back and the bunch is
// shuffled. Times come in as arguments, so the grace period is tested without waiting.

use super::grid::Grid;
use super::protocol::{FinalGrid, GridText, Intent, SeatCount, SeatInfo, SeatPlan, ServerMessage};
use super::secret;
use crate::bananagrams::dict::WordList;
use crate::bananagrams::game::{draw, dump, return_tiles, shuffled_bunch, starting_hand};
use crate::bananagrams::letters::Tiles;
use crate::bananagrams::players::Context;
use crate::bananagrams::validate::validate;
use crate::core::rng::Rng;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Person seats still free: nothing dealt yet.
    Waiting,
    Playing,
    Over,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::Waiting => "waiting",
            Phase::Playing => "playing",
            Phase::Over => "over",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Playing,
    Out,
    Won,
}

struct Seat {
    plan: SeatPlan,
    name: String,
    /// The rejoin token; empty while a person seat is free.
    token: String,
    connected: bool,
    away_since: Option<Instant>,
    status: Status,
    /// Every tile the room gave this seat and it still holds (rack and grid).
    owned: Tiles,
    grid: Grid,
    /// The room's version when the seat said it was stuck.
    stuck_at: Option<u64>,
    /// The grid and tiles a seat held when it went out, for the final display.
    last: Option<(GridText, Tiles)>,
}

impl Seat {
    fn taken(&self) -> bool {
        !self.token.is_empty()
    }

    fn rack(&self) -> Tiles {
        self.owned
            .minus(&self.grid.tiles())
            .expect("a grid holds only tiles its seat owns")
    }
}

/// One room: its seats, the bunch, and the messages and log lines waiting to go out.
pub struct Room {
    pub code: String,
    seats: Vec<Seat>,
    phase: Phase,
    bunch: Vec<u8>,
    rng: Rng,
    words: WordList,
    grace: Duration,
    /// Bumped by every PEEL, DUMP and seat going out: what a stuck seat waits for.
    version: u64,
    seq: u64,
    winner: Option<usize>,
    ended_at: Option<Instant>,
    /// The end was already reported by [`Room::take_end`].
    end_taken: bool,
    outbox: Vec<(usize, ServerMessage)>,
    dirty: Vec<bool>,
    log: Vec<String>,
}

impl Room {
    /// A room of `plans`, its bunch shuffled from `seed`; podium seats are taken from the start.
    pub fn new(
        code: String,
        plans: Vec<SeatPlan>,
        words: WordList,
        grace: Duration,
        seed: u64,
    ) -> Room {
        let seats: Vec<Seat> = plans
            .into_iter()
            .map(|plan| {
                let (name, token) = match plan {
                    SeatPlan::Person => (String::new(), String::new()),
                    SeatPlan::Podium { kind, .. } => (kind.name().to_string(), "podium".into()),
                };
                Seat {
                    plan,
                    name,
                    token,
                    connected: false,
                    away_since: None,
                    status: Status::Playing,
                    owned: Tiles::EMPTY,
                    grid: Grid::default(),
                    stuck_at: None,
                    last: None,
                }
            })
            .collect();
        let count = seats.len();
        let mut rng = Rng::new(seed);
        let bunch = shuffled_bunch(&mut rng);
        Room {
            code,
            seats,
            phase: Phase::Waiting,
            bunch,
            rng,
            words,
            grace,
            version: 0,
            seq: 0,
            winner: None,
            ended_at: None,
            end_taken: false,
            outbox: Vec::new(),
            dirty: vec![false; count],
            log: Vec::new(),
        }
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn seat_count(&self) -> usize {
        self.seats.len()
    }

    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    pub fn ended_at(&self) -> Option<Instant> {
        self.ended_at
    }

    pub fn status(&self, seat: usize) -> Status {
        self.seats[seat].status
    }

    pub fn plan(&self, seat: usize) -> &SeatPlan {
        &self.seats[seat].plan
    }

    /// Every tile `seat` holds, rack and grid.
    pub fn owned(&self, seat: usize) -> Tiles {
        self.seats[seat].owned
    }

    pub fn rack(&self, seat: usize) -> Tiles {
        self.seats[seat].rack()
    }

    pub fn grid_text(&self, seat: usize) -> GridText {
        self.seats[seat].grid.text()
    }

    pub fn bunch_len(&self) -> usize {
        self.bunch.len()
    }

    /// Seats still in the game (away ones too: they hold tiles).
    pub fn active(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| s.status == Status::Playing)
            .count()
    }

    /// What a player of `seat` may know when it acts.
    pub fn context(&self) -> Context {
        Context {
            bunch: self.bunch.len(),
            players: self.active(),
        }
    }

    /// Changes when a PEEL, DUMP or a seat going out could unstick a player.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Person seats connected now.
    pub fn connected(&self) -> usize {
        self.seats.iter().filter(|s| s.connected).count()
    }

    /// The messages for seats (states of the seats that changed last) and clears them.
    pub fn take_messages(&mut self) -> Vec<(usize, ServerMessage)> {
        for seat in 0..self.seats.len() {
            if std::mem::take(&mut self.dirty[seat]) && self.seats[seat].taken() {
                let state = self.state(seat);
                self.outbox.push((seat, state));
            }
        }
        std::mem::take(&mut self.outbox)
    }

    /// One line per room event since the last call, for the server's log.
    pub fn take_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }

    fn state(&self, seat: usize) -> ServerMessage {
        let s = &self.seats[seat];
        ServerMessage::State {
            phase: self.phase.name().into(),
            rack: s.rack().to_string(),
            grid: s.grid.text(),
            bunch: self.bunch.len(),
            seats: self.seats.iter().map(|s| self.count_of(s)).collect(),
        }
    }

    fn count_of(&self, seat: &Seat) -> SeatCount {
        let status = if !seat.taken() {
            "waiting"
        } else {
            match seat.status {
                Status::Out => "out",
                Status::Won => "won",
                Status::Playing if seat.away_since.is_some() => "away",
                Status::Playing if seat.stuck_at == Some(self.version) => "stuck",
                Status::Playing => "playing",
            }
        };
        SeatCount {
            name: seat.name.clone(),
            tiles: seat.owned.len(),
            status: status.into(),
        }
    }

    fn seat_infos(&self) -> Vec<SeatInfo> {
        self.seats
            .iter()
            .map(|s| match s.plan {
                SeatPlan::Person => SeatInfo {
                    name: s.name.clone(),
                    kind: "person".into(),
                    player: None,
                },
                SeatPlan::Podium { kind, .. } => SeatInfo {
                    name: s.name.clone(),
                    kind: "podium".into(),
                    player: Some(kind.name().into()),
                },
            })
            .collect()
    }

    fn mark_all(&mut self) {
        self.dirty.iter_mut().for_each(|d| *d = true);
    }

    /// A public event: a `log` message to every taken seat and a line for the server's log.
    fn event(&mut self, seat: Option<usize>, event: &str, text: String) {
        self.seq += 1;
        let who = seat.map_or(String::new(), |s| format!(" seat {s}"));
        self.log
            .push(format!("room {}{who}: {event}: {text}", self.code));
        let message = ServerMessage::Log {
            seq: self.seq,
            seat,
            event: event.into(),
            text,
        };
        for s in 0..self.seats.len() {
            if self.seats[s].taken() {
                self.outbox.push((s, message.clone()));
            }
        }
    }

    fn welcome(&mut self, seat: usize) {
        let message = ServerMessage::Welcome {
            room: self.code.clone(),
            seat,
            token: self.seats[seat].token.clone(),
            seats: self.seat_infos(),
            grace_s: self.grace.as_secs(),
        };
        self.outbox.push((seat, message));
        self.dirty[seat] = true;
    }

    /// Seats `name` at the first free person seat; the game starts when none is left.
    pub fn join(&mut self, name: &str) -> Result<usize, String> {
        if self.phase != Phase::Waiting {
            return Err("the game in this room has started".into());
        }
        let seat = (0..self.seats.len())
            .find(|&s| self.seats[s].plan == SeatPlan::Person && !self.seats[s].taken())
            .ok_or("every seat of this room is taken")?;
        let token = secret::code(secret::TOKEN_LENGTH)?;
        let s = &mut self.seats[seat];
        s.name = name.to_string();
        s.token = token;
        s.connected = true;
        // Others learn the name from the next welcome or state.
        for other in 0..self.seats.len() {
            if other != seat && self.seats[other].connected {
                self.welcome(other);
            }
        }
        self.welcome(seat);
        self.event(Some(seat), "joined", format!("{name} sat down"));
        if self.seats.iter().all(Seat::taken) {
            self.start();
        }
        self.mark_all();
        Ok(seat)
    }

    fn start(&mut self) {
        self.phase = Phase::Playing;
        let hand = starting_hand(self.seats.len());
        for seat in 0..self.seats.len() {
            let dealt = draw(&mut self.bunch, hand);
            self.seats[seat].owned = dealt;
        }
        self.version += 1;
        let text = format!("{hand} tiles each, {} in the bunch", self.bunch.len());
        self.event(None, "split", text);
        self.mark_all();
    }

    /// The seat `token` was given for, connected again (from any phase: an ended game shows its
    /// end).
    pub fn rejoin(&mut self, token: &str) -> Result<usize, String> {
        let seat = (0..self.seats.len())
            .find(|&s| self.seats[s].plan == SeatPlan::Person && self.seats[s].token == token)
            .ok_or("no seat of this room has that token")?;
        let was_away = self.seats[seat].away_since.take().is_some();
        self.seats[seat].connected = true;
        self.welcome(seat);
        if was_away {
            let name = self.seats[seat].name.clone();
            self.event(Some(seat), "back", format!("{name} is back"));
            self.mark_all();
        }
        if self.phase == Phase::Over {
            let over = self.over_message(self.winner, "the game is over".into());
            self.outbox.push((seat, over));
        }
        Ok(seat)
    }

    /// `seat`'s connection is gone: before the game its seat is free again; during it the seat
    /// is away until it rejoins or the grace period ends.
    pub fn disconnect(&mut self, seat: usize, now: Instant) {
        let s = &mut self.seats[seat];
        if s.plan != SeatPlan::Person || !s.connected {
            return;
        }
        s.connected = false;
        let name = s.name.clone();
        match self.phase {
            Phase::Waiting => {
                s.token.clear();
                s.name.clear();
                self.event(Some(seat), "left", format!("{name} left"));
                self.mark_all();
            }
            Phase::Playing if s.status == Status::Playing => {
                s.away_since = Some(now);
                let grace = self.grace.as_secs();
                self.event(
                    Some(seat),
                    "away",
                    format!("{name} dropped; {grace} s to rejoin"),
                );
                self.mark_all();
            }
            _ => {}
        }
    }

    /// Seats away longer than the grace period forfeit: out, their tiles back in the bunch.
    pub fn expire(&mut self, now: Instant) {
        if self.phase != Phase::Playing {
            return;
        }
        for seat in 0..self.seats.len() {
            let s = &self.seats[seat];
            let expired = s
                .away_since
                .is_some_and(|since| now.saturating_duration_since(since) >= self.grace);
            if expired && s.status == Status::Playing {
                self.seats[seat].away_since = None;
                let name = self.seats[seat].name.clone();
                self.go_out(
                    seat,
                    "forfeit",
                    format!("{name} did not come back: tiles returned"),
                );
                if self.phase != Phase::Playing {
                    return;
                }
            }
        }
    }

    /// Applies one checked intent of `seat`; an error changes nothing and says why.
    pub fn act(&mut self, seat: usize, intent: Intent) -> Result<(), String> {
        match self.phase {
            Phase::Waiting => return Err("the game has not started: seats are still free".into()),
            Phase::Over => return Err("the game is over".into()),
            Phase::Playing => {}
        }
        if self.seats[seat].status != Status::Playing {
            return Err("you are out of this game".into());
        }
        let s = &mut self.seats[seat];
        match intent {
            Intent::Place { at, letter } => {
                if s.rack().count(letter) == 0 {
                    return Err(format!("no {} on your rack", char::from(b'A' + letter)));
                }
                if !s.grid.put(at, letter) {
                    return Err(format!("cell ({}, {}) is taken", at.0, at.1));
                }
                self.dirty[seat] = true;
            }
            Intent::Move { from, to } => {
                if !s.grid.relocate(from, to) {
                    return Err(format!(
                        "cannot move ({}, {}) to ({}, {}): no tile there or the cell is taken",
                        from.0, from.1, to.0, to.1
                    ));
                }
                self.dirty[seat] = true;
            }
            Intent::Remove { at } => {
                if s.grid.take(at).is_none() {
                    return Err(format!("no tile at ({}, {})", at.0, at.1));
                }
                self.dirty[seat] = true;
            }
            Intent::Grid(tiles) => {
                let grid = Grid::from_tiles(&tiles);
                if !grid.counts_within(&s.owned) {
                    return Err("the grid has tiles you do not hold".into());
                }
                s.grid = grid;
                self.dirty[seat] = true;
            }
            Intent::Peel => self.peel(seat)?,
            Intent::Dump(letter) => self.dump(seat, letter)?,
            Intent::Bananas => self.bananas(seat)?,
            Intent::Stuck => {
                self.seats[seat].stuck_at = Some(self.version);
                let name = self.seats[seat].name.clone();
                self.event(Some(seat), "stuck", format!("{name} is stuck"));
                self.mark_all();
                let stalled = self.seats.iter().all(|s| {
                    s.status != Status::Playing
                        || (s.away_since.is_none() && s.stuck_at == Some(self.version))
                });
                if stalled {
                    self.finish(None, "every player still in is stuck".into());
                }
            }
        }
        Ok(())
    }

    fn peel(&mut self, seat: usize) -> Result<(), String> {
        let rack = self.seats[seat].rack().len();
        if rack > 0 {
            return Err(format!("{rack} tiles are still on your rack"));
        }
        let active = self.active();
        if self.bunch.len() < active {
            return Err(format!(
                "the bunch has {} tiles for {active} players: call BANANAS",
                self.bunch.len()
            ));
        }
        for s in 0..self.seats.len() {
            if self.seats[s].status == Status::Playing {
                let tile = draw(&mut self.bunch, 1);
                self.seats[s].owned = self.seats[s].owned.union(&tile);
                let got = tile.to_string();
                self.outbox.push((s, ServerMessage::Peeled { seat, got }));
            }
        }
        self.version += 1;
        let name = self.seats[seat].name.clone();
        self.event(
            Some(seat),
            "peel",
            format!("{name}: PEEL! {} left", self.bunch.len()),
        );
        self.mark_all();
        Ok(())
    }

    fn dump(&mut self, seat: usize, letter: u8) -> Result<(), String> {
        let gave = char::from(b'A' + letter);
        if self.seats[seat].rack().count(letter) == 0 {
            return Err(format!("no {gave} on your rack"));
        }
        self.seats[seat].owned.take(letter);
        let got = dump(&mut self.bunch, &mut self.rng, letter);
        self.seats[seat].owned = self.seats[seat].owned.union(&got);
        let message = ServerMessage::Dumped {
            gave: gave.to_string(),
            got: got.to_string(),
        };
        self.outbox.push((seat, message));
        self.version += 1;
        let name = self.seats[seat].name.clone();
        self.event(Some(seat), "dump", format!("{name} dumped {gave}"));
        self.mark_all();
        Ok(())
    }

    fn bananas(&mut self, seat: usize) -> Result<(), String> {
        let rack = self.seats[seat].rack().len();
        if rack > 0 {
            return Err(format!("{rack} tiles are still on your rack"));
        }
        let active = self.active();
        if self.bunch.len() >= active {
            return Err(format!(
                "the bunch still has {} tiles for {active} players: call PEEL",
                self.bunch.len()
            ));
        }
        let s = &self.seats[seat];
        let name = s.name.clone();
        match validate(&s.grid.render(), &s.owned, &self.words) {
            Ok(()) => {
                self.seats[seat].status = Status::Won;
                self.event(
                    Some(seat),
                    "bananas",
                    format!("{name}: BANANAS! a valid grid"),
                );
                self.finish(
                    Some(seat),
                    format!("{name} called BANANAS with a valid grid"),
                );
            }
            Err(invalid) => {
                self.go_out(seat, "rotten", format!("{name}: rotten banana ({invalid})"));
            }
        }
        Ok(())
    }

    /// `seat` leaves the game (rotten banana or forfeit): its tiles go back, the bunch is
    /// shuffled, and the game ends if nobody is left.
    fn go_out(&mut self, seat: usize, event: &str, text: String) {
        let s = &mut self.seats[seat];
        s.status = Status::Out;
        s.last = Some((s.grid.text(), s.owned));
        return_tiles(&mut self.bunch, &mut self.rng, &s.owned);
        s.owned = Tiles::EMPTY;
        s.grid = Grid::default();
        self.version += 1;
        self.event(Some(seat), event, text);
        self.mark_all();
        if self.active() == 0 {
            self.finish(None, "every player is out".into());
        }
    }

    /// Ends a game nobody can finish (every person gone), without a winner.
    pub fn abandon(&mut self, reason: String) {
        if self.phase == Phase::Playing {
            self.finish(None, reason);
        }
    }

    /// The winner (or None for no winner), once, after the game ended.
    pub fn take_end(&mut self) -> Option<Option<usize>> {
        if self.phase != Phase::Over || self.end_taken {
            return None;
        }
        self.end_taken = true;
        Some(self.winner)
    }

    fn finish(&mut self, winner: Option<usize>, reason: String) {
        self.phase = Phase::Over;
        self.winner = winner;
        self.ended_at = Some(Instant::now());
        self.event(winner, "over", reason.clone());
        let over = self.over_message(winner, reason);
        for s in 0..self.seats.len() {
            if self.seats[s].taken() {
                self.outbox.push((s, over.clone()));
            }
        }
        self.mark_all();
    }

    fn over_message(&self, winner: Option<usize>, reason: String) -> ServerMessage {
        let grids = self
            .seats
            .iter()
            .enumerate()
            .map(|(seat, s)| {
                let (grid, tiles) = s.last.clone().unwrap_or_else(|| (s.grid.text(), s.owned));
                FinalGrid {
                    seat,
                    name: s.name.clone(),
                    player: match s.plan {
                        SeatPlan::Person => None,
                        SeatPlan::Podium { kind, .. } => Some(kind.name().into()),
                    },
                    status: self.count_of(s).status,
                    tiles: tiles.to_string(),
                    grid,
                }
            })
            .collect();
        ServerMessage::Over {
            winner,
            reason,
            grids,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bananagrams::dict::Lexicon;
    use crate::bananagrams::players::Kind;

    const GRACE: Duration = Duration::from_secs(60);

    fn room(plans: Vec<SeatPlan>) -> Room {
        Room::new("ROOMCODE".into(), plans, Lexicon::enable().list, GRACE, 1)
    }

    /// A started room of two person seats.
    fn two() -> Room {
        let mut room = room(vec![SeatPlan::Person, SeatPlan::Person]);
        assert_eq!(room.join("Ann"), Ok(0));
        assert_eq!(room.phase(), Phase::Waiting);
        assert_eq!(room.join("Bob"), Ok(1));
        room
    }

    /// Seat `seat` holds exactly `letters`, none of them on its grid.
    fn hold(room: &mut Room, seat: usize, letters: &str) {
        room.seats[seat].owned = Tiles::parse(letters).unwrap();
        room.seats[seat].grid = Grid::default();
    }

    fn lay(room: &mut Room, seat: usize, row: u8, word: &str) -> Result<(), String> {
        let tiles = word
            .bytes()
            .enumerate()
            .map(|(c, b)| ((row, 10 + c as u8), b - b'A'))
            .collect();
        room.act(seat, Intent::Grid(tiles))
    }

    #[test]
    fn the_game_starts_when_every_person_seat_is_taken() {
        let mut room = two();
        assert_eq!(room.phase(), Phase::Playing);
        assert_eq!(room.owned(0).len(), 21);
        assert_eq!(room.owned(1).len(), 21);
        assert_eq!(room.bunch_len(), 144 - 42);
        assert!(room.join("Cy").is_err());
        let messages = room.take_messages();
        let welcomes = messages
            .iter()
            .filter(|(_, m)| matches!(m, ServerMessage::Welcome { .. }))
            .count();
        assert!(welcomes >= 2);
        let mut with_podium = room_of_podium();
        assert_eq!(with_podium.phase(), Phase::Waiting);
        with_podium.join("Ann").unwrap();
        assert_eq!(with_podium.phase(), Phase::Playing);
        assert_eq!(with_podium.owned(1).len(), 21);
    }

    fn room_of_podium() -> Room {
        room(vec![
            SeatPlan::Person,
            SeatPlan::Podium {
                kind: Kind::Podium,
                pace: Duration::ZERO,
            },
        ])
    }

    #[test]
    fn no_state_shows_another_seats_rack() {
        let mut room = two();
        for (seat, message) in room.take_messages() {
            if let ServerMessage::State { rack, seats, .. } = message {
                assert_eq!(rack, room.rack(seat).to_string());
                assert_eq!(seats[1 - seat].tiles, 21);
            }
        }
    }

    #[test]
    fn tiles_move_only_from_the_own_rack() {
        let mut room = two();
        hold(&mut room, 0, "CATS");
        assert!(room
            .act(
                0,
                Intent::Place {
                    at: (3, 3),
                    letter: 25
                }
            )
            .unwrap_err()
            .contains("no Z"));
        room.act(
            0,
            Intent::Place {
                at: (3, 3),
                letter: 2,
            },
        )
        .unwrap();
        assert!(room
            .act(
                0,
                Intent::Place {
                    at: (3, 3),
                    letter: 0
                }
            )
            .is_err());
        room.act(
            0,
            Intent::Move {
                from: (3, 3),
                to: (3, 4),
            },
        )
        .unwrap();
        assert!(room.act(0, Intent::Remove { at: (3, 3) }).is_err());
        assert_eq!(room.rack(0).to_string(), "AST");
        assert!(lay(&mut room, 0, 0, "CATT")
            .unwrap_err()
            .contains("do not hold"));
        lay(&mut room, 0, 0, "CAT").unwrap();
        assert_eq!(room.rack(0).to_string(), "S");
        room.act(0, Intent::Remove { at: (0, 12) }).unwrap();
        assert_eq!(room.rack(0).to_string(), "ST");
    }

    #[test]
    fn peel_gives_every_seat_a_tile() {
        let mut room = two();
        hold(&mut room, 0, "CAT");
        assert!(room.act(0, Intent::Peel).unwrap_err().contains("3 tiles"));
        lay(&mut room, 0, 0, "CAT").unwrap();
        let bunch = room.bunch_len();
        room.take_messages();
        room.act(0, Intent::Peel).unwrap();
        assert_eq!(room.bunch_len(), bunch - 2);
        assert_eq!(room.owned(0).len(), 4);
        assert_eq!(room.owned(1).len(), 22);
        let peeled: Vec<usize> = room
            .take_messages()
            .into_iter()
            .filter(|(_, m)| matches!(m, ServerMessage::Peeled { .. }))
            .map(|(s, _)| s)
            .collect();
        assert_eq!(peeled, vec![0, 1]);
        // Too few tiles for everyone: BANANAS is the call.
        room.bunch.truncate(1);
        hold(&mut room, 0, "CAT");
        lay(&mut room, 0, 0, "CAT").unwrap();
        assert!(room.act(0, Intent::Peel).unwrap_err().contains("BANANAS"));
    }

    #[test]
    fn dump_returns_one_and_takes_three() {
        let mut room = two();
        hold(&mut room, 0, "QAT");
        let bunch = room.bunch_len();
        assert!(room.act(0, Intent::Dump(25)).is_err());
        lay(&mut room, 0, 0, "Q").unwrap();
        assert!(room.act(0, Intent::Dump(16)).unwrap_err().contains("no Q"));
        room.act(0, Intent::Dump(0)).unwrap();
        assert_eq!(room.owned(0).len(), 5);
        assert_eq!(room.bunch_len(), bunch - 2);
        // With one tile left the dumped one goes back and both come out.
        room.bunch.truncate(1);
        room.act(0, Intent::Dump(19)).unwrap();
        assert_eq!(room.owned(0).len(), 6);
        assert_eq!(room.bunch_len(), 0);
    }

    #[test]
    fn bananas_is_checked_against_the_dealt_tiles() {
        let mut room = two();
        hold(&mut room, 0, "CAT");
        lay(&mut room, 0, 0, "CAT").unwrap();
        assert!(room.act(0, Intent::Bananas).unwrap_err().contains("PEEL"));
        room.bunch.truncate(1);
        room.act(0, Intent::Bananas).unwrap();
        assert_eq!(room.phase(), Phase::Over);
        assert_eq!(room.winner(), Some(0));
        let over = room.take_messages().into_iter().find_map(|(s, m)| match m {
            ServerMessage::Over { winner, grids, .. } if s == 1 => Some((winner, grids)),
            _ => None,
        });
        let (winner, grids) = over.expect("an over message to seat 1");
        assert_eq!(winner, Some(0));
        assert_eq!(grids[0].grid.rows, vec!["CAT".to_string()]);
        assert_eq!(grids[1].tiles.len(), 21);
    }

    #[test]
    fn a_rotten_banana_puts_the_seat_out_and_its_tiles_back() {
        let mut room = two();
        hold(&mut room, 0, "CTA");
        lay(&mut room, 0, 0, "CTA").unwrap();
        room.bunch.truncate(1);
        room.act(0, Intent::Bananas).unwrap();
        assert_eq!(room.status(0), Status::Out);
        assert_eq!(room.phase(), Phase::Playing);
        assert_eq!(room.bunch_len(), 4);
        assert_eq!(room.owned(0), Tiles::EMPTY);
        assert!(room.act(0, Intent::Peel).unwrap_err().contains("out"));
        assert!(room
            .take_log()
            .iter()
            .any(|l| l.contains("rotten banana") && l.contains("CTA")));
        // The last seat in can still win; a second rotten banana ends the game with nobody.
        hold(&mut room, 1, "ZZ");
        lay(&mut room, 1, 0, "ZZ").unwrap();
        room.bunch.clear();
        room.act(1, Intent::Bananas).unwrap();
        assert_eq!(room.phase(), Phase::Over);
        assert_eq!(room.winner(), None);
    }

    #[test]
    fn a_dropped_seat_has_the_grace_period_to_come_back() {
        let mut room = two();
        let token = room.seats[1].token.clone();
        let t0 = Instant::now();
        room.disconnect(1, t0);
        room.expire(t0 + GRACE - Duration::from_millis(1));
        assert_eq!(room.status(1), Status::Playing);
        assert_eq!(room.rejoin(&token), Ok(1));
        assert!(room.rejoin("WRONG").is_err());
        room.disconnect(1, t0);
        let bunch = room.bunch_len();
        room.expire(t0 + GRACE);
        assert_eq!(room.status(1), Status::Out);
        assert_eq!(room.bunch_len(), bunch + 21);
        // Before the game a dropped seat is free for someone else.
        let mut waiting = room_of_two_waiting();
        waiting.disconnect(0, t0);
        assert_eq!(waiting.join("Cy"), Ok(0));
    }

    fn room_of_two_waiting() -> Room {
        let mut room = room(vec![SeatPlan::Person, SeatPlan::Person]);
        room.join("Ann").unwrap();
        room
    }

    #[test]
    fn the_game_ends_when_everyone_still_in_is_stuck() {
        let mut room = two();
        room.act(0, Intent::Stuck).unwrap();
        hold(&mut room, 1, "QAT");
        room.act(1, Intent::Dump(16)).unwrap();
        room.act(1, Intent::Stuck).unwrap();
        assert_eq!(room.phase(), Phase::Playing, "the dump unstuck seat 0");
        room.act(0, Intent::Stuck).unwrap();
        assert_eq!(room.phase(), Phase::Over);
        assert_eq!(room.winner(), None);
    }
}
