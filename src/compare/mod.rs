//! `podium compare A.jsonl B.jsonl`: two runs' records (core::report) matched by (problem, case),
//! their differences and ratios per case and per problem, and a verdict a CI can act on.

pub mod svg;

use svg::{CaseRow, Measure};

use crate::core::cli::{quote, CliError, EXIT_INVALID};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// What one record of a run says, as far as a comparison needs it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    pub score: Option<f64>,
    /// Median seconds, and the fastest and slowest repeat.
    pub seconds: Option<f64>,
    pub spread: Option<(f64, f64)>,
    pub instructions: Option<f64>,
}

type Run = BTreeMap<(String, String), Measured>;

/// Reads a JSON-lines file of records; one line naming the file and line on a bad one.
pub fn read_run(path: &Path) -> Result<Run, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("compare: cannot read {}: {e}", path.display())))?;
    parse_run(&text, &path.display().to_string())
}

pub fn parse_run(text: &str, name: &str) -> Result<Run, CliError> {
    let mut run = Run::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let bad = |what: &str| {
            CliError::input(format!(
                "compare: {name} line {}: {what}: \"{}\"",
                n + 1,
                quote(line)
            ))
        };
        let value: Value = serde_json::from_str(line).map_err(|_| bad("not JSON"))?;
        let (Some(problem), Some(case)) = (value["problem"].as_str(), value["case"].as_str())
        else {
            return Err(bad("no problem and case"));
        };
        let runs: Vec<f64> = value["runs"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        let spread = (!runs.is_empty()).then(|| {
            let min = runs.iter().copied().fold(f64::INFINITY, f64::min);
            let max = runs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (min, max)
        });
        let measured = Measured {
            score: value["score"].as_f64(),
            seconds: value["seconds"].as_f64().filter(|_| spread.is_some()),
            spread,
            instructions: value["instructions"].as_f64(),
        };
        run.insert((problem.to_string(), case.to_string()), measured);
    }
    Ok(run)
}

/// How B stands against A on one measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Better,
    Worse,
    Noise,
}

/// Times within each other's repeats are noise: B's median inside A's range or the reverse.
fn time_verdict(a: &Measured, b: &Measured) -> Option<(f64, Verdict)> {
    let (ta, tb) = (a.seconds?, b.seconds?);
    let ((a_lo, a_hi), (b_lo, b_hi)) = (a.spread?, b.spread?);
    let ratio = tb / ta.max(1e-12);
    let verdict = if (a_lo..=a_hi).contains(&tb) || (b_lo..=b_hi).contains(&ta) {
        Verdict::Noise
    } else if tb < ta {
        Verdict::Better
    } else {
        Verdict::Worse
    };
    Some((ratio, verdict))
}

/// Scores and instruction counts are exact: any difference counts.
fn exact_verdict(a: f64, b: f64, higher_is_better: bool) -> Verdict {
    if a == b {
        Verdict::Noise
    } else if (b > a) == higher_is_better {
        Verdict::Better
    } else {
        Verdict::Worse
    }
}

fn word(v: Verdict) -> &'static str {
    match v {
        Verdict::Better => "better",
        Verdict::Worse => "worse",
        Verdict::Noise => "same",
    }
}

/// Per problem: the geometric mean of B/A time and instruction ratios, B/A of the score sums.
#[derive(Default)]
struct Summary {
    log_time: f64,
    timed: usize,
    log_instructions: f64,
    counted: usize,
    scores: (f64, f64),
    worse: usize,
    better: usize,
}

