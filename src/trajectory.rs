//! [`Trajectory`]: a [`SmoothPath`] with an orientation at every point, sampled by distance or
//! by time.
//!
//! See [`Trajectory`] for the rules.

use glam::{DQuat, DVec3, Mat4, Quat, Vec3};

use crate::error::TrajectoryError;
use crate::orient::{FlightProfile, euler_transform, frame_quat, yaw_pitch_roll};
use crate::smooth::SmoothPath;

/// Largest knot spacing (voxels) on straight stretches, where only the roll changes.
const STRAIGHT_SPACING: f64 = 0.25;
/// Largest turn (radians) between two knots of a turn in place.
const PIVOT_STEP: f64 = 0.05;
/// Most samples one call returns.
const MAX_SAMPLES: usize = 50_000_000;

/// One sample of a [`Trajectory`]: where the agent is, where it heads, how it is oriented.
///
/// # Examples
/// ```
/// use glam::{Quat, Vec3};
/// use voxnav::Pose;
/// let pose = Pose { s: 0.0, time: 0.0, position: Vec3::X, tangent: Vec3::NEG_Z, orientation: Quat::IDENTITY };
/// assert_eq!(pose.forward(), Vec3::NEG_Z);
/// assert_eq!(pose.transform().transform_point3(Vec3::ZERO), Vec3::X);
/// assert!(pose.euler_transform().abs_diff_eq(pose.transform(), 1e-6));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// Arc length from the start, world units (constant during a turn in place).
    pub s: f32,
    /// Time from the start, seconds, at the profile's speed (turns in place included).
    pub time: f32,
    /// Position of the agent's centre, world units.
    pub position: Vec3,
    /// Unit direction of travel (for a path of one voxel, [`Vec3::NEG_Z`]).
    pub tangent: Vec3,
    /// Orientation: maps the local axes (forward -Z, up +Y, right +X) to the world. Unit.
    pub orientation: Quat,
}

impl Pose {
    /// The agent's forward axis (local -Z) in the world.
    #[must_use]
    #[inline]
    pub fn forward(&self) -> Vec3 {
        self.orientation * Vec3::NEG_Z
    }

    /// The agent's up axis (local +Y) in the world.
    #[must_use]
    #[inline]
    pub fn up(&self) -> Vec3 {
        self.orientation * Vec3::Y
    }

    /// The agent's right axis (local +X) in the world.
    #[must_use]
    #[inline]
    pub fn right(&self) -> Vec3 {
        self.orientation * Vec3::X
    }

    /// The homogeneous transform `translation * rotation` (local to world), from glam.
    /// See also [`euler_transform`](Self::euler_transform), the same matrix built from
    /// elementary rotations.
    #[must_use]
    #[inline]
    pub fn transform(&self) -> Mat4 {
        Mat4::from_rotation_translation(self.orientation, self.position)
    }

    /// Yaw, pitch and roll in radians (`Ry(yaw) * Rx(pitch) * Rz(roll)`, see
    /// [`euler_transform`]); computed in `f64`. When forward is
    /// vertical, roll is 0 and yaw carries the whole turn about the vertical.
    #[must_use]
    pub fn euler_angles(&self) -> (f32, f32, f32) {
        let (y, p, r) = yaw_pitch_roll(self.orientation.as_dquat().normalize());
        (y as f32, p as f32, r as f32)
    }

    /// The homogeneous transform built explicitly as `T(position) * Ry(yaw) * Rx(pitch) *
    /// Rz(roll)` with [`euler_transform`]; equal to
    /// [`transform`](Self::transform) up to rounding (about 1e-6 per entry).
    #[must_use]
    pub fn euler_transform(&self) -> Mat4 {
        let (y, p, r) = self.euler_angles();
        euler_transform(self.position, y, p, r)
    }
}

/// A knot of a trajectory, in voxel units.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TKnot {
    tau: f64,
    s: f64,
    pos: DVec3,
    tangent: DVec3,
    q: DQuat,
}

