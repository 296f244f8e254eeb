//! Whole short games searched for phrase score: a beam over command sequences of the entire game
//! (whole phrases, spanning locks, or single commands), widened while time is left.
//
// Nodes are compared within a layer of equal progress (units locked and rows descended: the
// budget phrases spend), by score so far (move score plus power score, +300 the first time a
// phrase ends). Each node is a prefix of a legal answer: the engine (`rules::game`) judges every
// command, and an action that repeats a position or outlives the game is dropped. Equal states
// (board, unit, position, row history, automaton state, phrases used) are kept once. The beam
// runs at widths 1, 2, 4, ... until the deadline, and the best prefix seen is the answer.

use crate::core::hash::{FastHasher, RandomKeyMap, RandomKeySet};
use crate::core::rng::Rng;
use crate::core::timer::Deadline;
use crate::icfp2015::rules::commands::{decode, Command};
use crate::icfp2015::rules::game::{Game, Outcome, Setup};
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::spell::room::{falling_room, room};
use std::collections::BinaryHeap;
use std::hash::{Hash, Hasher};
use std::time::Instant;

/// The best answer found: its commands and score (the evaluator's, by construction).
#[derive(Clone, Debug, Default)]
pub struct Found {
    pub commands: String,
    pub score: u64,
    /// The widest beam that ran to its end.
    pub width: usize,
}

/// One step of the search: a phrase's text (spelled whole), or one command.
struct Action {
    commands: Vec<Command>,
    text: Vec<u8>,
}

#[derive(Clone)]
struct Node<'a> {
    game: Game<'a>,
    text: Vec<u8>,
    automaton: u32,
    /// Phrases ended so far (bit per phrase index below 128).
    used: u128,
    power: u64,
    /// Order-free hash of the canonical positions held since the last descent or lock.
    history: u64,
    /// The room the board leaves for the units to come (`spell::room`), as of the last lock.
    room: i64,
}

impl Node<'_> {
    fn score(&self) -> u64 {
        self.game.move_score() + self.power
    }

    /// What the beam ranks by: the score, plus `room_weight` a row of room left for the rest.
    fn rank(&self, room_weight: i64) -> i64 {
        self.score() as i64 + room_weight * (self.room + falling_room(&self.game))
    }

    /// Units locked and rows descended: never decreases along a game.
    fn progress(&self) -> u64 {
        let rows = self.game.setup().problem.height as u64 + 1;
        if self.game.is_over() {
            return u64::MAX;
        }
        self.game.locked() as u64 * rows + self.game.pos().y as u64
    }

    fn key(&self) -> u64 {
        let mut h = FastHasher::default();
        self.game.locked().hash(&mut h);
        self.game.board().rows().hash(&mut h);
        self.game.unit().canonical_pos(self.game.pos()).hash(&mut h);
        (self.history, self.automaton, self.used).hash(&mut h);
        h.finish()
    }
}

fn pos_hash(game: &Game) -> u64 {
    let mut h = FastHasher::default();
    game.unit().canonical_pos(game.pos()).hash(&mut h);
    h.finish()
}

/// The actions tried from every node: each phrase of the set made of commands only, and each
/// command alone.
fn actions(phrases: &PhraseSet) -> Vec<Action> {
    let mut all: Vec<Action> = phrases
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
    all.extend(Command::ALL.iter().map(|&c| Action {
        commands: vec![c],
        text: vec![c.char() as u8],
    }));
    all
}

