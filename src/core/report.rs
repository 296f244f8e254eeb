//! Machine-readable results: one JSON object per case and line (JSON lines), the same fields for
//! every problem and command, with where and by what the case was run.
//
// A record: {"problem", "case", "answer", "score", "references": {name: score}, "ok",
// "seconds" (the median), "runs": [seconds of each repeat], "instructions", "peak_rss_bytes",
// "podium": version, "commit", "machine": {"cpu", "features", "cores"}}; absent values are null.
// `podium compare` reads them back (src/compare.rs); tests/report.rs checks the fields.

use serde_json::{json, Map, Value};
use std::io::{self, Write};
use std::time::Duration;

/// The fields of every record, in the order of the README.
pub const FIELDS: [&str; 13] = [
    "problem",
    "case",
    "answer",
    "score",
    "references",
    "ok",
    "seconds",
    "runs",
    "instructions",
    "peak_rss_bytes",
    "podium",
    "commit",
    "machine",
];

/// One case's result.
#[derive(Clone, Debug, Default)]
pub struct Record {
    pub problem: &'static str,
    pub case: String,
    /// The exact answer, where the problem has one (cephalopod's sum, a verdict).
    pub answer: Option<Value>,
    /// The score, where the problem has one (higher is better).
    pub score: Option<f64>,
    /// Scores to compare with: a known answer's, the public entries', a bound.
    pub references: Vec<(&'static str, f64)>,
    /// Whether the answer was checked right (None: nothing to check against).
    pub ok: Option<bool>,
    /// The time of each repeat; the record's `seconds` is their median.
    pub runs: Vec<Duration>,
    pub instructions: Option<u64>,
}

/// Where a run happens: the same on every record of a process.
#[derive(Clone, Debug)]
pub struct Machine {
    pub podium: &'static str,
    pub commit: Option<String>,
    pub cpu: String,
    pub features: String,
    pub cores: usize,
}

impl Machine {
    /// This process's machine, read once.
    pub fn this() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, name)| name.trim().to_string())
            })
            .unwrap_or_else(|| std::env::consts::ARCH.to_string());
        Machine {
            podium: env!("CARGO_PKG_VERSION"),
            commit: source_commit(),
            cpu,
            features: super::cpu::features().to_string(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// The commit of the source tree this binary was built from, where git can still tell (the tree
/// is read at run time, so a copied binary reports none rather than a stale one).
fn source_commit() -> Option<String> {
    let output = std::process::Command::new("git")
        .args([
            "-C",
            env!("CARGO_MANIFEST_DIR"),
            "rev-parse",
            "--short=12",
            "HEAD",
        ])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let commit = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !commit.trim().is_empty()).then(|| commit.trim().to_string())
}

/// The median of `runs` (the upper one of an even count); zero for none.
pub fn median(runs: &[Duration]) -> Duration {
    let mut sorted = runs.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied().unwrap_or_default()
}

impl Record {
    pub fn to_json(&self, machine: &Machine) -> Value {
        let references: Map<String, Value> = self
            .references
            .iter()
            .map(|&(name, score)| (name.to_string(), json!(score)))
            .collect();
        json!({
            "problem": self.problem,
            "case": self.case,
            "answer": self.answer,
            "score": self.score,
            "references": references,
            "ok": self.ok,
            "seconds": median(&self.runs).as_secs_f64(),
            "runs": self.runs.iter().map(Duration::as_secs_f64).collect::<Vec<_>>(),
            "instructions": self.instructions,
            "peak_rss_bytes": super::counters::peak_rss_bytes(),
            "podium": machine.podium,
            "commit": machine.commit,
            "machine": {"cpu": machine.cpu, "features": machine.features, "cores": machine.cores},
        })
    }
}

/// Where a command's human table goes: stdout, or nowhere when its records replace it (`--json`).
pub fn table_out(json: bool) -> Box<dyn Write> {
    if json {
        Box::new(io::sink())
    } else {
        Box::new(io::stdout())
    }
}

/// Where a command's records go: JSON lines on a writer under `--json`, nowhere otherwise.
pub struct Report<'w> {
    out: Option<&'w mut dyn Write>,
    machine: Option<Machine>,
}

impl<'w> Report<'w> {
    /// Records written as JSON lines to `out`.
    pub fn json(out: &'w mut dyn Write) -> Report<'w> {
        Report {
            out: Some(out),
            machine: Some(Machine::this()),
        }
    }

    /// Records dropped: the command prints its table only.
    pub fn none() -> Report<'w> {
        Report {
            out: None,
            machine: None,
        }
    }

    pub fn is_json(&self) -> bool {
        self.out.is_some()
    }

    /// Writes `record` as one line (flushed, so a long run can be followed).
    pub fn record(&mut self, record: &Record) -> io::Result<()> {
        if let (Some(out), Some(machine)) = (self.out.as_mut(), self.machine.as_ref()) {
            writeln!(out, "{}", record.to_json(machine))?;
            out.flush()?;
        }
        Ok(())
    }
}

/// A check's outcome on `out`: its line (the verdict when valid; an invalid one's goes to
/// stderr through the error), or under `json` one record (ok, and the line as its answer); an
/// invalid answer is exit 1 either way.
pub fn check_outcome(
    out: &mut dyn Write,
    json: bool,
    problem: &'static str,
    case: String,
    checked: Result<String, String>,
) -> Result<(), crate::core::cli::CliError> {
    let write = |e| crate::core::cli::CliError::write("stdout", e);
    if json {
        let (ok, line) = match &checked {
            Ok(line) => (true, line.clone()),
            Err(line) => (false, line.clone()),
        };
        Report::json(out)
            .record(&Record {
                problem,
                case,
                answer: Some(line.into()),
                ok: Some(ok),
                ..Record::default()
            })
            .map_err(write)?;
    } else if let Ok(line) = &checked {
        writeln!(out, "{line}").map_err(write)?;
    }
    checked
        .map(|_| ())
        .map_err(|line| crate::core::cli::CliError::new(crate::core::cli::EXIT_INVALID, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_one_json_line_with_every_field() {
        let record = Record {
            problem: "slider",
            case: "seed 7".into(),
            score: Some(1234.0),
            references: vec![("best", 1200.0)],
            runs: vec![
                Duration::from_millis(30),
                Duration::from_millis(10),
                Duration::from_millis(20),
            ],
            ..Record::default()
        };
        let mut out = Vec::new();
        Report::json(&mut out).record(&record).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 1);
        let value: Value = serde_json::from_str(&text).unwrap();
        for field in FIELDS {
            assert!(value.get(field).is_some(), "{field} missing: {text}");
        }
        assert_eq!(value["seconds"], json!(0.02));
        assert_eq!(value["references"]["best"], json!(1200.0));
        assert!(value["machine"]["cores"].as_u64().unwrap() >= 1);
    }
}