/// A smoothed path with an orientation at every point, ready to fly.
///
/// # How the orientation is made
/// Local axes are glTF / Bevy's (forward -Z, up +Y, right +X; Euler angles as in
/// [`euler_transform`]).
/// Along the path, in order:
/// 1. **Forward follows the tangent.** At a sharp corner of the smoothed path (where no bend
///    fitted) the agent stops and *turns in place* at [`FlightProfile::turn_rate`], about the
///    axis perpendicular to both legs (about its up axis if the legs are opposite).
/// 2. **Up is carried along (parallel transport).** From one point to the next the whole frame
///    turns by the smallest rotation taking the old forward to the new one, so the up axis
///    never flips, even when the path goes straight up or down. It then rolls back toward
///    upright (up in the vertical plane through forward) at up to
///    [`FlightProfile::level_rate`] times the horizontal part of forward: at full rate in level
///    flight, not at all on a vertical stretch. The first up is upright; if the path starts
///    vertically it is the direction the agent will later head, reversed for a climb (as after
///    pulling up), or world +Z (climb) / -Z (dive) if the path never leaves the vertical.
/// 3. **Pitch is clamped** to [`FlightProfile::max_pitch`] by pitching the nose back toward
///    the horizon about the agent's right axis.
/// 4. **Bank**: the agent rolls into turns by `atan(speed^2 * curvature / gravity)`, clamped to
///    [`FlightProfile::max_bank`] and averaged over [`FlightProfile::bank_smoothing`] voxels of
///    travel either side (zero bank before the start and after the goal).
///
/// # Travel
/// Samples are spaced in *travel*: arc length, plus, during a turn in place, the distance the
/// agent would have covered at its speed in that time. So travel is `speed * time`, positions of
/// samples a travel `d` apart are at most `d` apart, and consecutive orientations turn by at
/// most [`Trajectory::max_turn_rate`] times the travel between them.
///
/// # Examples
/// ```
/// use glam::{IVec3, UVec3, Vec3};
/// use voxnav::{
///     smooth_path, FlightProfile, PathRequest, Pathfinder, SearchConfig, SmoothConfig, Trajectory, VoxelWorld,
/// };
/// let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(16, 16, 16)).unwrap();
/// let path = Pathfinder::new()
///     .find(&world, None, &PathRequest::new(IVec3::new(1, 1, 1), IVec3::new(12, 9, 4), SearchConfig::default()))
///     .unwrap();
/// let smooth = smooth_path(&world, &path, &SmoothConfig::default()).unwrap();
/// let trajectory = Trajectory::new(&smooth, &FlightProfile::AIR).unwrap();
/// let poses = trajectory.samples_by_length(0.25).unwrap();
/// assert_eq!(poses[0].position, Vec3::splat(1.5));
/// assert_eq!(poses.last().unwrap().position, Vec3::new(12.5, 9.5, 4.5));
/// for w in poses.windows(2) {
///     assert!(w[0].position.distance(w[1].position) <= 0.25 + 1e-5);
///     let turn = w[0].orientation.angle_between(w[1].orientation);
///     assert!(turn <= trajectory.max_turn_rate() * 0.25 + 1e-4);
/// }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    knots: Vec<TKnot>,
    origin: DVec3,
    voxel_size: f64,
    /// Voxels of travel per second.
    speed: f64,
    /// Bound on the turn per voxel of travel (radians).
    max_turn: f64,
}

/// Sequential state of the frame while knots are added.
struct Builder {
    knots: Vec<TKnot>,
    bank: Vec<f64>,
    up: DVec3,
    profile: FlightProfile,
    /// `speed^2 / gravity / voxel_size`, so bank = atan(this * curvature in 1/voxel).
    bank_gain: f64,
}

impl Builder {
    /// Adds a knot: carries the frame from the last knot to `tangent`, rolls it toward upright,
    /// records the follow frame and the raw bank.
    fn add(&mut self, tau: f64, s: f64, pos: DVec3, tangent: DVec3, curvature: DVec3) {
        if let Some(last) = self.knots.last() {
            if tau <= last.tau {
                return;
            }
            let carry = DQuat::from_rotation_arc(last.tangent, tangent);
            self.up = carry * self.up;
            let horizontal = (1.0 - tangent.y * tangent.y).max(0.0).sqrt();
            if horizontal > 1e-9 {
                let level = (DVec3::Y - tangent * tangent.y) / horizontal;
                let angle = self.up.cross(level).dot(tangent).atan2(self.up.dot(level));
                let limit = f64::from(self.profile.level_rate) * (tau - last.tau) * horizontal;
                self.up = DQuat::from_axis_angle(tangent, angle.clamp(-limit, limit)) * self.up;
            }
        }
        self.up = (self.up - tangent * self.up.dot(tangent)).normalize();
        let q = frame_quat(tangent, self.up);
        let lateral = curvature.dot(tangent.cross(self.up));
        let max_bank = f64::from(self.profile.max_bank);
        self.bank.push((self.bank_gain * lateral).atan().clamp(-max_bank, max_bank));
        self.knots.push(TKnot { tau, s, pos, tangent, q });
    }
}

