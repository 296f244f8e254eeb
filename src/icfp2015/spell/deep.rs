//! A short game searched to the end: depth-first branch and bound over the same actions as the
//! beam (`spell::exhaustive`), pruned by `spell::bound::Remaining` and a memo of states reached.
//
// A child is dropped when its score plus the bound on what the rest can score is no more than
// the best answer so far, or when its state (`Node::key`) was reached before with at least its
// score: what follows a state depends on the state alone. Children are tried best bound first.
// A search that ends before its deadline has seen every legal command string that could beat
// the answer (up to hash collisions of the memo's keys): the answer is then the game's best.

use crate::core::hash::RandomKeyMap;
use crate::core::timer::Deadline;
use crate::icfp2015::memory::SearchMemory;
use crate::icfp2015::rules::game::Setup;
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::spell::bound::{Playing, Remaining};
use crate::icfp2015::spell::steps::{apply, dominated, node_bytes, Actions, Node, StateKeys};

/// How a branch and bound ended.
#[derive(Clone, Copy, Debug, Default)]
pub struct Searched {
    /// Whether it ran to its end: nothing left could beat the answer.
    pub complete: bool,
    /// Nodes expanded.
    pub nodes: u64,
    /// Seconds building the bound's tables took before the first node.
    pub setup_secs: f64,
}

struct Search<'s, 'a> {
    phrases: &'s PhraseSet,
    acts: &'s Actions,
    remaining: Remaining<'a>,
    /// Per state but for its row history ([`Node::key_but_history`]), the row history (as a
    /// mask) and score it was last reached with; per whole state (`Node::key`, mask 0) where the
    /// board is too wide for the masks.
    memo: RandomKeyMap<u64, (u128, u64)>,
    /// States the memo holds at most ([`SearchMemory::memo_states`]).
    memo_states: usize,
    keys: StateKeys,
    deadline: &'s Deadline,
    /// Children tried best score first (else best bound first).
    greedy: bool,
    best_score: u64,
    best_text: Option<Vec<u8>>,
    nodes: u64,
    stopped: bool,
    /// Bytes of the children held along the path searched ([`node_bytes`] and their texts),
    /// and the most they may take ([`SearchMemory::nodes`]): past it, a child is kept as its
    /// action and made again when its turn comes.
    held: usize,
    most_held: usize,
    node_bytes: usize,
    /// Whether a node went unexpanded for the depth or the bytes held.
    cut: bool,
}

/// Stack bytes a level of the search takes, at most: `visit`'s frame was 1,288 bytes
/// (objdump, 2026-11-27), counted with its children.
const FRAME_BYTES: usize = 2048;

/// Levels the search goes down at most: 24 MB of frames, within the stack of `play`'s threads
/// (`play::SEARCH_STACK`). Problem 13's search (`-t 15 -m 40`) ran on the 2 MB default stack
/// with a 920-byte frame and overflowed it with a 1,288-byte one: it goes ~1,600-2,200 levels
/// deep, and a taller board's short game deeper.
pub const DEEPEST: usize = 12_000;

/// What `Remaining` bounds the rest of `node`'s game from.
fn playing<'n>(node: &'n Node) -> Playing<'n> {
    let game = &node.game;
    Playing {
        locked: game.locked() as usize,
        row_moves: node.row_moves as usize,
        automaton: node.automaton,
        used: node.used,
        prev_lines: game.prev_lines(),
        board: game.board(),
        pos: game.pos(),
    }
}

