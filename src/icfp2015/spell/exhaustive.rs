//! Whole short games searched for phrase score: a beam over command sequences of the entire game
//! (whole phrases, spanning locks, or single commands), widened while time is left.
//
// Nodes are compared within a layer of equal progress (units locked and rows descended: the
// budget phrases spend), by score so far (move score plus power score, +300 the first time a
// phrase ends). Each node is a prefix of a legal answer: the engine (`rules::game`) judges every
// command, and an action that repeats a position or outlives the game is dropped. Equal states
// (board, unit, position, row history, automaton state, phrases used) are kept once. The beam
// runs at widths 1, 2, 4, ... until the deadline, and the best prefix seen is the answer.

use crate::core::hash::RandomKeyMap;
use crate::core::rng::Rng;
use crate::core::timer::Deadline;
use crate::icfp2015::memory::SearchMemory;
use crate::icfp2015::rules::game::Setup;
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::spell::deep;
use crate::icfp2015::spell::steps::{
    apply, dominated, node_bytes, start_node, Actions, Letters, Node, StateKeys,
};
use std::collections::BinaryHeap;
use std::time::Instant;

/// The best answer found: its commands and score (the evaluator's, by construction).
#[derive(Clone, Debug, Default)]
pub struct Found {
    pub commands: String,
    pub score: u64,
    /// The widest beam that ran to its end.
    pub width: usize,
    /// Whether the branch and bound after the beams (`spell::deep`) ran to its end: no legal
    /// answer scores more (its single commands write each character that leads to another
    /// automaton state; with one character each, t5002 was "proved" at 654 and scores 670,
    /// `docs/icfp2015.md`, Part 54).
    pub proved: bool,
    /// Nodes the branch and bound expanded.
    pub deep_nodes: u64,
    /// Seconds the beams took, and the branch and bound's tables before its first node.
    pub beam_secs: f64,
    pub deep_setup_secs: f64,
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
    /// Whether a trim left a node out.
    dropped: bool,
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
        self.dropped |= self.nodes.len() > width;
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

/// How a beam ended.
#[derive(PartialEq, Eq)]
enum BeamEnd {
    /// The deadline stopped it.
    Stopped,
    /// It ran to its end, leaving nodes out.
    Narrow,
    /// It ran to its end and left no node out: every state was expanded, its best is the best.
    Whole,
}

/// The nodes of the layer a beam expands, best rank first, a state (`StateKeys`) queued again
/// only where no node queued before with it dominates (`steps::dominated`).
#[derive(Default)]
struct Queue<'a> {
    frontier: BinaryHeap<((i64, u32), usize)>,
    pool: Vec<Node<'a>>,
    /// Per state, the row history mask, score and pool index it was last queued with.
    seen: RandomKeyMap<u64, (u128, u64, usize)>,
    /// Nodes a later one of their state dominates: left unexpanded.
    dominated: Vec<bool>,
}

impl<'a> Queue<'a> {
    fn push(&mut self, node: Node<'a>, keys: StateKeys, ranking: &mut Ranking) {
        let (key, mask) = keys.of(&node);
        let score = node.score();
        if let Some(&(m, s, i)) = self.seen.get(&key) {
            if dominated(m, s, mask, score) {
                return;
            }
            if dominated(mask, score, m, s) {
                self.dominated[i] = true;
            }
        }
        self.seen.insert(key, (mask, score, self.pool.len()));
        self.frontier.push((ranking.of(&node), self.pool.len()));
        self.pool.push(node);
        self.dominated.push(false);
    }

    /// The index in `pool` of the next node to expand.
    fn pop(&mut self) -> Option<usize> {
        while let Some((_, i)) = self.frontier.pop() {
            if !self.dominated[i] {
                return Some(i);
            }
        }
        None
    }
}

/// One beam of `width` over the whole game; the best prefix goes to `best`.
fn beam<'a>(
    start: &Node<'a>,
    acts: &Actions,
    phrases: &PhraseSet,
    width: usize,
    deadline: &Deadline,
    ranking: &mut Ranking,
    best: &mut Found,
) -> BeamEnd {
    let keys = StateKeys::new(start.game.setup());
    let mut whole = true;
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
        whole &= !layer.dropped;
        let mut queue = Queue::default();
        for node in layer.nodes {
            queue.push(node, keys, ranking);
        }
        let mut expanded = 0;
        while let Some(i) = queue.pop() {
            if expanded >= width {
                whole = false;
                break;
            }
            if deadline.expired() {
                return BeamEnd::Stopped;
            }
            expanded += 1;
            let state = queue.pool[i].automaton;
            for k in 0..acts.count(state) {
                let Some(child) = apply(&queue.pool[i], acts.get(state, k), phrases) else {
                    continue;
                };
                if child.score() > best.score {
                    best.score = child.score();
                    best.commands = String::from_utf8_lossy(&child.text).into_owned();
                }
                let progress = child.progress();
                if progress == level {
                    queue.push(child, keys, ranking);
                } else if progress != u64::MAX {
                    layers
                        .entry(progress)
                        .or_default()
                        .push(child, width, ranking);
                }
            }
        }
    }
    if whole {
        BeamEnd::Whole
    } else {
        BeamEnd::Narrow
    }
}