/// The first up axis for a path whose tangents are `tangents` (see [`Trajectory`]).
fn initial_up(tangents: impl Iterator<Item = DVec3> + Clone) -> DVec3 {
    let mut it = tangents.clone();
    let Some(first) = it.next() else { return DVec3::Y };
    let horizontal = |t: DVec3| DVec3::new(t.x, 0.0, t.z);
    if horizontal(first).length() > 1e-6 {
        return (DVec3::Y - first * first.y).normalize();
    }
    let heading = tangents
        .map(horizontal)
        .find(|h| h.length() > 1e-6)
        .map_or(if first.y > 0.0 { DVec3::NEG_Z } else { DVec3::Z }, DVec3::normalize);
    if first.y > 0.0 { -heading } else { heading }
}

impl Trajectory {
    /// Orients `smooth` for an agent flying with `profile` (see [`Trajectory`] for the rules).
    ///
    /// # Errors
    /// [`TrajectoryError::InvalidProfile`] if `profile` fails [`FlightProfile::validate`].
    pub fn new(smooth: &SmoothPath, profile: &FlightProfile) -> Result<Self, TrajectoryError> {
        Self::build(smooth, profile, None)
    }

    /// Continues an agent's flight from `pose` (where it is now, on its old trajectory) along
    /// `smooth`, a curve that starts at `pose.position` tangent to `pose.tangent`: what
    /// [`smooth_from`](crate::smooth_from) makes of a repaired path. The new trajectory's first
    /// pose is `pose` itself (position, direction of travel and orientation, bank included;
    /// `s` and `time` restart from 0), so the agent goes on without a jump.
    ///
    /// The orientation follows the rules of [`Trajectory`], with two changes at the start: the
    /// up axis is carried on from `pose`'s instead of starting upright, and the difference
    /// between `pose.orientation` and the orientation the rules give there fades out linearly
    /// over the first [`FlightProfile::bank_smoothing`] voxels of travel.
    /// [`max_turn_rate`](Self::max_turn_rate) includes that fade.
    ///
    /// # Errors
    /// [`TrajectoryError::InvalidProfile`] as [`new`](Self::new);
    /// [`TrajectoryError::NotAtStart`] if `smooth` does not start at `pose.position` (within
    /// 1/1000 of a voxel) or `pose` is not finite.
    ///
    /// # Examples
    /// ```
    /// use glam::{IVec3, UVec3, Vec3};
    /// use voxnav::{smooth_from, smooth_voxels, FlightProfile, SmoothConfig, Trajectory, VoxelWorld};
    /// let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(16)).unwrap();
    /// let config = SmoothConfig::default();
    /// let old: Vec<IVec3> = (2..14).map(|x| IVec3::new(x, 4, 4)).collect();
    /// let flight = Trajectory::new(&smooth_voxels(&world, &old, &config).unwrap(), &FlightProfile::AIR).unwrap();
    /// let pose = flight.pose_at_time(0.5).unwrap(); // 3 voxels along, at (5.5, 4.5, 4.5)
    /// // A new way from there, turning up.
    /// let new: Vec<IVec3> = (5..10).map(|y| IVec3::new(5, y, 4)).collect();
    /// let smooth = smooth_from(&world, pose.position, pose.tangent, &new, &config).unwrap();
    /// let next = Trajectory::continue_from(&pose, &smooth, &FlightProfile::AIR).unwrap();
    /// let first = next.pose_at_time(0.0).unwrap();
    /// assert!(first.position.distance(pose.position) < 1e-5);
    /// assert!(first.orientation.angle_between(pose.orientation) < 1e-3);
    /// ```
    pub fn continue_from(pose: &Pose, smooth: &SmoothPath, profile: &FlightProfile) -> Result<Self, TrajectoryError> {
        let size = f64::from(smooth.voxel_size());
        let start = smooth.knots().first().map(|k| smooth.to_world(k.pos));
        let finite = pose.position.is_finite() && pose.tangent.is_finite() && pose.orientation.is_finite();
        let distance = start.map_or(f64::INFINITY, |p| f64::from(p.distance(pose.position)));
        if !finite || distance.is_nan() || distance > 1e-3 * size {
            return Err(TrajectoryError::NotAtStart { distance: distance as f32 });
        }
        Self::build(smooth, profile, Some(pose))
    }