impl<'a> Search<'_, 'a> {
    fn upper(&mut self, node: &Node<'a>) -> u64 {
        node.score() + self.remaining.at(&playing(node), self.phrases)
    }

    /// Records `node` in the memo; false where a state reached before dominates it (the same
    /// state but for a row history holding no more positions, with at least its score).
    fn remember(&mut self, node: &Node<'a>) -> bool {
        let score = node.score();
        let (key, mask) = self.keys.of(node);
        let room = self.memo.len() < self.memo_states;
        match self.memo.get_mut(&key) {
            Some(&mut (m, s)) if dominated(m, s, mask, score) => false,
            // The newer of two histories neither of which holds the other is kept.
            Some(seen) => {
                *seen = (mask, score);
                true
            }
            None => {
                if room {
                    self.memo.insert(key, (mask, score));
                }
                true
            }
        }
    }

    fn visit(&mut self, node: &Node<'a>, depth: usize) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(256) && self.deadline.expired() {
            self.stopped = true;
        }
        if self.stopped {
            return;
        }
        if depth >= DEEPEST || self.held + FRAME_BYTES > self.most_held {
            // Not expanded: the search can no longer claim the game proved.
            self.cut = true;
            return;
        }
        self.held += FRAME_BYTES;
        // Problem 13 (100 units of 17 cells) at `-t 15 -m 40` held 65 MB of children a few
        // hundred levels deep (perf page faults; peak RSS 74 MB) before they were capped.
        let mut children: Vec<(u64, u64, usize, Option<Node<'a>>)> = Vec::new();
        let mut level_held = 0;
        for (index, action) in self.acts.at(node.automaton).enumerate() {
            let Some(child) = apply(node, action, self.phrases) else {
                continue;
            };
            let score = child.score();
            if score > self.best_score {
                self.best_score = score;
                self.best_text = Some(child.text.clone());
            }
            if child.game.is_over() {
                continue;
            }
            let upper = self.upper(&child);
            if upper <= self.best_score {
                continue;
            }
            if !self.remember(&child) {
                continue;
            }
            let bytes = self.node_bytes + child.text.capacity();
            let kept = (self.held + bytes <= self.most_held).then(|| {
                self.held += bytes;
                level_held += bytes;
                child
            });
            children.push((upper, score, index, kept));
        }
        if self.greedy {
            children.sort_by_key(|c| std::cmp::Reverse((c.1, c.0)));
        } else {
            children.sort_by_key(|c| std::cmp::Reverse((c.0, c.1)));
        }
        // Not `break` at the first child bounded at or below the best: in best-score order a
        // later child may still be bounded above it (the best grows as children are searched),
        // and a search that skipped it would claim the game proved.
        for (upper, _, index, kept) in children {
            if upper <= self.best_score {
                continue;
            }
            match kept {
                Some(child) => self.visit(&child, depth + 1),
                None => self.visit_again(node, index, depth + 1),
            }
            if self.stopped {
                break;
            }
        }
        self.held -= level_held + FRAME_BYTES;
    }

    /// Makes the child of `node` by action `index` again (one not kept) and visits it; on its
    /// own, so that `visit`'s frame holds no child.
    #[inline(never)]
    fn visit_again(&mut self, node: &Node<'a>, index: usize, depth: usize) {
        let child = apply(node, self.acts.get(node.automaton, index), self.phrases)
            .expect("an action applied once applies again");
        self.visit(&child, depth);
    }
}

