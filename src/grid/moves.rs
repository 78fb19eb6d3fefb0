//! The 26 moves, their 3x3x3 neighbourhood masks, and which voxels each diagonal rule checks.
//!
//! A neighbourhood mask has bit `(dx + 1) + 3 (dy + 1) + 9 (dz + 1)` set when the voxel at that
//! offset from the centre is blocked for the querying agent. A move is legal when
//! `mask & required[rule][move] == 0`.

use glam::IVec3;

/// When a diagonal move is legal. Whatever the rule, the destination must be free.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DiagonalRule {
    /// Every voxel of the bounding box of the two voxels must be free: an agent filling its
    /// voxel never clips an edge or a corner. The Moving AI benchmark's rule. The default.
    #[default]
    Strict,
    /// The voxels sharing a face with the start in the direction of each changed axis must be
    /// free (for a 2-axis move this is `Strict`; a 3-axis move skips the 3 edge voxels).
    Faces,
    /// Only the destination is checked: diagonals may squeeze between blocked voxels. For
    /// compatibility with systems that do this; agents will clip geometry.
    Unchecked,
}

/// Number of moves from a voxel.
pub(crate) const MOVES: usize = 26;

/// Bit of offset `(dx, dy, dz)` (each in -1..=1) in a neighbourhood mask.
#[inline]
pub(crate) const fn bit(dx: i32, dy: i32, dz: i32) -> u32 {
    ((dx + 1) + 3 * (dy + 1) + 9 * (dz + 1)) as u32
}

/// The 26 offsets: faces first, then edges, then corners; each group in z, y, x order.
pub(crate) const OFFSETS: [IVec3; MOVES] = offsets();

const fn offsets() -> [IVec3; MOVES] {
    let mut out = [IVec3::ZERO; MOVES];
    let mut n = 0;
    let mut axes = 1;
    while axes <= 3 {
        let mut z = -1;
        while z <= 1 {
            let mut y = -1;
            while y <= 1 {
                let mut x = -1;
                while x <= 1 {
                    if (x != 0) as i32 + (y != 0) as i32 + (z != 0) as i32 == axes {
                        out[n] = IVec3::new(x, y, z);
                        n += 1;
                    }
                    x += 1;
                }
                y += 1;
            }
            z += 1;
        }
        axes += 1;
    }
    out
}

/// How many axes move `m` changes (1, 2 or 3).
#[inline]
pub(crate) const fn axes(m: usize) -> usize {
    if m < 6 {
        1
    } else if m < 18 {
        2
    } else {
        3
    }
}

/// Index of the move with offset `d` (`None` unless each component is in -1..=1, not all
/// zero).
#[inline]
pub(crate) fn index_of(d: IVec3) -> Option<usize> {
    let near = |c: i32| (-1..=1).contains(&c);
    if !(near(d.x) && near(d.y) && near(d.z)) {
        return None;
    }
    let m = MOVE_AT_BIT[bit(d.x, d.y, d.z) as usize];
    (m != NO_MOVE).then_some(m as usize)
}

/// [`MOVE_AT_BIT`]'s entry for the centre, which no move reaches.
const NO_MOVE: u8 = u8::MAX;

/// The move whose offset has each neighbourhood bit ([`NO_MOVE`] for the centre).
const MOVE_AT_BIT: [u8; 27] = {
    let mut out = [NO_MOVE; 27];
    let mut m = 0;
    while m < MOVES {
        let d = OFFSETS[m];
        out[bit(d.x, d.y, d.z) as usize] = m as u8;
        m += 1;
    }
    out
};

/// The voxels a rule requires free for each move, as neighbourhood masks.
pub(crate) const REQUIRED: [[u32; MOVES]; 3] =
    [required(DiagonalRule::Strict), required(DiagonalRule::Faces), required(DiagonalRule::Unchecked)];

const fn required(rule: DiagonalRule) -> [u32; MOVES] {
    let mut out = [0; MOVES];
    let mut m = 0;
    while m < MOVES {
        let d = OFFSETS[m];
        let mut mask = 1 << bit(d.x, d.y, d.z);
        match rule {
            DiagonalRule::Strict => {
                // Every voxel of the bounding box of start and destination.
                let mut i = 1;
                while i < 8 {
                    let (x, y, z) = (d.x * (i & 1), d.y * ((i >> 1) & 1), d.z * ((i >> 2) & 1));
                    if x != 0 || y != 0 || z != 0 {
                        mask |= 1 << bit(x, y, z);
                    }
                    i += 1;
                }
            }
            DiagonalRule::Faces => {
                if d.x != 0 {
                    mask |= 1 << bit(d.x, 0, 0);
                }
                if d.y != 0 {
                    mask |= 1 << bit(0, d.y, 0);
                }
                if d.z != 0 {
                    mask |= 1 << bit(0, 0, d.z);
                }
            }
            DiagonalRule::Unchecked => {}
        }
        out[m] = mask;
        m += 1;
    }
    out
}

/// Bitset (bit `m` for move `m`) of the moves legal under `rule` given a blocked-neighbour mask.
#[inline]
pub(crate) fn legal_moves(blocked: u32, rule: DiagonalRule) -> u32 {
    let req = &REQUIRED[rule as usize];
    let mut legal = 0;
    for (m, &r) in req.iter().enumerate() {
        legal |= u32::from(blocked & r == 0) << m;
    }
    legal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_of_finds_each_offset_and_nothing_else() {
        for z in -3..=3 {
            for y in -3..=3 {
                for x in -3..=3 {
                    let d = IVec3::new(x, y, z);
                    assert_eq!(index_of(d), OFFSETS.iter().position(|&o| o == d), "{d}");
                }
            }
        }
        for far in [i32::MIN, i32::MAX] {
            assert_eq!(index_of(IVec3::new(far, 0, 0)), None);
        }
    }

    #[test]
    fn offsets_are_the_26_distinct_neighbours() {
        for (i, a) in OFFSETS.iter().enumerate() {
            assert_eq!(a.abs().max_element(), 1);
            assert_eq!((a.x != 0) as usize + (a.y != 0) as usize + (a.z != 0) as usize, axes(i));
            for b in &OFFSETS[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn strict_corner_move_needs_seven_voxels() {
        let corner = index_of(IVec3::ONE).unwrap();
        assert_eq!(REQUIRED[0][corner].count_ones(), 7);
        assert_eq!(REQUIRED[1][corner].count_ones(), 4);
        assert_eq!(REQUIRED[2][corner].count_ones(), 1);
        let edge = index_of(IVec3::new(1, -1, 0)).unwrap();
        assert_eq!(REQUIRED[0][edge], REQUIRED[1][edge]);
        assert_eq!(REQUIRED[0][edge].count_ones(), 3);
    }

    #[test]
    fn a_blocked_side_voxel_forbids_the_edge_move() {
        let blocked = 1 << bit(1, 0, 0);
        let legal = legal_moves(blocked, DiagonalRule::Strict);
        assert_eq!(legal >> index_of(IVec3::new(1, 1, 0)).unwrap() & 1, 0);
        assert_eq!(legal >> index_of(IVec3::new(0, 1, 0)).unwrap() & 1, 1);
        let legal = legal_moves(blocked, DiagonalRule::Unchecked);
        assert_eq!(legal >> index_of(IVec3::new(1, 1, 0)).unwrap() & 1, 1);
    }
}
