//! Counters the program reads about itself (for `--stats`): hardware perf events when the
//! machine has them, else software perf events, else `getrusage` deltas — never an error.
//!
//! [`CounterSet::start`] tries, in order:
//!
//! 1. a perf-event group of hardware events (`instructions`, `cpu-cycles`, `branch-misses`,
//!    `cache-misses`), user space only, so it also works at `perf_event_paranoid` 2;
//! 2. a perf-event group of software events (`task-clock-ns`, `page-faults`, `context-switches`,
//!    `cpu-migrations`), kernel included when allowed (context switches happen in the kernel
//!    and read as 0 otherwise);
//! 3. `getrusage(RUSAGE_SELF)` deltas, which need no permission at all.
//!
//! The report's `note` says why a tier was skipped, with the kernel's error text. Perf groups
//! count the thread that called `start`; `getrusage` counts the whole process.
//!
//! Setting the environment variable `PODIUM_NO_HW_COUNTERS` to any non-empty value other than
//! `0` skips tier 1, so the software path can be exercised on machines that have a PMU.

use std::fmt;
use std::io;

use perf_event::events::{Event, Hardware, Software};
use perf_event::{Builder, Counter, Group};

/// Environment variable that, when set (non-empty and not `0`), skips the hardware counters.
pub const NO_HW_ENV: &str = "PODIUM_NO_HW_COUNTERS";

const HARDWARE_EVENTS: [(&str, Hardware); 4] = [
    ("instructions", Hardware::INSTRUCTIONS),
    ("cpu-cycles", Hardware::CPU_CYCLES),
    ("branch-misses", Hardware::BRANCH_MISSES),
    ("cache-misses", Hardware::CACHE_MISSES),
];

const SOFTWARE_EVENTS: [(&str, Software); 4] = [
    ("task-clock-ns", Software::TASK_CLOCK),
    ("page-faults", Software::PAGE_FAULTS),
    ("context-switches", Software::CONTEXT_SWITCHES),
    ("cpu-migrations", Software::CPU_MIGRATIONS),
];

/// Where the values of a [`CounterReport`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterSource {
    /// Hardware PMU events through `perf_event_open`.
    Hardware,
    /// Kernel software events through `perf_event_open`.
    Software,
    /// Differences of two `getrusage(RUSAGE_SELF)` snapshots.
    Rusage,
}

impl fmt::Display for CounterSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CounterSource::Hardware => "hardware perf events",
            CounterSource::Software => "software perf events",
            CounterSource::Rusage => "getrusage",
        })
    }
}

/// Counter values measured between [`CounterSet::start`] and [`CounterSet::stop`] (or
/// [`CounterSet::read`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterReport {
    pub source: CounterSource,
    /// Why a better source was not used, if one was skipped.
    pub note: Option<String>,
    /// Counter name (its unit is in the name, e.g. `task-clock-ns`) and value.
    pub values: Vec<(&'static str, u64)>,
}

impl CounterReport {
    /// The value of the counter called `name`, if the report has one.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v)
    }
}

impl fmt::Display for CounterReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(note) = &self.note {
            writeln!(f, "note: {note}")?;
        }
        let name_width = self.values.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
        let value_width = self
            .values
            .iter()
            .map(|(_, v)| v.to_string().len())
            .max()
            .unwrap_or(0);
        for (name, value) in &self.values {
            writeln!(f, "{name:<name_width$}  {value:>value_width$}")?;
        }
        Ok(())
    }
}

/// A running set of counters; see the module documentation for what it tries.
#[derive(Debug)]
pub struct CounterSet {
    perf: Option<PerfGroup>,
    /// Taken at start whatever the source, so a failed perf read can still report something.
    rusage_at_start: Usage,
    note: Option<String>,
}

#[derive(Debug)]
struct PerfGroup {
    source: CounterSource,
    group: Group,
    counters: Vec<(&'static str, Counter)>,
}

impl CounterSet {
    /// Starts counting. Never fails: it degrades to the best source that works.
    pub fn start() -> CounterSet {
        Self::start_with(hw_disabled_by(std::env::var_os(NO_HW_ENV).as_deref()))
    }

