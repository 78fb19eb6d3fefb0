//! Rasterise stage: every voxel a solid triangle touches, conservatively, into a [`Bits`].
//!
//! The Recast way, exact: clip each triangle to the closed slab `[k, k + 1]` of each layer
//! it spans, find the extent of that polygon in each row's slab `[j, j + 1]` (one walk over its
//! edges), and set the run that extent covers. Layers, rows and runs are along the axes that
//! suit each triangle (see `order_of`). Voxel boxes are closed, so a triangle lying exactly on
//! a voxel face blocks both voxels. Clipping is done in `f64` voxel units against slabs widened
//! by [`EPS`], which covers the rounding of the clipping itself: no voxel the triangle touches
//! is ever missed, and only voxels within `EPS` of the triangle are added.
//!
//! Brush faces come as pairs of triangles: two consecutive triangles sharing an edge whose
//! union is a convex quad lying wholly in each layer it meets are scanned as that quad (each
//! row's extent over the quad is the union of the two triangles'), and an axis-aligned
//! rectangle as a box (the product of its extents' voxels), with no scan at all. Slivers
//! (tessellated curves leave many, thinner than [`SLIVER`]) are scanned as their longest edge
//! widened by their thickness: voxels within that thickness of one may be added.
//!
//! Runs along x are set word by word in the x-rows of the result, runs along y in a grid of
//! y-columns that is merged into the rows at the end (64 x 64 bit blocks transposed), runs
//! along z a bit per voxel.
//!
//! Work is split into regions, slabs of whole z-layers of the output (disjoint slices; one
//! region on one thread, where each triangle is scanned as soon as it is read; four per thread
//! with feature `parallel`); a triangle spanning several regions is scanned in each, clipped to
//! it. The bits never depend on the split.

use glam::{DVec2, DVec3, IVec3};

use super::bits::{Bits, Grid, set_run};
use super::mesh::TriangleMesh;

/// Slab widening, in voxels: far above the rounding of clipping coordinates below 2^20.
pub(crate) const EPS: f64 = 1e-6;

/// Thickness (voxels) under which a triangle is a sliver, rasterised as its longest edge
/// widened by its thickness (see [`segment`]).
pub(crate) const SLIVER: f64 = 1e-3;

/// Vertices of a polygon [`flat_rows`] scans at most: a triangle's part in a slab has 5, a
/// quad 4.
const ROW_VERTS: usize = 5;

/// The lesser of two numbers that are not NaN (one `minsd`; `f64::min` also handles NaN).
#[inline(always)]
fn lesser(a: f64, b: f64) -> f64 {
    if b < a { b } else { a }
}

/// The greater of two numbers that are not NaN.
#[inline(always)]
fn greater(a: f64, b: f64) -> f64 {
    if b > a { b } else { a }
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

/// The voxels `lo..=hi` (clamped to `0..n`) whose closed extent `[i, i + 1]` meets `[a, b]`
/// widened by `r`.
#[inline]
fn cells_by(a: f64, b: f64, n: i32, r: f64) -> (i32, i32) {
    ((ceil_i(a - r) - 1).max(0), floor_i(b + r).min(n - 1))
}

/// Whether `[a, b]` widened by [`EPS`] meets a single voxel `[i, i + 1]`, inside the grid or
/// not (a shape clipped by the grid's edge to one layer still needs clipping).
#[cfg(test)]
fn one_cell(a: f64, b: f64) -> bool {
    ceil_i(a - EPS) - 1 == floor_i(b + EPS)
}

/// Axis orders `(run, row, layer)`: the identity first.
const ORDERS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/// The index in [`ORDERS`] of the order with runs along `run` and layers along `layer`:
/// `ORDER_INDEX[run][layer]` (`run != layer`).
const ORDER_INDEX: [[usize; 3]; 3] = [[0, 1, 0], [3, 0, 2], [5, 4, 0]];

/// The order for a triangle of normal `n`: runs along the axis most parallel to it (smallest
/// normal component), layers across it (largest), so that it spans few layers of long runs.
#[inline]
fn order_of(n: DVec3) -> usize {
    let n = n.abs();
    let run = smallest_axis(n);
    ORDER_INDEX[run][larger_other(n, run)]
}

/// The order for a segment of extents `e`: runs along its longest extent, layers across its
/// shortest (so it spans few layers and rows, and long runs).
#[inline]
fn order_by_extent(e: DVec3) -> usize {
    let layer = smallest_axis(e);
    ORDER_INDEX[larger_other(e, layer)][layer]
}

/// The axis of `v`'s smallest component (the first of equal ones).
#[inline]
fn smallest_axis(v: DVec3) -> usize {
    if v.x <= v.y && v.x <= v.z {
        0
    } else if v.y <= v.z {
        1
    } else {
        2
    }
}

/// Of the two axes other than `axis`, the one of `v`'s larger component (the first of equal
/// ones, in the order after `axis`).
#[inline]
fn larger_other(v: DVec3, axis: usize) -> usize {
    let (a, b) = ((axis + 1) % 3, (axis + 2) % 3);
    if at(v, a) >= at(v, b) { a } else { b }
}

/// Every voxel of `grid` that a triangle of `mesh` touches (triangles naming a missing vertex
/// are skipped). Runs on the current rayon pool with feature `parallel`.
///
/// Each triangle is scanned with its runs along the axis most parallel to it and its layers
/// across it (see [`order_of`]), so a wall facing x is a few long runs, not one run per voxel,
/// and a floor is one or two layers (see the module's docs for where runs go).
pub(crate) fn rasterise(mesh: &TriangleMesh, grid: &Grid) -> Bits {
    let mut out = Bits::new(grid);
    let dims = grid.dims;
    // Runs along y go to a grid of y-columns (a word per 64 voxels of a column), merged
    // into the x-rows at the end: a run is then a word or two, not a word per voxel.
    let mut columns = vec![0u64; if uses_columns(dims) { grid.column_words() as usize } else { 0 }];
    // Regions: slabs of whole z-layers of the output, disjoint slices. One per thread and a
    // few more for balance; one on one thread. The bits are the same whatever the split.
    #[cfg(feature = "parallel")]
    let threads = rayon::current_num_threads() as i32;
    #[cfg(not(feature = "parallel"))]
    let threads = 1i32;
    let regions = if threads <= 1 { 1 } else { threads * 4 };
    let wpr = out.wpr;
    if regions == 1 {
        // One region: each shape is scanned as soon as it is read, nothing is stored.
        let region = Region::new(dims, wpr, 0, dims.z - 1);
        let mut target = Target { rows: &mut out.words, columns: &mut columns, dirty: region.blocks() };
        shapes(mesh, grid, |shape| region.scan(&shape, &mut target));
        region.merge(&mut target);
        return out;
    }
    let mut all = Vec::with_capacity(mesh.triangles.len());
    shapes(mesh, grid, |shape| all.push(shape));
    let slab = (dims.z + regions - 1) / regions;
    let run = |(r, (rows, columns)): (usize, (&mut [u64], &mut [u64]))| {
        let z0 = r as i32 * slab;
        let region = Region::new(dims, wpr, z0, (z0 + slab).min(dims.z) - 1);
        let mut target = Target { rows, columns, dirty: region.blocks() };
        for shape in &all {
            region.scan(shape, &mut target);
        }
        region.merge(&mut target);
    };
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        let slab_rows = wpr * dims.y as usize * slab as usize;
        let slab_columns = (dims.y as usize).div_ceil(64) * dims.x as usize * slab as usize;
        if columns.is_empty() {
            out.words.par_chunks_mut(slab_rows).enumerate().for_each(|(r, rows)| run((r, (rows, &mut []))));
        } else {
            out.words.par_chunks_mut(slab_rows).zip(columns.par_chunks_mut(slab_columns)).enumerate().for_each(run);
        }
    }
    #[cfg(not(feature = "parallel"))]
    run((0, (&mut out.words, &mut columns)));
    out
}

