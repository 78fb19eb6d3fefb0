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
//! Work is split into regions of [`REGION`] rows, each a disjoint slice of the output (threads
//! with feature `parallel`); a triangle spanning several regions is scanned in each.

use glam::{DVec3, IVec3};

use super::bits::{Bits, Grid, set_run};
use super::mesh::TriangleMesh;

/// Slab widening, in voxels: far above the rounding of clipping coordinates below 2^20.
pub(crate) const EPS: f64 = 1e-6;
/// Rows per region.
pub(crate) const REGION: i32 = 16;

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

/// `floor(x)` as an integer, for `|x|` below 2^30 (inline: `f64::floor` is a library call
/// without SSE4.1).
#[inline]
fn floor_i(x: f64) -> i32 {
    #[expect(clippy::manual_clamp, reason = "two instructions; clamp's checks cost measurably here")]
    let x = x.max(-1e9).min(1e9);
    let t = x as i32;
    t - i32::from(x < f64::from(t))
}

/// `ceil(x)` as an integer, for `|x|` below 2^30.
#[inline]
fn ceil_i(x: f64) -> i32 {
    #[expect(clippy::manual_clamp, reason = "two instructions; clamp's checks cost measurably here")]
    let x = x.max(-1e9).min(1e9);
    let t = x as i32;
    t + i32::from(x > f64::from(t))
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
/// and a floor is one or two layers: triangles of each order are rasterised into a grid with
/// that order's axes, then merged into the x-rows.
pub(crate) fn rasterise(mesh: &TriangleMesh, grid: &Grid) -> Bits {
    let verts: Vec<DVec3> = mesh.positions.iter().map(|&p| grid.voxel_coords(p)).collect();
    // Each triangle's corners, in its order, stored contiguously for the scan.
    let mut by_order: [Vec<[DVec3; 3]>; 6] = Default::default();
    for t in &mesh.triangles {
        let Some([a, b, c]) = corners(&verts, t) else { continue };
        let k = order_of((b - a).cross(c - a));
        let o = ORDERS[k];
        by_order[k].push([a, b, c].map(|v| DVec3::new(v[o[0]], v[o[1]], v[o[2]])));
    }
    drop(verts);
    let dims_of = |o: [usize; 3]| IVec3::new(grid.dims[o[0]], grid.dims[o[1]], grid.dims[o[2]]);
    // Order [0, 2, 1] (x runs, z rows, y layers) is stored as the world's x-rows: the base.
    let mut out = rasterise_ordered(&by_order[BASE], dims_of(ORDERS[BASE]));
    for (k, tris) in by_order.iter().enumerate() {
        if k != BASE && !tris.is_empty() {
            merge(&mut out, &rasterise_ordered(tris, dims_of(ORDERS[k])), ORDERS[k]);
        }
    }
    out
}

/// The order whose grid has the world's layout (see [`rasterise_ordered`]).
const BASE: usize = 1;

/// The vertices of triangle `t`, or `None` if it names a missing one.
#[inline]
fn corners(verts: &[DVec3], t: &[u32; 3]) -> Option<[DVec3; 3]> {
    Some([*verts.get(t[0] as usize)?, *verts.get(t[1] as usize)?, *verts.get(t[2] as usize)?])
}

/// ORs `bits`, the grid of `order` (see [`rasterise_ordered`]: bit `r` of its row
/// `(y, z) = (layer, row)` is the voxel with coordinates `r`, `row`, `layer` on the world's axes
/// `order[0]`, `order[1]`, `order[2]`), into `out`: word by word when the runs are along x, bit
/// by bit otherwise.
fn merge(out: &mut Bits, bits: &Bits, order: [usize; 3]) {
    for row in 0..bits.dims.z {
        for layer in 0..bits.dims.y {
            let src = bits.row(layer, row);
            let mut v = IVec3::ZERO;
            (v[order[1]], v[order[2]]) = (row, layer);
            if order[0] == 0 {
                let at = out.row_start(v.y, v.z);
                for (o, &b) in out.words[at..at + out.wpr].iter_mut().zip(src) {
                    *o |= b;
                }
                continue;
            }
            for (wi, &word) in src.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    v[order[0]] = (wi * 64) as i32 + word.trailing_zeros() as i32;
                    word &= word - 1;
                    let at = out.row_start(v.y, v.z) + v.x as usize / 64;
                    out.words[at] |= 1 << (v.x % 64);
                }
            }
        }
    }
}

