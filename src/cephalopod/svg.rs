//! `podium cephalopod --stats --svg FILE`: the layered search as a picture, per depth the
//! canonical states expanded (log scale) above and the milliseconds it took below.

use super::LayerStats;
use std::fmt::Write;

const WIDTH: f64 = 760.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const PANEL: f64 = 180.0;
const TOP: f64 = 50.0;
const GAP: f64 = 50.0;

/// The picture of `layers`, titled with the case; every text stays inside it.
pub fn draw(layers: &[LayerStats], title: &str) -> String {
    let height = TOP + 2.0 * PANEL + GAP + 40.0;
    let slot = (WIDTH - LEFT - RIGHT) / layers.len().max(1) as f64;
    let most_states = layers.iter().map(|l| l.states).max().unwrap_or(1).max(1) as f64;
    let decades = most_states.log10().ceil().max(1.0);
    let most_ms = layers
        .iter()
        .map(|l| l.nanos as f64 / 1e6)
        .fold(0.0, f64::max)
        .max(1e-3);
    let total_states: usize = layers.iter().map(|l| l.states).sum();
    let total_ms: f64 = layers.iter().map(|l| l.nanos as f64 / 1e6).sum();
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"monospace\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n\
         <text x=\"10\" y=\"18\" font-size=\"13\">{}</text>\n\
         <text x=\"10\" y=\"36\">{} depths, {total_states} states expanded, {total_ms:.3} ms \
         in the layers</text>",
        escape(title),
        layers.len()
    );
    let states_base = TOP + PANEL;
    let time_base = TOP + 2.0 * PANEL + GAP;
    let _ = writeln!(
        svg,
        "<text x=\"10\" y=\"{:.0}\">states</text>\n<text x=\"10\" y=\"{:.0}\">ms</text>",
        TOP + 10.0,
        time_base - PANEL + 10.0
    );
    for decade in 0..=decades as u32 {
        let y = states_base - PANEL * f64::from(decade) / decades;
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.0}\" y2=\"{y:.1}\" stroke=\"#e4e4e4\"/>\n\
             <text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\">1e{decade}</text>",
            WIDTH - RIGHT,
            LEFT - 4.0,
            y + 4.0
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\">{most_ms:.3}</text>\n\
         <text x=\"{:.0}\" y=\"{time_base:.1}\" text-anchor=\"end\">0</text>",
        LEFT - 4.0,
        time_base - PANEL + 4.0,
        LEFT - 4.0
    );
    let bar = (slot * 0.8).max(1.0);
    let label_every = (20.0 / slot).ceil().max(1.0) as usize;
    for (i, layer) in layers.iter().enumerate() {
        let x = LEFT + i as f64 * slot + (slot - bar) / 2.0;
        let states_h = PANEL * (layer.states.max(1) as f64).log10() / decades;
        let ms = layer.nanos as f64 / 1e6;
        let time_h = PANEL * ms / most_ms;
        let _ = writeln!(
            svg,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar:.1}\" height=\"{states_h:.1}\" \
             fill=\"#3b6ea5\"><title>depth {}: {} states</title></rect>\n\
             <rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar:.1}\" height=\"{time_h:.1}\" \
             fill=\"#d98c2b\"><title>depth {}: {ms:.3} ms</title></rect>",
            states_base - states_h,
            layer.depth,
            layer.states,
            time_base - time_h,
            layer.depth
        );
        if i % label_every == 0 {
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{:.0}\" text-anchor=\"middle\">{}</text>",
                x + bar / 2.0,
                time_base + 14.0,
                layer.depth
            );
        }
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"middle\">depth</text>\n</svg>",
        WIDTH / 2.0,
        time_base + 32.0
    );
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bar_pair_per_depth_inside_the_picture() {
        let layers: Vec<LayerStats> = (1..=40)
            .map(|depth| LayerStats {
                depth,
                states: 1 << (depth / 3),
                children: 0,
                terminal: 0,
                nanos: u64::from(depth) * 1000,
            })
            .collect();
        let svg = draw(&layers, "gen09 <x>");
        assert_eq!(svg.matches("<rect x=").count(), 80);
        assert!(svg.contains("gen09 &lt;x>") && svg.trim_end().ends_with("</svg>"));
        for number in svg.split(" x=\"").skip(1) {
            let x: f64 = number.split('"').next().unwrap().parse().unwrap();
            assert!((0.0..=WIDTH).contains(&x), "{x}");
        }
    }
}
