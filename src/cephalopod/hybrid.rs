//! The default search: the layered BFS while the game is small (it pays least per child), then
//! the pip-ordered engine from the layer it reached (it expands each board once on long games).

use super::arch::{enter, Kernel, KernelRun, LaneOps};
use super::board::Board;
use super::engine::{Engine, LayerStats, Layered, Progress};
use super::pips::{self, PipEngine, Start};
use super::tables::Lanes;

/// When the layered BFS hands its layer to the pip engine: once, at the first layer that
/// would take the states expanded past `after_states`, if that layer's width times the depths
/// still to go (the layered work left while the layers keep growing) is at least
/// `min_work_left` and the layer is at least `min_growth_percent` % of the one before it;
/// else never. A layer that has stopped growing belongs to a game ending well before its depth
/// (cg09, cg10), where the layered work left is far below width x depths and the pip engine
/// pays ~1.35x the layered BFS.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub after_states: usize,
    pub min_work_left: usize,
    pub min_growth_percent: usize,
}

/// Measured on the bundled cases and fresh boards of seeds 2026 and 7, checked on seeds 31
/// and 99 (docs/cephalopod.md).
pub const RULE: Rule = Rule {
    after_states: 60_000,
    min_work_left: 100_000,
    min_growth_percent: 115,
};

impl Rule {
    /// Whether to stop before the layer at `p`; `decided` keeps the one decision. Not inlined:
    /// asked once per layer, and kept out of the kernel's loop function (the layered loop then
    /// spilled less: cg10 28.44 -> 28.08 M instructions).
    #[inline(never)]
    fn stops(self, p: Progress, decided: &mut bool) -> bool {
        if *decided || p.expanded + p.width <= self.after_states {
            return false;
        }
        *decided = true;
        p.width * p.remaining as usize >= self.min_work_left
            && 100 * p.width >= self.min_growth_percent * p.previous
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
        let mut decided = false;
        let stop = |p| rule.stops(p, &mut decided);
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
                    after_states,
                    min_work_left: 0,
                    min_growth_percent: 0,
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
                after_states: next(200) as usize,
                min_work_left: 0,
                min_growth_percent: 0,
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
