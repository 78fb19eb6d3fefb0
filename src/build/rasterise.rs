//! Rasterise stage: every voxel a solid triangle touches, conservatively, into a [`Bits`].
//!
//! The Recast way, exact: clip each triangle to the closed slab `[k, k + 1]` of each layer
//! it spans, find the extent of that polygon in each row's slab `[j, j + 1]` (one walk over its
//! edges), and set the run that extent covers. Layers, rows and runs are along the axes that
//! suit each triangle (see `order_of`). Voxel boxes are closed, so a triangle lying exactly on a voxel face blocks both
//! voxels. Clipping is done in `f64` voxel units against slabs widened by [`EPS`], which covers
//! the rounding of the clipping itself: no voxel the triangle touches is ever missed, and only
//! voxels within `EPS` of the triangle are added.
//!
//! Work is split into regions, slabs of whole z-layers of the output (disjoint slices; one
//! region on one thread, four per thread with feature `parallel`); a triangle spanning several
//! regions is scanned in each, clipped to it. The bits never depend on the split.

use glam::{DVec3, IVec3};

use super::bits::{Bits, Grid, set_run};
use super::mesh::TriangleMesh;

/// Slab widening, in voxels: far above the rounding of clipping coordinates below 2^20.
pub(crate) const EPS: f64 = 1e-6;

/// A convex polygon of at most 9 vertices (a triangle clipped by up to 4 planes + spare).
#[derive(Clone, Copy)]
struct Poly {
    v: [DVec3; 9],
    n: usize,
}

impl Poly {
    /// The polygon's part with `p[axis] >= lo` (`keep_above`) or `p[axis] <= lo`, into `out`;
    /// vertices on the plane are kept, so a polygon touching the plane keeps a point or edge.
    #[inline]
    fn clip(&self, axis: usize, lo: f64, keep_above: bool, out: &mut Poly) {
        out.n = 0;
        let d = |p: DVec3| if keep_above { p[axis] - lo } else { lo - p[axis] };
        if self.n == 0 {
            return;
        }
        let mut b = self.v[self.n - 1];
        let mut db = d(b);
        for i in 0..self.n {
            // The edge from the previous vertex `a` to this one, `b`.
            let (a, da) = (b, db);
            b = self.v[i];
            db = d(b);
            if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
                let mut p = a + (b - a) * (da / (da - db));
                p[axis] = lo;
                out.v[out.n] = p;
                out.n += 1;
            }
            if db >= 0.0 {
                out.v[out.n] = b;
                out.n += 1;
            }
        }
    }

    /// The part inside the slab `lo..=hi` along `axis`, into `out` (`tmp` is scratch).
    #[inline]
    fn clip_slab(&self, axis: usize, lo: f64, hi: f64, tmp: &mut Poly, out: &mut Poly) {
        self.clip(axis, lo, true, tmp);
        tmp.clip(axis, hi, false, out);
    }

    #[inline]
    fn range(&self, axis: usize) -> (f64, f64) {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in &self.v[..self.n] {
            let c = p[axis];
            lo = if c < lo { c } else { lo };
            hi = if c > hi { c } else { hi };
        }
        (lo, hi)
    }
}

/// `round(x)` (ties to even) as an integer and as a float, for `x` clamped to `±1e9` (NaN to
/// `-1e9`): adding 1.5 * 2^52 leaves the integer in the low bits of the sum, with no
/// conversion instruction (`f64::floor` is a library call without SSE4.1, and `as i32`
/// checks for saturation).
#[inline]
fn round_i(x: f64) -> (f64, i32, f64) {
    const MAGIC: f64 = 6_755_399_441_055_744.0;
    #[expect(clippy::manual_clamp, reason = "two instructions; clamp's checks cost measurably here")]
    let x = x.max(-1e9).min(1e9);
    let s = x + MAGIC;
    (x, s.to_bits() as i32, s - MAGIC)
}

/// `floor(x)` as an integer, for `|x|` below 1e9 (clamped there).
#[inline]
fn floor_i(x: f64) -> i32 {
    let (x, r, rf) = round_i(x);
    r - i32::from(rf > x)
}

