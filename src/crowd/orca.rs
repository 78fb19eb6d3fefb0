//! The small 3D linear programs of ORCA (RVO2-3D's `linearProgram1..4`): the velocity closest
//! to a preferred one inside a ball and a set of half-spaces.

use glam::Vec3;

const EPSILON: f32 = 1e-5;

/// The half-space of velocities `v` with `(v - point) . normal >= 0` (`normal` a unit vector).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Plane {
    pub(crate) point: Vec3,
    pub(crate) normal: Vec3,
}

impl Plane {
    /// How far `v` lies outside the half-space (positive: violated).
    #[inline]
    fn violation(&self, v: Vec3) -> f32 {
        self.normal.dot(self.point - v)
    }
}

/// The velocity of length at most `radius` closest to `preferred` that satisfies every plane;
/// when none does, the one that satisfies `planes[..hard]` and minimises the largest violation
/// of the others. `scratch` is reused memory.
pub(crate) fn solve(planes: &[Plane], hard: usize, radius: f32, preferred: Vec3, scratch: &mut Vec<Plane>) -> Vec3 {
    let mut result = Vec3::ZERO;
    let failed = program3(planes, radius, preferred, false, &mut result);
    if failed < planes.len() {
        program4(planes, hard, failed, radius, &mut result, scratch);
    }
    result
}