    fn start_with(skip_hardware: bool) -> CounterSet {
        let hw_note = if skip_hardware {
            format!("hardware counters skipped ({NO_HW_ENV} is set)")
        } else {
            match open_group(
                CounterSource::Hardware,
                &HARDWARE_EVENTS.map(|(n, e)| (n, e.into())),
                false,
            ) {
                Ok(perf) => return Self::begin(Some(perf), None),
                Err(e) => describe_failure("hardware counters", &e),
            }
        };
        let software = SOFTWARE_EVENTS.map(|(n, e)| (n, e.into()));
        let attempt = match open_group(CounterSource::Software, &software, true) {
            Ok(perf) => Ok((perf, "")),
            Err(_) => open_group(CounterSource::Software, &software, false).map(|perf| {
                (
                    perf,
                    " (user space only: kernel events not permitted, so context-switches reads 0)",
                )
            }),
        };
        match attempt {
            Ok((perf, scope)) => Self::begin(
                Some(perf),
                Some(format!("{hw_note}; showing software counters{scope}")),
            ),
            Err(e) => {
                let sw_note = describe_failure("software counters", &e);
                Self::begin(
                    None,
                    Some(format!("{hw_note}; {sw_note}; showing getrusage deltas")),
                )
            }
        }
    }

    fn begin(perf: Option<PerfGroup>, note: Option<String>) -> CounterSet {
        let mut set = CounterSet {
            perf,
            rusage_at_start: Usage::now(),
            note,
        };
        if let Some(perf) = &mut set.perf {
            if let Err(e) = perf.group.reset().and_then(|()| perf.group.enable()) {
                set.note = Some(join_note(
                    set.note.take(),
                    format!("could not enable perf counters ({e}); showing getrusage deltas"),
                ));
                set.perf = None;
            }
        }
        set
    }

    /// The source this set is reading from now.
    pub fn source(&self) -> CounterSource {
        self.perf
            .as_ref()
            .map_or(CounterSource::Rusage, |p| p.source)
    }

    /// The counts since `start`; counting goes on.
    pub fn read(&mut self) -> CounterReport {
        let Some(perf) = &mut self.perf else {
            return self.rusage_report(None);
        };
        let counts = match perf.group.read() {
            Ok(counts) => counts,
            Err(e) => {
                let why = format!("reading perf counters failed ({e}); showing getrusage deltas");
                return self.rusage_report(Some(why));
            }
        };
        let (enabled, running) = (counts.time_enabled(), counts.time_running());
        if running == 0 && enabled > 0 {
            let why = format!(
                "{} were never scheduled on the CPU (PMU busy?); showing getrusage deltas",
                perf.source
            );
            return self.rusage_report(Some(why));
        }
        let values = perf
            .counters
            .iter()
            .map(|(name, counter)| {
                let raw = counts.get(counter).copied().unwrap_or(0);
                (*name, scale_multiplexed(raw, enabled, running))
            })
            .collect();
        let mut note = self.note.clone();
        if running < enabled {
            note = Some(join_note(
                note,
                format!(
                    "counters multiplexed, running {:.0}% of the time; values are scaled estimates",
                    100.0 * running as f64 / enabled as f64
                ),
            ));
        }
        CounterReport {
            source: perf.source,
            note,
            values,
        }
    }

    /// Stops counting and returns the counts since `start`.
    pub fn stop(mut self) -> CounterReport {
        if let Some(perf) = &mut self.perf {
            // A failed disable only means the counters keep running until they are dropped.
            let _ = perf.group.disable();
        }
        self.read()
    }

    fn rusage_report(&self, extra_note: Option<String>) -> CounterReport {
        let note = match extra_note {
            Some(extra) => Some(join_note(self.note.clone(), extra)),
            None => self.note.clone(),
        };
        CounterReport {
            source: CounterSource::Rusage,
            note,
            values: Usage::now().since(&self.rusage_at_start),
        }
    }
}

/// The process's peak resident set size so far, in bytes (0 if `getrusage` fails).
pub fn peak_rss_bytes() -> u64 {
    Usage::now().max_rss_kib.saturating_mul(1024)
}

/// The process's resident set size now, in bytes, from `/proc/self/statm`.
pub fn current_rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let resident_pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf only reads a system constant; it has no memory-safety preconditions.
    let page_size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(resident_pages.saturating_mul(u64::try_from(page_size).ok()?))
}

