//! Rasterise stage: every voxel a solid triangle touches, conservatively, into a [`Bits`].
//!
//! The Recast way, exact: clip each triangle to the closed slab `[k, k + 1]` of each layer
//! it spans, find the extent of that polygon in each row's slab `[j, j + 1]` (one walk over its
//! edges), and set the run that extent covers. Layers, rows and runs are along the axes that
//! suit each triangle (see [`order_of`]). Voxel boxes are closed, so a triangle lying exactly on
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
//!
//! Files: [`shapes`], what each triangle (or pair) is scanned as, in which axes; [`scan`],
//! scanning a shape into runs, and the rounding of voxel coordinates; [`write`], where runs go
//! (the x-rows, the y-columns and their merge's transpose); here, the stage and its regions.
//!
//! [`order_of`]: shapes::order_of
//! [`SLIVER`]: shapes::SLIVER
//! [`shapes`]: mod@shapes
//! [`write`]: mod@write

mod scan;
mod shapes;
mod write;

use glam::IVec3;

use super::bits::{Bits, Grid, set_run};
use super::mesh::TriangleMesh;
use scan::{EPS, cells, flat, greater, lesser, segment, triangle};
pub(crate) use shapes::Shape;
use shapes::{ORDERS, at, shapes};
use write::{Target, Writer, transpose};

/// Every voxel of `grid` that a triangle of `mesh` touches (triangles naming a missing vertex
/// are skipped). Runs on the current rayon pool with feature `parallel`.
///
/// Each triangle is scanned with its runs along the axis most parallel to it and its layers
/// across it (see [`order_of`]), so a wall facing x is a few long runs, not one run per voxel,
/// and a floor is one or two layers (see the module's docs for where runs go).
///
/// [`order_of`]: shapes::order_of
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

#[cfg(test)]
mod tests {
    use glam::DVec3;

    use super::*;

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
}