/// Writes the comparison, and its picture to `svg_file` if given; `Err` with exit 1 when a
/// problem is worse by more than `fail_pct` (after the picture is written).
pub fn compare(
    a: &Run,
    b: &Run,
    fail_pct: Option<f64>,
    svg_file: Option<&Path>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut summaries: BTreeMap<&str, Summary> = BTreeMap::new();
    let mut rows = Vec::new();
    for ((problem, case), ma) in a {
        let Some(mb) = b.get(&(problem.clone(), case.clone())) else {
            writeln!(out, "{problem} {case}: only in A")?;
            continue;
        };
        let summary = summaries.entry(problem).or_default();
        let mut parts = Vec::new();
        let mut verdicts = Vec::new();
        let mut bars = Vec::new();
        if let (Some(sa), Some(sb)) = (ma.score, mb.score) {
            let v = exact_verdict(sa, sb, true);
            bars.push((Measure::Score, sb / sa.abs().max(1e-12), v));
            parts.push(format!(
                "score {sa} -> {sb} ({:+.3}%)",
                100.0 * (sb - sa) / sa.abs().max(1e-12)
            ));
            summary.scores.0 += sa;
            summary.scores.1 += sb;
            verdicts.push(v);
        }
        if let (Some(ia), Some(ib)) = (ma.instructions, mb.instructions) {
            let ratio = ib / ia.max(1.0);
            parts.push(format!("instructions x{ratio:.3}"));
            summary.log_instructions += ratio.ln();
            summary.counted += 1;
            verdicts.push(exact_verdict(ia, ib, false));
            bars.push((Measure::Instructions, ratio, exact_verdict(ia, ib, false)));
        }
        if let Some((ratio, v)) = time_verdict(ma, mb) {
            parts.push(format!(
                "time {:.3} -> {:.3} ms x{ratio:.3} ({})",
                ma.seconds.unwrap_or_default() * 1e3,
                mb.seconds.unwrap_or_default() * 1e3,
                if v == Verdict::Noise {
                    "within noise"
                } else {
                    word(v)
                }
            ));
            summary.log_time += ratio.ln();
            summary.timed += 1;
            verdicts.push(v);
            bars.push((Measure::Time, ratio, v));
        }
        let verdict = if verdicts.contains(&Verdict::Worse) {
            summary.worse += 1;
            Verdict::Worse
        } else if verdicts.contains(&Verdict::Better) {
            summary.better += 1;
            Verdict::Better
        } else {
            Verdict::Noise
        };
        if parts.is_empty() {
            parts.push("nothing to compare (no score, instructions or repeats in both)".into());
        }
        rows.push(CaseRow {
            label: format!("{problem} {case}"),
            bars,
        });
        writeln!(
            out,
            "{problem} {case}: {} [{}]",
            parts.join(", "),
            word(verdict)
        )?;
    }
    for (problem, case) in b.keys().filter(|k| !a.contains_key(*k)) {
        writeln!(out, "{problem} {case}: only in B")?;
    }
    let mut failed = Vec::new();
    for (problem, s) in &summaries {
        let mut line = format!("{problem}: {} better, {} worse", s.better, s.worse);
        let mut worst_pct: f64 = 0.0;
        if s.timed > 0 {
            let ratio = (s.log_time / s.timed as f64).exp();
            line += &format!(", time x{ratio:.3} (geometric mean)");
            worst_pct = worst_pct.max(100.0 * (ratio - 1.0));
        }
        if s.counted > 0 {
            let ratio = (s.log_instructions / s.counted as f64).exp();
            line += &format!(", instructions x{ratio:.3}");
            worst_pct = worst_pct.max(100.0 * (ratio - 1.0));
        }
        if s.scores.0 != 0.0 {
            let ratio = s.scores.1 / s.scores.0;
            line += &format!(", score sum x{ratio:.4}");
            worst_pct = worst_pct.max(100.0 * (1.0 - ratio));
        }
        writeln!(out, "{line}")?;
        if fail_pct.is_some_and(|limit| worst_pct > limit) {
            failed.push(format!("{problem} {worst_pct:.1}%"));
        }
    }
    let (better, worse): (usize, usize) = summaries
        .values()
        .fold((0, 0), |(b, w), s| (b + s.better, w + s.worse));
    let overall = match (better, worse) {
        (_, 0) if better > 0 => "better than A",
        (0, 0) => "the same as A (within noise)",
        (0, _) => "worse than A",
        _ => "mixed against A",
    };
    writeln!(
        out,
        "verdict: B is {overall} ({better} cases better, {worse} worse)"
    )?;
    if let Some(file) = svg_file {
        let title = format!("podium compare: B is {overall} ({better} better, {worse} worse)");
        std::fs::write(file, svg::draw(&rows, &title)).map_err(|e| {
            CliError::output(format!("compare: cannot write {}: {e}", file.display()))
        })?;
    }
    if !failed.is_empty() {
        return Err(CliError::new(
            EXIT_INVALID,
            format!(
                "compare: worse by more than {}%: {}",
                fail_pct.unwrap_or_default(),
                failed.join(", ")
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(lines: &[&str]) -> Run {
        parse_run(&lines.join("\n"), "test").unwrap()
    }

    #[test]
    fn a_run_against_itself_is_the_same_and_a_slower_one_is_worse() {
        let a = run(&[
            r#"{"problem":"cephalopod","case":"cg01","score":null,"seconds":0.010,"runs":[0.009,0.010,0.011]}"#,
            r#"{"problem":"slider","case":"1","score":100.0,"seconds":1.0,"runs":[1.0]}"#,
        ]);
        let mut out = Vec::new();
        compare(&a, &a, Some(1.0), None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("verdict: B is the same as A"), "{text}");
        let slow = run(&[
            r#"{"problem":"cephalopod","case":"cg01","seconds":0.020,"runs":[0.019,0.020,0.021]}"#,
            r#"{"problem":"slider","case":"1","score":100.0,"seconds":1.0,"runs":[1.0]}"#,
        ]);
        let mut out = Vec::new();
        let failed = compare(&a, &slow, Some(10.0), None, &mut out).unwrap_err();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("cephalopod cg01: time 10.000 -> 20.000 ms x2.000 (worse) [worse]"),
            "{text}"
        );
        assert!(text.contains("verdict: B is worse than A"), "{text}");
        assert_eq!(failed.code, EXIT_INVALID);
        assert!(compare(&a, &slow, None, None, &mut Vec::new()).is_ok());
    }

    #[test]
    fn a_bad_line_is_named() {
        let e = parse_run("{\"problem\":\"x\",\"case\":\"1\"}\nnot json", "a.jsonl").unwrap_err();
        assert!(
            e.message.contains("a.jsonl line 2: not JSON"),
            "{}",
            e.message
        );
    }
}
