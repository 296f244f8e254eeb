//! How much of a run's budget is spent: the clock's share of a deadline, or for a reproducible
//! run the share of a fixed number of progress checks.

use crate::core::timer::Deadline;

/// The share of the budget spent, from 0 to 1; the solver asks once per greedy start after the
/// first and once per 64 annealing steps.
pub trait Progress {
    fn fraction_used(&mut self) -> f64;
}

impl Progress for Deadline {
    fn fraction_used(&mut self) -> f64 {
        Deadline::fraction_used(self)
    }
}

/// A budget of progress checks instead of time, so that a run does not depend on the machine's
/// speed.
#[derive(Clone, Copy, Debug)]
pub struct Checks {
    pub total: u64,
    pub done: u64,
}

impl Progress for Checks {
    fn fraction_used(&mut self) -> f64 {
        self.done += 1;
        if self.total == 0 {
            return 1.0;
        }
        (self.done as f64 / self.total as f64).min(1.0)
    }
}
