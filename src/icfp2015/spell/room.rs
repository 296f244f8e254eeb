//! The room a board leaves for the units still to come: rows each can descend above the stack,
//! less the covered holes. A short game's search (`spell::exhaustive`) ranks its locks by it.

use crate::icfp2015::rules::game::Game;

/// Rows the units after the falling one can descend on this board (each from its spawn to the
/// top of the stack, in its spawn orientation), less one per covered empty cell.
pub fn room(game: &Game) -> i64 {
    if game.is_over() {
        return 0;
    }
    let board = game.board();
    let rows = board.rows();
    let free = free_rows(game);
    let setup = game.setup();
    let after = (game.locked() as usize + 1).min(game.order().len());
    let descents: i64 = game.order()[after..]
        .iter()
        .map(|&u| {
            let unit = &setup.units[u as usize];
            let shape = unit.shape(unit.spawn.orientation, unit.spawn.y);
            (free - (shape.dy_max - shape.dy_min + 1) as i64).max(0)
        })
        .sum();
    descents - holes(rows, board.width()) as i64
}

/// Rows the falling unit can still descend above the stack, in its orientation.
pub fn falling_room(game: &Game) -> i64 {
    if game.is_over() {
        return 0;
    }
    let pos = game.pos();
    let shape = game.unit().shape(pos.orientation, pos.y);
    (free_rows(game) - 1 - (pos.y + shape.dy_max) as i64).max(0)
}

/// Empty rows above the stack.
fn free_rows(game: &Game) -> i64 {
    game.board().rows().iter().take_while(|&&r| r == 0).count() as i64
}

/// Empty cells with a filled cell somewhere above in their column.
fn holes(rows: &[u128], width: usize) -> u32 {
    let full = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    let mut covered = 0u128;
    let mut holes = 0;
    for &row in rows {
        holes += (covered & !row & full).count_ones();
        covered |= row;
    }
    holes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hole_is_an_empty_cell_under_a_filled_one() {
        assert_eq!(holes(&[0b0110, 0b0100, 0b0011], 4), 2);
        assert_eq!(holes(&[0, 0, 0b1111], 4), 0);
    }
}
