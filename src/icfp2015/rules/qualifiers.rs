//! The contest's 25 qualifier problems, bundled: what the bench plays and the best-solution
//! store re-scores against.

/// The 25 qualifier problems, bundled.
pub const QUALIFIER_PROBLEMS: [&str; 25] = [
    include_str!("../../../data/icfp2015/problems/problem_0.json"),
    include_str!("../../../data/icfp2015/problems/problem_1.json"),
    include_str!("../../../data/icfp2015/problems/problem_2.json"),
    include_str!("../../../data/icfp2015/problems/problem_3.json"),
    include_str!("../../../data/icfp2015/problems/problem_4.json"),
    include_str!("../../../data/icfp2015/problems/problem_5.json"),
    include_str!("../../../data/icfp2015/problems/problem_6.json"),
    include_str!("../../../data/icfp2015/problems/problem_7.json"),
    include_str!("../../../data/icfp2015/problems/problem_8.json"),
    include_str!("../../../data/icfp2015/problems/problem_9.json"),
    include_str!("../../../data/icfp2015/problems/problem_10.json"),
    include_str!("../../../data/icfp2015/problems/problem_11.json"),
    include_str!("../../../data/icfp2015/problems/problem_12.json"),
    include_str!("../../../data/icfp2015/problems/problem_13.json"),
    include_str!("../../../data/icfp2015/problems/problem_14.json"),
    include_str!("../../../data/icfp2015/problems/problem_15.json"),
    include_str!("../../../data/icfp2015/problems/problem_16.json"),
    include_str!("../../../data/icfp2015/problems/problem_17.json"),
    include_str!("../../../data/icfp2015/problems/problem_18.json"),
    include_str!("../../../data/icfp2015/problems/problem_19.json"),
    include_str!("../../../data/icfp2015/problems/problem_20.json"),
    include_str!("../../../data/icfp2015/problems/problem_21.json"),
    include_str!("../../../data/icfp2015/problems/problem_22.json"),
    include_str!("../../../data/icfp2015/problems/problem_23.json"),
    include_str!("../../../data/icfp2015/problems/problem_24.json"),
];
