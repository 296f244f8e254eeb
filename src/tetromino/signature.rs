//! Signatures: how many of each figure a puzzle uses, written `I49,J127,L49,O13,S127,T126,Z134`.
//! Parsing accepts any order and omitted figures (count 0); display omits zeros, as the server did.

use super::figures::Figure;
use std::fmt;

/// The largest count a signature may hold (an N = 6000 board); bounds every later product.
pub const MAX_COUNT: u32 = 9_000_000;

/// Counts per figure, indexed by [`Figure::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Signature {
    pub counts: [u32; 7],
}

impl Signature {
    pub fn new(counts: [u32; 7]) -> Signature {
        Signature { counts }
    }

    pub fn count(&self, figure: Figure) -> u32 {
        self.counts[figure.index()]
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().map(|&c| u64::from(c)).sum()
    }

    /// Parses `I1,J1,L1,Z1`; the error is one line naming the offending item.
    pub fn parse(text: &str) -> Result<Signature, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("signature: empty (expected items like I4,J2)".into());
        }
        let mut counts = [0u32; 7];
        let mut seen = [false; 7];
        for (position, item) in text.split(',').enumerate() {
            let item = item.trim();
            let mut chars = item.chars();
            let letter = chars
                .next()
                .ok_or_else(|| format!("signature: item {} is empty", position + 1))?;
            let figure = Figure::from_letter(letter.to_ascii_uppercase()).ok_or_else(|| {
                format!(
                    "signature: item {} ({:?}): unknown figure {letter:?} (expected one of IJLOSTZ)",
                    position + 1,
                    shorten(item)
                )
            })?;
            let digits = chars.as_str();
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "signature: item {} ({:?}): count must be a decimal number",
                    position + 1,
                    shorten(item)
                ));
            }
            let count = digits
                .parse::<u32>()
                .ok()
                .filter(|&c| c <= MAX_COUNT)
                .ok_or_else(|| {
                    format!(
                        "signature: item {} ({:?}): count exceeds {MAX_COUNT}",
                        position + 1,
                        shorten(item)
                    )
                })?;
            if std::mem::replace(&mut seen[figure.index()], true) {
                return Err(format!(
                    "signature: item {}: figure {figure} appears twice",
                    position + 1
                ));
            }
            counts[figure.index()] = count;
        }
        Ok(Signature { counts })
    }

    /// Every figure with its count, zeros included (the format of the solvable_*.txt lists).
    pub fn to_full_string(&self) -> String {
        Figure::ALL
            .iter()
            .map(|f| format!("{f}{}", self.count(*f)))
            .collect::<Vec<_>>()
            .join(",")
    }
}

fn shorten(item: &str) -> String {
    item.chars().take(24).collect()
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for figure in Figure::ALL {
            let count = self.count(figure);
            if count > 0 {
                if !first {
                    f.write_str(",")?;
                }
                write!(f, "{figure}{count}")?;
                first = false;
            }
        }
        Ok(())
    }
}

/// Every multiset of `pieces` figures, in a fixed order.
pub fn all_multisets(pieces: u32) -> Vec<Signature> {
    fn fill(counts: &mut [u32; 7], index: usize, left: u32, out: &mut Vec<Signature>) {
        if index == 6 {
            counts[6] = left;
            out.push(Signature::new(*counts));
            return;
        }
        for c in 0..=left {
            counts[index] = c;
            fill(counts, index + 1, left - c, out);
        }
    }
    let mut out = Vec::new();
    fill(&mut [0; 7], 0, pieces, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let s = Signature::parse("I49,J127,L49,O13,S127,T126,Z134").unwrap();
        assert_eq!(s.counts, [49, 127, 49, 13, 127, 126, 134]);
        assert_eq!(s.to_string(), "I49,J127,L49,O13,S127,T126,Z134");
        let t = Signature::parse("Z1, L1 ,J1,I1,O0").unwrap();
        assert_eq!(t.to_string(), "I1,J1,L1,Z1");
        assert_eq!(t.to_full_string(), "I1,J1,L1,O0,S0,T0,Z1");
    }

    #[test]
    fn rejects_with_one_line_naming_the_item() {
        for (text, needle) in [
            ("", "empty"),
            ("I1,,J2", "item 2 is empty"),
            ("X3", "unknown figure"),
            ("I", "decimal"),
            ("I-1", "decimal"),
            ("I99999999999", "exceeds"),
            ("I1,I2", "twice"),
        ] {
            let e = Signature::parse(text).unwrap_err();
            assert!(e.contains(needle), "{text}: {e}");
            assert!(!e.contains('\n'));
        }
    }
}
