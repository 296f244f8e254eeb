//! The default search: the layered BFS while the game is small (it pays least per child), then
//! the pip-ordered engine from the layer it reached (it expands each board once on long games).

use super::arch::{enter, Kernel, KernelRun, LaneOps};
use super::board::Board;
use super::engine::{Engine, LayerStats, Layered, Progress};
use super::pips::{self, PipEngine, Start};
use super::tables::Lanes;

/// When the layered BFS hands its layer to the pip engine: at the first layer that takes the
/// states expanded past `from_states` (and at each layer after it, until they pass
/// `until_states`), it projects the layered work left and hands over once that is at least
/// `min_work_left` states; else never.
///
/// The projection continues the layer widths to the last depth with the growth per depth
/// falling at the rate it fell over the last two layers (`projected_work_left`). Tuned on wall
/// time (CPU time per process; docs/cephalopod.md, ceph12): the pip engine only wins games
/// that stay wide for many depths (near-empty boards played past depth ~31: 0.73-0.94x the
/// layered BFS); on every other game, long ones included, it costs 1.1-1.8x, and handing over
/// later than ~100 k states expanded costs up to ~1.2x more than handing over early.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub from_states: usize,
    pub until_states: usize,
    pub min_work_left: usize,
}

/// Tuned on fresh boards of seeds 3030 and 3031 and the bundled cases, checked on seeds 5151
/// and 5152 (docs/cephalopod.md, ceph12): on the tune set every `min_work_left` from 750 k to
/// 900 k gave the same worst case (1.107x the better engine); 650 k and 1.2 M were worse.
pub const RULE: Rule = Rule {
    from_states: 20_000,
    until_states: 100_000,
    min_work_left: 800_000,
};

/// The growth per depth is taken to fall at least this much per depth (a game with constant
/// growth would otherwise project without end).
const MIN_GROWTH_FALL: f64 = 0.005;
/// Growth per depth the projection never goes below (it falls linearly past the peak).
const MIN_GROWTH: f64 = 0.3;

/// The layered work left, in states, after the layers `widths` (the last four, oldest first,
/// the newest is the layer about to be expanded) with `remaining` depths to go, this one
/// included; `None` while fewer than four layers are known.
fn projected_work_left(widths: [usize; 4], remaining: u32) -> Option<f64> {
    if widths[0] == 0 {
        return None;
    }
    let growth = |i: usize| widths[i + 1] as f64 / widths[i] as f64;
    let (oldest, newest) = (growth(0), growth(2));
    let fall = ((oldest - newest) / 2.0).max(MIN_GROWTH_FALL);
    let mut width = widths[3] as f64;
    let mut work = width;
    for k in 1..remaining {
        width *= (newest - fall * k as f64).max(MIN_GROWTH);
        work += width;
    }
    Some(work)
}

/// What the rule has seen of the layers so far.
#[derive(Default)]
struct Watch {
    /// The last four layer widths, oldest first (0 before the first).
    widths: [usize; 4],
    decided: bool,
}

impl Rule {
    /// Whether to stop before the layer at `p`; `watch` keeps the widths seen and the one
    /// decision. Not inlined: asked once per layer, and kept out of the kernel's loop function
    /// (the layered loop then spilled less: cg10 28.44 -> 28.08 M instructions).
    #[inline(never)]
    fn stops(self, p: Progress, watch: &mut Watch) -> bool {
        watch.widths = [watch.widths[1], watch.widths[2], p.previous, p.width];
        if watch.decided || p.expanded + p.width <= self.from_states {
            return false;
        }
        if p.expanded + p.width > self.until_states {
            watch.decided = true;
            return false;
        }
        let work = projected_work_left(watch.widths, p.remaining).unwrap_or(0.0);
        let stop = work >= self.min_work_left as f64;
        watch.decided = stop;
        stop
    }
}

/// Where the last run went: the depth the pip engine took over at, if it did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Handoff {
    pub depth: Option<u32>,
}

