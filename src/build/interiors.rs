//! Interiors stage: which free voxels are reachable from the seeds (or from the grid's
//! boundary), by a 26-connected scan-line flood over [`Bits`]. Whatever is not reached is
//! sealed off (made solid by the caller): hollow insides of closed solids, and the void around
//! a closed level.
//!
//! 26-connected, because that is the most any agent can move (a diagonal step under the
//! loosest [`DiagonalRule`](crate::DiagonalRule)); sealing keeps every voxel some agent could
//! reach. It cannot leak through a wall: the surface voxels of a conservative voxelisation
//! separate even 26-connected space (a diagonal step between two voxel centres stays inside
//! the two voxels' closed boxes, so a surface it crosses touches one of them, which is then
//! blocked).

use glam::IVec3;

use super::bits::{Bits, set_run};

/// Free voxels of `solid`'s grid, as a row's words (bits past the grid's x extent clear).
#[inline]
fn free_word(solid: &[u64], w: usize, dims_x: usize) -> u64 {
    let valid = if (w + 1) * 64 <= dims_x { !0 } else { (1u64 << (dims_x - w * 64)) - 1 };
    !solid[w] & valid
}

/// The free run of a row containing free voxel `x`: `(first, last)`.
fn run_around(solid: &[u64], x: usize, dims_x: usize) -> (usize, usize) {
    let mut l = x;
    loop {
        // Blocked voxels at or below l in l's word: the run starts after the highest.
        let w = l / 64;
        let below = !free_word(solid, w, dims_x) & (!0u64 >> (63 - l % 64));
        if below != 0 {
            l = w * 64 + 64 - below.leading_zeros() as usize;
            break;
        }
        if w == 0 {
            l = 0;
            break;
        }
        l = w * 64 - 1;
    }
    let mut r = x;
    loop {
        let w = r / 64;
        let above = !free_word(solid, w, dims_x) & (!0u64 << (r % 64));
        if above != 0 {
            r = w * 64 + above.trailing_zeros() as usize - 1;
            break;
        }
        r = w * 64 + 64;
        if r >= dims_x {
            r = dims_x - 1;
            break;
        }
    }
    (l, r)
}

/// Every free voxel (clear in `solid`) connected to a start through free voxels, 26-connected.
/// Starts that are blocked or outside the grid are ignored.
pub(crate) fn reachable(solid: &Bits, starts: impl IntoIterator<Item = IVec3>) -> Bits {
    let dims = solid.dims;
    let dx = dims.x as usize;
    let mut reached = Bits { wpr: solid.wpr, dims, words: vec![0; solid.words.len()] };
    let mut stack: Vec<(i32, i32, usize, usize)> = Vec::new();
    let inside = |v: IVec3| v.cmpge(IVec3::ZERO).all() && v.cmplt(dims).all();
    for s in starts {
        if !inside(s) || solid.get(s) || reached.get(s) {
            continue;
        }
        let (l, r) = run_around(solid.row(s.y, s.z), s.x as usize, dx);
        let at = reached.row_start(s.y, s.z);
        set_run(&mut reached.words[at..at + solid.wpr], l, r);
        stack.push((s.y, s.z, l, r));
        while let Some((y, z, a, b)) = stack.pop() {
            let (lo, hi) = (a.saturating_sub(1), (b + 1).min(dx - 1));
            for (ny, nz) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                let (ny, nz) = (y + ny, z + nz);
                if ny < 0 || nz < 0 || ny >= dims.y || nz >= dims.z {
                    continue;
                }
                let srow = solid.row(ny, nz);
                let at = reached.row_start(ny, nz);
                let mut x = lo;
                while x <= hi {
                    let w = x / 64;
                    let mask = (!0u64 << (x % 64)) & if hi / 64 == w { !0u64 >> (63 - hi % 64) } else { !0 };
                    let cand = free_word(srow, w, dx) & !reached.words[at + w] & mask;
                    if cand == 0 {
                        x = (w + 1) * 64;
                        continue;
                    }
                    let f = w * 64 + cand.trailing_zeros() as usize;
                    let (l, r) = run_around(srow, f, dx);
                    set_run(&mut reached.words[at..at + solid.wpr], l, r);
                    stack.push((ny, nz, l, r));
                    x = r + 1;
                }
            }
        }
    }
    reached
}

/// The voxels on the grid's six faces (starts for a flood from outside the level).
pub(crate) fn boundary(dims: IVec3) -> impl Iterator<Item = IVec3> {
    let (x1, y1, z1) = (dims.x - 1, dims.y - 1, dims.z - 1);
    let faces_yz =
        (0..dims.z).flat_map(move |z| (0..dims.y).flat_map(move |y| [IVec3::new(0, y, z), IVec3::new(x1, y, z)]));
    let faces_xz =
        (0..dims.z).flat_map(move |z| (0..dims.x).flat_map(move |x| [IVec3::new(x, 0, z), IVec3::new(x, y1, z)]));
    let faces_xy =
        (0..dims.y).flat_map(move |y| (0..dims.x).flat_map(move |x| [IVec3::new(x, y, 0), IVec3::new(x, y, z1)]));
    faces_yz.chain(faces_xz).chain(faces_xy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::bits::Grid;

    /// Plain 26-connected flood, voxel by voxel.
    fn naive(solid: &Bits, start: IVec3) -> Vec<IVec3> {
        let d = solid.dims;
        let mut seen = vec![false; (d.x * d.y * d.z) as usize];
        let idx = |v: IVec3| ((v.z * d.y + v.y) * d.x + v.x) as usize;
        let mut stack = vec![start];
        seen[idx(start)] = true;
        let mut out = Vec::new();
        while let Some(v) = stack.pop() {
            out.push(v);
            for dz in -1..=1 {
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let n = v + IVec3::new(dx, dy, dz);
                        if n.cmpge(IVec3::ZERO).all() && n.cmplt(d).all() && !solid.get(n) && !seen[idx(n)] {
                            seen[idx(n)] = true;
                            stack.push(n);
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn flood_matches_a_voxel_by_voxel_flood() {
        let grid = Grid { origin: glam::DVec3::ZERO, size: 1.0, dims: IVec3::new(70, 9, 8) };
        let mut seed = 99u64;
        for density in [20u64, 45, 60] {
            let mut solid = Bits::new(&grid);
            for z in 0..8 {
                for y in 0..9 {
                    for x in 0..70usize {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        if (seed >> 33) % 100 < density {
                            let at = solid.row_start(y, z);
                            set_run(&mut solid.words[at..at + solid.wpr], x, x);
                        }
                    }
                }
            }
            let start = (0..70).map(|x| IVec3::new(x, 4, 4)).find(|&v| !solid.get(v)).unwrap();
            let fast = reachable(&solid, [start]);
            let slow = naive(&solid, start);
            assert_eq!(fast.count(), slow.len() as u64, "density {density}");
            assert!(slow.iter().all(|&v| fast.get(v)));
        }
    }

    #[test]
    fn boundary_lists_the_faces() {
        let d = IVec3::new(4, 5, 6);
        let set: std::collections::HashSet<IVec3> = boundary(d).collect();
        assert_eq!(set.len(), (4 * 5 * 6 - 2 * 3 * 4) as usize);
    }
}
