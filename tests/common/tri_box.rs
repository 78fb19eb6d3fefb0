//! An exact triangle / closed-box overlap test (separating axis theorem, Akenine-Moller 2001),
//! in f64, written independently of the rasteriser: the oracle for conservative voxelisation.

use glam::DVec3;

/// Whether the triangle `t` and the closed box `center +- half` share a point (touching counts).
pub fn overlaps(t: [DVec3; 3], center: DVec3, half: DVec3) -> bool {
    let v = t.map(|p| p - center);
    let e = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    // 9 axes: box axis x triangle edge.
    for edge in e {
        for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
            let a = axis.cross(edge);
            if a == DVec3::ZERO {
                continue;
            }
            if separated(&v, a, half) {
                return false;
            }
        }
    }
    // 3 box face normals.
    for i in 0..3 {
        let lo = v[0][i].min(v[1][i]).min(v[2][i]);
        let hi = v[0][i].max(v[1][i]).max(v[2][i]);
        if lo > half[i] || hi < -half[i] {
            return false;
        }
    }
    // The triangle's plane (a degenerate triangle has none: the edge axes decided).
    let n = e[0].cross(e[1]);
    if n != DVec3::ZERO && separated(&v, n, half) {
        return false;
    }
    true
}

/// Whether `axis` separates the triangle `v` (box-relative) from the box of half-size `half`.
fn separated(v: &[DVec3; 3], axis: DVec3, half: DVec3) -> bool {
    let p = v.map(|p| p.dot(axis));
    let r = half.x * axis.x.abs() + half.y * axis.y.abs() + half.z * axis.z.abs();
    p[0].min(p[1]).min(p[2]) > r || p[0].max(p[1]).max(p[2]) < -r
}
