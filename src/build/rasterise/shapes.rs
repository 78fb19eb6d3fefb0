//! What each triangle is scanned as ([`Shape`]): a box, a flat quad (a brush face's pair of
//! triangles, [`flat_quad`]), a sliver's segment or a triangle, in the axes of the order that
//! suits it ([`ORDERS`], [`order_of`]); and reading them from a mesh ([`shapes`]).

use glam::DVec3;

use super::scan::{EPS, ceil_i, floor_i, greater, lesser};
use crate::build::bits::Grid;
use crate::build::mesh::TriangleMesh;

/// Thickness (voxels) under which a triangle is a sliver, rasterised as its longest edge
/// widened by its thickness (see [`segment`](super::scan::segment)).
pub(crate) const SLIVER: f64 = 1e-3;

/// Axis orders `(run, row, layer)`: the identity first.
pub(super) const ORDERS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/// The index in [`ORDERS`] of the order with runs along `run` and layers along `layer`:
/// `ORDER_INDEX[run][layer]` (`run != layer`).
const ORDER_INDEX: [[usize; 3]; 3] = [[0, 1, 0], [3, 0, 2], [5, 4, 0]];

/// The order for a triangle of normal `n`: runs along the axis most parallel to it (smallest
/// normal component), layers across it (largest), so that it spans few layers of long runs.
#[inline]
pub(super) fn order_of(n: DVec3) -> usize {
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
pub(super) fn shapes(mesh: &TriangleMesh, grid: &Grid, mut f: impl FnMut(Shape)) {
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
pub(super) fn at(v: DVec3, i: usize) -> f64 {
    v.to_array()[i]
}

/// `v` in the axes of order `k`.
#[inline(always)]
fn swizzle(v: DVec3, k: usize) -> DVec3 {
    let o = ORDERS[k];
    DVec3::new(at(v, o[0]), at(v, o[1]), at(v, o[2]))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_index_names_each_order() {
        for (k, o) in ORDERS.iter().enumerate() {
            assert_eq!(ORDER_INDEX[o[0]][o[2]], k);
        }
    }
}