/// Whether runs along y go to a grid of y-columns: when an x-row is a cache line or more, so
/// that each voxel of a run along y written into the rows would be a line of its own.
pub(crate) fn uses_columns(dims: IVec3) -> bool {
    (dims.x as usize).div_ceil(64) * 8 >= 64
}

/// A region's part of the output: its x-rows (the result) and its y-columns (runs along y,
/// merged into the rows at the end). Column `(x, z)` is the words
/// `(z * dims.x + x) * wpc .. + wpc`, bit `y % 64` of word `y / 64`.
struct Target<'a> {
    rows: &'a mut [u64],
    columns: &'a mut [u64],
    /// A bit per 64 x 64 block of the columns (64 columns of a layer, 64 voxels of each)
    /// that a run was set in: only those are merged (see [`Region::merge`]).
    dirty: Vec<u64>,
}

/// What a triangle (or a pair) is scanned as, in voxel units: a box (world axes), or a
/// triangle, a flat quad or a sliver's segment in the axes of its order (`ORDERS[order]`).
pub(crate) enum Shape {
    /// An axis-aligned box: min and max corners.
    Box([DVec3; 2]),
    /// A triangle: `(order, corners)`.
    Triangle(u8, [DVec3; 3]),
    /// A flat convex quad from [`flat_quad`]: `(order, corners)`.
    Quad(u8, [DVec3; 4]),
    /// A sliver's longest edge and its widening: `(order, ends, r)`.
    Segment(u8, [DVec3; 2], f64),
}