    fn build(smooth: &SmoothPath, profile: &FlightProfile, from: Option<&Pose>) -> Result<Self, TrajectoryError> {
        profile.validate()?;
        let size = f64::from(smooth.voxel_size());
        let speed = f64::from(profile.speed) / size;
        let travel_per_radian = speed / f64::from(profile.turn_rate);
        // A knot without a direction (a path that ends where it began has one) takes the
        // nearest direction before it, else after it, else forward (-Z).
        let mut src = smooth.knots().to_vec();
        let first_dir = src.iter().map(|k| k.tangent).find(|t| *t != DVec3::ZERO && t.is_finite());
        let mut last_dir = first_dir.unwrap_or(DVec3::NEG_Z);
        for k in &mut src {
            if k.tangent == DVec3::ZERO || !k.tangent.is_finite() {
                k.tangent = last_dir;
            }
            last_dir = k.tangent;
        }
        let mut b = Builder {
            knots: Vec::with_capacity(src.len() * 2),
            bank: Vec::with_capacity(src.len() * 2),
            up: from
                .map(|pose| {
                    let (up, t) = (pose.up().as_dvec3(), src[0].tangent);
                    up - t * up.dot(t)
                })
                .filter(|up| up.length() > 1e-3)
                .map_or_else(
                    || initial_up(src.iter().map(|k| if k.tangent == DVec3::ZERO { DVec3::NEG_Z } else { k.tangent })),
                    DVec3::normalize,
                ),
            profile: *profile,
            bank_gain: f64::from(profile.speed).powi(2) / f64::from(profile.gravity) / size,
        };
        let mut tau = 0.0;
        for (i, k) in src.iter().enumerate() {
            let Some(prev) = i.checked_sub(1).map(|j| src[j]) else {
                let tangent = if k.tangent == DVec3::ZERO { DVec3::NEG_Z } else { k.tangent };
                b.add(0.0, 0.0, k.pos, tangent, k.curvature);
                continue;
            };
            let ds = k.s - prev.s;
            if ds == 0.0 {
                // A sharp corner: turn in place.
                let angle = prev.tangent.angle_between(k.tangent);
                let cross = prev.tangent.cross(k.tangent);
                let axis = if cross.length() > 1e-9 { cross.normalize() } else { b.up };
                let n = (angle / PIVOT_STEP).ceil().max(1.0);
                for j in 1..=n as usize {
                    let f = j as f64 / n;
                    let t = if j == n as usize {
                        k.tangent
                    } else {
                        (DQuat::from_axis_angle(axis, angle * f) * prev.tangent).normalize()
                    };
                    b.add(tau + angle * travel_per_radian * f, k.s, k.pos, t, DVec3::ZERO);
                }
                tau += angle * travel_per_radian;
                continue;
            }
            if prev.tangent == k.tangent && ds > STRAIGHT_SPACING {
                let n = (ds / STRAIGHT_SPACING).ceil() as usize;
                for j in 1..n {
                    let f = j as f64 / n as f64;
                    b.add(tau + ds * f, prev.s + ds * f, prev.pos.lerp(k.pos, f), k.tangent, DVec3::ZERO);
                }
            }
            tau += ds;
            b.add(tau, k.s, k.pos, k.tangent, k.curvature);
        }

        // Average the bank over +-W of travel (piecewise linear bank, zero outside the path).
        let w = f64::from(profile.bank_smoothing);
        let (taus, bank) = (b.knots.iter().map(|k| k.tau).collect::<Vec<_>>(), b.bank);
        let mut prefix = vec![0.0; taus.len()];
        for i in 1..taus.len() {
            prefix[i] = prefix[i - 1] + (bank[i] + bank[i - 1]) * 0.5 * (taus[i] - taus[i - 1]);
        }
        let integral = |x: f64| -> f64 {
            if x <= 0.0 || taus.len() < 2 {
                return 0.0;
            }
            let last = taus.len() - 1;
            if x >= taus[last] {
                return prefix[last];
            }
            let i = taus.partition_point(|&t| t <= x) - 1;
            let (d, len) = (x - taus[i], taus[i + 1] - taus[i]);
            prefix[i] + bank[i] * d + (bank[i + 1] - bank[i]) * d * d / (2.0 * len)
        };
        let max_pitch = f64::from(profile.max_pitch);
        let mut knots = b.knots;
        for k in &mut knots {
            let roll = (integral(k.tau + w) - integral(k.tau - w)) / (2.0 * w);
            let excess = k.tangent.y.clamp(-1.0, 1.0).asin().abs() - max_pitch;
            let mut q = k.q;
            if excess > 0.0 {
                q *= DQuat::from_rotation_x(-excess * k.tangent.y.signum());
            }
            k.q = (q * DQuat::from_rotation_z(-roll)).normalize();
        }
        // Continuing from a pose: its difference from the rules' first orientation fades out.
        let mut fade_rate = 0.0;
        if let Some(pose) = from {
            let mut delta = (pose.orientation.as_dquat().normalize() * knots[0].q.inverse()).normalize();
            if delta.w < 0.0 {
                delta = -delta;
            }
            let angle = 2.0 * delta.xyz().length().atan2(delta.w);
            fade_rate = angle / w;
            for k in knots.iter_mut().take_while(|k| k.tau < w) {
                k.q = (DQuat::IDENTITY.slerp(delta, 1.0 - k.tau / w) * k.q).normalize();
            }
        }
        let mut previous: Option<DQuat> = None;
        for k in &mut knots {
            if previous.is_some_and(|p| p.dot(k.q) < 0.0) {
                k.q = -k.q;
            }
            previous = Some(k.q);
        }
        let forward_rate = smooth.max_curvature().max(1.0 / travel_per_radian);
        let clamp_rate = if profile.max_pitch < std::f32::consts::FRAC_PI_2 { forward_rate } else { 0.0 };
        let max_turn =
            forward_rate + clamp_rate + f64::from(profile.level_rate) + f64::from(profile.max_bank) / w + fade_rate;
        Ok(Self { knots, origin: smooth.to_world(DVec3::ZERO).as_dvec3(), voxel_size: size, speed, max_turn })
    }

