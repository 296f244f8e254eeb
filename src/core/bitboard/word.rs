//! The machine word that holds one board row, and the mask of a row's columns.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

/// A machine word that holds one board row, bit c for column c: `u64` for boards up to 64
/// columns (tetromino, bananagrams), `u128` up to 128 (icfp2015's widest, 100).
pub trait RowWord:
    Copy
    + Eq
    + Hash
    + Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
{
    const BITS: usize;
    const EMPTY: Self;
    /// The bits of columns `0..width` set; `width` may be 0 to `BITS`.
    fn row_mask(width: usize) -> Self;
    /// Column `column`'s bit alone.
    fn bit(column: usize) -> Self;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    /// The word without its lowest set bit.
    fn without_lowest(self) -> Self;
    /// Columns 0..64 as a `u64`: a board no wider than 64 columns can test its rows with
    /// 64-bit operations, which are cheaper than 128-bit ones.
    fn low_u64(self) -> u64;
}

macro_rules! row_word {
    ($word:ty) => {
        impl RowWord for $word {
            const BITS: usize = <$word>::BITS as usize;
            const EMPTY: Self = 0;
            #[inline]
            fn row_mask(width: usize) -> Self {
                assert!(
                    width <= <Self as RowWord>::BITS,
                    "row_mask: width {width} exceeds {}",
                    Self::BITS
                );
                if width == <Self as RowWord>::BITS {
                    <$word>::MAX
                } else {
                    (1 << width) - 1
                }
            }
            #[inline]
            fn bit(column: usize) -> Self {
                debug_assert!(column < <Self as RowWord>::BITS);
                1 << column
            }
            #[inline]
            fn count_ones(self) -> u32 {
                <$word>::count_ones(self)
            }
            #[inline]
            fn trailing_zeros(self) -> u32 {
                <$word>::trailing_zeros(self)
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn low_u64(self) -> u64 {
                self as u64
            }
        }
    };
}
row_word!(u64);
row_word!(u128);

/// The bits of columns `0..width` set, in the row word `W`; `width` may be 0 to `W::BITS`.
#[inline]
pub fn row_mask<W: RowWord>(width: usize) -> W {
    W::row_mask(width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_mask_covers_exactly_width_columns() {
        assert_eq!(row_mask::<u64>(0), 0);
        assert_eq!(row_mask::<u64>(1), 1);
        assert_eq!(row_mask::<u64>(10), 0x3ff);
        assert_eq!(row_mask::<u64>(63), u64::MAX >> 1);
        assert_eq!(row_mask::<u64>(64), u64::MAX);
        assert_eq!(row_mask::<u128>(100), u128::MAX >> 28);
        assert_eq!(row_mask::<u128>(128), u128::MAX);
    }

    #[test]
    #[should_panic(expected = "exceeds 64")]
    fn row_mask_rejects_wide_rows() {
        row_mask::<u64>(65);
    }
}