/// Calls `f` with the shape of each triangle of `mesh` (or consecutive pair: two triangles
/// that make a flat convex quad, a brush face, are scanned as one), in `grid`'s voxel units,
/// in mesh order. Triangles naming a missing vertex, and shapes wholly outside the grid, are
/// dropped (ranges are clamped later, so check here).
fn shapes(mesh: &TriangleMesh, grid: &Grid, mut f: impl FnMut(Shape)) {
    let verts = Verts { positions: &mesh.positions, grid };
    let top = grid.dims.as_dvec3() + EPS;
    let outside = |lo: DVec3, hi: DVec3| hi.cmplt(DVec3::splat(-EPS)).any() || lo.cmpgt(top).any();
    let tris = &mesh.triangles;
    // The next triangle's corners are read one triangle ahead: the mesh's vertex order jumps,
    // and the reads overlap the work on the triangle before.
    let mut next = tris.first().map(|t| corners(&verts, t));
    let mut n = 0;
    while let Some(this) = next {
        let t = &tris[n];
        n += 1;
        next = tris.get(n).map(|t| corners(&verts, t));
        let Some([a, b, c]) = this else { continue };
        let normal = (b - a).cross(c - a);
        let (ab, bc, ca) = ((b - a).length_squared(), (c - b).length_squared(), (a - c).length_squared());
        let longest = ab.max(bc).max(ca);
        if normal.length_squared() < SLIVER * SLIVER * longest {
            // A sliver (thinner than `SLIVER`): its longest edge, widened by its thickness.
            if outside(a.min(b).min(c), a.max(b).max(c)) {
                continue;
            }
            let (p, q) = if longest == ab {
                (a, b)
            } else if longest == bc {
                (b, c)
            } else {
                (c, a)
            };
            let k = order_by_extent((q - p).abs());
            let r = (normal.length_squared() / longest).sqrt() + EPS;
            f(Shape::Segment(k as u8, [p, q].map(|v| swizzle(v, k)), r));
            continue;
        }
        let k = order_of(normal);
        if let Some(quad) = tris.get(n).zip(next.flatten()).and_then(|(u, uc)| flat_quad(t, [a, b, c], u, uc, k)) {
            n += 1;
            next = tris.get(n).map(|t| corners(&verts, t));
            let (lo, hi) = if is_rectangle(&quad) {
                (quad[0].min(quad[2]), quad[0].max(quad[2]))
            } else {
                (
                    quad.iter().copied().reduce(DVec3::min).unwrap_or_default(),
                    quad.iter().copied().reduce(DVec3::max).unwrap_or_default(),
                )
            };
            if outside(lo, hi) {
                continue;
            }
            if is_rectangle(&quad) {
                // An axis-aligned rectangle: a box, whose voxels are the product of its
                // extents' voxels along the three axes.
                f(Shape::Box([lo, hi]));
            } else {
                f(Shape::Quad(k as u8, quad.map(|v| swizzle(v, k))));
            }
            continue;
        }
        if outside(a.min(b).min(c), a.max(b).max(c)) {
            continue;
        }
        f(Shape::Triangle(k as u8, [a, b, c].map(|v| swizzle(v, k))));
    }
}

/// Component `i` of `v` (through an array: `DVec3`'s own indexing is a branch per component).
#[inline(always)]
fn at(v: DVec3, i: usize) -> f64 {
    v.to_array()[i]
}

/// `v` in the axes of order `k`.
#[inline(always)]
fn swizzle(v: DVec3, k: usize) -> DVec3 {
    let o = ORDERS[k];
    DVec3::new(at(v, o[0]), at(v, o[1]), at(v, o[2]))
}

/// How one order's shapes are scanned into a region.
struct OrderScan {
    /// Where runs go.
    w: Writer,
    /// The grid's size in the order's axes.
    dims: IVec3,
    /// The region's limits on the order's axes: all of each, but `z0..=z1` on z.
    lim: [(i32, i32); 3],
    /// Which of the order's axes is z.
    zi: usize,
    /// The region's z extent, widened by [`EPS`].
    zlo: f64,
    zhi: f64,
}

/// A region of the output, z-layers `z0..=z1` (its words start at layer `z0`), and how each
/// order scans into it.
struct Region {
    dims: IVec3,
    wpr: usize,
    z0: i32,
    z1: i32,
    orders: [OrderScan; 6],
    /// Whether the region holds every layer.
    whole: bool,
}

impl Region {
    fn new(dims: IVec3, wpr: usize, z0: i32, z1: i32) -> Self {
        let wpc = (dims.y as usize).div_ceil(64);
        let columns = uses_columns(dims);
        let orders = std::array::from_fn(|k| {
            let o = ORDERS[k];
            // Word strides of a step along each axis: in the x-rows (x: per bit, see
            // `Writer`), or for runs along y in the y-columns (y: per bit).
            let stride = |a: usize| match (o[0], a) {
                (1, 0) => wpc,
                (1, 2) => wpc * dims.x as usize,
                (1, _) | (_, 0) => 0,
                (_, 1) => wpr,
                _ => wpr * dims.y as usize,
            };
            let base = z0 as usize * if o[0] == 1 { wpc * dims.x as usize } else { wpr * dims.y as usize };
            let row_stride = |a: usize| match a {
                1 => wpr,
                2 => wpr * dims.y as usize,
                _ => 0,
            };
            let row_strides = [row_stride(o[0]), row_stride(o[1]), row_stride(o[2])];
            let row_base = z0 as usize * wpr * dims.y as usize;
            let odims = IVec3::new(dims[o[0]], dims[o[1]], dims[o[2]]);
            let mut lim = [(0, odims.x - 1), (0, odims.y - 1), (0, odims.z - 1)];
            let zi = o.iter().position(|&a| a == 2).unwrap_or(2);
            lim[zi] = (z0, z1);
            OrderScan {
                w: Writer {
                    run_axis: o[0],
                    strides: [stride(o[0]), stride(o[1]), stride(o[2])],
                    base,
                    columns,
                    row_strides,
                    row_base,
                    z0,
                    wpr,
                    wpc,
                },
                dims: odims,
                lim,
                zi,
                zlo: f64::from(z0) - EPS,
                zhi: f64::from(z1 + 1) + EPS,
            }
        });
        Self { dims, wpr, z0, z1, orders, whole: z0 == 0 && z1 == dims.z - 1 }
    }

