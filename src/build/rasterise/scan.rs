//! Scanning a shape into runs: a triangle layer by layer ([`triangle`]), a flat quad
//! ([`flat`]) and a sliver's segment ([`segment`]), each layer's polygon row by row
//! ([`flat_rows`]), each row's extent as a run of voxels ([`put`]); and the rounding of voxel
//! coordinates they share ([`cells`], [`EPS`]).

use glam::{DVec2, DVec3, IVec3};

use super::write::{Target, Writer};

/// Slab widening, in voxels: far above the rounding of clipping coordinates below 2^20.
pub(crate) const EPS: f64 = 1e-6;

/// Vertices of a polygon [`flat_rows`] scans at most: a triangle's part in a slab has 5, a
/// quad 4.
const ROW_VERTS: usize = 5;

/// The lesser of two numbers that are not NaN (one `minsd`; `f64::min` also handles NaN).
#[inline(always)]
pub(super) fn lesser(a: f64, b: f64) -> f64 {
    if b < a { b } else { a }
}

/// The greater of two numbers that are not NaN.
#[inline(always)]
pub(super) fn greater(a: f64, b: f64) -> f64 {
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
pub(super) fn floor_i(x: f64) -> i32 {
    let (x, r, rf) = round_i(x);
    r - i32::from(rf > x)
}

/// `ceil(x)` as an integer, for `|x|` below 1e9 (clamped there).
#[inline]
pub(super) fn ceil_i(x: f64) -> i32 {
    let (x, r, rf) = round_i(x);
    r + i32::from(rf < x)
}

/// The voxels `lo..=hi` (clamped to `0..n`) whose closed extent `[i, i + 1]` meets `[a, b]`
/// widened by [`EPS`].
#[inline]
pub(super) fn cells(a: f64, b: f64, n: i32) -> (i32, i32) {
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
pub(super) fn triangle(t: [DVec3; 3], dims: IVec3, lim: [(i32, i32); 3], w: &Writer, words: &mut Target) {
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
pub(super) fn segment(p: DVec3, q: DVec3, r: f64, dims: IVec3, lim: [(i32, i32); 3], w: &Writer, words: &mut Target) {
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

/// Rasterises a flat convex polygon (a quad from `flat_quad`): every layer it spans holds
/// it whole, so each layer's rows are its own.
#[inline]
pub(super) fn flat(q: &[DVec3; 4], dims: IVec3, lim: [(i32, i32); 3], w: &Writer, words: &mut Target) {
    let (zlo, zhi) =
        q.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lesser(lo, v.z), greater(hi, v.z)));
    let (k0, k1) = cells(zlo, zhi, dims.z);
    for k in k0.max(lim[2].0)..k1.min(lim[2].1) + 1 {
        flat_rows(&q.map(DVec3::truncate), dims.y, lim[1], Put { w, words: &mut *words, nx: dims.x, lim: lim[0], k });
    }
}

/// The tests' `rows` (the earlier scan, kept as their reference) for a polygon of `N` (3 to
/// [`ROW_VERTS`]) vertices: the same extents (the same crossings, computed the same way, and
/// the same vertices), with no scratch: each line's crossings are found once, when the row
/// below it is done, and the few vertices are tested per row. `N` is a constant so that the
/// loops over vertices and edges unroll and their tables stay in registers.
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
