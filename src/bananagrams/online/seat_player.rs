//! A podium player in an online room: keeps its hand in step with the tiles the room says the
//! seat holds, and turns each of its actions into the intents the protocol carries.

use super::protocol::{Cell, Intent};
use crate::bananagrams::board::SIZE;
use crate::bananagrams::game::Setup;
use crate::bananagrams::letters::{Tiles, LETTERS};
use crate::bananagrams::players::{Action, Context, Kind, Player};

pub struct SeatPlayer {
    player: Box<dyn Player>,
    /// The tiles the player has been given and still holds or is dumping.
    held: Tiles,
    /// Dumped letters the room has not confirmed yet.
    dumping: Tiles,
    /// What the player last saw when it said it was stuck: say it again only after a change.
    stuck_on: Option<(Context, Tiles)>,
}

/// `a - b` letter by letter, never below zero.
fn excess(a: &Tiles, b: &Tiles) -> Tiles {
    Tiles::from_counts(std::array::from_fn(|l| {
        a.count(l as u8).saturating_sub(b.count(l as u8))
    }))
}

impl SeatPlayer {
    pub fn new(kind: Kind, setup: &Setup) -> SeatPlayer {
        SeatPlayer {
            player: kind.build(setup.lexicon.dawg, &setup.stats),
            held: Tiles::EMPTY,
            dumping: Tiles::EMPTY,
            stuck_on: None,
        }
    }

    pub fn name(&self) -> &'static str {
        self.player.name()
    }

    /// The room says the seat holds `owned`: tiles the player has not had yet go to its hand.
    pub fn sync(&mut self, owned: &Tiles) {
        let settled = excess(owned, &self.dumping);
        let new = excess(&settled, &self.held);
        if !new.is_empty() {
            self.player.receive(&new);
            self.held = self.held.union(&new);
        }
    }

    /// The room took back a dumped `letter`.
    pub fn dumped(&mut self, letter: u8) {
        self.dumping.take(letter);
        self.held.take(letter);
    }

    /// The room refused a dump of `letter`: the player gets it back at the next sync.
    pub fn undumped(&mut self, letter: u8) {
        if self.dumping.take(letter) {
            self.held.take(letter);
        }
    }

    /// The player's grid as a whole-grid intent.
    pub fn grid(&self) -> Intent {
        let board = self.player.board();
        let mut tiles: Vec<(Cell, u8)> = Vec::with_capacity(board.tile_count());
        if let Some((top, left, bottom, right)) = board.bounds() {
            for row in top..=bottom.min(SIZE - 1) {
                for column in left..=right.min(SIZE - 1) {
                    if let Some(letter) = board.get(row, column) {
                        tiles.push(((row as u8, column as u8), letter));
                    }
                }
            }
        }
        Intent::Grid(tiles)
    }

    /// One action of the player, as intents: its grid, then PEEL, BANANAS, DUMP or STUCK.
    pub fn act(&mut self, context: &Context) -> Vec<Intent> {
        let action = self.player.act(context);
        match action {
            Action::Played => {
                self.stuck_on = None;
                vec![self.grid()]
            }
            Action::Done => {
                let call = if context.bunch >= context.players {
                    Intent::Peel
                } else {
                    Intent::Bananas
                };
                vec![self.grid(), call]
            }
            Action::Dump(letter) if usize::from(letter) < LETTERS => {
                self.dumping.add(letter);
                vec![self.grid(), Intent::Dump(letter)]
            }
            Action::Dump(_) | Action::Wait => {
                let seen = (*context, self.held);
                if self.stuck_on == Some(seen) {
                    return Vec::new();
                }
                self.stuck_on = Some(seen);
                vec![self.grid(), Intent::Stuck]
            }
        }
    }
}