/// `ceil(x)` as an integer, for `|x|` below 1e9 (clamped there).
#[inline]
fn ceil_i(x: f64) -> i32 {
    let (x, r, rf) = round_i(x);
    r + i32::from(rf < x)
}

/// The voxels `lo..=hi` (clamped to `0..n`) whose closed extent `[i, i + 1]` meets `[a, b]`
/// widened by [`EPS`].
#[inline]
fn cells(a: f64, b: f64, n: i32) -> (i32, i32) {
    ((ceil_i(a - EPS) - 1).max(0), floor_i(b + EPS).min(n - 1))
}

/// Whether `[a, b]` widened by [`EPS`] meets a single voxel `[i, i + 1]`, inside the grid or
/// not (a shape clipped by the grid's edge to one layer still needs clipping).
#[inline]
fn one_cell(a: f64, b: f64) -> bool {
    ceil_i(a - EPS) - 1 == floor_i(b + EPS)
}

/// Axis orders `(run, row, layer)`: the identity first.
const ORDERS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/// The order for a triangle of normal `n`: runs along the axis most parallel to it (smallest
/// normal component), layers across it (largest), so that it spans few layers of long runs.
#[inline]
fn order_of(n: DVec3) -> usize {
    let n = n.abs();
    let run = if n.x <= n.y && n.x <= n.z {
        0
    } else if n.y <= n.z {
        1
    } else {
        2
    };
    let (a, b) = ((run + 1) % 3, (run + 2) % 3);
    let layer = if n[a] >= n[b] { a } else { b };
    ORDERS.iter().position(|o| o[0] == run && o[2] == layer).unwrap_or(0)
}

/// Every voxel of `grid` that a triangle of `mesh` touches (triangles naming a missing vertex
/// are skipped). Runs on the current rayon pool with feature `parallel`.
///
/// Each triangle is scanned with its runs along the axis most parallel to it and its layers
/// across it (see [`order_of`]), so a wall facing x is a few long runs, not one run per voxel,
/// and a floor is one or two layers. Runs are written straight into the world's x-rows: a run
/// along x word by word, a run along y or z one word per voxel (the same bit of successive rows).
pub(crate) fn rasterise(mesh: &TriangleMesh, grid: &Grid) -> Bits {
    let verts: Vec<DVec3> = mesh.positions.iter().map(|&p| grid.voxel_coords(p)).collect();
    // Each triangle's corners, in its order, stored contiguously for the scan; triangles
    // wholly outside the grid are dropped (ranges are clamped later, so check here).
    let mut by_order: [Vec<[DVec3; 3]>; 6] = Default::default();
    let top = grid.dims.as_dvec3() + EPS;
    for t in &mesh.triangles {
        let Some([a, b, c]) = corners(&verts, t) else { continue };
        if a.max(b).max(c).cmplt(DVec3::splat(-EPS)).any() || a.min(b).min(c).cmpgt(top).any() {
            continue;
        }
        let k = order_of((b - a).cross(c - a));
        let o = ORDERS[k];
        by_order[k].push([a, b, c].map(|v| DVec3::new(v[o[0]], v[o[1]], v[o[2]])));
    }
    drop(verts);
    let mut out = Bits::new(grid);
    let dims = grid.dims;
    // Regions: slabs of whole z-layers of the output, disjoint slices. One per thread and a
    // few more for balance; one on one thread. The bits are the same whatever the split.
    #[cfg(feature = "parallel")]
    let threads = rayon::current_num_threads() as i32;
    #[cfg(not(feature = "parallel"))]
    let threads = 1i32;
    let regions = if threads <= 1 { 1 } else { threads * 4 };
    let slab = (dims.z + regions - 1) / regions;
    let wpr = out.wpr;
    let run = |(r, words): (usize, &mut [u64])| {
        let z0 = r as i32 * slab;
        let z1 = (z0 + slab).min(dims.z) - 1;
        let mut scratch = Scratch { polys: [Poly { v: [DVec3::ZERO; 9], n: 0 }; 3], extents: Vec::new() };
        for (k, tris) in by_order.iter().enumerate() {
            let o = ORDERS[k];
            let odims = IVec3::new(dims[o[0]], dims[o[1]], dims[o[2]]);
            // This region's limits on the order's axes: all of each, but z0..=z1 on z.
            let mut lim = [(0, odims.x - 1), (0, odims.y - 1), (0, odims.z - 1)];
            let zi = o.iter().position(|&a| a == 2).unwrap_or(2);
            lim[zi] = (z0, z1);
            let zlo = f64::from(z0) - EPS;
            let zhi = f64::from(z1 + 1) + EPS;
            // Word strides of a step along each of the order's axes (x: per bit, see below).
            let stride = |a: usize| match a {
                1 => wpr,
                2 => wpr * dims.y as usize,
                _ => 0,
            };
            let w = Writer {
                run_axis: o[0],
                strides: [stride(o[0]), stride(o[1]), stride(o[2])],
                base: z0 as usize * wpr * dims.y as usize,
            };
            for t in tris {
                let (lo, hi) = (t[0][zi].min(t[1][zi]).min(t[2][zi]), t[0][zi].max(t[1][zi]).max(t[2][zi]));
                if hi < zlo || lo > zhi {
                    continue;
                }
                triangle(*t, odims, lim, &w, words, &mut scratch);
            }
        }
    };
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        if regions > 1 {
            let slab_words = wpr * dims.y as usize * slab as usize;
            out.words.par_chunks_mut(slab_words).enumerate().for_each(run);
        } else {
            run((0, &mut out.words));
        }
    }
    #[cfg(not(feature = "parallel"))]
    run((0, &mut out.words));
    out
}