/// Rasterises triangles given in voxel units on axes `(run, row, layer)` into a grid of
/// `dims` (on those axes), runs along its x. The grid is stored with its rows outermost: its
/// [`Bits`] row `(y, z)` is `(layer, row)`, so that regions of [`REGION`] rows are disjoint
/// slices (a floor lies in one or two layers, but spreads over many rows).
fn rasterise_ordered(tris: &[[DVec3; 3]], dims: IVec3) -> Bits {
    let mut out = Bits::new(&Grid { origin: DVec3::ZERO, size: 1.0, dims: IVec3::new(dims.x, dims.z, dims.y) });
    // Bin triangles by the regions their row extent meets (counting sort: no Vec per region).
    let regions = (dims.y + REGION - 1) / REGION;
    let mut spans = Vec::with_capacity(tris.len());
    let mut counts = vec![0usize; regions as usize + 1];
    for (i, &[a, b, c]) in tris.iter().enumerate() {
        let (lo, hi) = (a.min(b).min(c), a.max(b).max(c));
        // Skip what misses the grid (ranges are clamped, so check before).
        if hi.cmplt(DVec3::splat(-EPS)).any() || lo.cmpgt(dims.as_dvec3() + EPS).any() {
            continue;
        }
        let (j0, j1) = cells(lo.y, hi.y, dims.y);
        let (r0, r1) = (j0 / REGION, j1 / REGION);
        for r in r0..=r1 {
            counts[r as usize + 1] += 1;
        }
        spans.push((i as u32, r0, r1));
    }
    for r in 0..regions as usize {
        counts[r + 1] += counts[r];
    }
    let mut bins = vec![0u32; counts[regions as usize]];
    let mut next = counts.clone();
    for &(i, r0, r1) in &spans {
        for r in r0..=r1 {
            bins[next[r as usize]] = i;
            next[r as usize] += 1;
        }
    }
    drop(spans);
    let region_words = out.wpr * dims.z as usize * REGION as usize;
    let wpr = out.wpr;
    let run = |(r, words): (usize, &mut [u64])| {
        let w0 = r as i32 * REGION;
        let w1 = (w0 + REGION).min(dims.y) - 1;
        let mut extents = Vec::new();
        for &i in &bins[counts[r]..counts[r + 1]] {
            triangle(tris[i as usize], dims, (w0, w1), wpr, words, &mut extents);
        }
    };
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        out.words.par_chunks_mut(region_words).enumerate().for_each(run);
    }
    #[cfg(not(feature = "parallel"))]
    out.words.chunks_mut(region_words).enumerate().for_each(run);
    out
}

/// Rasterises one triangle (voxel units, axes `(run, row, layer)` of a grid of `dims`) into
/// the rows `w0..=w1` of every layer, whose words are `words` (row `w0` first, then by layer).
#[inline]
fn triangle(
    t: [DVec3; 3],
    dims: IVec3,
    (w0, w1): (i32, i32),
    wpr: usize,
    words: &mut [u64],
    extents: &mut Vec<[f64; 2]>,
) {
    let zero = DVec3::ZERO;
    let tri = Poly { v: [t[0], t[1], t[2], zero, zero, zero, zero, zero, zero], n: 3 };
    let (zlo, zhi) = tri.range(2);
    let (k0, k1) = cells(zlo, zhi, dims.z);
    let (mut tmp, mut layer) = (tri, tri);
    for k in k0..=k1 {
        let kf = f64::from(k);
        let layer = if one_cell(zlo, zhi) {
            &tri // wholly inside one layer: nothing to clip
        } else {
            tri.clip_slab(2, kf - EPS, kf + 1.0 + EPS, &mut tmp, &mut layer);
            if layer.n == 0 {
                continue;
            }
            &layer
        };
        rows(layer, dims.y, (w0, w1), extents, |j, xlo, xhi| {
            let (i0, i1) = cells(xlo, xhi, dims.x);
            if i0 <= i1 {
                let at = ((j - w0) as usize * dims.z as usize + k as usize) * wpr;
                set_run(&mut words[at..at + wpr], i0 as usize, i1 as usize);
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
    if one_cell(ylo, yhi) {
        let (xlo, xhi) = poly.range(0);
        emit(j0, xlo, xhi);
        return;
    }
    let n = (j1 - j0 + 1) as usize;
    extents.clear();
    extents.resize(n, [f64::INFINITY, f64::NEG_INFINITY]);
    let mut put = |j: i32, x: f64| {
        if j >= j0 && j <= j1 {
            let e = &mut extents[(j - j0) as usize];
            e[0] = if x < e[0] { x } else { e[0] };
            e[1] = if x > e[1] { x } else { e[1] };
        }
    };
    for i in 0..poly.n {
        let (a, b) = (poly.v[i], poly.v[(i + 1) % poly.n]);
        // The vertex, in every row whose widened slab holds it.
        let (r0, r1) = cells(a.y, a.y, n_rows);
        for j in r0..=r1 {
            put(j, a.x);
        }
        // The edge's crossings of the lines y = m strictly inside its y extent: both rows.
        let (ya, yb) = if a.y < b.y { (a, b) } else { (b, a) };
        let first = floor_i(ya.y) + 1;
        let last = ceil_i(yb.y) - 1;
        if first <= last {
            let slope = (yb.x - ya.x) / (yb.y - ya.y);
            for m in first.max(j0)..=last.min(j1 + 1) {
                let x = ya.x + (f64::from(m) - ya.y) * slope;
                put(m - 1, x);
                put(m, x);
            }
        }
    }
    for (r, &[lo, hi]) in extents.iter().enumerate() {
        if lo <= hi {
            emit(j0 + r as i32, lo, hi);
        }
    }
}