/// On the line `point + t direction` (a unit vector), inside the ball and planes `..plane_no`.
fn program1(
    planes: &[Plane],
    plane_no: usize,
    (point, direction): (Vec3, Vec3),
    radius: f32,
    opt: Vec3,
    direction_opt: bool,
    result: &mut Vec3,
) -> bool {
    let dot = point.dot(direction);
    let disc = dot * dot + radius * radius - point.length_squared();
    if disc < 0.0 {
        return false;
    }
    let sqrt_disc = disc.sqrt();
    let (mut t_left, mut t_right) = (-dot - sqrt_disc, -dot + sqrt_disc);
    for p in &planes[..plane_no] {
        let numerator = (p.point - point).dot(p.normal);
        let denominator = direction.dot(p.normal);
        if denominator * denominator <= EPSILON {
            if numerator > 0.0 {
                return false;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            t_left = t_left.max(t);
        } else {
            t_right = t_right.min(t);
        }
        if t_left > t_right {
            return false;
        }
    }
    *result = if direction_opt {
        if opt.dot(direction) > 0.0 { point + t_right * direction } else { point + t_left * direction }
    } else {
        let t = direction.dot(opt - point);
        point + t.clamp(t_left, t_right) * direction
    };
    true
}

/// On plane `plane_no`, inside the ball and planes `..plane_no`.
fn program2(planes: &[Plane], plane_no: usize, radius: f32, opt: Vec3, direction_opt: bool, result: &mut Vec3) -> bool {
    let plane = planes[plane_no];
    let plane_dist = plane.point.dot(plane.normal);
    let plane_dist_sq = plane_dist * plane_dist;
    let radius_sq = radius * radius;
    if plane_dist_sq > radius_sq {
        return false;
    }
    let plane_radius_sq = radius_sq - plane_dist_sq;
    let centre = plane_dist * plane.normal;
    if direction_opt {
        let on_plane = opt - opt.dot(plane.normal) * plane.normal;
        let len_sq = on_plane.length_squared();
        *result = if len_sq <= EPSILON { centre } else { centre + (plane_radius_sq / len_sq).sqrt() * on_plane };
    } else {
        *result = opt + (plane.point - opt).dot(plane.normal) * plane.normal;
        if result.length_squared() > radius_sq {
            let off = *result - centre;
            let len_sq = off.length_squared();
            *result = if len_sq > 0.0 { centre + (plane_radius_sq / len_sq).sqrt() * off } else { centre };
        }
    }
    for i in 0..plane_no {
        if planes[i].violation(*result) > 0.0 {
            let cross = planes[i].normal.cross(plane.normal);
            if cross.length_squared() <= EPSILON {
                return false;
            }
            let direction = cross.normalize();
            let line_normal = direction.cross(plane.normal);
            let point = plane.point
                + ((planes[i].point - plane.point).dot(planes[i].normal) / line_normal.dot(planes[i].normal))
                    * line_normal;
            if !program1(planes, i, (point, direction), radius, opt, direction_opt, result) {
                return false;
            }
        }
    }
    true
}

/// Inside the ball and all planes; returns the index of the first plane it could not satisfy
/// (`planes.len()` on success).
fn program3(planes: &[Plane], radius: f32, opt: Vec3, direction_opt: bool, result: &mut Vec3) -> usize {
    *result = if direction_opt {
        opt * radius
    } else if opt.length_squared() > radius * radius {
        opt.normalize() * radius
    } else {
        opt
    };
    for i in 0..planes.len() {
        if planes[i].violation(*result) > 0.0 {
            let before = *result;
            if !program2(planes, i, radius, opt, direction_opt, result) {
                *result = before;
                return i;
            }
        }
    }
    planes.len()
}

/// The velocity that keeps `planes[..hard]` and minimises the largest violation of the others,
/// starting at plane `begin` (where [`program3`] failed).
fn program4(planes: &[Plane], hard: usize, begin: usize, radius: f32, result: &mut Vec3, scratch: &mut Vec<Plane>) {
    let mut distance = 0.0;
    for i in begin.max(hard)..planes.len() {
        if planes[i].violation(*result) <= distance {
            continue;
        }
        scratch.clear();
        scratch.extend_from_slice(&planes[..hard]);
        for j in hard..i {
            let cross = planes[j].normal.cross(planes[i].normal);
            let point = if cross.length_squared() <= EPSILON {
                if planes[i].normal.dot(planes[j].normal) > 0.0 {
                    continue; // same direction
                }
                0.5 * (planes[i].point + planes[j].point)
            } else {
                let line_normal = cross.cross(planes[i].normal);
                planes[i].point
                    + ((planes[j].point - planes[i].point).dot(planes[j].normal) / line_normal.dot(planes[j].normal))
                        * line_normal
            };
            let normal = (planes[j].normal - planes[i].normal).normalize_or_zero();
            scratch.push(Plane { point, normal });
        }
        let before = *result;
        if program3(scratch, radius, planes[i].normal, true, result) < scratch.len() {
            *result = before;
        }
        distance = planes[i].violation(*result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unconstrained_is_the_preferred_velocity_clamped_to_the_ball() {
        let mut scratch = Vec::new();
        assert_eq!(solve(&[], 0, 2.0, Vec3::new(1.0, 0.0, 0.0), &mut scratch), Vec3::new(1.0, 0.0, 0.0));
        let v = solve(&[], 0, 2.0, Vec3::new(0.0, 4.0, 0.0), &mut scratch);
        assert!((v - Vec3::new(0.0, 2.0, 0.0)).length() < 1e-6);
    }

    #[test]
    fn one_plane_projects_and_infeasible_planes_keep_the_hard_one() {
        let mut scratch = Vec::new();
        // x <= 0.5 (normal -x through (0.5, 0, 0)); preferred (1, 1, 0).
        let wall = Plane { point: Vec3::new(0.5, 0.0, 0.0), normal: Vec3::NEG_X };
        let v = solve(&[wall], 1, 2.0, Vec3::new(1.0, 1.0, 0.0), &mut scratch);
        assert!((v - Vec3::new(0.5, 1.0, 0.0)).length() < 1e-5, "{v}");
        // Add x >= 1 (contradicts the wall): the wall holds, the soft plane is violated least.
        let soft = Plane { point: Vec3::new(1.0, 0.0, 0.0), normal: Vec3::X };
        let v = solve(&[wall, soft], 1, 2.0, Vec3::new(1.0, 1.0, 0.0), &mut scratch);
        assert!(v.x <= 0.5 + 1e-5, "{v}");
        assert!(v.x >= 0.5 - 1e-4, "{v}");
        // Random planes through a feasible point: the answer satisfies them all.
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        };
        for _ in 0..500 {
            let planes: Vec<Plane> = (0..6)
                .map(|_| {
                    let normal = Vec3::new(rnd(), rnd(), rnd()).normalize_or(Vec3::X);
                    Plane { point: normal * rnd().min(0.0), normal } // the origin is feasible
                })
                .collect();
            let pref = Vec3::new(rnd(), rnd(), rnd()) * 3.0;
            let v = solve(&planes, 0, 2.0, pref, &mut scratch);
            assert!(v.length() <= 2.0 + 1e-4);
            for p in &planes {
                assert!(p.violation(v) <= 1e-4, "{p:?} violated by {v}");
            }
        }
    }
}