    /// Merges the region's y-columns into its x-rows: 64 x 64 blocks (64 columns of a layer,
    /// 64 voxels of each) transposed, all-empty blocks skipped.
    fn merge(&self, target: &mut Target) {
        if target.columns.is_empty() {
            return;
        }
        let (nx, ny) = (self.dims.x as usize, self.dims.y as usize);
        let wpc = ny.div_ceil(64);
        let mut block = [0u64; 64];
        for (w, &bits) in target.dirty.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let id = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // Block `((z - z0) * wpr + xw) * wpc + yw`.
                let (yw, xw, z) = (id % wpc, id / wpc % self.wpr, id / wpc / self.wpr);
                let xs = 64.min(nx - xw * 64);
                for (i, b) in block.iter_mut().enumerate() {
                    *b = if i < xs { target.columns[(z * nx + xw * 64 + i) * wpc + yw] } else { 0 };
                }
                transpose(&mut block);
                for (i, b) in block.iter().enumerate().take(64.min(ny - yw * 64)) {
                    target.rows[(z * ny + yw * 64 + i) * self.wpr + xw] |= b;
                }
            }
        }
    }

    /// An all-clear bit per block of the region's y-columns (see [`Target::dirty`]).
    fn blocks(&self) -> Vec<u64> {
        if !uses_columns(self.dims) {
            return Vec::new();
        }
        let wpc = (self.dims.y as usize).div_ceil(64);
        vec![0; ((self.z1 - self.z0 + 1) as usize * self.wpr * wpc).div_ceil(64)]
    }

    /// Scans `shape`'s part in this region into `words` (the region's).
    #[inline]
    fn scan(&self, shape: &Shape, words: &mut Target) {
        match shape {
            Shape::Box([lo, hi]) => {
                let dims = self.dims;
                let (k0, k1) = cells(lo.z, hi.z, dims.z);
                let (j0, j1) = cells(lo.y, hi.y, dims.y);
                let (i0, i1) = cells(lo.x, hi.x, dims.x);
                if i0 > i1 {
                    return;
                }
                for k in k0.max(self.z0)..k1.min(self.z1) + 1 {
                    for j in j0..j1 + 1 {
                        let at = ((k - self.z0) as usize * dims.y as usize + j as usize) * self.wpr;
                        set_run(&mut words.rows[at..], i0 as usize, i1 as usize);
                    }
                }
            }
            // A shape wholly outside the region's layers is skipped (in a region of all of
            // them, none is).
            Shape::Triangle(k, t) => {
                let s = &self.orders[*k as usize];
                let meets = || {
                    let (lo, hi) = (
                        lesser(lesser(at(t[0], s.zi), at(t[1], s.zi)), at(t[2], s.zi)),
                        greater(greater(at(t[0], s.zi), at(t[1], s.zi)), at(t[2], s.zi)),
                    );
                    hi >= s.zlo && lo <= s.zhi
                };
                if self.whole || meets() {
                    triangle(*t, s.dims, s.lim, &s.w, words);
                }
            }
            Shape::Quad(k, q) => {
                let s = &self.orders[*k as usize];
                let meets = || {
                    let (lo, hi) = q.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                        (lesser(lo, at(*v, s.zi)), greater(hi, at(*v, s.zi)))
                    });
                    hi >= s.zlo && lo <= s.zhi
                };
                if self.whole || meets() {
                    flat(q, s.dims, s.lim, &s.w, words);
                }
            }
            Shape::Segment(k, [p, q], r) => {
                let s = &self.orders[*k as usize];
                let meets = || {
                    let (lo, hi) = (lesser(at(*p, s.zi), at(*q, s.zi)), greater(at(*p, s.zi), at(*q, s.zi)));
                    hi >= s.zlo - r && lo <= s.zhi + r
                };
                if self.whole || meets() {
                    segment(*p, *q, *r, s.dims, s.lim, &s.w, words);
                }
            }
        }
    }
}

/// Where a run of an order goes in a region of the output.
struct Writer {
    /// The world axis of the order's runs (y: into the y-columns).
    run_axis: usize,
    /// Words per step along the order's run, row and layer axes (0 for x: bits in a word).
    strides: [usize; 3],
    /// Index of the region's first word in the whole grid.
    base: usize,
    /// Whether runs along y go to the y-columns (see [`Region::new`]).
    columns: bool,
    /// Strides and base in the x-rows (runs along z, and along y without columns).
    row_strides: [usize; 3],
    row_base: usize,
    /// The region's first layer, words per x-row and per y-column (to mark dirty blocks).
    z0: i32,
    wpr: usize,
    wpc: usize,
}

impl Writer {
    /// Sets voxels `i0..=i1` of row `j` of layer `k` (the order's coordinates, in the region).
    #[inline(always)]
    fn set(&self, words: &mut Target, (i0, i1): (i32, i32), j: i32, k: i32) {
        let [_, s1, s2] = self.strides;
        let at = j as usize * s1 + k as usize * s2;
        if self.run_axis == 0 {
            set_run(&mut words.rows[at - self.base..], i0 as usize, i1 as usize);
        } else if self.run_axis == 1 && self.columns {
            set_run(&mut words.columns[at - self.base..], i0 as usize, i1 as usize);
            // The world x is the row's or the layer's coordinate, z the other.
            let (x, z) = if s1 < s2 { (j, k) } else { (k, j) };
            let first = ((z - self.z0) as usize * self.wpr + x as usize / 64) * self.wpc;
            for b in first + i0 as usize / 64..first + i1 as usize / 64 + 1 {
                words.dirty[b / 64] |= 1 << (b % 64);
            }
        } else {
            let words = &mut *words.rows;
            let [s0, s1, s2] = self.row_strides;
            let at = j as usize * s1 + k as usize * s2;
            // The world x is the row's or the layer's coordinate: one bit of successive rows.
            let x = if s1 == 0 { j } else { k } as usize;
            let bit = 1u64 << (x % 64);
            let mut i = at + i0 as usize * s0 + x / 64 - self.row_base;
            for _ in i0..i1 + 1 {
                words[i] |= bit;
                i += s0;
            }
        }
    }
}

