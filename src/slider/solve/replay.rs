//! Valuing an order of events: its trace (the state after each event), and the replay of a
//! candidate that redoes only the stretch an edit changed and reuses the current trace's rest.

use super::order::Change;
use super::play::Play;
use super::search::Search;

/// The state after one event of an order: totals, the board's hash, the summed value of the
/// blocks dropped so far, whether it acted, and whether it failed only for lack of turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Step {
    score: i64,
    worth: i64,
    hash: u64,
    turns: u32,
    acted: bool,
    cut: bool,
}

/// The steps of an order, one per event.
#[derive(Clone, Default)]
pub(super) struct Trace {
    steps: Vec<Step>,
    /// One past the last step that failed only for lack of turns (0 if none).
    cut_end: usize,
}

/// A candidate's trace as a difference from the current one, so that a rejected candidate costs
/// only the events it replayed: its own steps for events `from..`, then, if its board met the
/// current one's again, the current steps from `rejoin` on, shifted.
#[derive(Default)]
pub(super) struct Trial {
    from: usize,
    own: Vec<Step>,
    rejoin: Option<usize>,
}

impl Trace {
    /// Turns `self` (the current trace) into the trace `trial` describes, in place: the shared
    /// prefix is not touched (copying whole traces on acceptance took a third of the time).
    pub(super) fn apply(&mut self, trial: &Trial) {
        let from = trial.from;
        let own_end = from + trial.own.len();
        let old_cut_end = self.cut_end;
        let mut tail_cut = None;
        if let Some(at) = trial.rejoin {
            let old_len = self.steps.len();
            let base = self.before(at);
            let end = trial
                .own
                .last()
                .copied()
                .unwrap_or_else(|| self.before(from));
            let delta = i64::from(end.turns) - i64::from(base.turns);
            let shifted = |old: Step| {
                let gained = old.worth - base.worth;
                Step {
                    score: old.score + end.score - base.score - delta * gained,
                    worth: end.worth + gained,
                    turns: (i64::from(old.turns) + delta) as u32,
                    ..old
                }
            };
            let tail = old_len - at;
            if own_end <= at {
                for i in 0..tail {
                    self.steps[own_end + i] = shifted(self.steps[at + i]);
                }
                self.steps.truncate(own_end + tail);
            } else {
                self.steps.resize(own_end + tail, end);
                for i in (0..tail).rev() {
                    self.steps[own_end + i] = shifted(self.steps[at + i]);
                }
            }
            tail_cut = (old_cut_end > at).then(|| own_end + old_cut_end - at);
        } else {
            self.steps.resize(own_end, Step::default());
        }
        self.steps[from..own_end].copy_from_slice(&trial.own);
        let own_cut = trial.own.iter().rposition(|s| s.cut).map(|i| from + i + 1);
        self.cut_end = tail_cut.or(own_cut).unwrap_or_else(|| {
            if old_cut_end <= from {
                old_cut_end
            } else {
                self.steps[..from]
                    .iter()
                    .rposition(|s| s.cut)
                    .map_or(0, |i| i + 1)
            }
        });
    }

    /// The step before event `k` (an empty one before the first).
    fn before(&self, k: usize) -> Step {
        match k {
            0 => Step::default(),
            _ => self.steps[k - 1],
        }
    }
}

/// Fills `trial` for `order`, the candidate `change` makes of the current order (whose trace is
/// `old`); returns the final score. Events before `change.from` are redone without search; after
/// the change, as soon as the board equals the current order's board at the matching event, the
/// rest is the current trace shifted by the difference in turns (unless turn limits could differ).
pub(super) fn replay(
    search: &mut Search,
    play: &mut Play,
    order: &[u16],
    old: &Trace,
    change: Change,
    trial: &mut Trial,
) -> i64 {
    let n2 = search.n * search.n;
    play.reset(search, 0);
    for (&event, step) in order[..change.from].iter().zip(&old.steps) {
        if step.acted {
            play.redo(search, event);
        }
    }
    let start_hash = search.start_hash;
    let hash_at = |step: Step, k: usize| match k {
        0 => start_hash,
        _ => step.hash,
    };
    let start = old.before(change.from);
    play.hash = hash_at(start, change.from);
    play.worth = start.worth;
    let (mut score, mut turns) = (start.score, start.turns as usize);
    trial.from = change.from;
    trial.own.clear();
    trial.rejoin = None;
    let last = old.steps.last().copied().unwrap_or_default();
    for (k, &event) in order.iter().enumerate().skip(change.from) {
        if k >= change.until {
            let j = (k as isize + change.shift) as usize;
            let base = old.before(j);
            let delta = turns as i64 - i64::from(base.turns);
            let safe = if delta >= 0 {
                i64::from(last.turns) + delta <= n2 as i64
            } else {
                old.cut_end <= j
            };
            if hash_at(base, j) == play.hash && safe {
                trial.rejoin = Some(j);
                return last.score + score - base.score - delta * (last.worth - base.worth);
            }
        }
        let acted = match play.event(search, event, turns, None) {
            Some((d, points)) => {
                turns += d;
                score += points;
                true
            }
            None => false,
        };
        trial.own.push(Step {
            score,
            worth: play.worth,
            hash: play.hash,
            turns: turns as u32,
            acted,
            cut: !acted && search.cut,
        });
    }
    score
}

