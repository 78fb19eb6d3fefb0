//! Cuts the free voxels of one cube of the world into 6-connected *pieces*: the one labeller
//! behind [`Components`](super::components::Components) (16^3 chunks) and the coarse graph of
//! [`regions`](super::regions) (8^3 blocks).

/// Piece index of a blocked voxel.
pub(crate) const NO_PIECE: u16 = u16::MAX;

/// Labels the 6-connected pieces of the free voxels of a cube of `N` voxels a side (`N` at
/// most 16), given as its x-rows of blocked bits (`blocked[y + N * z]`, bit `x`; bits from `N`
/// up are ignored): writes a piece index per voxel to `labels[x + N * (y + N * z)]`
/// ([`NO_PIECE`]: blocked) and returns the number of pieces (at most `N^3 / 2`, a
/// checkerboard's). Pieces are numbered in the order of their first voxel.
///
/// A piece grows by whole rows: a pass ORs each row with its four neighbour rows, masked by
/// the row's free bits, and spreads the result along the row; passes go up and down the rows
/// in turn until one changes nothing.
#[inline]
pub(crate) fn label_pieces<const N: usize>(blocked: &[u16], labels: &mut [u16]) -> usize {
    const { assert!(N >= 1 && N <= 16) };
    let rows = N * N;
    debug_assert!(blocked.len() == rows && labels.len() == rows * N);
    let full = ((1u32 << N) - 1) as u16;
    // Rows of free bits, those not yet in a piece, and the piece growing (on the stack).
    let mut free = [0u16; 256];
    for (f, b) in free.iter_mut().zip(blocked) {
        *f = !b & full;
    }
    let free = &free[..rows];
    let mut left = [0u16; 256];
    left[..rows].copy_from_slice(free);
    let left = &mut left[..rows];
    let mut fill = [0u16; 256];
    let fill = &mut fill[..rows];
    labels.fill(NO_PIECE);
    let mut pieces = 0usize;
    // Rows before `seed_row` are all in pieces already.
    let mut seed_row = 0;
    while let Some(found) = left[seed_row..].iter().position(|&r| r != 0) {
        seed_row += found;
        fill.fill(0);
        fill[seed_row] = left[seed_row] & left[seed_row].wrapping_neg();
        // Passes go up and down the rows in turn: a pass carries the piece along its
        // direction, however far.
        for pass in 0.. {
            let mut changed = false;
            for i in 0..rows {
                let r = if pass % 2 == 0 { i } else { rows - 1 - i };
                let (ly, lz) = (r % N, r / N);
                let mut s = fill[r];
                if ly > 0 {
                    s |= fill[r - 1];
                }
                if ly + 1 < N {
                    s |= fill[r + 1];
                }
                if lz > 0 {
                    s |= fill[r - N];
                }
                if lz + 1 < N {
                    s |= fill[r + N];
                }
                s &= free[r];
                // Spread along the row through free voxels.
                loop {
                    let t = (s | s << 1 | s >> 1) & free[r];
                    if t == s {
                        break;
                    }
                    s = t;
                }
                if s != fill[r] {
                    fill[r] = s;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let id = pieces as u16;
        for (r, &bits) in fill.iter().enumerate() {
            left[r] &= !bits;
            let mut b = bits;
            while b != 0 {
                let x = b.trailing_zeros() as usize;
                b &= b - 1;
                labels[r * N + x] = id;
            }
        }
        pieces += 1;
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::seeded::Rng;

    /// Against a plain flood over voxels, on seeded random cubes of both sizes: the same
    /// partition into pieces, numbered in the order of their first voxel.
    #[test]
    fn pieces_match_a_voxel_flood() {
        fn check<const N: usize>(rng: &mut Rng, density: u32) {
            let blocked: Vec<u16> = (0..N * N)
                .map(|_| (0..N).fold(0u16, |row, x| row | u16::from(rng.below(100) < density) << x))
                .collect();
            let mut labels = vec![0; N * N * N];
            let count = label_pieces::<N>(&blocked, &mut labels);
            let free = |i: usize| blocked[i / N] >> (i % N) & 1 == 0;
            let mut expected = vec![NO_PIECE; N * N * N];
            let mut pieces = 0u16;
            for seed in 0..N * N * N {
                if expected[seed] != NO_PIECE || !free(seed) {
                    continue;
                }
                let mut stack = vec![seed];
                expected[seed] = pieces;
                while let Some(i) = stack.pop() {
                    let (x, y, z) = (i % N, i / N % N, i / (N * N));
                    let mut near = Vec::new();
                    if x > 0 {
                        near.push(i - 1);
                    }
                    if x + 1 < N {
                        near.push(i + 1);
                    }
                    if y > 0 {
                        near.push(i - N);
                    }
                    if y + 1 < N {
                        near.push(i + N);
                    }
                    if z > 0 {
                        near.push(i - N * N);
                    }
                    if z + 1 < N {
                        near.push(i + N * N);
                    }
                    for j in near {
                        if expected[j] == NO_PIECE && free(j) {
                            expected[j] = pieces;
                            stack.push(j);
                        }
                    }
                }
                pieces += 1;
            }
            assert_eq!(count, usize::from(pieces));
            assert_eq!(labels, expected);
        }
        let mut rng = Rng(0x91EC_E5ED);
        for round in 0..200 {
            let density = [0, 20, 40, 55, 70, 100][round % 6];
            check::<8>(&mut rng, density);
            check::<16>(&mut rng, density);
        }
    }
}