/// Transposes a 64 x 64 bit matrix in place: bit `c` of word `r` goes to bit `r` of word `c`
/// (swapping ever smaller off-diagonal blocks, as in Hacker's Delight).
fn transpose(a: &mut [u64; 64]) {
    let (mut j, mut m) = (32, 0x0000_0000_FFFF_FFFFu64);
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= t << j;
            a[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

/// A mesh's vertices in voxel units, converted as they are read (the mesh's own `f32`
/// positions are half the size of a converted copy, and are read in the triangles' order,
/// which jumps).
struct Verts<'a> {
    positions: &'a [glam::Vec3],
    grid: &'a Grid,
}

impl Verts<'_> {
    /// Vertex `i`, or `None` if there is none.
    #[inline(always)]
    fn get(&self, i: u32) -> Option<DVec3> {
        self.positions.get(i as usize).map(|&p| self.grid.voxel_coords(p))
    }
}

/// The vertices of triangle `t`, or `None` if it names a missing one.
#[inline]
fn corners(verts: &Verts, t: &[u32; 3]) -> Option<[DVec3; 3]> {
    Some([verts.get(t[0])?, verts.get(t[1])?, verts.get(t[2])?])
}

/// Rasterises one triangle (voxel units, axes `(run, row, layer)` of a grid of `dims`) into
/// the voxels within `lim` (inclusive ranges on those axes) through `w`.
///
/// Its part in each layer's slab `[k - EPS, k + 1 + EPS]` is a convex polygon of at most five
/// corners, known without clipping: with its corners `a`, `b`, `c` sorted along the layer axis,
/// the part runs along the long edge `ac` from its bottom to its top chord (or from `a`, to
/// `c`), then back along the short edges `ab`, `bc`, through `b` when `b` is in the (closed) slab.
/// The chords' ends are points of the edges at the slab's planes, each edge's steps per unit
/// of height found once per triangle.
#[inline]
fn triangle(t: [DVec3; 3], dims: IVec3, lim: [(i32, i32); 3], w: &Writer, words: &mut Target) {
    let [mut a, mut b, mut c] = t;
    if b.z < a.z {
        (a, b) = (b, a);
    }
    if c.z < b.z {
        (b, c) = (c, b);
        if b.z < a.z {
            (a, b) = (b, a);
        }
    }
    let (k0, k1) = cells(a.z, c.z, dims.z);
    // Each edge's x and y per unit of height (0 along an edge of no height, never used).
    let per_z = |p: DVec3, q: DVec3| {
        let h = q.z - p.z;
        if h > 0.0 { ((q.x - p.x) / h, (q.y - p.y) / h) } else { (0.0, 0.0) }
    };
    let (ac, ab, bc) = (per_z(a, c), per_z(a, b), per_z(b, c));
    let at = |p: DVec3, (dx, dy): (f64, f64), z: f64| DVec2::new(p.x + (z - p.z) * dx, p.y + (z - p.z) * dy);
    let short = |z: f64| if z < b.z { at(a, ab, z) } else { at(b, bc, z) };
    for k in k0.max(lim[2].0)..k1.min(lim[2].1) + 1 {
        let kf = f64::from(k);
        let (zl, zh) = (kf - EPS, kf + 1.0 + EPS);
        let emit = Put { w, words: &mut *words, nx: dims.x, lim: lim[0], k };
        if a.z >= zl && c.z <= zh {
            // Wholly inside the layer's slab (a flat triangle, the common case of brush
            // faces): the layer's polygon is the triangle itself.
            flat_rows(&[a.truncate(), b.truncate(), c.truncate()], dims.y, lim[1], emit);
            continue;
        }
        let mut v = [DVec2::ZERO; ROW_VERTS];
        let mut n = 0;
        let mut push = |p: DVec2| {
            v[n] = p;
            n += 1;
        };
        push(if zl <= a.z { a.truncate() } else { at(a, ac, zl) });
        if zh >= c.z {
            push(c.truncate());
        } else {
            push(at(a, ac, zh));
            push(short(zh));
        }
        // `b` on one of the slab's planes too (with `a` or `c` on it, or above or below it):
        // the short side's end at that plane, if pushed, is then `b` again, and without `b`
        // the polygon would lose the part between the long edge's point there and `b`.
        if zl <= b.z && b.z <= zh {
            push(b.truncate());
        }
        if zl > a.z {
            push(short(zl));
        }
        match n {
            3 => flat_rows(&[v[0], v[1], v[2]], dims.y, lim[1], emit),
            4 => flat_rows(&[v[0], v[1], v[2], v[3]], dims.y, lim[1], emit),
            _ => flat_rows(&v, dims.y, lim[1], emit),
        }
    }
}