    /// Arc length, world units.
    #[must_use]
    pub fn length(&self) -> f32 {
        (self.knots.last().map_or(0.0, |k| k.s) * self.voxel_size) as f32
    }

    /// Total travel (arc length plus turns in place, see [`Trajectory`]), world units.
    #[must_use]
    pub fn travel(&self) -> f32 {
        (self.end_tau() * self.voxel_size) as f32
    }

    /// Seconds from start to goal at the profile's speed, turns in place included.
    #[must_use]
    pub fn duration(&self) -> f32 {
        (self.end_tau() / self.speed) as f32
    }

    /// The most the orientation turns per world unit of travel (radians): consecutive samples a
    /// travel `d` apart differ by at most `max_turn_rate() * d` (plus float rounding). It is the
    /// sum of the fastest forward turn (the smoothing's `1 / min_turn_radius`, or the turn in
    /// place rate over the speed), the same again if pitch is clamped, the levelling rate, and
    /// `max_bank / bank_smoothing`, converted from voxels to world units.
    #[must_use]
    pub fn max_turn_rate(&self) -> f32 {
        (self.max_turn / self.voxel_size) as f32
    }

    fn end_tau(&self) -> f64 {
        self.knots.last().map_or(0.0, |k| k.tau)
    }

    /// The pose at travel `tau` (voxels), searching from knot `hint` on.
    fn pose_at_tau(&self, tau: f64, hint: &mut usize) -> Pose {
        let tau = tau.clamp(0.0, self.end_tau());
        let last = self.knots.len() - 1;
        while *hint < last && self.knots[*hint + 1].tau < tau {
            *hint += 1;
        }
        let a = &self.knots[*hint];
        let b = &self.knots[(*hint + 1).min(last)];
        let len = b.tau - a.tau;
        let f = if len > 0.0 { ((tau - a.tau) / len).clamp(0.0, 1.0) } else { 0.0 };
        let pos = a.pos.lerp(b.pos, f);
        Pose {
            s: ((a.s + (b.s - a.s) * f) * self.voxel_size) as f32,
            time: (tau / self.speed) as f32,
            position: (self.origin + pos * self.voxel_size).as_vec3(),
            tangent: a.tangent.lerp(b.tangent, f).normalize_or(a.tangent).as_vec3(),
            orientation: a.q.slerp(b.q, f).normalize().as_quat(),
        }
    }

