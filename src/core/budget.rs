//! The work a search may do before it gives up: a node count, a clock read every 2^k nodes, and
//! a memory cap; one [`Exhausted`] reason for every solver's "gave up".

use super::timer::Deadline;
use std::fmt;
use std::time::Duration;

/// Why a search stopped before deciding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exhausted {
    Nodes,
    Time,
    Memory,
}

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Exhausted::Nodes => "node budget",
            Exhausted::Time => "time budget",
            Exhausted::Memory => "memory budget",
        })
    }
}

/// A search's allowance. [`Budget::spend`] is the hot-loop call: one decrement and compare; the
/// clock (~20 ns a read) is read once every `2^clock_shift` nodes.
#[derive(Clone, Debug)]
pub struct Budget {
    nodes: u64,
    spent: u64,
    deadline: Option<Deadline>,
    clock_mask: u64,
    memory_bytes: Option<usize>,
}

impl Budget {
    /// Reads the clock every 1,024 nodes by default.
    pub const DEFAULT_CLOCK_SHIFT: u32 = 10;

    /// No limit at all (use only where the caller bounds the work itself).
    pub fn unlimited() -> Budget {
        Budget {
            nodes: u64::MAX,
            spent: 0,
            deadline: None,
            clock_mask: (1 << Self::DEFAULT_CLOCK_SHIFT) - 1,
            memory_bytes: None,
        }
    }

    /// At most `nodes` nodes.
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            nodes,
            ..Budget::unlimited()
        }
    }

    /// At most `limit` of wall-clock time from now.
    pub fn time(limit: Duration) -> Budget {
        Budget::unlimited().with_deadline(Deadline::after(limit))
    }

    pub fn with_deadline(mut self, deadline: Deadline) -> Budget {
        self.deadline = Some(deadline);
        self
    }

    pub fn with_nodes(mut self, nodes: u64) -> Budget {
        self.nodes = nodes;
        self
    }

    /// A cap on the bytes of the search's own tables, checked by [`Budget::may_hold`].
    pub fn with_memory(mut self, bytes: usize) -> Budget {
        self.memory_bytes = Some(bytes);
        self
    }

    /// Reads the clock every `2^shift` nodes (smaller for searches with expensive nodes).
    pub fn with_clock_every(mut self, shift: u32) -> Budget {
        self.clock_mask = (1u64 << shift.min(40)) - 1;
        self
    }

    /// Counts one node; `Err` once the nodes or the time are used up.
    #[inline]
    pub fn spend(&mut self) -> Result<(), Exhausted> {
        self.spent += 1;
        if self.spent > self.nodes {
            return Err(Exhausted::Nodes);
        }
        if self.spent & self.clock_mask == 0 {
            self.check_clock()?;
        }
        Ok(())
    }

    /// Reads the clock now, whatever the node count.
    pub fn check_clock(&self) -> Result<(), Exhausted> {
        match &self.deadline {
            Some(d) if d.expired() => Err(Exhausted::Time),
            _ => Ok(()),
        }
    }

    /// Whether tables of `bytes` in all stay within the memory cap.
    pub fn may_hold(&self, bytes: usize) -> Result<(), Exhausted> {
        match self.memory_bytes {
            Some(cap) if bytes > cap => Err(Exhausted::Memory),
            _ => Ok(()),
        }
    }

    pub fn spent(&self) -> u64 {
        self.spent
    }

    pub fn node_limit(&self) -> Option<u64> {
        (self.nodes != u64::MAX).then_some(self.nodes)
    }

    pub fn deadline(&self) -> Option<&Deadline> {
        self.deadline.as_ref()
    }

    pub fn memory_limit(&self) -> Option<usize> {
        self.memory_bytes
    }

    /// A budget for a sub-search: `share` of the nodes left, the same deadline and memory cap.
    pub fn share(&self, share: f64) -> Budget {
        let left = self.nodes.saturating_sub(self.spent);
        let nodes = if left == u64::MAX {
            u64::MAX
        } else {
            (left as f64 * share.clamp(0.0, 1.0)) as u64
        };
        Budget {
            nodes,
            spent: 0,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_run_out_exactly() {
        let mut budget = Budget::nodes(3);
        assert_eq!(budget.spend(), Ok(()));
        assert_eq!(budget.spend(), Ok(()));
        assert_eq!(budget.spend(), Ok(()));
        assert_eq!(budget.spend(), Err(Exhausted::Nodes));
        assert_eq!(budget.spent(), 4);
    }

    #[test]
    fn the_clock_is_read_every_2_to_the_k_nodes() {
        let mut budget = Budget::time(Duration::ZERO).with_clock_every(2);
        assert_eq!(budget.spend(), Ok(()));
        assert_eq!(budget.spend(), Ok(()));
        assert_eq!(budget.spend(), Ok(()));
        assert_eq!(budget.spend(), Err(Exhausted::Time));
        assert_eq!(Budget::unlimited().check_clock(), Ok(()));
    }

    #[test]
    fn memory_and_shares() {
        let budget = Budget::nodes(100).with_memory(1 << 20);
        assert_eq!(budget.may_hold(1 << 20), Ok(()));
        assert_eq!(budget.may_hold((1 << 20) + 1), Err(Exhausted::Memory));
        let half = budget.share(0.5);
        assert_eq!(half.node_limit(), Some(50));
        assert_eq!(half.memory_limit(), Some(1 << 20));
        assert_eq!(Budget::unlimited().share(0.5).node_limit(), None);
        assert_eq!(Exhausted::Time.to_string(), "time budget");
    }
}