/// Searches the game of `seed` for the best command string until `deadline`, with beams of
/// doubling width (capped by memory, then repeated with other tie-breaks), each width once per
/// ranking of `variant` ([`room_weights`]), its tables within `memory`.
pub fn search(
    setup: &Setup,
    seed: u32,
    phrases: &PhraseSet,
    deadline: &Deadline,
    variant: u32,
    memory: &SearchMemory,
) -> Found {
    let mut best = Found::default();
    let Some(start) = start_node(setup, seed) else {
        return best;
    };
    // The beams alternate first letters (more boards at a width) and every letter; the branch
    // and bound writes every letter, so that its end proves the answer (Part 54: the 16 tiny
    // games and 21 at `-t 10`, 25,597 with first letters in the beams, 25,395 with every
    // letter, 25,701 alternating).
    let first = Actions::new(phrases, Letters::First);
    let every = Actions::new(phrases, Letters::Each);
    // The layers holding nodes at once: those within one action of the layer expanded (a lock
    // takes at least one command), not the whole game's (problem 13's 100 units of which 11-12
    // are played capped its beam at 40 nodes).
    let longest = every.longest();
    let layers = setup.problem.source_length.min(longest + 1) * (setup.problem.height + 1);
    let most = (memory.nodes / (layers.max(1) * node_bytes(setup))).max(1);
    let mut rankings: Vec<Ranking> = room_weights(variant)
        .iter()
        .map(|&room_weight| Ranking {
            room_weight,
            noise: Rng::new(u64::from(seed) ^ u64::from(variant) << 40),
        })
        .collect();
    let mut width = 1usize << variant.min(2);
    let started = Instant::now();
    let beams = Deadline::after(deadline.remaining().mul_f64(BEAM_SHARE));
    // At the width memory caps, the beams repeat with other tie-breaks; once both kinds ran
    // there, each writes the letters whose beams there scored more, alternating while they tie.
    // Problem 13 (a 17-cell unit, capped at 80) scored more with first letters, 21 (single
    // cells, capped at 1,013) with every letter; `-t 10 -c 1`, 19 fresh short games of big units
    // 75,001 -> 75,649 (9 up, 5 down), 18 with plain-move phrases 44,632 -> 44,704 (Part 55).
    let mut capped_best: [Option<u64>; 2] = [None; 2];
    'widths: while !beams.expired() {
        for k in 0..2 * rankings.len() {
            let each = match capped_best {
                [Some(first), Some(every)] if width == most && first != every => every > first,
                _ => k % 2 == 1,
            };
            let acts = if each { &every } else { &first };
            let ranking = &mut rankings[k / 2];
            let mut found = Found::default();
            let end = beam(&start, acts, phrases, width, &beams, ranking, &mut found);
            if width == most {
                let kind = &mut capped_best[usize::from(each)];
                *kind = Some(kind.unwrap_or(0).max(found.score));
            }
            if found.score > best.score {
                best.score = found.score;
                best.commands = found.commands;
            }
            match end {
                BeamEnd::Stopped => break 'widths,
                // A whole beam of first letters proves nothing about the others.
                BeamEnd::Narrow => {}
                BeamEnd::Whole if !each => {}
                BeamEnd::Whole => {
                    best.beam_secs = started.elapsed().as_secs_f64();
                    best.width = width;
                    best.proved = true;
                    return best;
                }
            }
        }
        best.width = best.width.max(width);
        width = (width * 2).min(most);
    }
    best.beam_secs = started.elapsed().as_secs_f64();
    // The second core's branch and bound tries children best score first: another order, so
    // the two cores do not search alike.
    let greedy = !variant.is_multiple_of(2);
    let (better, searched) = deep::search(
        setup, seed, phrases, &every, &start, best.score, deadline, greedy, memory,
    );
    if let Some((text, score)) = better {
        best.commands = String::from_utf8_lossy(&text).into_owned();
        best.score = score;
    }
    best.proved = searched.complete;
    best.deep_nodes = searched.nodes;
    best.deep_setup_secs = searched.setup_secs;
    best
}

/// Share of the search's time the beams take before the branch and bound (`spell::deep`) starts
/// from their best answer. At 0.25 (`-t 5 -c 2`), two of 14 generated tiny games lost to the
/// base's longer beams with the known 18 (2,312 -> 2,212 and 2,218 -> 1,924): the beams'
/// repeats with other tie-breaks find answers the branch and bound, ranked by a loose bound,
/// reaches late.
const BEAM_SHARE: f64 = 0.6;

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

