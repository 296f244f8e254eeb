//! `podium compare --svg FILE`: the per-case ratios as a picture, one bar per measure on a log
//! scale around 1, right of it where B is better, coloured by the verdict.

use super::Verdict;
use std::fmt::Write;

/// Which measure a bar shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    Score,
    Instructions,
    Time,
}

impl Measure {
    fn letter(self) -> &'static str {
        match self {
            Measure::Score => "S",
            Measure::Instructions => "I",
            Measure::Time => "T",
        }
    }
}

/// One case's bars: its label and, per measure, B/A and the verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseRow {
    pub label: String,
    pub bars: Vec<(Measure, f64, Verdict)>,
}

const WIDTH: f64 = 860.0;
const LABEL_WIDTH: f64 = 300.0;
/// Where the bars may reach, beside the label column and the ratio text.
const CHART_LEFT: f64 = LABEL_WIDTH + 20.0;
const CHART_WIDTH: f64 = WIDTH - CHART_LEFT - 90.0;
const BAR_HEIGHT: f64 = 9.0;
const ROW_GAP: f64 = 6.0;
const TOP: f64 = 56.0;
/// Bars are clipped at 4x either way.
const LOG_LIMIT: f64 = 1.386_294_361_119_890_6;
/// Characters of a label that fit its column at 11 px monospace.
const LABEL_CHARS: usize = 44;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn colour(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Better => "#2a9d4b",
        Verdict::Worse => "#d1495b",
        Verdict::Noise => "#9a9a9a",
    }
}

/// The picture; every text stays inside it (labels are shortened to their column).
pub fn draw(rows: &[CaseRow], title: &str) -> String {
    let height: f64 = TOP
        + rows
            .iter()
            .map(|r| r.bars.len().max(1) as f64 * (BAR_HEIGHT + 2.0) + ROW_GAP)
            .sum::<f64>()
        + 30.0;
    let centre = CHART_LEFT + CHART_WIDTH / 2.0;
    let scale = CHART_WIDTH / 2.0 / LOG_LIMIT;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {WIDTH} {height:.0}\" font-family=\"monospace\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
    );
    let _ = writeln!(
        svg,
        "<text x=\"10\" y=\"20\" font-size=\"13\">{}</text>\n\
         <text x=\"10\" y=\"38\">B against A per case, log scale, clipped at 4x: right of 1 is B \
         better. S score (B/A), I instructions and T time (A/B).</text>",
        escape(title)
    );
    for (ratio, text) in [
        (0.25, "1/4"),
        (0.5, "1/2"),
        (1.0, "1"),
        (2.0, "2"),
        (4.0, "4"),
    ] {
        let x = centre + f64::ln(ratio) * scale;
        let _ = writeln!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{:.0}\" x2=\"{x:.1}\" y2=\"{:.0}\" stroke=\"{}\"/>\n\
             <text x=\"{x:.1}\" y=\"{:.0}\" text-anchor=\"middle\">{text}</text>",
            TOP - 8.0,
            height - 24.0,
            if ratio == 1.0 { "#444" } else { "#ddd" },
            height - 10.0
        );
    }
    let mut y = TOP;
    for row in rows {
        let mut label: String = row.label.chars().take(LABEL_CHARS).collect();
        if row.label.chars().count() > LABEL_CHARS {
            label.pop();
            label.push('~');
        }
        let _ = writeln!(
            svg,
            "<text x=\"10\" y=\"{:.1}\">{}</text>",
            y + BAR_HEIGHT,
            escape(&label)
        );
        if row.bars.is_empty() {
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#888\">nothing to compare</text>",
                CHART_LEFT,
                y + BAR_HEIGHT
            );
        }
        for &(measure, ratio, verdict) in &row.bars {
            // Higher is better for a score, lower for instructions and time.
            let goodness = match measure {
                Measure::Score => ratio,
                Measure::Instructions | Measure::Time => 1.0 / ratio.max(1e-12),
            };
            let offset = goodness.ln().clamp(-LOG_LIMIT, LOG_LIMIT) * scale;
            let (x, w) = if offset < 0.0 {
                (centre + offset, -offset)
            } else {
                (centre, offset)
            };
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#666\">{}</text>\n\
                 <rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{BAR_HEIGHT}\" fill=\"{}\"/>\n\
                 <text x=\"{:.1}\" y=\"{:.1}\">x{ratio:.3}</text>",
                CHART_LEFT - 14.0,
                y + BAR_HEIGHT - 1.0,
                measure.letter(),
                w.max(1.0),
                colour(verdict),
                CHART_LEFT + CHART_WIDTH + 6.0,
                y + BAR_HEIGHT - 1.0
            );
            y += BAR_HEIGHT + 2.0;
        }
        if row.bars.is_empty() {
            y += BAR_HEIGHT + 2.0;
        }
        y += ROW_GAP;
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_point_right_when_b_is_better_and_labels_stay_in_their_column() {
        let rows = vec![
            CaseRow {
                label: "cephalopod cg01".into(),
                bars: vec![(Measure::Time, 0.5, Verdict::Better)],
            },
            CaseRow {
                label: "slider 7 <&> ".repeat(10),
                bars: vec![
                    (Measure::Score, 0.9, Verdict::Worse),
                    (Measure::Instructions, 1.0, Verdict::Noise),
                ],
            },
        ];
        let svg = draw(&rows, "a & b");
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains("a &amp; b") && !svg.contains("<&>"));
        let centre = CHART_LEFT + CHART_WIDTH / 2.0;
        // The faster B: a green bar starting at the centre, to the right.
        assert!(svg.contains(&format!("<rect x=\"{centre:.1}\"")), "{svg}");
        assert!(svg.contains("fill=\"#2a9d4b\"") && svg.contains("fill=\"#d1495b\""));
        assert!(svg.contains("x0.500") && svg.contains("x0.900"));
        assert!(svg.contains('~'), "a long label is shortened");
    }
}
