//! The steps of a whole short game's searches (`spell::exhaustive`'s beam, `spell::deep`'s branch
//! and bound): a node is a legal prefix of commands, an action a phrase or one command.

use crate::core::hash::FastHasher;
use crate::icfp2015::rules::commands::{decode, Command};
use crate::icfp2015::rules::game::{Game, Outcome, Setup};
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::spell::room::{falling_room, room};
use std::hash::{Hash, Hasher};

/// Bytes a node of the short game's searches holds, roughly, besides its text: its game (board
/// rows, unit order, row history).
pub fn node_bytes(setup: &Setup) -> usize {
    let p = &setup.problem;
    256 + 16 * p.height + 4 * p.source_length + 48 * p.width + 2 * p.height * p.width
}

/// One step of the search: a phrase's text (spelled whole), or one command.
pub struct Action {
    pub commands: Vec<Command>,
    pub text: Vec<u8>,
}

#[derive(Clone)]
pub struct Node<'a> {
    pub game: Game<'a>,
    pub text: Vec<u8>,
    pub automaton: u32,
    /// Phrases ended so far (bit per phrase index below 128).
    pub used: u128,
    pub power: u64,
    /// Order-free hash of the canonical positions held since the last descent or lock.
    pub history: u64,
    /// Commands since the last descent or lock (none of them descended).
    pub row_moves: u32,
    /// The positions held since the last descent or lock as bits `left column * 6 + canonical
    /// orientation` (the engine's own slots; those from 128 on are left out).
    pub row_mask: u128,
    /// The room the board leaves for the units to come (`spell::room`), as of the last lock.
    pub room: i64,
}

impl Node<'_> {
    pub fn score(&self) -> u64 {
        self.game.move_score() + self.power
    }

    /// What the beam ranks by: the score, plus `room_weight` a row of room left for the rest.
    pub fn rank(&self, room_weight: i64) -> i64 {
        self.score() as i64 + room_weight * (self.room + falling_room(&self.game))
    }

    /// Units locked and rows descended: never decreases along a game; `u64::MAX` once it is
    /// over. The pivot's row may be negative (a pivot above its unit): before, such a unit's
    /// row read as a huge number, equal to `u64::MAX` on row -1, so the beam saw the game over
    /// at its start and found nothing (a generated 8 x 14 game scored 0 searched, at any `-t`).
    pub fn progress(&self) -> u64 {
        if self.game.is_over() {
            return u64::MAX;
        }
        (u64::from(self.game.locked()) << 32) + (i64::from(self.game.pos().y) + (1 << 31)) as u64
    }

    /// Equal for equal states (board, unit, position, row history, automaton, phrases used):
    /// what follows a node depends on these alone.
    pub fn key(&self) -> u64 {
        let mut h = FastHasher::default();
        self.key_but_history().hash(&mut h);
        self.history.hash(&mut h);
        h.finish()
    }

    /// [`Node::key`] but for the row history: where one history holds another's positions and
    /// more, what the smaller one allows next includes what the larger allows.
    pub fn key_but_history(&self) -> u64 {
        let mut h = FastHasher::default();
        self.game.locked().hash(&mut h);
        self.game.board().rows().hash(&mut h);
        self.game.unit().canonical_pos(self.game.pos()).hash(&mut h);
        self.game.prev_lines().hash(&mut h);
        (self.automaton, self.used).hash(&mut h);
        h.finish()
    }
}

/// How the searches tell one state from another: where every position's slot fits
/// [`Node::row_mask`] (boards up to 21 columns), by the state but for its row history plus the
/// history as a mask, so that a node whose history holds no more positions and which scored at
/// least as much is seen to dominate; else by the whole state ([`Node::key`]) and an empty mask.
#[derive(Clone, Copy)]
pub struct StateKeys {
    masks: bool,
}

impl StateKeys {
    pub fn new(setup: &Setup) -> Self {
        StateKeys {
            masks: setup.width() * 6 <= 128,
        }
    }

    /// The node's state key and row history mask.
    pub fn of(self, node: &Node) -> (u64, u128) {
        if self.masks {
            (node.key_but_history(), node.row_mask)
        } else {
            (node.key(), 0)
        }
    }
}

/// Whether a node reached with history `mask` and `score` is no better than one of the same
/// state key reached before with `seen_mask` and `seen_score`.
pub fn dominated(seen_mask: u128, seen_score: u64, mask: u128, score: u64) -> bool {
    seen_mask & !mask == 0 && seen_score >= score
}

/// The bit of the falling unit's position in [`Node::row_mask`] (0 from slot 128 on).
fn pos_bit(game: &Game) -> u128 {
    let (unit, pos) = (game.unit(), game.pos());
    let left = pos.x + unit.shape(pos.orientation, pos.y).dx_min;
    let slot = left as u32 * 6 + u32::from(unit.canonical[pos.orientation as usize]);
    1u128.checked_shl(slot).unwrap_or(0)
}

fn pos_hash(game: &Game) -> u64 {
    let mut h = FastHasher::default();
    game.unit().canonical_pos(game.pos()).hash(&mut h);
    h.finish()
}