/// Where a run of an order goes in a region of the world's x-rows.
struct Writer {
    /// The world axis of the order's runs.
    run_axis: usize,
    /// Words per step along the order's run, row and layer axes (0 for x: bits in a word).
    strides: [usize; 3],
    /// Index of the region's first word in the whole grid.
    base: usize,
}

impl Writer {
    /// Sets voxels `i0..=i1` of row `j` of layer `k` (the order's coordinates, in the region).
    #[inline]
    fn set(&self, words: &mut [u64], (i0, i1): (i32, i32), j: i32, k: i32) {
        let [s0, s1, s2] = self.strides;
        let at = j as usize * s1 + k as usize * s2;
        if self.run_axis == 0 {
            set_run(&mut words[at - self.base..], i0 as usize, i1 as usize);
        } else {
            // The world x is the row's or the layer's coordinate: one bit of successive rows.
            let x = if s1 == 0 { j } else { k } as usize;
            let bit = 1u64 << (x % 64);
            let mut i = at + i0 as usize * s0 + x / 64 - self.base;
            for _ in i0..i1 + 1 {
                words[i] |= bit;
                i += s0;
            }
        }
    }
}

/// The vertices of triangle `t`, or `None` if it names a missing one.
#[inline]
fn corners(verts: &[DVec3], t: &[u32; 3]) -> Option<[DVec3; 3]> {
    Some([*verts.get(t[0] as usize)?, *verts.get(t[1] as usize)?, *verts.get(t[2] as usize)?])
}

/// Per-region scratch of [`triangle`]: the triangle, clipping buffers, row extents.
struct Scratch {
    polys: [Poly; 3],
    extents: Vec<[f64; 2]>,
}

/// Rasterises one triangle (voxel units, axes `(run, row, layer)` of a grid of `dims`) into
/// the voxels within `lim` (inclusive ranges on those axes) through `w`.
#[inline]
fn triangle(t: [DVec3; 3], dims: IVec3, lim: [(i32, i32); 3], w: &Writer, words: &mut [u64], scratch: &mut Scratch) {
    let Scratch { polys: [tri, tmp, layer], extents } = scratch;
    tri.v[..3].copy_from_slice(&t);
    tri.n = 3;
    let (zlo, zhi) = tri.range(2);
    let (k0, k1) = cells(zlo, zhi, dims.z);
    for k in k0.max(lim[2].0)..k1.min(lim[2].1) + 1 {
        let kf = f64::from(k);
        let layer = if one_cell(zlo, zhi) {
            &*tri // wholly inside one layer: nothing to clip
        } else {
            tri.clip_slab(2, kf - EPS, kf + 1.0 + EPS, tmp, layer);
            if layer.n == 0 {
                continue;
            }
            &*layer
        };
        rows(layer, dims.y, lim[1], extents, |j, xlo, xhi| {
            let (i0, i1) = cells(xlo, xhi, dims.x);
            let (i0, i1) = (i0.max(lim[0].0), i1.min(lim[0].1));
            if i0 <= i1 {
                w.set(words, (i0, i1), j, k);
            }
        });
    }
}