/// `node` after `action`, or `None` where the engine refuses it (a repeated position, a command
/// after the game's end).
fn apply<'a>(node: &Node<'a>, action: &Action, phrases: &PhraseSet) -> Option<Node<'a>> {
    let mut next = node.clone();
    for (&command, &byte) in action.commands.iter().zip(&action.text) {
        if next.game.is_over() {
            return None;
        }
        match next.game.step(command) {
            Outcome::Repeated | Outcome::AfterEnd => return None,
            Outcome::Locked { .. } => {
                next.history = 0;
                next.room = room(&next.game);
            }
            Outcome::Moved if command.descends() => next.history = 0,
            Outcome::Moved => {}
        }
        if !next.game.is_over() {
            next.history ^= pos_hash(&next.game);
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

/// How a beam orders the nodes of a layer: by score plus a weight on the room left, equal ranks
/// in an order of its noise.
struct Ranking {
    room_weight: i64,
    noise: Rng,
}

impl Ranking {
    fn of(&mut self, node: &Node) -> (i64, u32) {
        (node.rank(self.room_weight), self.noise.next_u32())
    }
}

/// Nodes waiting at one progress level, equal states kept once (the better).
#[derive(Default)]
struct Layer<'a> {
    nodes: Vec<Node<'a>>,
    index: RandomKeyMap<u64, usize>,
}

impl<'a> Layer<'a> {
    fn push(&mut self, node: Node<'a>, width: usize, ranking: &mut Ranking) {
        let key = node.key();
        match self.index.get(&key) {
            Some(&i) if self.nodes[i].score() >= node.score() => {}
            Some(&i) => self.nodes[i] = node,
            None => {
                self.index.insert(key, self.nodes.len());
                self.nodes.push(node);
            }
        }
        if self.nodes.len() > 2 * width {
            self.trim(width, ranking);
        }
    }

    /// Keeps the `width` best nodes of `ranking`.
    fn trim(&mut self, width: usize, ranking: &mut Ranking) {
        let mut ranked: Vec<((i64, u32), Node<'a>)> =
            self.nodes.drain(..).map(|n| (ranking.of(&n), n)).collect();
        ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
        ranked.truncate(width);
        self.nodes = ranked.into_iter().map(|(_, n)| n).collect();
        self.index = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.key(), i))
            .collect();
    }
}

/// One beam of `width` over the whole game; the best prefix goes to `best`. False if the
/// deadline stopped it.
fn beam<'a>(
    start: &Node<'a>,
    acts: &[Action],
    phrases: &PhraseSet,
    width: usize,
    deadline: &Deadline,
    ranking: &mut Ranking,
    best: &mut Found,
) -> bool {
    let mut layers: std::collections::BTreeMap<u64, Layer<'a>> = Default::default();
    layers
        .entry(start.progress())
        .or_default()
        .push(start.clone(), width, ranking);
    while let Some((level, mut layer)) = layers.pop_first() {
        if level == u64::MAX {
            break;
        }
        layer.trim(width, ranking);
        let mut frontier: BinaryHeap<((i64, u32), usize)> = BinaryHeap::new();
        let mut pool: Vec<Node<'a>> = Vec::new();
        let mut seen: RandomKeySet<u64> = RandomKeySet::default();
        for node in layer.nodes {
            if seen.insert(node.key()) {
                frontier.push((ranking.of(&node), pool.len()));
                pool.push(node);
            }
        }
        let mut expanded = 0;
        while let Some((_, i)) = frontier.pop() {
            if expanded >= width {
                break;
            }
            if deadline.expired() {
                return false;
            }
            expanded += 1;
            for action in acts {
                let Some(child) = apply(&pool[i], action, phrases) else {
                    continue;
                };
                if child.score() > best.score {
                    best.score = child.score();
                    best.commands = String::from_utf8_lossy(&child.text).into_owned();
                }
                let progress = child.progress();
                if progress == level {
                    if seen.insert(child.key()) {
                        frontier.push((ranking.of(&child), pool.len()));
                        pool.push(child);
                    }
                } else if progress != u64::MAX {
                    layers
                        .entry(progress)
                        .or_default()
                        .push(child, width, ranking);
                }
            }
        }
    }
    true
}

/// Bytes a node holds, roughly: its game (board rows, unit order, row history) and text.
fn node_bytes(setup: &Setup) -> usize {
    let p = &setup.problem;
    256 + 16 * p.height + 4 * p.source_length + 48 * p.width + 2 * p.height * p.width
}

/// Memory the beam's nodes may take.
const MEMORY: usize = 192 << 20;