/// Rasterises segment `pq` (voxel units, axes `(run, row, layer)` of a grid of `dims`)
/// widened by `r`: every voxel within `lim` whose closed box widened by `r` meets it. A
/// triangle of thickness `h` (its least altitude, onto its longest edge) lies within `h` of
/// that edge, every point of it over the edge (the edge's angles are not obtuse): so its
/// voxels are among those of the edge widened by `h`.
#[inline]
fn segment(p: DVec3, q: DVec3, r: f64, dims: IVec3, lim: [(i32, i32); 3], w: &Writer, words: &mut Target) {
    let (a, c) = if q.z < p.z { (q, p) } else { (p, q) };
    let (k0, k1) = cells_by(a.z, c.z, dims.z, r);
    let height = c.z - a.z;
    // x and y per unit of z, and x per unit of y (0 where the segment has no extent there).
    let (dx, dy) = if height > 0.0 { ((c.x - a.x) / height, (c.y - a.y) / height) } else { (0.0, 0.0) };
    let (u, v) = if c.y < a.y { (c, a) } else { (a, c) };
    let rise = v.y - u.y;
    let sx = if rise > 0.0 { (v.x - u.x) / rise } else { 0.0 };
    for k in k0.max(lim[2].0)..k1.min(lim[2].1) + 1 {
        // The part of the segment in the layer's widened slab.
        let (s, e) = if height > 0.0 {
            let kf = f64::from(k);
            let (z0, z1) = (greater(a.z, kf - r), lesser(c.z, kf + 1.0 + r));
            (
                DVec2::new(a.x + (z0 - a.z) * dx, a.y + (z0 - a.z) * dy),
                DVec2::new(a.x + (z1 - a.z) * dx, a.y + (z1 - a.z) * dy),
            )
        } else {
            (a.truncate(), c.truncate())
        };
        let (ylo, yhi) = (lesser(s.y, e.y), greater(s.y, e.y));
        let (j0, j1) = cells_by(ylo, yhi, dims.y, r);
        for j in j0.max(lim[1].0)..j1.min(lim[1].1) + 1 {
            let (xlo, xhi) = if rise > 0.0 {
                let jf = f64::from(j);
                let (y0, y1) = (greater(ylo, jf - r), lesser(yhi, jf + 1.0 + r));
                let (x0, x1) = (u.x + (y0 - u.y) * sx, u.x + (y1 - u.y) * sx);
                (lesser(x0, x1), greater(x0, x1))
            } else {
                (lesser(s.x, e.x), greater(s.x, e.x))
            };
            let (i0, i1) = cells_by(xlo, xhi, dims.x, r);
            let (i0, i1) = (i0.max(lim[0].0), i1.min(lim[0].1));
            if i0 <= i1 {
                w.set(words, (i0, i1), j, k);
            }
        }
    }
}

/// Sets the run of voxels meeting `[xlo, xhi]` (widened by [`EPS`], clamped to `lim`) in row
/// `j` of layer `k` (order coordinates).
#[inline(always)]
fn put(w: &Writer, words: &mut Target, nx: i32, lim: (i32, i32), (j, k): (i32, i32), (xlo, xhi): (f64, f64)) {
    let (i0, i1) = cells(xlo, xhi, nx);
    let (i0, i1) = (i0.max(lim.0), i1.min(lim.1));
    if i0 <= i1 {
        w.set(words, (i0, i1), j, k);
    }
}

/// Where [`flat_rows`] sends each row's extent: `row(j, xlo, xhi)`.
trait Rows {
    fn row(&mut self, j: i32, xlo: f64, xhi: f64);
}

/// [`put`] into layer `k`, as a [`Rows`]: a method that is always inlined into the scan (a
/// closure calling `put` was not, at a cost of a call per row).
struct Put<'a, 'b> {
    w: &'a Writer,
    words: &'a mut Target<'b>,
    nx: i32,
    lim: (i32, i32),
    k: i32,
}

impl Rows for Put<'_, '_> {
    #[inline(always)]
    fn row(&mut self, j: i32, xlo: f64, xhi: f64) {
        put(self.w, self.words, self.nx, self.lim, (j, self.k), (xlo, xhi));
    }
}

/// Rasterises a flat convex polygon (a quad from [`flat_quad`]): every layer it spans holds
/// it whole, so each layer's rows are its own.
#[inline]
fn flat(q: &[DVec3; 4], dims: IVec3, lim: [(i32, i32); 3], w: &Writer, words: &mut Target) {
    let (zlo, zhi) =
        q.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lesser(lo, v.z), greater(hi, v.z)));
    let (k0, k1) = cells(zlo, zhi, dims.z);
    for k in k0.max(lim[2].0)..k1.min(lim[2].1) + 1 {
        flat_rows(&q.map(DVec3::truncate), dims.y, lim[1], Put { w, words: &mut *words, nx: dims.x, lim: lim[0], k });
    }
}

/// Whether a quad (voxel units, any axes) is an axis-aligned rectangle (possibly a segment or
/// a point): opposite edges opposite, each along one axis, adjacent ones along different
/// axes. Its box is then that of `q[0]` and `q[2]`, and the two triangles' union is that box.
fn is_rectangle(q: &[DVec3; 4]) -> bool {
    let d = [q[1] - q[0], q[2] - q[1], q[3] - q[2], q[0] - q[3]];
    let axes = |d: DVec3| u32::from(d.x != 0.0) | u32::from(d.y != 0.0) << 1 | u32::from(d.z != 0.0) << 2;
    let (a, b) = (axes(d[0]), axes(d[1]));
    d[0] == -d[2] && d[1] == -d[3] && a.count_ones() <= 1 && b.count_ones() <= 1 && a & b == 0
}

