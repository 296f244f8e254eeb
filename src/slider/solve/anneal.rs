//! The annealing of an order of events: one random edit per step, replayed incrementally and
//! kept by the Metropolis rule, the temperature falling geometrically as the budget is spent.

use super::edit::{Edit, Layout};
use super::event::{block_of, is_drop};
use super::order::Change;
use super::play::Play;
use super::progress::Progress;
use super::replay::{replay, Trace, Trial};
use super::search::Search;
use crate::core::rng::Rng;

/// Anneals the event order from `order` until `progress` is used up, the temperature falling
/// geometrically over `temperatures`; returns the best score, its order and the steps tried.
pub(super) fn anneal(
    search: &mut Search,
    play: &mut Play,
    mut order: Vec<u16>,
    temperatures: (f64, f64),
    progress: &mut impl Progress,
    rng: &mut Rng,
) -> (i64, Vec<u16>, u64) {
    let blocks = search.home.len();
    let mut trace = Trace::default();
    let mut trial = Trial::default();
    let everything = Change::everything(order.len());
    let mut current = replay(search, play, &order, &trace, everything, &mut trial);
    trace.apply(&trial);
    let mut best = (current, order.clone());
    let mut active = vec![false; blocks];
    let mark = |order: &[u16], active: &mut [bool], on: bool| {
        for &e in order {
            if is_drop(e) {
                active[block_of(e)] = on;
            }
        }
    };
    mark(&order, &mut active, true);
    let layout = Layout::new(search);
    let (t0, t1) = temperatures;
    let mut candidate = order.clone();
    let mut iterations = 0u64;
    let mut temperature = t0;
    while !order.is_empty() || blocks > 0 {
        if iterations & 63 == 0 {
            let used = progress.fraction_used();
            if used >= 1.0 {
                break;
            }
            temperature = t0 * (t1 / t0).powf(used);
        }
        iterations += 1;
        candidate.clone_from(&order);
        let edit = Edit::draw(rng);
        if candidate.len() < edit.fewest_events() {
            continue;
        }
        let Some(change) = edit.apply(&layout, &active, &order, &mut candidate, rng) else {
            continue;
        };
        let score = replay(search, play, &candidate, &trace, change, &mut trial);
        let delta = (score - current) as f64;
        if delta >= 0.0 || rng.f64() < (delta / temperature).exp() {
            let old_until = (change.until as isize + change.shift) as usize;
            mark(&order[change.from..old_until], &mut active, false);
            mark(&candidate[change.from..change.until], &mut active, true);
            std::mem::swap(&mut order, &mut candidate);
            trace.apply(&trial);
            current = score;
            if current > best.0 {
                best = (current, order.clone());
            }
        }
    }
    (best.0, best.1, iterations)
}