/// Actions tried a second at the width-1 pace, measured: how a game's search cost is estimated.
/// The fastest of [`PACE_WALKS`] walks: one walk (~1 ms) descheduled on a loaded machine once
/// measured 3.6e3 actions a second against the other core's 1.7e6, and problem 13 at `-t 30 -c 2`
/// was judged not short (3,796 planned instead of 5,081 searched; docs, Part 33).
pub fn pace(setup: &Setup, seed: u32, phrases: &PhraseSet) -> f64 {
    let Some(start) = start_node(setup, seed) else {
        return f64::INFINITY;
    };
    let acts = Actions::new(phrases, Letters::First);
    (0..PACE_WALKS)
        .map(|_| walk_pace(start.clone(), &acts, phrases))
        .fold(0.0, f64::max)
}

/// Walks timed by [`pace`].
const PACE_WALKS: usize = 3;

/// Actions tried a second on one walk of a few units' worth of greedy steps (the best-scoring
/// child each time) from `node`.
fn walk_pace(mut node: Node<'_>, acts: &Actions, phrases: &PhraseSet) -> f64 {
    let started = Instant::now();
    let mut tried = 0u64;
    for _ in 0..64 {
        let children: Vec<Node> = acts
            .at(node.automaton)
            .filter_map(|a| apply(&node, a, phrases))
            .collect();
        tried += acts.count(node.automaton) as u64;
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
    use crate::icfp2015::rules::commands::decode;
    use crate::icfp2015::rules::game::{evaluate, Game};
    use crate::icfp2015::rules::problem::Problem;
    use crate::icfp2015::spell::steps::Action;
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
            // The least tables (`-m` leaves nothing beyond what a thread holds) answer too.
            for memory in [SearchMemory::AMPLE, SearchMemory::within(0)] {
                let found = search(
                    &setup,
                    0,
                    &phrases,
                    &Deadline::after(Duration::from_millis(300)),
                    0,
                    &memory,
                );
                let again = evaluate(&setup, 0, &found.commands, &phrases).unwrap();
                assert_eq!(again.error, None);
                assert_eq!(again.score, found.score, "{}", found.commands);
                assert!(found.score > 0);
            }
        }
    }

    #[test]
    fn a_state_reached_by_a_longer_row_history_is_not_queued_again() {
        let setup = tiny();
        let phrases = PhraseSet::none();
        let keys = StateKeys::new(&setup);
        let run = |text: &str| {
            let mut node = start_node(&setup, 0).unwrap();
            for c in text.chars() {
                let action = Action {
                    commands: decode(&c.to_string()).unwrap(),
                    text: vec![c as u8],
                };
                node = apply(&node, action.step(), &phrases).unwrap();
            }
            node
        };
        // East, and the same cell by a turn, east and a turn back: the same state, the second
        // with a row history that holds the first's and more, and the same score.
        let (short, long) = (run("b"), run("dbk"));
        assert_eq!(keys.of(&short).0, keys.of(&long).0);
        assert_ne!(keys.of(&short).1, keys.of(&long).1);
        let mut ranking = Ranking {
            room_weight: 0,
            noise: Rng::new(1),
        };
        let mut queue = Queue::default();
        queue.push(short.clone(), keys, &mut ranking);
        queue.push(long.clone(), keys, &mut ranking);
        assert_eq!(queue.pool.len(), 1);
        // The other way round, the longer history is queued and then left unexpanded.
        let mut queue = Queue::default();
        queue.push(long, keys, &mut ranking);
        queue.push(short, keys, &mut ranking);
        assert_eq!(queue.pool.len(), 2);
        assert_eq!(queue.pop(), Some(1));
        assert_eq!(queue.pop(), None);
    }

    #[test]
    fn a_pivot_above_its_unit_is_searched_too() {
        // The pivot spawns on row -1: the beam once took that for the game's end.
        let json = r#"{"id":7,"width":6,"height":6,"filled":[],"sourceLength":2,"sourceSeeds":[0],
            "units":[{"members":[{"x":0,"y":1},{"x":1,"y":1}],"pivot":{"x":0,"y":0}}]}"#;
        let setup = Setup::new(Problem::parse(json.as_bytes(), "test").unwrap());
        assert_eq!(Game::new(&setup, 0).pos().y, -1);
        let phrases = PhraseSet::known();
        let found = search(
            &setup,
            0,
            &phrases,
            &Deadline::after(Duration::from_millis(300)),
            0,
            &SearchMemory::AMPLE,
        );
        let again = evaluate(&setup, 0, &found.commands, &phrases).unwrap();
        assert_eq!((again.error, again.score), (None, found.score));
        assert!(found.score > 300, "{}", found.score);
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
            &SearchMemory::AMPLE,
        );
        let counts = evaluate(&setup, 0, &found.commands, &phrases)
            .unwrap()
            .counts;
        assert!(counts.iter().filter(|&&n| n > 0).count() >= 3, "{counts:?}");
    }
}
