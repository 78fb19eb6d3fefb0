//! Orientation of flying and swimming agents: local axes, the [`FlightProfile`] that limits bank
//! and pitch, and homogeneous transforms built from elementary rotations.
//!
//! See [`euler_transform`] for the axes and angles.

use glam::{DQuat, DVec3, Mat4, Vec3};

use crate::error::TrajectoryError;

/// How an agent flies or swims a [`Trajectory`](crate::Trajectory): its speed, how far it banks
/// into turns and pitches, how fast it turns in place at sharp corners.
///
/// Units are stated per field: world units (metres, say) and seconds for speed and gravity,
/// **voxels** for lengths along the path, radians for angles.
///
/// The defaults are [`FlightProfile::AIR`]; [`FlightProfile::SWIM`] is for fish and submarines.
///
/// # Examples
/// ```
/// use voxnav::FlightProfile;
/// assert_eq!(FlightProfile::default(), FlightProfile::AIR);
/// let slow = FlightProfile { speed: 2.0, ..FlightProfile::AIR };
/// assert!(slow.validate().is_ok());
/// assert!(FlightProfile { speed: f32::NAN, ..slow }.validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlightProfile {
    /// Cruise speed, world units per second (> 0). Sampling by time moves at this speed, and
    /// the bank angle grows with its square.
    pub speed: f32,
    /// Gravity, world units per second squared (> 0): the bank of a coordinated turn is
    /// `atan(speed^2 * curvature / gravity)`.
    pub gravity: f32,
    /// Largest bank (roll into a turn), radians, `0 <= max_bank < pi/2`. 0: never banks.
    pub max_bank: f32,
    /// Half-width of the window (voxels of travel, > 0) over which the bank is averaged, so it
    /// changes smoothly: the bank turns by at most `max_bank / bank_smoothing` per voxel.
    pub bank_smoothing: f32,
    /// Largest pitch (nose above or below the horizon), radians, `0 < max_pitch <= pi/2`.
    /// Where the path climbs or dives more steeply, the nose stops at this pitch and the
    /// agent's forward axis leaves the tangent. `pi/2`: the nose always follows the path.
    pub max_pitch: f32,
    /// How fast the agent turns in place at a sharp corner, radians per second (> 0).
    pub turn_rate: f32,
    /// How fast the agent rolls back to upright (wings level) after its up axis has been
    /// carried away from world up, radians per voxel of travel (>= 0), scaled down to 0 as the
    /// path approaches vertical.
    pub level_rate: f32,
}

impl FlightProfile {
    /// A flying agent: 6 units/s, 9.81 units/s^2, banks up to 60 degrees averaged over 1.5
    /// voxels, follows the path straight up or down (no pitch limit), turns in place at
    /// 180 degrees per second, levels at 0.5 radian per voxel.
    pub const AIR: FlightProfile = FlightProfile {
        speed: 6.0,
        gravity: 9.81,
        max_bank: std::f32::consts::FRAC_PI_3,
        bank_smoothing: 1.5,
        max_pitch: std::f32::consts::FRAC_PI_2,
        turn_rate: std::f32::consts::PI,
        level_rate: 0.5,
    };
    /// A swimming agent: 2 units/s, banks at most 10 degrees averaged over 2 voxels, pitches at
    /// most 60 degrees, turns in place at 90 degrees per second, levels at 1 radian per voxel.
    pub const SWIM: FlightProfile = FlightProfile {
        speed: 2.0,
        gravity: 9.81,
        max_bank: 10.0 * std::f32::consts::PI / 180.0,
        bank_smoothing: 2.0,
        max_pitch: std::f32::consts::FRAC_PI_3,
        turn_rate: std::f32::consts::FRAC_PI_2,
        level_rate: 1.0,
    };

    /// Checks every field's range (see each field).
    ///
    /// # Errors
    /// [`TrajectoryError::InvalidProfile`] naming the first bad field.
    pub fn validate(&self) -> Result<(), TrajectoryError> {
        use std::f32::consts::FRAC_PI_2;
        let checks = [
            ("speed", self.speed, self.speed > 0.0),
            ("gravity", self.gravity, self.gravity > 0.0),
            ("max_bank", self.max_bank, (0.0..FRAC_PI_2).contains(&self.max_bank)),
            ("bank_smoothing", self.bank_smoothing, self.bank_smoothing > 0.0),
            ("max_pitch", self.max_pitch, self.max_pitch > 0.0 && self.max_pitch <= FRAC_PI_2),
            ("turn_rate", self.turn_rate, self.turn_rate > 0.0),
            ("level_rate", self.level_rate, self.level_rate >= 0.0),
        ];
        for (name, value, ok) in checks {
            if !(value.is_finite() && ok) {
                return Err(TrajectoryError::InvalidProfile { name, value });
            }
        }
        Ok(())
    }
}

impl Default for FlightProfile {
    fn default() -> Self {
        FlightProfile::AIR
    }
}

/// The orientation whose local axes (right +X, up +Y, forward -Z) are `right`, `up` and
/// `forward` (orthonormal, right-handed: `right = forward x up`).
pub(crate) fn frame_quat(forward: DVec3, up: DVec3) -> DQuat {
    let right = forward.cross(up);
    DQuat::from_mat3(&glam::DMat3::from_cols(right, up, -forward)).normalize()
}

/// Yaw, pitch and roll (see [`euler_transform`]) of a rotation, computed in `f64`.
///
/// At pitch +-pi/2 (forward straight up or down) yaw and roll turn about the same axis; the
/// roll is then taken as 0 and the whole turn as yaw.
pub(crate) fn yaw_pitch_roll(q: DQuat) -> (f64, f64, f64) {
    let f = q * DVec3::NEG_Z;
    let (r, u) = (q * DVec3::X, q * DVec3::Y);
    let pitch = f.y.clamp(-1.0, 1.0).asin();
    if f.x.hypot(f.z) > 1e-9 { ((-f.x).atan2(-f.z), pitch, r.y.atan2(u.y)) } else { ((-r.z).atan2(r.x), pitch, 0.0) }
}

