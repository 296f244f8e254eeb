//! Wall-clock deadlines for anytime solvers and per-phase timings for reports.
//! Everything reads the monotonic clock (`Instant`), so system clock changes cannot disturb it.

use std::time::{Duration, Instant};

/// A time budget that started when it was created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    start: Instant,
    limit: Duration,
}

impl Deadline {
    pub fn after(limit: Duration) -> Deadline {
        Deadline {
            start: Instant::now(),
            limit,
        }
    }

    /// A budget in seconds: negative or NaN means already expired, too large means never.
    pub fn from_secs_f64(seconds: f64) -> Deadline {
        let limit = if seconds.is_nan() || seconds <= 0.0 {
            Duration::ZERO
        } else {
            Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
        };
        Deadline::after(limit)
    }

    pub fn start(&self) -> Instant {
        self.start
    }

    pub fn limit(&self) -> Duration {
        self.limit
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn remaining(&self) -> Duration {
        self.limit.saturating_sub(self.elapsed())
    }

    pub fn expired(&self) -> bool {
        self.elapsed() >= self.limit
    }

    /// Share of the budget spent, clamped to [0, 1] so schedules such as annealing
    /// temperatures never see a value past the end; a zero budget counts as fully used.
    pub fn fraction_used(&self) -> f64 {
        if self.limit.is_zero() {
            return 1.0;
        }
        (self.elapsed().as_secs_f64() / self.limit.as_secs_f64()).min(1.0)
    }
}

/// Named consecutive phases: each lap is the time since the previous lap (or the start).
#[derive(Clone, Debug)]
pub struct Stopwatch {
    start: Instant,
    last_lap_end: Instant,
    laps: Vec<(&'static str, Duration)>,
}

impl Stopwatch {
    pub fn start() -> Stopwatch {
        let now = Instant::now();
        Stopwatch {
            start: now,
            last_lap_end: now,
            laps: Vec::new(),
        }
    }

    pub fn lap(&mut self, name: &'static str) {
        let now = Instant::now();
        self.laps.push((name, now - self.last_lap_end));
        self.last_lap_end = now;
    }

    pub fn laps(&self) -> &[(&'static str, Duration)] {
        &self.laps
    }

    /// Time since [`Stopwatch::start`], including any time after the last lap.
    pub fn total(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_deadline_is_expired() {
        for deadline in [
            Deadline::after(Duration::ZERO),
            Deadline::from_secs_f64(0.0),
            Deadline::from_secs_f64(-3.0),
            Deadline::from_secs_f64(f64::NAN),
        ] {
            assert!(deadline.expired());
            assert_eq!(deadline.remaining(), Duration::ZERO);
            assert_eq!(deadline.fraction_used(), 1.0);
        }
    }

    #[test]
    fn long_deadline_is_not_expired() {
        let deadline = Deadline::from_secs_f64(3600.0);
        assert_eq!(deadline.limit(), Duration::from_secs(3600));
        assert!(!deadline.expired());
        assert!(deadline.remaining() > Duration::from_secs(3000));
        assert!(deadline.remaining() <= deadline.limit());
        let fraction = deadline.fraction_used();
        assert!((0.0..0.5).contains(&fraction), "fraction {fraction}");
        let endless = Deadline::from_secs_f64(1e300);
        assert_eq!(endless.limit(), Duration::MAX);
        assert!(!endless.expired());
    }

    #[test]
    fn elapsed_is_monotonic_and_measured_from_start() {
        let deadline = Deadline::after(Duration::from_secs(60));
        let mut previous = deadline.elapsed();
        for _ in 0..1000 {
            let now = deadline.elapsed();
            assert!(now >= previous);
            previous = now;
        }
        assert!(deadline.start() <= Instant::now());
        std::thread::sleep(Duration::from_millis(2));
        assert!(deadline.elapsed() >= Duration::from_millis(2));
    }

    #[test]
    fn laps_are_recorded_in_order_and_sum_within_total() {
        let mut stopwatch = Stopwatch::start();
        stopwatch.lap("parse");
        std::thread::sleep(Duration::from_millis(1));
        stopwatch.lap("solve");
        stopwatch.lap("write");
        let names: Vec<&str> = stopwatch.laps().iter().map(|&(name, _)| name).collect();
        assert_eq!(names, ["parse", "solve", "write"]);
        assert!(stopwatch.laps()[1].1 >= Duration::from_millis(1));
        let lap_sum: Duration = stopwatch.laps().iter().map(|&(_, time)| time).sum();
        assert!(lap_sum <= stopwatch.total());
    }
}