/// Both engines' working memory.
pub struct Hybrid<'a> {
    pub layers: Engine<'a>,
    pub pips: PipEngine,
    pub last: Handoff,
}

impl<'a> Hybrid<'a> {
    pub fn new(layers: Engine<'a>) -> Hybrid<'a> {
        Hybrid {
            layers,
            pips: PipEngine::new(),
            last: Handoff::default(),
        }
    }
}

/// The answer for `board` after `depth` turns, with `kernel`'s lane operations.
pub fn run(hybrid: &mut Hybrid, kernel: Kernel, board: &Board, depth: u32) -> u32 {
    run_with_rule(hybrid, kernel, board, depth, RULE, None)
}

/// As `run`, handing over by `rule`; `stats` gets the layered part's layers.
///
/// The layered part and the pip engine enter their kernels separately, so each engine's loops
/// are compiled as when it runs alone: compiled into one function, the pip engine's loops
/// spilled more registers (gen09_play 337.0 M instructions, 334.3 M entered separately).
pub fn run_with_rule(
    hybrid: &mut Hybrid,
    kernel: Kernel,
    board: &Board,
    depth: u32,
    rule: Rule,
    stats: Option<&mut Vec<LayerStats>>,
) -> u32 {
    hybrid.last = Handoff::default();
    let mut stopped = None;
    let run = LayersUntil {
        layers: &mut hybrid.layers,
        board,
        depth,
        rule,
        stats,
        stopped: &mut stopped,
    };
    let answer = enter(kernel, run);
    let Some(Stopped {
        depth: at,
        len,
        acc,
    }) = stopped
    else {
        return answer;
    };
    hybrid.last.depth = Some(at);
    let (states, counts) = hybrid.layers.layer(at, len);
    let start = Start {
        depth: at as u16,
        states,
        counts,
    };
    pips::run_from(&mut hybrid.pips, kernel, start, depth, acc)
}

/// Where the layered part stopped: layer `depth` of `len` states, and the hashes of the games
/// that ended before it.
struct Stopped {
    depth: u32,
    len: usize,
    acc: Lanes,
}

/// The layered part's arguments, for a kernel's entry point; it answers, or fills `stopped`
/// (and returns 0).
struct LayersUntil<'e, 'a, 's> {
    layers: &'e mut Engine<'a>,
    board: &'e Board,
    depth: u32,
    rule: Rule,
    stats: Option<&'s mut Vec<LayerStats>>,
    stopped: &'e mut Option<Stopped>,
}