/// Calls `emit(j, xlo, xhi)` for each y-row `j` the convex polygon meets, with the x extent of
/// its part in the closed slab `[j, j + 1]` (widened by [`EPS`]). The extent of a convex polygon
/// over a slab is reached at its vertices inside the slab or where its edges cross the slab's
/// lines, so one walk over the edges gives every row (a vertex within `EPS` of a line counts
/// for both rows). Only rows `w0..=w1` (inside `0..n_rows`) are emitted; `extents` is scratch.
#[inline]
fn rows(
    poly: &Poly,
    n_rows: i32,
    (w0, w1): (i32, i32),
    extents: &mut Vec<[f64; 2]>,
    mut emit: impl FnMut(i32, f64, f64),
) {
    let (ylo, yhi) = poly.range(1);
    let (j0, j1) = cells(ylo, yhi, n_rows);
    let (j0, j1) = (j0.max(w0), j1.min(w1));
    if j0 > j1 {
        return;
    }
    // The x extent of the crossings on each line y = m, m in j0..=j1 + 1 (a convex polygon
    // crosses a line at most twice, so updates rarely wait on each other), then of the
    // vertices in each row: row j's extent is that of its vertices and of lines j and j + 1.
    let n = (j1 - j0 + 1) as usize;
    extents.clear();
    extents.resize(2 * n + 1, [f64::INFINITY, f64::NEG_INFINITY]);
    let (lines, verts) = extents.split_at_mut(n + 1);
    let widen = |e: &mut [f64; 2], x: f64| {
        e[0] = if x < e[0] { x } else { e[0] };
        e[1] = if x > e[1] { x } else { e[1] };
    };
    // One row: its extent is the polygon's (one call site of `emit`, so it is inlined).
    let edges = if one_cell(ylo, yhi) {
        let (xlo, xhi) = poly.range(0);
        verts[0] = [xlo, xhi];
        0
    } else {
        poly.n
    };
    for i in 0..edges {
        let (a, b) = (poly.v[i], poly.v[(i + 1) % poly.n]);
        // The vertex, in every row whose widened slab holds it.
        let (r0, r1) = cells(a.y, a.y, n_rows);
        for j in r0.max(j0)..r1.min(j1) + 1 {
            widen(&mut verts[(j - j0) as usize], a.x);
        }
        // The edge's crossings of the lines y = m strictly inside its y extent.
        let (ya, yb) = if a.y < b.y { (a, b) } else { (b, a) };
        let first = floor_i(ya.y) + 1;
        let last = ceil_i(yb.y) - 1;
        if first <= last {
            let slope = (yb.x - ya.x) / (yb.y - ya.y);
            for m in first.max(j0)..last.min(j1 + 1) + 1 {
                let x = ya.x + (f64::from(m) - ya.y) * slope;
                widen(&mut lines[(m - j0) as usize], x);
            }
        }
    }
    for (r, v) in verts.iter().enumerate() {
        let (a, b) = (lines[r], lines[r + 1]);
        let lo = v[0].min(a[0]).min(b[0]);
        let hi = v[1].max(a[1]).max(b[1]);
        if lo <= hi {
            emit(j0 + r as i32, lo, hi);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_and_ceil_match_the_library() {
        let mut xs = vec![0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 1e-9, -1e-9, 7.0, -7.0, 1e9, -1e9, 123456.75];
        for i in -40..40 {
            let x = f64::from(i) * 0.25;
            xs.extend([x, x + EPS, x - EPS, x.next_up(), x.next_down()]);
        }
        for x in xs {
            assert_eq!(floor_i(x), x.floor() as i32, "{x}");
            assert_eq!(ceil_i(x), x.ceil() as i32, "{x}");
        }
        assert_eq!(
            (floor_i(1e300), ceil_i(-1e300), floor_i(f64::NAN)),
            (1_000_000_000, -1_000_000_000, -1_000_000_000)
        );
    }
}