/// Searches the game of `seed` for the best command string until `deadline`, with beams of
/// doubling width (capped by memory, then repeated with other tie-breaks), each width once per
/// ranking of `variant` ([`room_weights`]).
pub fn search(
    setup: &Setup,
    seed: u32,
    phrases: &PhraseSet,
    deadline: &Deadline,
    variant: u32,
) -> Found {
    let mut best = Found::default();
    let Some(start) = start_node(setup, seed) else {
        return best;
    };
    let acts = actions(phrases);
    let layers = setup.problem.source_length * (setup.problem.height + 1);
    let most = (MEMORY / (layers.max(1) * node_bytes(setup))).max(1);
    let mut rankings: Vec<Ranking> = room_weights(variant)
        .iter()
        .map(|&room_weight| Ranking {
            room_weight,
            noise: Rng::new(u64::from(seed) ^ u64::from(variant) << 40),
        })
        .collect();
    let mut width = 1usize << variant.min(2);
    'widths: while !deadline.expired() {
        for ranking in &mut rankings {
            if !beam(&start, &acts, phrases, width, deadline, ranking, &mut best) {
                break 'widths;
            }
        }
        best.width = best.width.max(width);
        width = (width * 2).min(most);
    }
    best
}

/// The room weights (score a row of room is worth) the beams of `variant` rank by, in turn:
/// the score alone on the first core; on the second, 40 a row of room left to the units to come
/// (`spell::room`), so the two cores' beams keep different games. On 13 small games (2-5 units)
/// with three phrase sets at `-t 3`, no single weight from 0 to 300 moved the sum more than 1 %:
/// the beam's ranking within a layer of equal rows spent already keeps the room.
fn room_weights(variant: u32) -> &'static [i64] {
    if variant.is_multiple_of(2) {
        &[0]
    } else {
        &[40]
    }
}

/// The search's root: the game at its start, nothing typed; none for a game over at once.
fn start_node(setup: &Setup, seed: u32) -> Option<Node<'_>> {
    let game = Game::new(setup, seed);
    if game.is_over() {
        return None;
    }
    let history = pos_hash(&game);
    let room = room(&game);
    Some(Node {
        game,
        text: Vec::new(),
        automaton: PhraseSet::START,
        used: 0,
        power: 0,
        history,
        room,
    })
}

/// Actions tried a second at the width-1 pace, measured: how a game's search cost is estimated.
pub fn pace(setup: &Setup, seed: u32, phrases: &PhraseSet) -> f64 {
    let Some(start) = start_node(setup, seed) else {
        return f64::INFINITY;
    };
    let acts = actions(phrases);
    let started = Instant::now();
    let mut tried = 0u64;
    let mut node = start;
    // A few units' worth of greedy steps: the best-scoring child each time.
    for _ in 0..64 {
        let children: Vec<Node> = acts
            .iter()
            .filter_map(|a| apply(&node, a, phrases))
            .collect();
        tried += acts.len() as u64;
        let Some(next) = children.into_iter().max_by_key(|c| c.score()) else {
            break;
        };
        if next.game.is_over() {
            break;
        }
        node = next;
    }
    tried as f64 / started.elapsed().as_secs_f64().max(1e-6)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::rules::game::evaluate;
    use crate::icfp2015::rules::problem::Problem;
    use std::time::Duration;

    fn tiny() -> Setup {
        let json = r#"{"id":7,"width":8,"height":8,"filled":[],"sourceLength":2,"sourceSeeds":[0],
            "units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}},
                     {"members":[{"x":0,"y":0},{"x":0,"y":1},{"x":1,"y":1}],"pivot":{"x":0,"y":1}}]}"#;
        Setup::new(Problem::parse(json.as_bytes(), "test").unwrap())
    }

    #[test]
    fn the_answer_is_legal_and_scores_what_the_evaluator_says() {
        let setup = tiny();
        for phrases in [
            PhraseSet::known(),
            PhraseSet::none(),
            PhraseSet::new(vec!["ep".into(), "aal".into()]).unwrap(),
        ] {
            let found = search(
                &setup,
                0,
                &phrases,
                &Deadline::after(Duration::from_millis(300)),
                0,
            );
            let again = evaluate(&setup, 0, &found.commands, &phrases).unwrap();
            assert_eq!(again.error, None);
            assert_eq!(again.score, found.score, "{}", found.commands);
            assert!(found.score > 0);
        }
    }

    #[test]
    fn several_known_phrases_fit_in_two_units() {
        let setup = tiny();
        let phrases = PhraseSet::known();
        let found = search(
            &setup,
            0,
            &phrases,
            &Deadline::after(Duration::from_millis(500)),
            0,
        );
        let counts = evaluate(&setup, 0, &found.commands, &phrases)
            .unwrap()
            .counts;
        assert!(counts.iter().filter(|&&n| n > 0).count() >= 3, "{counts:?}");
    }
}
