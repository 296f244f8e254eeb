//! The 40 reference instances of data/slider (embedded, so `bench` and the tests run anywhere)
//! and the public peers' raw scores on them from data/slider/peer_scores.tsv.

/// (seed, instance text) for seeds 1..=40.
pub const INSTANCES: [(u64, &str); 40] = [
    (1, include_str!("../../data/slider/instances/seed_001.txt")),
    (2, include_str!("../../data/slider/instances/seed_002.txt")),
    (3, include_str!("../../data/slider/instances/seed_003.txt")),
    (4, include_str!("../../data/slider/instances/seed_004.txt")),
    (5, include_str!("../../data/slider/instances/seed_005.txt")),
    (6, include_str!("../../data/slider/instances/seed_006.txt")),
    (7, include_str!("../../data/slider/instances/seed_007.txt")),
    (8, include_str!("../../data/slider/instances/seed_008.txt")),
    (9, include_str!("../../data/slider/instances/seed_009.txt")),
    (10, include_str!("../../data/slider/instances/seed_010.txt")),
    (11, include_str!("../../data/slider/instances/seed_011.txt")),
    (12, include_str!("../../data/slider/instances/seed_012.txt")),
    (13, include_str!("../../data/slider/instances/seed_013.txt")),
    (14, include_str!("../../data/slider/instances/seed_014.txt")),
    (15, include_str!("../../data/slider/instances/seed_015.txt")),
    (16, include_str!("../../data/slider/instances/seed_016.txt")),
    (17, include_str!("../../data/slider/instances/seed_017.txt")),
    (18, include_str!("../../data/slider/instances/seed_018.txt")),
    (19, include_str!("../../data/slider/instances/seed_019.txt")),
    (20, include_str!("../../data/slider/instances/seed_020.txt")),
    (21, include_str!("../../data/slider/instances/seed_021.txt")),
    (22, include_str!("../../data/slider/instances/seed_022.txt")),
    (23, include_str!("../../data/slider/instances/seed_023.txt")),
    (24, include_str!("../../data/slider/instances/seed_024.txt")),
    (25, include_str!("../../data/slider/instances/seed_025.txt")),
    (26, include_str!("../../data/slider/instances/seed_026.txt")),
    (27, include_str!("../../data/slider/instances/seed_027.txt")),
    (28, include_str!("../../data/slider/instances/seed_028.txt")),
    (29, include_str!("../../data/slider/instances/seed_029.txt")),
    (30, include_str!("../../data/slider/instances/seed_030.txt")),
    (31, include_str!("../../data/slider/instances/seed_031.txt")),
    (32, include_str!("../../data/slider/instances/seed_032.txt")),
    (33, include_str!("../../data/slider/instances/seed_033.txt")),
    (34, include_str!("../../data/slider/instances/seed_034.txt")),
    (35, include_str!("../../data/slider/instances/seed_035.txt")),
    (36, include_str!("../../data/slider/instances/seed_036.txt")),
    (37, include_str!("../../data/slider/instances/seed_037.txt")),
    (38, include_str!("../../data/slider/instances/seed_038.txt")),
    (39, include_str!("../../data/slider/instances/seed_039.txt")),
    (40, include_str!("../../data/slider/instances/seed_040.txt")),
];

pub const PEER_SCORES: &str = include_str!("../../data/slider/peer_scores.tsv");

/// One row of peer_scores.tsv.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peers {
    pub seed: u64,
    pub arukuka: i64,
    pub dedentete: i64,
    pub highjump425: i64,
    pub best: i64,
}

/// The peers' rows, by seed order of the file.
pub fn peers() -> Vec<Peers> {
    PEER_SCORES
        .lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<i64> = line
                .split('\t')
                .map(|x| x.trim().parse().unwrap_or(-1))
                .collect();
            (f.len() == 9).then(|| Peers {
                seed: f[0] as u64,
                arukuka: f[5],
                dedentete: f[6],
                highjump425: f[7],
                best: f[8],
            })
        })
        .collect()
}