/// A 4x4 matrix from its rows.
fn rows(m: [[f32; 4]; 4]) -> Mat4 {
    Mat4::from_cols_array_2d(&m).transpose()
}

/// The homogeneous transform `T(translation) * Ry(yaw) * Rx(pitch) * Rz(roll)`, built from the
/// four elementary 4x4 matrices written out in full (angles in radians, meanings below):
///
/// ```text
/// T(p)  = | 1 0 0 px |   Ry(a) = |  c 0 s 0 |   Rx(a) = | 1 0  0 0 |   Rz(a) = | c -s 0 0 |
///         | 0 1 0 py |           |  0 1 0 0 |           | 0 c -s 0 |           | s  c 0 0 |
///         | 0 0 1 pz |           | -s 0 c 0 |           | 0 s  c 0 |           | 0  0 1 0 |
///         | 0 0 0 1  |           |  0 0 0 1 |           | 0 0  0 1 |           | 0  0 0 1 |
/// ```
///
/// It maps a point in the agent's local frame to the world; its columns are the agent's right,
/// up and backward axes and its position.
///
/// # Local axes (glTF / Bevy)
/// An agent's local frame is right-handed with **forward = -Z**, **up = +Y**, **right = +X**.
/// The identity orientation faces world -Z, upright (world +Y up).
///
/// # Euler angles
/// An orientation is also `Ry(yaw) * Rx(pitch) * Rz(roll)` (intrinsic Y-X-Z, radians):
/// - yaw about world +Y: 0 faces -Z, positive turns left (toward -X);
/// - pitch about the agent's right axis: positive raises the nose, within `-pi/2..=pi/2`;
/// - roll about the agent's forward axis: positive raises the right wing (banks left).
///
/// This function builds the 4x4 homogeneous matrix `T(p) * Ry(yaw) * Rx(pitch) * Rz(roll)`
/// explicitly from these elementary matrices, as the aerial pathfinding literature writes it;
/// [`Pose::transform`](crate::Pose::transform) builds the same matrix from the quaternion.
///
/// # Examples
/// ```
/// use glam::{Mat4, Quat, Vec3};
/// use voxnav::euler_transform;
/// let (yaw, pitch, roll) = (0.3, -0.2, 0.5);
/// let m = euler_transform(Vec3::new(1.0, 2.0, 3.0), yaw, pitch, roll);
/// let q = Quat::from_euler(glam::EulerRot::YXZ, yaw, pitch, roll);
/// let glam_m = Mat4::from_rotation_translation(q, Vec3::new(1.0, 2.0, 3.0));
/// assert!(m.abs_diff_eq(glam_m, 1e-6));
/// ```
#[must_use]
pub fn euler_transform(translation: Vec3, yaw: f32, pitch: f32, roll: f32) -> Mat4 {
    let t = rows([
        [1.0, 0.0, 0.0, translation.x],
        [0.0, 1.0, 0.0, translation.y],
        [0.0, 0.0, 1.0, translation.z],
        [0.0, 0.0, 0.0, 1.0],
    ]);
    let (sy, cy) = yaw.sin_cos();
    let ry = rows([[cy, 0.0, sy, 0.0], [0.0, 1.0, 0.0, 0.0], [-sy, 0.0, cy, 0.0], [0.0, 0.0, 0.0, 1.0]]);
    let (sx, cx) = pitch.sin_cos();
    let rx = rows([[1.0, 0.0, 0.0, 0.0], [0.0, cx, -sx, 0.0], [0.0, sx, cx, 0.0], [0.0, 0.0, 0.0, 1.0]]);
    let (sz, cz) = roll.sin_cos();
    let rz = rows([[cz, -sz, 0.0, 0.0], [sz, cz, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]);
    t * ry * rx * rz
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_angles_round_trip_including_vertical() {
        let mut seed = 3u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for i in 0..2000 {
            let yaw = (next() - 0.5) * 6.0;
            let pitch = match i % 4 {
                0 => std::f64::consts::FRAC_PI_2,
                1 => -std::f64::consts::FRAC_PI_2,
                _ => (next() - 0.5) * 3.1,
            };
            let roll = (next() - 0.5) * 6.0;
            let q = DQuat::from_euler(glam::EulerRot::YXZ, yaw, pitch, roll);
            let (y, p, r) = yaw_pitch_roll(q);
            let back = DQuat::from_euler(glam::EulerRot::YXZ, y, p, r);
            assert!(q.dot(back).abs() > 1.0 - 1e-12, "{yaw} {pitch} {roll} -> {y} {p} {r}");
            let m = euler_transform(Vec3::ONE, y as f32, p as f32, r as f32);
            let want = Mat4::from_rotation_translation(q.as_quat(), Vec3::ONE);
            assert!(m.abs_diff_eq(want, 1e-6));
        }
    }

    #[test]
    fn frame_quat_maps_local_axes() {
        let f = DVec3::new(1.0, 1.0, 0.0).normalize();
        let u = DVec3::new(-1.0, 1.0, 0.0).normalize();
        let q = frame_quat(f, u);
        assert!((q * DVec3::NEG_Z).abs_diff_eq(f, 1e-12));
        assert!((q * DVec3::Y).abs_diff_eq(u, 1e-12));
        assert!((q * DVec3::X).abs_diff_eq(DVec3::Z, 1e-12));
    }
}
