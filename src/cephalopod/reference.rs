//! The verifier: a plain BFS over whole boards with a hash map, written from the rules alone
//! (no tables, no packed states, no symmetry), to check the engine's answers independently.

use super::board::Board;
use std::collections::HashMap;

const NEIGHBOURS: [&[usize]; 9] = [
    &[1, 3],
    &[0, 2, 4],
    &[1, 5],
    &[0, 4, 6],
    &[1, 3, 5, 7],
    &[2, 4, 8],
    &[3, 7],
    &[4, 6, 8],
    &[5, 7],
];

/// Every board one turn leads to, one entry per outcome (a capture subset, or the plain 1).
pub fn children(board: &Board) -> Vec<Board> {
    let mut out = Vec::new();
    for cell in (0..9).filter(|&c| board.cells[c] == 0) {
        let dice: Vec<usize> = NEIGHBOURS[cell]
            .iter()
            .copied()
            .filter(|&n| board.cells[n] > 0)
            .collect();
        let before = out.len();
        for subset in 1u32..(1 << dice.len()) {
            let chosen: Vec<usize> = (0..dice.len())
                .filter(|&i| subset >> i & 1 == 1)
                .map(|i| dice[i])
                .collect();
            let sum: u32 = chosen.iter().map(|&n| board.cells[n] as u32).sum();
            if chosen.len() >= 2 && sum <= 6 {
                let mut child = *board;
                chosen.iter().for_each(|&n| child.cells[n] = 0);
                child.cells[cell] = sum as u8;
                out.push(child);
            }
        }
        if out.len() == before {
            let mut child = *board;
            child.cells[cell] = 1;
            out.push(child);
        }
    }
    out
}

/// The puzzle's answer, by brute force over boards (seconds for the deepest public cases).
pub fn answer(board: &Board, depth: u32) -> u32 {
    if depth == 0 || board.is_full() {
        return board.hash() & ((1 << 30) - 1);
    }
    let mut layer: HashMap<Board, u32> = HashMap::from([(*board, 1)]);
    let mut total = 0u32;
    for d in 1..=depth {
        let mut next: HashMap<Board, u32> = HashMap::with_capacity(layer.len() * 2);
        for (b, &ways) in &layer {
            for child in children(b) {
                if d == depth || child.is_full() {
                    total = total.wrapping_add(ways.wrapping_mul(child.hash()));
                } else {
                    let e = next.entry(child).or_insert(0);
                    *e = e.wrapping_add(ways);
                }
            }
        }
        layer = next;
    }
    total & ((1 << 30) - 1)
}