/// Searches the game from `start` for an answer above `best_score` until `deadline`, children
/// best score first where `greedy` (else best bound first): the better answer's text (if
/// found), and how the search ended; its memo and bound within `memory`.
#[allow(clippy::too_many_arguments)]
pub fn search<'a>(
    setup: &'a Setup,
    seed: u32,
    phrases: &PhraseSet,
    acts: &Actions,
    start: &Node<'a>,
    best_score: u64,
    deadline: &Deadline,
    greedy: bool,
    memory: &SearchMemory,
) -> (Option<(Vec<u8>, u64)>, Searched) {
    let started = std::time::Instant::now();
    let remaining = Remaining::within(setup, seed, phrases, memory, deadline);
    let setup_secs = started.elapsed().as_secs_f64();
    let mut search = Search {
        phrases,
        acts,
        remaining,
        memo: RandomKeyMap::default(),
        memo_states: memory.memo_states,
        keys: StateKeys::new(setup),
        deadline,
        greedy,
        best_score,
        best_text: None,
        nodes: 0,
        stopped: false,
        held: 0,
        cut: false,
        most_held: memory.nodes,
        node_bytes: std::mem::size_of::<Node>() + node_bytes(setup),
    };
    // The tables may take seconds (the known 18 on generated game 3103, 11 x 11: 2.2-2.6 s a core
    // at load 8; docs, Part 39): a search whose time they took expands nothing more.
    if deadline.expired() {
        search.stopped = true;
    } else {
        search.visit(start, 0);
    }
    let found = search.best_text.take().map(|t| (t, search.best_score));
    (
        found,
        Searched {
            complete: !search.stopped && !search.cut,
            nodes: search.nodes,
            setup_secs,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::rules::game::evaluate;
    use crate::icfp2015::spell::bound::tests::{enumerable, enumerable_sets, tiny};
    use crate::icfp2015::spell::steps::{start_node, Letters};
    use std::time::Duration;

    /// The best score of every legal command string from `node` on (one command at a time,
    /// with each character that leads to another automaton state), checking on the way that
    /// `remaining` bounds what each node's rest scores. What a state's rest can add depends on
    /// the state alone, so `gains` keeps it per state (`Node::key`) once found.
    fn brute_force<'a>(
        node: &Node<'a>,
        acts: &Actions,
        phrases: &PhraseSet,
        remaining: &mut Remaining<'a>,
        gains: &mut std::collections::HashMap<u64, u64>,
    ) -> u64 {
        if let Some(&gain) = gains.get(&node.key()) {
            return node.score() + gain;
        }
        let mut best = node.score();
        for action in acts.at(node.automaton).filter(|a| a.commands.len() == 1) {
            let Some(child) = apply(node, action, phrases) else {
                continue;
            };
            let rest = if child.game.is_over() {
                child.score()
            } else {
                brute_force(&child, acts, phrases, remaining, gains)
            };
            best = best.max(rest);
        }
        if !node.game.is_over() {
            let upper = node.score() + remaining.at(&playing(node), phrases);
            assert!(upper >= best, "{} bounded by {upper} below {best}", {
                String::from_utf8_lossy(&node.text)
            });
        }
        gains.insert(node.key(), best - node.score());
        best
    }

    #[test]
    fn the_remaining_bound_holds_at_every_state_and_the_search_finds_the_best() {
        // Besides the sets of `Command::char` letters, phrases of other letters of the same
        // commands that overlap each other or themselves (`ei!` then `!i`, `! i!` inside
        // `i! i!`): a search writing one letter per single command misses them.
        let other_letters = [&["ei!", "!i"][..], &["i! ", "! i!"]]
            .map(|s| PhraseSet::new(s.iter().map(|p| p.to_string()).collect()).unwrap());
        let sets: Vec<PhraseSet> = enumerable_sets().into_iter().chain(other_letters).collect();
        for (setup, phrases) in enumerable()
            .into_iter()
            .flat_map(|g| sets.clone().into_iter().map(move |p| (g.clone(), p)))
        {
            let acts = Actions::new(&phrases, Letters::Each);
            let start = start_node(&setup, 0).unwrap();
            let mut remaining = Remaining::new(&setup, 0, &phrases);
            let best = brute_force(
                &start,
                &acts,
                &phrases,
                &mut remaining,
                &mut Default::default(),
            );
            for greedy in [false, true] {
                let deadline = Deadline::after(Duration::from_secs(600));
                let (found, searched) = search(
                    &setup,
                    0,
                    &phrases,
                    &acts,
                    &start,
                    0,
                    &deadline,
                    greedy,
                    &SearchMemory::AMPLE,
                );
                assert!(searched.complete);
                let (text, score) = found.expect("some answer scores");
                assert_eq!(score, best, "{phrases:?}");
                let text = String::from_utf8(text).unwrap();
                let again = evaluate(&setup, 0, &text, &phrases).unwrap();
                assert_eq!((again.error, again.score), (None, best), "{text}");
            }
        }
    }

    #[test]
    fn nothing_is_returned_when_nothing_beats_the_incumbent() {
        let setup = tiny();
        let phrases = PhraseSet::new(vec!["pa".into(), "bl".into()]).unwrap();
        let acts = Actions::new(&phrases, Letters::Each);
        let start = start_node(&setup, 0).unwrap();
        let deadline = Deadline::after(Duration::from_secs(600));
        let (found, _) = search(
            &setup,
            0,
            &phrases,
            &acts,
            &start,
            0,
            &deadline,
            false,
            &SearchMemory::AMPLE,
        );
        let best = found.unwrap().1;
        let (again, searched) = search(
            &setup,
            0,
            &phrases,
            &acts,
            &start,
            best,
            &deadline,
            false,
            &SearchMemory::AMPLE,
        );
        assert!(again.is_none());
        assert!(searched.complete);
    }
}