/// The flat convex quad that triangles `t` (corners `tc`, in voxel units, of order `order`)
/// and `u` make, in the order's axes, if they share an edge, have the same order, lie wholly
/// in each layer they span (so no layer needs clipping, and where in the layer they lie does
/// not matter) and their union is convex in the order's run and row axes: then each row's
/// extent over the quad is the union of the two triangles' (their union is the quad), and
/// one scan does both.
fn flat_quad(t: &[u32; 3], tc: [DVec3; 3], u: &[u32; 3], uc: [DVec3; 3], order: usize) -> Option<[DVec3; 4]> {
    // The corner of `t` that `u` lacks, and the one of `u` that `t` lacks.
    let i = (0..3).find(|&i| !u.contains(&t[i]))?;
    let s = (0..3).find(|&j| !t.contains(&u[j]))?;
    if (0..3).filter(|&i| u.contains(&t[i])).count() != 2 {
        return None;
    }
    let sc = uc[s];
    let (p, q, r) = (tc[i], tc[(i + 1) % 3], tc[(i + 2) % 3]);
    if order_of((r - sc).cross(q - sc)) != order {
        return None;
    }
    let quad = [p, q, sc, r];
    let local = quad.map(|v| swizzle(v, order));
    // Layer axis: the whole quad within every layer slab it meets.
    let (zlo, zhi) =
        local.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lesser(lo, v.z), greater(hi, v.z)));
    let (k0, k1) = (ceil_i(zlo - EPS) - 1, floor_i(zhi + EPS));
    if zlo < f64::from(k1) - EPS || zhi > f64::from(k0) + 1.0 + EPS {
        return None;
    }
    // Convex in the run and row axes: every turn the same way (or straight).
    let turn = |a: DVec3, b: DVec3, c: DVec3| (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    let [p, q, sc, r] = local;
    let turns = [turn(p, q, sc), turn(q, sc, r), turn(sc, r, p), turn(r, p, q)];
    if turns.iter().all(|&x| x >= 0.0) || turns.iter().all(|&x| x <= 0.0) { Some(quad) } else { None }
}