#[cfg(test)]
mod tests {
    use super::super::event::{drop_event, EVENT_KINDS};
    use super::super::order::{chain_after, clear_before, insert_event, move_events, remove_event};
    use super::super::play::turns_of;
    use super::*;
    use crate::core::rng::Rng;
    use crate::slider::board::{output_text, Problem};
    use crate::slider::{cases, score};

    /// The shortcut of `replay` (reusing the current trace after a change) against replaying the
    /// whole candidate, over random orders with shifts, on a board small enough to hit the turn limit.
    #[test]
    fn incremental_replay_matches_full_replay() {
        for (text, rounds) in [(cases::INSTANCES[0].1, 3000), (cases::INSTANCES[6].1, 1000)] {
            let problem = Problem::parse(text).unwrap();
            let mut search = Search::new(&problem);
            let blocks = search.home.len();
            let mut rng = Rng::new(7);
            let mut play = Play::default();
            let mut order: Vec<u16> = (0..blocks).map(drop_event).collect();
            rng.shuffle(&mut order);
            let empty = Trace::default();
            // The whole trace of `order`, replayed from scratch.
            let replay_all = |search: &mut Search, play: &mut Play, order: &[u16]| {
                let mut trial = Trial::default();
                let score = replay(
                    search,
                    play,
                    order,
                    &empty,
                    Change::everything(order.len()),
                    &mut trial,
                );
                let mut trace = Trace::default();
                trace.apply(&trial);
                (score, trace)
            };
            let mut trace = replay_all(&mut search, &mut play, &order).1;
            for _ in 0..rounds {
                let mut candidate = order.clone();
                let len = candidate.len();
                let change = match rng.below(4) {
                    0 => {
                        let i = rng.range(0..len);
                        let unit = 1 + rng.range(0..3.min(len - i));
                        let j = rng.range(0..len - unit + 1);
                        move_events(&mut candidate, i, unit, j)
                    }
                    3 => {
                        let i = rng.range(0..len);
                        let mut chain: Vec<u16> = (0..1 + rng.range(0..5))
                            .map(|_| rng.below(blocks as u64) as u16)
                            .collect();
                        chain.sort_unstable();
                        chain.dedup();
                        match rng.below(2) {
                            0 => chain_after(&order, i, &chain, &mut candidate),
                            _ => clear_before(&order, i, &chain, &mut candidate),
                        }
                    }
                    1 => {
                        let i = rng.range(0..len + 1);
                        let e = rng.range(0..blocks) as u16 * EVENT_KINDS + rng.below(9) as u16;
                        insert_event(&mut candidate, i, e)
                    }
                    _ => remove_event(&mut candidate, rng.range(0..len)),
                };
                let mut trial = Trial::default();
                let quick = replay(
                    &mut search,
                    &mut play,
                    &candidate,
                    &trace,
                    change,
                    &mut trial,
                );
                let mut fast = trace.clone();
                fast.apply(&trial);
                let (exact, slow) = replay_all(&mut search, &mut play, &candidate);
                assert_eq!(quick, exact);
                assert_eq!(fast.steps.len(), slow.steps.len());
                for (f, s) in fast.steps.iter().zip(&slow.steps) {
                    // Whether a failure was for lack of turns may be judged more loosely on
                    // either side (a cut search does not prove a block unreachable).
                    assert_eq!(Step { cut: false, ..*f }, Step { cut: false, ..*s });
                }
                let verified = score::score(
                    &problem,
                    &output_text(&turns_of(&mut search, &mut play, &candidate)),
                );
                assert_eq!(verified.unwrap().score, exact);
                if rng.below(2) == 0 || candidate.len() > 2 * blocks {
                    order = candidate;
                    trace = fast;
                }
            }
        }
    }
}