impl KernelRun for LayersUntil<'_, '_, '_> {
    #[inline(always)]
    fn run<K: LaneOps>(self) -> u32 {
        let LayersUntil {
            layers,
            board,
            depth,
            rule,
            stats,
            stopped,
        } = self;
        let mut watch = Watch::default();
        let stop = |p| rule.stops(p, &mut watch);
        match layers.run_until::<K>(board, depth, stats, stop) {
            Layered::Answer(answer) => answer,
            Layered::Stopped { depth, len, acc } => {
                let mut lanes = Lanes::default();
                K::store(&mut lanes, acc);
                *stopped = Some(Stopped {
                    depth,
                    len,
                    acc: lanes,
                });
                0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cephalopod::arch::{select, KernelChoice};
    use crate::cephalopod::{cases, engine, memory};

    fn kernels() -> Vec<Kernel> {
        [
            KernelChoice::Portable,
            KernelChoice::Avx2,
            KernelChoice::Avx512,
        ]
        .into_iter()
        .filter_map(|c| select(c).ok())
        .collect()
    }

    #[test]
    fn answers_every_bundled_case_with_a_handoff() {
        let arena = memory::arena();
        let mut hybrid = Hybrid::new(Engine::new(memory::buffers(&arena)));
        for case in cases::all().iter().filter(|c| c.problem.depth <= 30) {
            for after_states in [3, 1000] {
                let rule = Rule {
                    from_states: after_states,
                    until_states: usize::MAX,
                    min_work_left: 0,
                };
                let answer = run_with_rule(
                    &mut hybrid,
                    Kernel::Portable,
                    case.board(),
                    case.problem.depth,
                    rule,
                    None,
                );
                assert_eq!(answer, case.expected, "{} with {rule:?}", case.id);
            }
        }
    }

    #[test]
    fn projects_the_work_left_with_falling_growth() {
        assert_eq!(projected_work_left([0, 1, 2, 4], 5), None);
        // Growth 2.0, 1.5, 1.2: it fell 0.4 a depth, so the next depths grow 0.8 and 0.4.
        let work = projected_work_left([10, 20, 30, 36], 3).unwrap();
        let expected = 36.0 + 36.0 * 0.8 + 36.0 * 0.8 * 0.4;
        assert!((work - expected).abs() < 1e-9, "{work} against {expected}");
        // Constant growth still falls MIN_GROWTH_FALL a depth.
        let work = projected_work_left([1, 2, 4, 8], 3).unwrap();
        let expected = 8.0 + 8.0 * 1.995 + 8.0 * 1.995 * 1.99;
        assert!((work - expected).abs() < 1e-9, "{work} against {expected}");
    }

    /// The rule's measured choices (docs/cephalopod.md, ceph12): the long games from near-empty
    /// boards go to the pip engine early, medium games and long narrow ones stay on layers.
    #[test]
    fn the_rule_hands_over_only_the_long_wide_games() {
        let arena = memory::arena();
        let mut hybrid = Hybrid::new(Engine::new(memory::buffers(&arena)));
        for (id, handed_over) in [
            ("gen09_play", true),
            ("empty40", true),
            ("empty30", false),
            ("cg10", false),
            ("cg11", false),
            ("cg12", false),
        ] {
            let case = cases::find(id).unwrap();
            let answer = run(
                &mut hybrid,
                Kernel::Portable,
                case.board(),
                case.problem.depth,
            );
            assert_eq!(answer, case.expected, "{id}");
            let at = hybrid.last.depth;
            assert_eq!(at.is_some(), handed_over, "{id}: handed over at {at:?}");
            if let Some(at) = at {
                assert!((12..=18).contains(&at), "{id}: handed over at depth {at}");
            }
        }
    }

    /// Random boards, depths and budgets (seeded apart from the pip engine's test): handed over
    /// at every depth, under every kernel the CPU has, against the layered engine alone.
    #[test]
    fn agrees_with_the_layered_engine_on_random_boards() {
        let arena = memory::arena();
        let mut hybrid = Hybrid::new(Engine::new(memory::buffers(&arena)));
        let other = memory::arena();
        let mut layered = Engine::new(memory::buffers(&other));
        let kernels = kernels();
        let mut rng = crate::core::rng::Rng::new(0x9c5e_17a3_0b2d_4f61u64);
        let mut next = move |n: u64| rng.below(n);
        for round in 0..300 {
            let empty_in_ten = 2 + next(9);
            let cells: [u8; 9] = std::array::from_fn(|_| {
                if next(10) < empty_in_ten {
                    0
                } else {
                    1 + next(6) as u8
                }
            });
            let board = Board { cells };
            let depth = 1 + next(if round % 10 == 0 { 16 } else { 10 }) as u32;
            let rule = Rule {
                from_states: next(200) as usize,
                until_states: usize::MAX,
                min_work_left: 0,
            };
            let expected = engine::run(&mut layered, Kernel::Portable, &board, depth, None);
            for &kernel in &kernels {
                let answer = run_with_rule(&mut hybrid, kernel, &board, depth, rule, None);
                assert_eq!(
                    answer,
                    expected,
                    "{cells:?} depth {depth} {rule:?}, {}",
                    kernel.name()
                );
            }
        }
    }
}