/// [`rows`] for a polygon of `N` (3 to [`ROW_VERTS`]) vertices, the same extents (the same
/// crossings, computed the same way, and the same vertices), with no scratch: each line's
/// crossings are found once, when the row below it is done, and the few vertices are tested
/// per row. `N` is a constant so that the loops over vertices and edges unroll and their
/// tables stay in registers.
#[inline]
fn flat_rows<const N: usize>(v: &[DVec2; N], n_rows: i32, (w0, w1): (i32, i32), mut emit: impl Rows) {
    // Per vertex, from one rounding of its y: the rows of its widened slab and `floor(y)`,
    // `ceil(y)` (`y - round(y)` is exact).
    let mut ys = [(0, -1, 0, 0); N];
    let (mut j0, mut j1) = (i32::MAX, i32::MIN);
    for (p, out) in v.iter().zip(&mut ys) {
        let (y, r, rf) = round_i(p.y);
        let f = y - rf;
        let (lo, hi) = (r - 1 + i32::from(f > EPS), r - i32::from(f < -EPS));
        *out = (lo, hi, r - i32::from(f < 0.0), r + i32::from(f > 0.0));
        j0 = j0.min(lo);
        j1 = j1.max(hi);
    }
    let one_row = j0 == j1;
    let (j0, j1) = (j0.max(w0).max(0), j1.min(w1).min(n_rows - 1));
    if j0 > j1 {
        return;
    }
    if one_row {
        // One row, which holds every vertex and no crossing: the polygon's x extent.
        let (mut xlo, mut xhi) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in v {
            xlo = lesser(xlo, p.x);
            xhi = greater(xhi, p.x);
        }
        if xlo <= xhi {
            emit.row(j0, xlo, xhi);
        }
        return;
    }
    // Rows holding each vertex, and each edge's crossings: lines `first..=last` strictly
    // inside its y extent, at `x0 + (m - y0) * slope`.
    let mut verts = [(0, -1, 0.0); N];
    let mut edges = [(0, -1, 0.0, 0.0, 0.0); N];
    for i in 0..N {
        let i1 = if i + 1 == N { 0 } else { i + 1 };
        let (a, b) = (v[i], v[i1]);
        verts[i] = (ys[i].0, ys[i].1, a.x);
        let (ya, yb, first, last) =
            if a.y < b.y { (a, b, ys[i].2 + 1, ys[i1].3 - 1) } else { (b, a, ys[i1].2 + 1, ys[i].3 - 1) };
        let slope = if first <= last { (yb.x - ya.x) / (yb.y - ya.y) } else { 0.0 };
        edges[i] = (first, last, ya.x, ya.y, slope);
    }
    let line = |m: i32| {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for &(first, last, x0, y0, slope) in &edges {
            if first <= m && m <= last {
                let x = x0 + (f64::from(m) - y0) * slope;
                lo = lesser(lo, x);
                hi = greater(hi, x);
            }
        }
        (lo, hi)
    };
    let mut below = line(j0);
    for j in j0..j1 + 1 {
        let above = line(j + 1);
        let (mut lo, mut hi) = (lesser(below.0, above.0), greater(below.1, above.1));
        for &(r0, r1, x) in &verts {
            if r0 <= j && j <= r1 {
                lo = lesser(lo, x);
                hi = greater(hi, x);
            }
        }
        if lo <= hi {
            emit.row(j, lo, hi);
        }
        below = above;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_index_names_each_order() {
        for (k, o) in ORDERS.iter().enumerate() {
            assert_eq!(ORDER_INDEX[o[0]][o[2]], k);
        }
    }

    /// The block transpose against the bit-by-bit definition, on seeded matrices.
    #[test]
    fn transpose_moves_every_bit_across_the_diagonal() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..50 {
            let mut m = [0u64; 64];
            for w in &mut m {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *w = seed;
            }
            let mut t = m;
            transpose(&mut t);
            for (r, row) in m.iter().enumerate() {
                for (c, column) in t.iter().enumerate() {
                    assert_eq!(column >> r & 1, row >> c & 1, "{r} {c}");
                }
            }
        }
    }

    /// The previous scan, kept as the reference of [`flat_rows`]: calls `emit(j, xlo, xhi)` for each y-row `j` the convex polygon meets, with the x extent of
    /// its part in the closed slab `[j, j + 1]` (widened by [`EPS`]). The extent of a convex polygon
    /// over a slab is reached at its vertices inside the slab or where its edges cross the slab's
    /// lines, so one walk over the edges gives every row (a vertex within `EPS` of a line counts
    /// for both rows). Only rows `w0..=w1` (inside `0..n_rows`) are emitted; `extents` is scratch.
    #[inline]
    fn rows(
        poly: &[DVec3],
        n_rows: i32,
        (w0, w1): (i32, i32),
        extents: &mut Vec<[f64; 2]>,
        mut emit: impl FnMut(i32, f64, f64),
    ) {
        let range = |axis: usize| {
            poly.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p[axis]), hi.max(p[axis])))
        };
        let (ylo, yhi) = range(1);
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
            let (xlo, xhi) = range(0);
            verts[0] = [xlo, xhi];
            0
        } else {
            poly.len()
        };
        for i in 0..edges {
            let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
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

    /// The scan of a flat polygon gives exactly the previous scan's extents, row by row, on
    /// seeded triangles and convex polygons with coordinates often on (or within `EPS` of)
    /// voxel lines.
    #[test]
    fn triangle_rows_equal_the_polygon_rows() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut coord = || {
            let r = next();
            let whole = f64::from((r % 13) as u32) - 2.0;
            match (r >> 8) % 5 {
                0 => whole,
                1 => whole + 0.5,
                2 => whole + EPS * 0.5,
                3 => whole - EPS * 2.0,
                _ => whole + f64::from((r >> 16) as u16) / 65536.0,
            }
        };
        let mut extents = Vec::new();
        for case in 0..20_000 {
            // Triangles, and convex polygons of 4 and 5 corners (corners sorted by angle
            // around their centre; kept when every turn is the same way).
            let n = 3 + case % 3;
            let mut t: Vec<DVec3> = (0..n).map(|_| DVec3::new(coord(), coord(), 0.0)).collect();
            if n > 3 {
                let c = t.iter().sum::<DVec3>() / n as f64;
                t.sort_by(|p, q| (p.y - c.y).atan2(p.x - c.x).total_cmp(&(q.y - c.y).atan2(q.x - c.x)));
                let turn = |i: usize| {
                    let (a, b, c) = (t[i], t[(i + 1) % n], t[(i + 2) % n]);
                    (b - a).x * (c - b).y - (b - a).y * (c - b).x
                };
                if (0..n).any(|i| turn(i) < 0.0) {
                    continue;
                }
            }
            let lim = if case % 4 == 0 { (2, 5) } else { (0, 7) };
            let (mut a, mut b) = (Vec::new(), Vec::new());
            rows(&t, 8, lim, &mut extents, |j, lo, hi| a.push((j, lo, hi)));
            match *t.as_slice() {
                [p, q, r] => flat_rows(&[p, q, r].map(DVec3::truncate), 8, lim, Collect(&mut b)),
                [p, q, r, u] => flat_rows(&[p, q, r, u].map(DVec3::truncate), 8, lim, Collect(&mut b)),
                [p, q, r, u, w] => flat_rows(&[p, q, r, u, w].map(DVec3::truncate), 8, lim, Collect(&mut b)),
                _ => unreachable!(),
            }
            assert_eq!(a, b, "{t:?}");
        }
    }

    /// The rows [`flat_rows`] gives, collected.
    struct Collect<'a>(&'a mut Vec<(i32, f64, f64)>);

    impl Rows for Collect<'_> {
        fn row(&mut self, j: i32, xlo: f64, xhi: f64) {
            self.0.push((j, xlo, xhi));
        }
    }

    /// A slanted triangle whose middle corner `b` lies exactly on a layer slab's widened plane
    /// (with `a`, or with `c`) keeps `b` in that layer's polygon: the voxels next to `b` in the
    /// layer are set.
    #[test]
    fn a_corner_on_a_slab_plane_stays_in_the_layer() {
        use glam::Vec3;
        // `a.z = b.z = 1 - EPS` exactly (voxel units): the bottom plane of layer 1's slab.
        let grid = Grid { origin: DVec3::new(0.0, 0.0, -(1.0 - EPS)), size: 1.0, dims: IVec3::new(6, 6, 6) };
        let (a, b, c) = (Vec3::new(0.2, 0.2, 0.0), Vec3::new(3.8, 0.3, 0.0), Vec3::new(0.3, 3.7, 2.0));
        let bits = rasterise(&TriangleMesh { positions: vec![a, b, c], triangles: vec![[0, 1, 2]] }, &grid);
        // Just above `b` (z > 1), the triangle is in voxel (3, 0, 1).
        assert!(bits.get(IVec3::new(3, 0, 1)));
        // `b.z = c.z = 2 + EPS` exactly: the top plane of layer 1's slab; just below `b`
        // (z < 2), the triangle is in voxel (3, 0, 1).
        let grid = Grid { origin: DVec3::new(0.0, 0.0, -(2.0 + EPS)), size: 1.0, dims: IVec3::new(6, 6, 6) };
        let (a, b, c) = (Vec3::new(0.3, 3.7, -2.0), Vec3::new(3.8, 0.3, 0.0), Vec3::new(0.2, 0.2, 0.0));
        let bits = rasterise(&TriangleMesh { positions: vec![a, b, c], triangles: vec![[0, 1, 2]] }, &grid);
        assert!(bits.get(IVec3::new(3, 0, 1)));
    }

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
