//! A lock-free latency histogram: log-spaced buckets (8 per power of two, so a quantile is read
//! within 12.5%), for the server's time from an action to its broadcast.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Buckets up to 2^40 microseconds.
const BUCKETS: usize = 8 + 37 * 8;

pub struct Histogram {
    counts: Vec<AtomicU64>,
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram {
            counts: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

fn bucket(micros: u64) -> usize {
    if micros < 8 {
        return micros as usize;
    }
    let exponent = 63 - micros.leading_zeros() as usize;
    let mantissa = ((micros >> (exponent - 3)) & 7) as usize;
    (8 + (exponent - 3) * 8 + mantissa).min(BUCKETS - 1)
}

/// The largest value that falls in `bucket`, in microseconds.
fn upper(bucket: usize) -> u64 {
    if bucket < 8 {
        return bucket as u64;
    }
    let exponent = (bucket - 8) / 8 + 3;
    let mantissa = ((bucket - 8) % 8) as u64;
    ((9 + mantissa) << (exponent - 3)) - 1
}

impl Histogram {
    pub fn record(&self, elapsed: Duration) {
        let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        self.counts[bucket(micros)].fetch_add(1, Ordering::Relaxed);
    }

    pub fn count(&self) -> u64 {
        self.counts.iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }

    /// The `q` quantile (0..=1), rounded up to its bucket's end; zero when empty.
    pub fn quantile(&self, q: f64) -> Duration {
        let total = self.count();
        if total == 0 {
            return Duration::ZERO;
        }
        let rank = ((total as f64 * q).ceil() as u64).clamp(1, total);
        let mut seen = 0;
        for (b, count) in self.counts.iter().enumerate() {
            seen += count.load(Ordering::Relaxed);
            if seen >= rank {
                return Duration::from_micros(upper(b));
            }
        }
        Duration::from_micros(upper(BUCKETS - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_within_an_eighth() {
        let h = Histogram::default();
        for us in 1..=1000u64 {
            h.record(Duration::from_micros(us));
        }
        assert_eq!(h.count(), 1000);
        for (q, exact) in [(0.5, 500.0), (0.99, 990.0), (1.0, 1000.0)] {
            let got = h.quantile(q).as_micros() as f64;
            assert!(got >= exact && got <= exact * 1.125 + 1.0, "{q}: {got}");
        }
        for us in [0, 7, 8, 9, 100, 1 << 20] {
            assert!(upper(bucket(us)) >= us);
        }
    }
}