    /// Travel (voxels) at which the arc length first reaches `s` (voxels).
    fn tau_at_s(&self, s: f64) -> f64 {
        let i = self.knots.partition_point(|k| k.s < s);
        if i == 0 {
            return 0.0;
        }
        if i == self.knots.len() {
            return self.end_tau();
        }
        let (a, b) = (&self.knots[i - 1], &self.knots[i]);
        a.tau + (b.tau - a.tau) * ((s - a.s) / (b.s - a.s)).clamp(0.0, 1.0)
    }

    /// The pose at arc length `s` (world units, clamped to `0..=length`). At a turn in place,
    /// the pose before the turn.
    ///
    /// # Errors
    /// [`TrajectoryError::InvalidArgument`] if `s` is NaN or infinite.
    pub fn pose_at_length(&self, s: f32) -> Result<Pose, TrajectoryError> {
        finite("s", s, false)?;
        Ok(self.pose_at_tau(self.tau_at_s(f64::from(s) / self.voxel_size), &mut 0))
    }

    /// The pose at `time` seconds from the start (clamped to `0..=duration`).
    ///
    /// # Errors
    /// [`TrajectoryError::InvalidArgument`] if `time` is NaN or infinite.
    pub fn pose_at_time(&self, time: f32) -> Result<Pose, TrajectoryError> {
        finite("time", time, false)?;
        Ok(self.pose_at_tau(f64::from(time) * self.speed, &mut 0))
    }

    /// Poses every `spacing` world units of travel from start to goal, both included (the last
    /// interval may be shorter): consecutive positions are at most `spacing` apart.
    ///
    /// # Errors
    /// [`TrajectoryError::InvalidArgument`] if `spacing` is not finite and positive,
    /// [`TrajectoryError::TooManySamples`] if it would give more than 50 million poses.
    pub fn samples_by_length(&self, spacing: f32) -> Result<Vec<Pose>, TrajectoryError> {
        finite("spacing", spacing, true)?;
        self.samples(f64::from(spacing) / self.voxel_size)
    }

    /// Poses every `dt` seconds from start to goal at the profile's speed, both included (the
    /// last interval may be shorter).
    ///
    /// # Errors
    /// [`TrajectoryError::InvalidArgument`] if `dt` is not finite and positive,
    /// [`TrajectoryError::TooManySamples`] if it would give more than 50 million poses.
    pub fn samples_by_time(&self, dt: f32) -> Result<Vec<Pose>, TrajectoryError> {
        finite("dt", dt, true)?;
        self.samples(f64::from(dt) * self.speed)
    }

    fn samples(&self, step: f64) -> Result<Vec<Pose>, TrajectoryError> {
        let end = self.end_tau();
        let n = (end / step).ceil();
        if n > MAX_SAMPLES as f64 {
            return Err(TrajectoryError::TooManySamples(n as u64));
        }
        let n = n as usize;
        let mut hint = 0;
        Ok((0..=n).map(|i| self.pose_at_tau(if i == n { end } else { i as f64 * step }, &mut hint)).collect())
    }
}

fn finite(name: &'static str, value: f32, positive: bool) -> Result<(), TrajectoryError> {
    if value.is_finite() && (!positive || value > 0.0) {
        Ok(())
    } else {
        Err(TrajectoryError::InvalidArgument { name, value, positive })
    }
}