/// The actions tried from a node: each phrase of the set made of commands only, and each command
/// alone, once per automaton state its characters lead to from the node's (one character for
/// each). With one character per command, a phrase begun by single commands or inside another
/// (the overlapping `ia! ia! ia!`) was out of the search's reach, and a game "proved" at 654
/// scored 656 (`docs/icfp2015.md`, Part 54); with these, any command string's score is
/// that of one made of single actions.
pub struct Actions {
    phrases: Vec<Action>,
    /// Per automaton state `s`, singles `starts[s]..starts[s + 1]` of `commands` and `text`:
    /// the commands with the characters that lead to distinct states from it.
    starts: Vec<u32>,
    commands: Vec<Command>,
    text: Vec<u8>,
}

/// An action as [`apply`] takes it: commands and the text they write.
#[derive(Clone, Copy)]
pub struct Step<'a> {
    pub commands: &'a [Command],
    pub text: &'a [u8],
}

impl Action {
    pub fn step(&self) -> Step<'_> {
        Step {
            commands: &self.commands,
            text: &self.text,
        }
    }
}

/// Which characters the single commands of [`Actions`] write.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Letters {
    /// Each character that leads to another automaton state: every command string's score.
    Each,
    /// The command's first character only (`Command::char`): fewer children a node, so a beam of
    /// a given width keeps more boards. t5016 (Part 50's tiny games, known 18) at `-t 10`: 950
    /// with these in the beams, 660 with `Each`.
    First,
}

impl Actions {
    pub fn new(phrases: &PhraseSet, letters: Letters) -> Actions {
        let whole = phrases
            .phrases()
            .iter()
            .filter_map(|p| {
                let lower = p.to_lowercase();
                let commands = decode(&lower).ok().filter(|c| c.len() == lower.len())?;
                Some(Action {
                    commands,
                    text: lower.into_bytes(),
                })
            })
            .collect();
        let mut actions = Actions {
            phrases: whole,
            starts: vec![0],
            commands: Vec::new(),
            text: Vec::new(),
        };
        for state in 0..phrases.states() as u32 {
            for command in Command::ALL {
                let mut reached: Vec<u32> = Vec::new();
                for byte in command.characters().bytes() {
                    let next = phrases.advance(state, byte);
                    if !reached.contains(&next) && (letters == Letters::Each || reached.is_empty())
                    {
                        reached.push(next);
                        actions.commands.push(command);
                        actions.text.push(byte);
                    }
                }
            }
            actions.starts.push(actions.text.len() as u32);
        }
        actions
    }

    /// How many actions there are from automaton state `state`.
    pub fn count(&self, state: u32) -> usize {
        let s = state as usize;
        self.phrases.len() + (self.starts[s + 1] - self.starts[s]) as usize
    }

    /// The `index`-th action from automaton state `state`: the phrases, then the single
    /// commands.
    pub fn get(&self, state: u32, index: usize) -> Step<'_> {
        match index.checked_sub(self.phrases.len()) {
            None => self.phrases[index].step(),
            Some(single) => {
                let k = self.starts[state as usize] as usize + single;
                Step {
                    commands: &self.commands[k..=k],
                    text: &self.text[k..=k],
                }
            }
        }
    }

    /// The actions from automaton state `state`, in the order of [`Self::get`].
    pub fn at(&self, state: u32) -> impl Iterator<Item = Step<'_>> {
        (0..self.count(state)).map(move |k| self.get(state, k))
    }

    /// The most commands an action takes.
    pub fn longest(&self) -> usize {
        self.phrases
            .iter()
            .map(|a| a.commands.len())
            .max()
            .unwrap_or(1)
            .max(1)
    }
}

/// `node` after `action`, or `None` where the engine refuses it (a repeated position, a command
/// after the game's end).
pub fn apply<'a>(node: &Node<'a>, action: Step<'_>, phrases: &PhraseSet) -> Option<Node<'a>> {
    let mut next = node.clone();
    for (&command, &byte) in action.commands.iter().zip(action.text) {
        if next.game.is_over() {
            return None;
        }
        match next.game.step(command) {
            Outcome::Repeated | Outcome::AfterEnd => return None,
            Outcome::Locked { .. } => {
                next.history = 0;
                next.row_moves = 0;
                next.row_mask = 0;
                next.room = room(&next.game);
            }
            Outcome::Moved if command.descends() => {
                next.history = 0;
                next.row_moves = 0;
                next.row_mask = 0;
            }
            Outcome::Moved => next.row_moves += 1,
        }
        if !next.game.is_over() {
            next.history ^= pos_hash(&next.game);
            next.row_mask |= pos_bit(&next.game);
        }
        next.automaton = phrases.advance(next.automaton, byte);
        for &p in phrases.ends_at(next.automaton) {
            let bit = 1u128.checked_shl(p).unwrap_or(0);
            next.power += 2 * phrases.phrase_len(p as usize) as u64;
            if next.used & bit == 0 {
                next.power += 300;
                next.used |= bit;
            }
        }
        next.text.push(byte);
    }
    Some(next)
}

/// The search's root: the game at its start, nothing typed; none for a game over at once.
pub fn start_node(setup: &Setup, seed: u32) -> Option<Node<'_>> {
    let game = Game::new(setup, seed);
    if game.is_over() {
        return None;
    }
    let history = pos_hash(&game);
    let row_mask = pos_bit(&game);
    let room = room(&game);
    Some(Node {
        game,
        text: Vec::new(),
        automaton: PhraseSet::START,
        used: 0,
        power: 0,
        history,
        row_moves: 0,
        row_mask,
        room,
    })
}