fn hw_disabled_by(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

fn open_group(
    source: CounterSource,
    events: &[(&'static str, Event)],
    include_kernel: bool,
) -> Result<PerfGroup, (&'static str, io::Error)> {
    // Each attempt needs a fresh group: perf-event 0.4 sizes its read buffer by the members it
    // tried to add, and a group with a failed member panics when read.
    let mut group = Group::new().map_err(|e| ("group leader", e))?;
    let mut counters = Vec::with_capacity(events.len());
    for (name, event) in events {
        let mut builder = Builder::new().group(&mut group).kind(event.clone());
        builder.exclude_kernel(!include_kernel);
        counters.push((*name, builder.build().map_err(|e| (*name, e))?));
    }
    Ok(PerfGroup {
        source,
        group,
        counters,
    })
}

fn describe_failure(what: &str, (event, err): &(&str, io::Error)) -> String {
    let errno = err.raw_os_error().unwrap_or(0);
    let reason = match errno {
        libc::ENOENT | libc::ENODEV | libc::EOPNOTSUPP | libc::ENOSYS => {
            "not supported on this machine".to_string()
        }
        libc::EACCES | libc::EPERM => {
            match std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid") {
                Ok(level) => format!("not permitted (perf_event_paranoid = {})", level.trim()),
                Err(_) => "not permitted".to_string(),
            }
        }
        _ => "unavailable".to_string(),
    };
    format!("{what} {reason} (perf_event_open({event}): {err})")
}

fn join_note(note: Option<String>, extra: String) -> String {
    match note {
        Some(note) => format!("{note}; {extra}"),
        None => extra,
    }
}

fn scale_multiplexed(raw: u64, enabled: u64, running: u64) -> u64 {
    if running == 0 || running >= enabled {
        return raw;
    }
    let scaled = u128::from(raw) * u128::from(enabled) / u128::from(running);
    u64::try_from(scaled).unwrap_or(u64::MAX)
}

#[derive(Clone, Copy, Debug, Default)]
struct Usage {
    user_us: u64,
    sys_us: u64,
    minor_faults: u64,
    major_faults: u64,
    voluntary_switches: u64,
    involuntary_switches: u64,
    max_rss_kib: u64,
}

impl Usage {
    fn now() -> Usage {
        let mut ru = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: `ru` points to writable memory of the size getrusage expects.
        let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, ru.as_mut_ptr()) };
        if rc != 0 {
            return Usage::default();
        }
        // SAFETY: getrusage returned 0, so it filled the struct (which was zeroed anyway).
        let ru = unsafe { ru.assume_init() };
        let count = |v: libc::c_long| u64::try_from(v).unwrap_or(0);
        let micros = |t: libc::timeval| {
            count(t.tv_sec)
                .saturating_mul(1_000_000)
                .saturating_add(count(t.tv_usec))
        };
        Usage {
            user_us: micros(ru.ru_utime),
            sys_us: micros(ru.ru_stime),
            minor_faults: count(ru.ru_minflt),
            major_faults: count(ru.ru_majflt),
            voluntary_switches: count(ru.ru_nvcsw),
            involuntary_switches: count(ru.ru_nivcsw),
            max_rss_kib: count(ru.ru_maxrss),
        }
    }

    fn since(&self, start: &Usage) -> Vec<(&'static str, u64)> {
        vec![
            ("user-time-us", self.user_us.saturating_sub(start.user_us)),
            ("sys-time-us", self.sys_us.saturating_sub(start.sys_us)),
            (
                "minor-faults",
                self.minor_faults.saturating_sub(start.minor_faults),
            ),
            (
                "major-faults",
                self.major_faults.saturating_sub(start.major_faults),
            ),
            (
                "voluntary-context-switches",
                self.voluntary_switches
                    .saturating_sub(start.voluntary_switches),
            ),
            (
                "involuntary-context-switches",
                self.involuntary_switches
                    .saturating_sub(start.involuntary_switches),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hint::black_box;

    fn thread_cpu_ns() -> u64 {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
        ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
    }

    /// Spins until this thread has used `ms` milliseconds of CPU.
    fn burn_cpu(ms: u64) -> u64 {
        let until = thread_cpu_ns() + ms * 1_000_000;
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        while thread_cpu_ns() < until {
            for _ in 0..1000 {
                x = black_box(x.rotate_left(7) ^ x.wrapping_mul(0x2545_f491_4f6c_dd1d));
            }
        }
        x
    }

    fn cpu_ns(report: &CounterReport) -> u64 {
        match report.source {
            CounterSource::Software => report.get("task-clock-ns").unwrap(),
            CounterSource::Rusage => {
                1000 * (report.get("user-time-us").unwrap() + report.get("sys-time-us").unwrap())
            }
            CounterSource::Hardware => panic!("hardware report has no CPU time"),
        }
    }

    #[test]
    fn start_stop_reports_values_and_explains_missing_hardware() {
        let set = CounterSet::start();
        let started_as = set.source();
        black_box(burn_cpu(5));
        let report = set.stop();
        assert!(!report.values.is_empty());
        assert_eq!(report.source, started_as);
        if report.source == CounterSource::Hardware {
            assert!(report.get("instructions").unwrap() > 0);
        } else {
            let note = report
                .note
                .as_deref()
                .expect("a skipped tier must be explained");
            assert!(note.contains("hardware counters"), "note: {note}");
        }
    }

    #[test]
    fn skipping_hardware_gives_software_or_rusage_with_a_note() {
        let report = CounterSet::start_with(true).stop();
        assert_ne!(report.source, CounterSource::Hardware);
        let note = report.note.expect("skipping hardware must be explained");
        assert!(note.contains("hardware counters skipped"), "note: {note}");
        assert!(note.contains(NO_HW_ENV), "note: {note}");
    }

    #[test]
    fn env_var_values_that_skip_hardware() {
        use std::ffi::OsStr;
        assert!(!hw_disabled_by(None));
        assert!(!hw_disabled_by(Some(OsStr::new(""))));
        assert!(!hw_disabled_by(Some(OsStr::new("0"))));
        assert!(hw_disabled_by(Some(OsStr::new("1"))));
        assert!(hw_disabled_by(Some(OsStr::new("yes"))));
    }

    #[test]
    fn software_or_rusage_cpu_time_covers_a_50ms_busy_loop() {
        let set = CounterSet::start_with(true);
        black_box(burn_cpu(50));
        let report = set.stop();
        let ns = cpu_ns(&report);
        assert!(
            ns >= 40_000_000,
            "{ns} ns of CPU counted for 50 ms of work\n{report}"
        );
    }

    #[test]
    fn rusage_fallback_counts_cpu_time() {
        let set = CounterSet::begin(None, None);
        assert_eq!(set.source(), CounterSource::Rusage);
        black_box(burn_cpu(50));
        let report = set.stop();
        assert_eq!(report.source, CounterSource::Rusage);
        let ns = cpu_ns(&report);
        assert!(
            ns >= 40_000_000,
            "{ns} ns of CPU counted for 50 ms of work\n{report}"
        );
    }

    #[test]
    fn read_keeps_counting() {
        let mut set = CounterSet::start_with(true);
        black_box(burn_cpu(10));
        let first = cpu_ns(&set.read());
        black_box(burn_cpu(10));
        let second = cpu_ns(&set.stop());
        assert!(second > first, "{first} then {second}");
    }

    #[test]
    fn peak_and_current_rss_see_a_touched_32mib_buffer() {
        const SIZE: usize = 32 << 20;
        let before = peak_rss_bytes();
        assert!(before > 0);
        let mut buf = vec![0u8; SIZE];
        for i in (0..SIZE).step_by(4096) {
            buf[i] = i as u8;
        }
        black_box(&mut buf);
        let current = current_rss_bytes().expect("/proc/self/statm is readable on Linux");
        let after = peak_rss_bytes();
        assert!(after >= before);
        assert!(after >= SIZE as u64, "peak {after} < {SIZE}");
        assert!(current >= SIZE as u64, "current {current} < {SIZE}");
        drop(buf);
    }

    #[test]
    fn display_lists_note_first_and_every_counter_aligned() {
        let report = CounterSet::start_with(true).stop();
        let text = report.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("note: "), "{text}");
        for (name, value) in &report.values {
            let line = lines
                .iter()
                .find(|l| l.starts_with(&format!("{name} ")))
                .unwrap_or_else(|| panic!("{name} missing from\n{text}"));
            assert!(line.ends_with(&value.to_string()), "{line}");
        }
        let widths: Vec<usize> = lines[1..].iter().map(|l| l.len()).collect();
        assert!(widths.windows(2).all(|w| w[0] == w[1]), "{text}");
        assert_eq!(lines.len(), report.values.len() + 1);
    }

    #[test]
    fn display_without_note_has_one_line_per_counter() {
        let report = CounterReport {
            source: CounterSource::Hardware,
            note: None,
            values: vec![("instructions", 1_234_567), ("cpu-cycles", 89)],
        };
        assert_eq!(
            report.to_string(),
            "instructions  1234567\ncpu-cycles         89\n"
        );
    }

    #[test]
    fn multiplexed_counts_are_scaled_up() {
        assert_eq!(scale_multiplexed(100, 10, 10), 100);
        assert_eq!(scale_multiplexed(100, 10, 5), 200);
        assert_eq!(scale_multiplexed(100, 10, 0), 100);
        assert_eq!(scale_multiplexed(u64::MAX, 10, 1), u64::MAX);
    }

    #[test]
    fn failure_notes_name_the_event_and_the_kernel_error() {
        let err = io::Error::from_raw_os_error(libc::ENOENT);
        let note = describe_failure("hardware counters", &("instructions", err));
        assert!(
            note.starts_with("hardware counters not supported on this machine"),
            "{note}"
        );
        assert!(note.contains("perf_event_open(instructions)"), "{note}");
        assert!(note.contains("No such file or directory"), "{note}");
        let err = io::Error::from_raw_os_error(libc::EACCES);
        let note = describe_failure("software counters", &("task-clock-ns", err));
        assert!(note.contains("not permitted"), "{note}");
    }
}
