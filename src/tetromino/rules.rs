//! Instant proofs of impossibility: area, the colouring invariants, S/Z only and single type.
//! Each returns the reason as one line; passing them all says nothing about solvability.

use super::figures::Figure;
use super::invariants;
use super::signature::Signature;

/// Why the `size` x `size` square cannot be tiled with `signature`, if a rule shows it.
pub fn impossibility(size: usize, signature: &Signature) -> Option<String> {
    if let Some(reason) = impossibility_by_area(size, signature) {
        return Some(reason);
    }
    if let Some(refutation) = invariants::refute(size, signature) {
        return Some(refutation.line);
    }
    figure_rules(size, signature)
}

/// The proofs that cost nothing: area, S/Z only and single type (not the colourings, whose
/// exact check takes ~10 ms on a large board: [`super::decide`] runs it after a quick search).
pub fn cheap_impossibility(size: usize, signature: &Signature) -> Option<String> {
    let area = (size as u64) * (size as u64);
    if size % 2 == 1 || signature.total() * 4 != area {
        return impossibility_by_area(size, signature);
    }
    figure_rules(size, signature)
}

fn impossibility_by_area(size: usize, signature: &Signature) -> Option<String> {
    let area = (size as u64) * (size as u64);
    if size % 2 == 1 {
        return Some(format!(
            "area: N = {size} is odd, so N*N = {area} cells is not a multiple of 4"
        ));
    }
    (signature.total() * 4 != area).then(|| {
        format!(
            "area: the {} pieces cover {} cells, the board has {area}",
            signature.total(),
            signature.total() * 4
        )
    })
}

/// S/Z only and single type.
fn figure_rules(size: usize, signature: &Signature) -> Option<String> {
    let present: Vec<Figure> = Figure::ALL
        .into_iter()
        .filter(|&f| signature.count(f) > 0)
        .collect();
    let only_s_z = present.iter().all(|f| matches!(f, Figure::S | Figure::Z));
    if !present.is_empty() && only_s_z {
        return Some(
            "only S and Z: covering a corner forces a staircase of S/Z along the edge that cannot close at the next corner, so they never tile a square"
                .into(),
        );
    }
    if let [only] = present[..] {
        if matches!(only, Figure::T | Figure::I | Figure::L | Figure::J) && !size.is_multiple_of(4)
        {
            return Some(format!(
                "single type: only {only} tiles an N x N square exactly when 4 divides N, and N = {size}"
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(size: usize, sig: &str) -> Option<String> {
        impossibility(size, &Signature::parse(sig).unwrap())
    }

    #[test]
    fn each_rule_fires_with_its_reason() {
        assert!(check(5, "O6").unwrap().starts_with("area"));
        assert!(check(4, "O3").unwrap().starts_with("area"));
        assert!(check(4, "T1,O3").unwrap().starts_with("checkerboard"));
        assert!(check(4, "L1,O3").unwrap().starts_with("column stripes"));
        assert!(check(4, "S2,Z2").unwrap().starts_with("only S and Z"));
        assert!(check(6, "T9").unwrap().starts_with("checkerboard"));
        assert!(check(6, "I9").is_some());
        assert!(check(10, "T25").unwrap().starts_with("checkerboard"));
        assert!(check(6, "L4,J4,I1").is_none());
        assert!(check(2, "O1").is_none());
        assert!(check(2, "I1").is_some());
        assert!(check(4, "T4").is_none());
    }
}
