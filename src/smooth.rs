//! Smoothing: turns a voxel path into a curve the whole agent can fly.
//!
//! See [`smooth_path`].

use glam::{DVec3, IVec3, Vec3};
use thiserror::Error;

use crate::agent::Agent;
use crate::grid::pass::Pass;
use crate::grid::world::VoxelWorld;
use crate::medium::Media;
use crate::search::path::Path;

/// Largest distance (voxels) between two consecutive knots of a bend.
pub(crate) const BEND_SPACING: f64 = 1.0 / 16.0;
/// Lengths of the rounded corners tried, as multiples of [`SmoothConfig::bend_length`], in order.
const ROUNDED_SCALES: [f64; 4] = [1.0, 0.5, 0.25, 2.0];
/// Lengths of the bends through a corner tried, as multiples of [`SmoothConfig::bend_length`].
const THROUGH_SCALES: [f64; 4] = [1.0, 2.0, 4.0, 0.5];

/// Why a path could not be smoothed. Each variant names the offending input.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum SmoothError {
    /// The path has no voxel.
    #[error("the path has no voxel")]
    EmptyPath,
    /// A path voxel is solid, outside the world, or of a medium the config forbids.
    #[error("path voxel {index} ({voxel}) is blocked for this agent")]
    Blocked {
        /// Index of the voxel in the path.
        index: usize,
        /// The voxel.
        voxel: IVec3,
    },
    /// Two consecutive voxels are not neighbours (equal, or more than one voxel apart on an axis).
    #[error("path step {index} ({from} -> {to}) is not a move to one of the 26 neighbours")]
    NotAMove {
        /// Index of the step's first voxel.
        index: usize,
        /// First voxel of the step.
        from: IVec3,
        /// Second voxel of the step.
        to: IVec3,
    },
    /// A diagonal step squeezes past a blocked voxel, so the agent's box would clip it (the path
    /// was searched with a looser [`DiagonalRule`](crate::DiagonalRule) than `Strict`).
    #[error("path step {index} ({from} -> {to}) clips a blocked voxel (searched with a loose diagonal rule?)")]
    StepClips {
        /// Index of the step's first voxel.
        index: usize,
        /// First voxel of the step.
        from: IVec3,
        /// Second voxel of the step.
        to: IVec3,
    },
    /// [`smooth_from`](crate::smooth_from): the agent's position or heading is NaN or
    /// infinite, or its heading is zero.
    #[error("the agent's pose is not usable: position {position}, heading {heading}")]
    InvalidPose {
        /// The position given.
        position: Vec3,
        /// The heading given.
        heading: Vec3,
    },
    /// [`smooth_from`](crate::smooth_from): the agent's box has no clear straight way from its
    /// position to any of the path's first waypoints (it overlaps a voxel blocked for it where
    /// it is, say: outside the world, solid, or of a medium it may not enter).
    #[error("the agent at {position} cannot rejoin the path: its box is blocked there or on the way")]
    CannotRejoin {
        /// The agent's position.
        position: Vec3,
    },
    /// A [`SmoothConfig`] field is NaN, infinite, zero or negative.
    #[error("smoothing parameter {name} must be finite and > 0, got {value}")]
    InvalidConfig {
        /// The field.
        name: &'static str,
        /// The value given.
        value: f32,
    },
}

/// How [`smooth_path`] smooths.
///
/// Lengths are in **voxels** (agent steps), so one config suits worlds of any voxel size.
///
/// # Examples
/// ```
/// use voxnav::{Media, SmoothConfig};
/// let config = SmoothConfig { media: Media::AIR, ..Default::default() };
/// assert!(config.curves && config.validate().is_ok());
/// assert!(SmoothConfig { min_turn_radius: f32::NAN, ..config }.validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SmoothConfig {
    /// Media the agent may occupy (default [`Media::ANY`]); use the search's media.
    pub media: Media,
    /// Round the corners (default `true`). With `false` the result is the string-pulled
    /// polyline: straight segments between the kept voxel centres.
    pub curves: bool,
    /// Distance (voxels) along each leg from a corner over which its bend curves (default 2).
    /// Where that bend does not fit, half, a quarter, twice and four times it are tried too;
    /// a bend never takes more than half of a leg.
    pub bend_length: f32,
    /// Smallest radius of curvature (voxels) a bend may have (default 1). Tighter bends are
    /// rejected; a corner with no acceptable bend stays sharp.
    pub min_turn_radius: f32,
    /// The agent's clearance radius in voxels (default 0); use the search's
    /// [`clearance`](crate::SearchConfig::clearance). The swept box is then `2 r + 1` voxels
    /// wide: it keeps clear of solid voxels (water and air both count as free there), while
    /// its central voxel stays in the allowed media.
    pub clearance: u8,
}

impl Default for SmoothConfig {
    fn default() -> Self {
        Self { media: Media::ANY, curves: true, bend_length: 2.0, min_turn_radius: 1.0, clearance: 0 }
    }
}

impl SmoothConfig {
    /// The default configuration with the media of `agent`.
    #[must_use]
    pub fn for_agent(agent: &Agent) -> Self {
        Self { media: agent.media(), ..Self::default() }
    }

    /// How the swept box sees voxels.
    pub(crate) fn pass(&self) -> Pass {
        Pass::new(&self.media).with_radius(self.clearance)
    }

    /// Checks that the lengths are finite and positive and the clearance at most
    /// [`SearchConfig::MAX_CLEARANCE`](crate::SearchConfig::MAX_CLEARANCE).
    ///
    /// # Errors
    /// [`SmoothError::InvalidConfig`] naming the first bad field.
    pub fn validate(&self) -> Result<(), SmoothError> {
        if self.clearance > crate::SearchConfig::MAX_CLEARANCE {
            return Err(SmoothError::InvalidConfig { name: "clearance", value: f32::from(self.clearance) });
        }
        for (name, value) in [("bend_length", self.bend_length), ("min_turn_radius", self.min_turn_radius)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(SmoothError::InvalidConfig { name, value });
            }
        }
        Ok(())
    }
}

/// One sample of a smoothed curve, in voxel units (voxel `v` spans `v..v + 1`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Knot {
    /// Position of the agent's centre.
    pub(crate) pos: DVec3,
    /// Unit direction of travel.
    pub(crate) tangent: DVec3,
    /// Curvature vector `dT/ds` (1 / voxel), zero on straight parts.
    pub(crate) curvature: DVec3,
    /// Arc length from the start.
    pub(crate) s: f64,
}

/// A smoothed path: a curve from the start voxel's centre to the goal voxel's centre along
/// which the agent's box never enters a blocked voxel.
///
/// The curve is stored as *knots*: straight segments between consecutive knots (bends are
/// sampled at most 1/16 voxel apart), and that polyline is exactly what was checked against
/// the world. At a sharp corner two consecutive knots share a position and differ in tangent.
/// Build one with [`smooth_path`]; fly it with a [`Trajectory`](crate::Trajectory).
///
/// # Examples
/// ```
/// use glam::{IVec3, UVec3, Vec3};
/// use voxnav::{smooth_path, PathRequest, Pathfinder, SearchConfig, SmoothConfig, Voxel, VoxelWorld};
/// let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(24, 8, 24)).unwrap();
/// world.fill_voxels(IVec3::new(10, 0, 0), IVec3::new(12, 7, 15), Voxel::Solid).unwrap();
/// let path = Pathfinder::new()
///     .find(&world, None, &PathRequest::new(IVec3::new(2, 4, 2), IVec3::new(20, 4, 3), SearchConfig::default()))
///     .unwrap();
/// let smooth = smooth_path(&world, &path, &SmoothConfig::default()).unwrap();
/// assert!(smooth.length() <= smooth.raw_length());
/// assert_eq!(smooth.points().first(), Some(&Vec3::new(2.5, 4.5, 2.5)));
/// assert_eq!(smooth.points().last(), Some(&Vec3::new(20.5, 4.5, 3.5)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SmoothPath {
    origin: Vec3,
    voxel_size: f32,
    waypoints: Vec<IVec3>,
    knots: Vec<Knot>,
    raw_length: f64,
    polyline_length: f64,
    sharp_corners: usize,
    max_curvature: f64,
}

impl SmoothPath {
    /// The voxels string pulling kept, start and goal included: the curve passes through each
    /// one's centre.
    #[must_use]
    pub fn waypoints(&self) -> &[IVec3] {
        &self.waypoints
    }

    /// Length of the smoothed curve, in world units. Never more than
    /// [`raw_length`](Self::raw_length).
    #[must_use]
    pub fn length(&self) -> f64 {
        self.knots.last().map_or(0.0, |k| k.s) * f64::from(self.voxel_size)
    }

    /// Length of the input voxel path through the voxel centres, in world units.
    #[must_use]
    pub fn raw_length(&self) -> f64 {
        self.raw_length * f64::from(self.voxel_size)
    }

    /// Length of the string-pulled polyline through the [`waypoints`](Self::waypoints), in
    /// world units (the curve is at most a little longer, or shorter).
    #[must_use]
    pub fn polyline_length(&self) -> f64 {
        self.polyline_length * f64::from(self.voxel_size)
    }

    /// How many interior waypoints have no bend (the curve turns sharply there).
    #[must_use]
    pub fn sharp_corners(&self) -> usize {
        self.sharp_corners
    }

    /// The curve as a polyline of world points (every knot, consecutive duplicates at sharp
    /// corners removed): exactly the geometry that was checked against the world.
    #[must_use]
    pub fn points(&self) -> Vec<Vec3> {
        let mut out: Vec<Vec3> = Vec::with_capacity(self.knots.len());
        for k in &self.knots {
            let p = self.to_world(k.pos);
            if out.last() != Some(&p) {
                out.push(p);
            }
        }
        out
    }

    /// World position of a point in voxel units.
    #[inline]
    pub(crate) fn to_world(&self, p: DVec3) -> Vec3 {
        (self.origin.as_dvec3() + p * f64::from(self.voxel_size)).as_vec3()
    }

    pub(crate) fn knots(&self) -> &[Knot] {
        &self.knots
    }

    pub(crate) fn voxel_size(&self) -> f32 {
        self.voxel_size
    }

    /// Largest curvature (1 / voxel) the curve may have between consecutive knots.
    pub(crate) fn max_curvature(&self) -> f64 {
        self.max_curvature
    }
}

/// Whether the agent's box, swept from the centre of voxel `a` to the centre of voxel `b`,
/// stays clear: every voxel it overlaps with positive volume is inside the world and of a
/// medium `media` allows.
///
/// Exact (integer arithmetic), symmetric, and for neighbours `a`, `b` the same answer as the
/// strict diagonal rule. This is the line-of-sight test of string pulling; use it for your own
/// shortcuts or any-angle searches.
///
/// # Examples
/// ```
/// use glam::{IVec3, UVec3, Vec3};
/// use voxnav::{segment_clear, Media, Voxel, VoxelWorld};
/// let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(8)).unwrap();
/// world.set(IVec3::new(2, 1, 1), Voxel::Solid).unwrap();
/// // A thin ray from (1,1,1) to (3,2,1) passes the blocked voxel's corner, the box does not.
/// assert!(!segment_clear(&world, IVec3::new(1, 1, 1), IVec3::new(3, 2, 1), Media::ANY));
/// assert!(segment_clear(&world, IVec3::new(1, 2, 1), IVec3::new(3, 2, 1), Media::ANY));
/// ```
#[must_use]
pub fn segment_clear(world: &VoxelWorld, a: IVec3, b: IVec3, media: Media) -> bool {
    clear_for(world, a, b, Pass::new(&media))
}

/// [`segment_clear`] for a query's view of voxels (its media and clearance).
fn clear_for(world: &VoxelWorld, a: IVec3, b: IVec3, pass: Pass) -> bool {
    sweep(a, b, |v| world.passable(v, pass))
}

/// A fraction `n / d` with `d > 0`.
#[derive(Debug, Clone, Copy)]
struct Frac {
    n: i64,
    d: i64,
}

impl Frac {
    #[inline]
    fn lt(self, o: Frac) -> bool {
        self.n * o.d < o.n * self.d
    }
    #[inline]
    fn f64(self) -> f64 {
        self.n as f64 / self.d as f64
    }
}

/// The open interval of segment parameters `t` (a subset of `lo..hi`) at which the box is within
/// one voxel of offset `e` along an axis where the segment moves by `d`: `|t d - e| < 1`.
#[inline]
fn clip(lo: Frac, hi: Frac, e: i64, d: i64) -> Option<(Frac, Frac)> {
    if d == 0 {
        return (e == 0).then_some((lo, hi));
    }
    let (s, q) = (d.signum(), d.abs());
    let (a, b) = (Frac { n: s * e - 1, d: q }, Frac { n: s * e + 1, d: q });
    let lo = if lo.lt(a) { a } else { lo };
    let hi = if b.lt(hi) { b } else { hi };
    lo.lt(hi).then_some((lo, hi))
}

/// Offsets `e` that may satisfy `|t d - e| < 1` for some `t` in `t0..=t1` (a superset).
#[inline]
fn candidates(d: i64, t0: f64, t1: f64) -> std::ops::RangeInclusive<i64> {
    let (x, y) = (t0 * d as f64, t1 * d as f64);
    (x.min(y).floor() as i64 - 1)..=(x.max(y).ceil() as i64 + 1)
}

/// Calls `visit` on every voxel the agent's box overlaps (positive volume) while its centre
/// moves from the centre of `a` to the centre of `b`: voxel `a + e` is overlapped when some
/// `t` in `[0, 1]` has `|t (b - a) - e| < 1` on every axis. Stops and returns `false` as soon
/// as `visit` does.
pub(crate) fn sweep(a: IVec3, b: IVec3, mut visit: impl FnMut(IVec3) -> bool) -> bool {
    let d = (b - a).as_i64vec3();
    let dd = d.to_array();
    let ad = d.abs();
    let k0 = if ad.x >= ad.y && ad.x >= ad.z {
        0
    } else if ad.y >= ad.z {
        1
    } else {
        2
    };
    let (k1, k2) = ((k0 + 1) % 3, (k0 + 2) % 3);
    let step = if dd[k0] >= 0 { 1 } else { -1 };
    let (zero, one) = (Frac { n: 0, d: 1 }, Frac { n: 1, d: 1 });
    let mut e0 = -step;
    loop {
        if let Some((l0, h0)) = clip(zero, one, e0, dd[k0]) {
            for e1 in candidates(dd[k1], l0.f64(), h0.f64()) {
                let Some((l1, h1)) = clip(l0, h0, e1, dd[k1]) else { continue };
                for e2 in candidates(dd[k2], l1.f64(), h1.f64()) {
                    if clip(l1, h1, e2, dd[k2]).is_some() {
                        let mut e = [0i64; 3];
                        (e[k0], e[k1], e[k2]) = (e0, e1, e2);
                        if !visit(a + IVec3::new(e[0] as i32, e[1] as i32, e[2] as i32)) {
                            return false;
                        }
                    }
                }
            }
        }
        if e0 == dd[k0] + step {
            return true;
        }
        e0 += step;
    }
}

/// Whether the box stays clear while its centre stays in the box `lo..=hi` (voxel units):
/// every voxel overlapping `[lo - 0.5, hi + 0.5]` with positive volume is free.
/// With a clearance radius `r`, the voxels within `r` of them hold no solid voxel either.
pub(crate) fn region_clear(world: &VoxelWorld, pass: Pass, lo: DVec3, hi: DVec3) -> bool {
    let vmin = ((lo - 1.5).floor() + 1.0).as_ivec3();
    let vmax = ((hi + 0.5).ceil() - 1.0).as_ivec3();
    let media = pass.media_only();
    for z in vmin.z..=vmax.z {
        for y in vmin.y..=vmax.y {
            for x in vmin.x..=vmax.x {
                if !world.passable(IVec3::new(x, y, z), media) {
                    return false;
                }
            }
        }
    }
    let r = i32::from(pass.radius());
    r == 0 || !world.solid_in_box(vmin - r, vmax + r)
}

/// Whether the box stays clear along the polyline through `points` (straight between points).
pub(crate) fn polyline_clear(world: &VoxelWorld, pass: Pass, points: &[DVec3]) -> bool {
    const GROUP: usize = 8;
    let mut i = 0;
    while i + 1 < points.len() {
        let end = (i + GROUP).min(points.len() - 1);
        let group = &points[i..=end];
        let lo = group.iter().fold(DVec3::INFINITY, |m, p| m.min(*p));
        let hi = group.iter().fold(DVec3::NEG_INFINITY, |m, p| m.max(*p));
        if !region_clear(world, pass, lo, hi) {
            for w in group.windows(2) {
                if !region_clear(world, pass, w[0].min(w[1]), w[0].max(w[1])) {
                    return false;
                }
            }
        }
        i = end;
    }
    true
}

/// A cubic Bezier curve.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bezier(pub(crate) [DVec3; 4]);

impl Bezier {
    fn point(&self, t: f64) -> DVec3 {
        let [p0, p1, p2, p3] = self.0;
        let u = 1.0 - t;
        p0 * (u * u * u) + p1 * (3.0 * u * u * t) + p2 * (3.0 * u * t * t) + p3 * (t * t * t)
    }
    fn d1(&self, t: f64) -> DVec3 {
        let [p0, p1, p2, p3] = self.0;
        let u = 1.0 - t;
        (p1 - p0) * (3.0 * u * u) + (p2 - p1) * (6.0 * u * t) + (p3 - p2) * (3.0 * t * t)
    }
    fn d2(&self, t: f64) -> DVec3 {
        let [p0, p1, p2, p3] = self.0;
        (p2 - p1 * 2.0 + p0) * (6.0 * (1.0 - t)) + (p3 - p2 * 2.0 + p1) * (6.0 * t)
    }

    /// Knots at most [`BEND_SPACING`] apart, both ends included; `s` counts from 0. The end
    /// tangents are set to `t0` and `t1` exactly.
    pub(crate) fn knots(&self, t0: DVec3, t1: DVec3) -> Vec<Knot> {
        let [p0, p1, p2, p3] = self.0;
        let hull = p0.distance(p1) + p1.distance(p2) + p2.distance(p3);
        let mut n = ((hull / BEND_SPACING).ceil() as usize).max(1);
        let points = loop {
            let points: Vec<DVec3> = (0..=n).map(|i| self.point(i as f64 / n as f64)).collect();
            if n >= 1 << 16 || points.windows(2).all(|w| w[0].distance(w[1]) <= BEND_SPACING) {
                break points;
            }
            n *= 2;
        };
        let mut s = 0.0;
        let mut out = Vec::with_capacity(n + 1);
        for (i, &pos) in points.iter().enumerate() {
            if i > 0 {
                s += pos.distance(points[i - 1]);
            }
            let t = i as f64 / n as f64;
            let (v, a) = (self.d1(t), self.d2(t));
            let speed2 = v.length_squared();
            let tangent = if i == 0 {
                t0
            } else if i == n {
                t1
            } else {
                v / speed2.sqrt()
            };
            let curvature = (a - tangent * a.dot(tangent)) / speed2;
            out.push(Knot { pos, tangent, curvature, s });
        }
        out
    }
}

/// Whether consecutive knot tangents turn by at most `max_curvature` per unit of distance.
pub(crate) fn turns_within(knots: &[Knot], max_curvature: f64) -> bool {
    knots.windows(2).all(|w| {
        let angle = w[0].tangent.angle_between(w[1].tangent);
        angle <= max_curvature * w[0].pos.distance(w[1].pos) * (1.0 + 1e-9) + 1e-12
    })
}

/// The bend at one corner: the curve replacing `l_in` of the incoming leg and `l_out` of the
/// outgoing one.
#[derive(Debug, Clone)]
struct Bend {
    l_in: f64,
    l_out: f64,
    /// Knots from the incoming leg's bend start to the bend end on the outgoing leg.
    knots: Vec<Knot>,
}

impl Bend {
    fn length(&self) -> f64 {
        self.knots.last().map_or(0.0, |k| k.s)
    }
}

/// Tries to bend the corner `w` between legs of directions `d_in`, `d_out` and lengths `c_in`,
/// `c_out`. Returns the first candidate that is clear and gentle enough:
/// 1. *rounded* corners (one arc-like cubic inside the corner, from `l` before `w` to `l`
///    after it), for `l` of 1, 1/2, 1/4 and 2 bend lengths: shorter than the corner, but
///    they fit only where the inside of the corner has room;
/// 2. *through* bends (two cubics meeting at `w` with the tangent along the bisector of the
///    legs), for `l` of 1, 2, 4 and 1/2 bend lengths: they swing slightly outward, which is
///    where the room is when the corner hugs an obstacle (the usual case after string
///    pulling, where the agent's box touches the obstacle's edge at `w`).
fn bend_corner(
    world: &VoxelWorld,
    config: &SmoothConfig,
    w: DVec3,
    (d_in, c_in): (DVec3, f64),
    (d_out, c_out): (DVec3, f64),
) -> Option<Bend> {
    let sum = d_in + d_out;
    if sum.length() < 1e-6 {
        return None;
    }
    let m = sum.normalize();
    let turn = d_in.angle_between(d_out);
    let max_curvature = 1.0 / f64::from(config.min_turn_radius);
    let base = f64::from(config.bend_length);
    let rounded = ROUNDED_SCALES.iter().map(|&scale| (true, scale));
    let through = THROUGH_SCALES.iter().map(|&scale| (false, scale));
    for (inside, scale) in rounded.chain(through) {
        let l = base * scale;
        let (l_in, l_out) = (l.min(c_in / 2.0), l.min(c_out / 2.0));
        let a = w - d_in * l_in;
        let b = w + d_out * l_out;
        let knots = if inside {
            // Handles of the cubic closest to a circular arc tangent to both legs.
            let k = 4.0 / 3.0 * (turn / 4.0).tan() / (turn / 2.0).tan();
            Bezier([a, a + d_in * (k * l_in), b - d_out * (k * l_out), b]).knots(d_in, d_out)
        } else {
            // Handle lengths that keep the peak curvature of the S low (0.33 and 0.47 of the
            // bend length: found by minimising it over 10..85 degree half-turns).
            let (h0, h1) = (0.33, 0.47);
            let first = Bezier([a, a + d_in * (h0 * l_in), w - m * (h1 * l_in), w]).knots(d_in, m);
            let second = Bezier([w, w + m * (h1 * l_out), b - d_out * (h0 * l_out), b]).knots(m, d_out);
            let s0 = first.last().map_or(0.0, |k| k.s);
            let mut knots = first;
            knots.extend(second.into_iter().skip(1).map(|k| Knot { s: k.s + s0, ..k }));
            knots
        };
        if !turns_within(&knots, max_curvature) {
            continue;
        }
        let points: Vec<DVec3> = knots.iter().map(|k| k.pos).collect();
        if polyline_clear(world, config.pass(), &points) {
            return Some(Bend { l_in, l_out, knots });
        }
    }
    None
}

/// Checks a voxel path and returns its length in voxels.
fn validate(world: &VoxelWorld, voxels: &[IVec3], pass: Pass) -> Result<f64, SmoothError> {
    if voxels.is_empty() {
        return Err(SmoothError::EmptyPath);
    }
    for (index, &voxel) in voxels.iter().enumerate() {
        if !world.passable(voxel, pass) {
            return Err(SmoothError::Blocked { index, voxel });
        }
    }
    let mut length = 0.0;
    for (index, w) in voxels.windows(2).enumerate() {
        let (from, to) = (w[0], w[1]);
        let d = (to - from).abs();
        if d.max_element() != 1 {
            return Err(SmoothError::NotAMove { index, from, to });
        }
        if !clear_for(world, from, to, pass) {
            return Err(SmoothError::StepClips { index, from, to });
        }
        length += f64::from(d.x + d.y + d.z).sqrt();
    }
    Ok(length)
}

/// String pulling: keeps the first voxel, then each voxel after which the swept box from the
/// last kept one would no longer be clear, then the last voxel; then drops any kept voxel whose
/// neighbours see each other.
fn string_pull(world: &VoxelWorld, voxels: &[IVec3], pass: Pass) -> Vec<IVec3> {
    let n = voxels.len();
    if n <= 2 {
        return voxels.to_vec();
    }
    let mut out = vec![voxels[0]];
    let mut anchor = voxels[0];
    for j in 2..n {
        if !clear_for(world, anchor, voxels[j], pass) {
            anchor = voxels[j - 1];
            out.push(anchor);
        }
    }
    out.push(voxels[n - 1]);
    let mut i = 1;
    while i + 1 < out.len() {
        if clear_for(world, out[i - 1], out[i + 1], pass) {
            out.remove(i);
        } else {
            i += 1;
        }
    }
    out
}

/// Smooths a path found in `world` into a curve the whole agent can fly.
///
/// Two passes, both checked against the world:
/// 1. **String pulling.** Waypoints are dropped while the straight segment between the kept ones
///    stays clear for the whole agent, tested with [`segment_clear`]: the agent's voxel-sized box
///    is swept along the segment and every voxel it overlaps must be free (an exact voxel
///    traversal, not a thin ray).
/// 2. **Corner bends.** Each kept corner is replaced by a tangent-continuous curve joining the
///    two legs, which stay straight in between: first a *rounded* corner (an arc-like cubic
///    inside the corner, shorter than the corner), else a bend *through* the corner point (two
///    cubics meeting there with the tangent along the bisector of the legs; it swings slightly
///    outward, where the room is when the corner hugs an obstacle, as string-pulled corners
///    usually do). Each candidate, at several lengths, is kept only if the agent's box stays
///    clear along all of it (its polyline of knots at most 1/16 voxel apart, checked with the
///    same positive-volume rule) and it turns no tighter than
///    [`SmoothConfig::min_turn_radius`]. A corner with no such bend stays sharp (a *sharp
///    corner*, where a [`Trajectory`](crate::Trajectory) turns the agent in place). Bends that
///    would make the curve longer than the raw path are dropped, longest excess first.
///
/// # Geometry and units
/// The agent is an axis-aligned box of one voxel (the voxel edge is the agent's
/// [step](crate::Agent::step)) centred on the path point. It *enters* a voxel when the two
/// overlap with positive volume; touching a face, an edge or a corner is allowed. For a single
/// move between neighbours this is exactly [`DiagonalRule::Strict`](crate::DiagonalRule::Strict):
/// the box sweeps the 2x2(x2) block of the move's bounding box.
///
/// The result starts at the centre of the path's first voxel, ends at the centre of its last,
/// is never longer than the path, and the agent's voxel-sized box never enters a voxel that is
/// blocked for `config.media` anywhere along it. Deterministic.
///
/// # Errors
/// As [`smooth_voxels`].
///
/// # Examples
/// See [`SmoothPath`].
pub fn smooth_path(world: &VoxelWorld, path: &Path, config: &SmoothConfig) -> Result<SmoothPath, SmoothError> {
    smooth_voxels(world, &path.voxels, config)
}

/// Smooths a voxel path: string pulling with the swept-box test of [`segment_clear`], then
/// corner bends each checked against the world, the corners without a fitting bend left sharp.
///
/// `voxels` must be a path in `world`: each voxel free for `config.media`, each step a move to
/// one of the 26 neighbours that is legal under the strict diagonal rule. The guarantees are
/// those of [`smooth_path`].
///
/// # Errors
/// [`SmoothError::InvalidConfig`], [`SmoothError::EmptyPath`], [`SmoothError::Blocked`],
/// [`SmoothError::NotAMove`], [`SmoothError::StepClips`].
///
/// # Examples
/// ```
/// use glam::{IVec3, UVec3, Vec3};
/// use voxnav::{smooth_voxels, SmoothConfig, SmoothError, VoxelWorld};
/// let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(8)).unwrap();
/// let voxels = [IVec3::ZERO, IVec3::new(1, 0, 0), IVec3::new(2, 1, 0), IVec3::new(3, 1, 0)];
/// let smooth = smooth_voxels(&world, &voxels, &SmoothConfig::default()).unwrap();
/// assert_eq!(smooth.waypoints(), &[IVec3::ZERO, IVec3::new(3, 1, 0)]);
/// assert!(matches!(smooth_voxels(&world, &[], &SmoothConfig::default()), Err(SmoothError::EmptyPath)));
/// ```
pub fn smooth_voxels(world: &VoxelWorld, voxels: &[IVec3], config: &SmoothConfig) -> Result<SmoothPath, SmoothError> {
    smooth(world, voxels, config, None)
}

/// Where a moving agent is (voxel units) and its unit direction of travel, for
/// [`smooth_from`](crate::smooth_from).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Underway {
    pub(crate) position: DVec3,
    pub(crate) heading: DVec3,
}

/// How many of the first string-pulled waypoints an agent under way may head straight for.
const START_REACH: usize = 8;
/// Spacing (voxels) of the points at which a straight line from an agent under way is checked.
const LINE_STEP: f64 = 0.25;

/// Whether the agent's box stays clear on the straight line from `a` to `b` (any points):
/// checked over the boxes of points at most [`LINE_STEP`] apart and the hulls between them, a
/// slight over-approximation of the swept box.
fn line_clear(world: &VoxelWorld, pass: Pass, a: DVec3, b: DVec3) -> bool {
    let n = ((a.distance(b) / LINE_STEP).ceil() as usize).max(1);
    let points: Vec<DVec3> = (0..=n).map(|i| a.lerp(b, i as f64 / n as f64)).collect();
    polyline_clear(world, pass, &points)
}

/// `p` rounded to 1/8192 voxel, for the clearance checks of an agent under way: a pose's
/// position is an `f32` in world units, so an agent that touches a wall exactly (its box face on
/// a voxel face) may sit a few millionths of a voxel inside it after rounding.
fn snap(p: DVec3) -> DVec3 {
    (p * 8192.0).round() / 8192.0
}

/// Arc lengths (voxels) along the curve at which the turn from an agent's heading onto it may
/// join it, in the order tried: the nearest join whose curve is clear and gentle enough wins.
const JOINS: [f64; 8] = [0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0];

/// The curve from an agent under way at `knots[0]`, heading `d`, onto `knots` (which start
/// there and turn in place onto their first leg): a cubic tangent to `d` at the agent and to
/// the curve where it joins it, at the first of [`JOINS`] where it is clear and turns no tighter
/// than `max_curvature`. Returns the new knots, or `None`.
fn join_from(world: &VoxelWorld, pass: Pass, max_curvature: f64, d: DVec3, knots: &[Knot]) -> Option<Vec<Knot>> {
    let p = knots[0].pos;
    let total = knots.last().map_or(0.0, |k| k.s);
    for s_join in JOINS {
        if s_join > total {
            break;
        }
        let (q, tq, rest) = split_at(knots, s_join);
        let h = p.distance(q) / 3.0;
        let lead = Bezier([p, p + d * h, q - tq * h, q]).knots(d, tq);
        if !turns_within(&lead, max_curvature) {
            continue;
        }
        // Checked from the snapped start (the same curve within 1/16384 voxel).
        let check = Bezier([snap(p), p + d * h, q - tq * h, q]).knots(d, tq);
        let points: Vec<DVec3> = check.iter().map(|k| k.pos).collect();
        if !polyline_clear(world, pass, &points) {
            continue;
        }
        let lead_len = lead.last().map_or(0.0, |k| k.s);
        let mut out = lead;
        out.extend(rest.iter().map(|k| Knot { s: k.s - s_join + lead_len, ..*k }));
        return Some(out);
    }
    None
}

/// The point of the curve at arc length `s` (`0 < s <= its length`), its tangent, and the
/// knots after it.
fn split_at(knots: &[Knot], s: f64) -> (DVec3, DVec3, &[Knot]) {
    let i = knots.partition_point(|k| k.s < s);
    let b = knots[i.min(knots.len() - 1)];
    if i == 0 || b.s == s {
        // At a sharp corner, the tangent before it: the knots after turn in place.
        return (b.pos, b.tangent, &knots[i.min(knots.len() - 1) + 1..]);
    }
    let a = knots[i - 1];
    let f = (s - a.s) / (b.s - a.s);
    (a.pos.lerp(b.pos, f), a.tangent.lerp(b.tangent, f).normalize_or(a.tangent), &knots[i..])
}

/// [`smooth_voxels`], or with `start` the curve from an agent under way (see
/// [`smooth_from`](crate::smooth_from)).
pub(crate) fn smooth(
    world: &VoxelWorld,
    voxels: &[IVec3],
    config: &SmoothConfig,
    start: Option<Underway>,
) -> Result<SmoothPath, SmoothError> {
    config.validate()?;
    let pass = config.pass();
    let mut raw_length = validate(world, voxels, pass)?;
    let waypoints = string_pull(world, voxels, pass);
    let mut w: Vec<DVec3> = waypoints.iter().map(|v| v.as_dvec3() + 0.5).collect();
    if let Some(Underway { position: p, .. }) = start {
        // The agent heads straight for the farthest of the first waypoints it sees.
        let reach = w.len().min(START_REACH);
        let Some(j) = (0..reach).rev().find(|&i| line_clear(world, pass, snap(p), w[i])) else {
            let position = (world.origin().as_dvec3() + p * f64::from(world.voxel_size())).as_vec3();
            return Err(SmoothError::CannotRejoin { position });
        };
        raw_length += p.distance(w[0]);
        w.drain(..j);
        if p.distance(w[0]) < 1e-9 {
            w[0] = p;
        } else {
            w.insert(0, p);
        }
    }
    let legs: Vec<(DVec3, f64)> = w
        .windows(2)
        .map(|p| {
            let d = p[1] - p[0];
            (d.normalize(), d.length())
        })
        .collect();
    let polyline_length: f64 = legs.iter().map(|l| l.1).sum();

    // One bend (or none: a sharp corner) per interior waypoint.
    let mut bends: Vec<Option<Bend>> = (1..w.len().saturating_sub(1))
        .map(|i| if config.curves { bend_corner(world, config, w[i], legs[i - 1], legs[i]) } else { None })
        .collect();
    // Never longer than the raw path: drop the bends that lengthen the curve most.
    let excess = |b: &Bend| b.length() - b.l_in - b.l_out;
    let mut length = polyline_length + bends.iter().flatten().map(excess).sum::<f64>();
    if length > raw_length {
        let mut order: Vec<usize> = (0..bends.len()).filter(|&i| bends[i].is_some()).collect();
        order.sort_by(|&a, &b| {
            let (ea, eb) = (bends[a].as_ref().map_or(0.0, excess), bends[b].as_ref().map_or(0.0, excess));
            eb.total_cmp(&ea).then(a.cmp(&b))
        });
        for i in order {
            if length <= raw_length {
                break;
            }
            length -= bends[i].take().map_or(0.0, |b| excess(&b));
        }
    }
    // An agent under way starts along its heading (then turns in place onto the first leg).
    let first_tangent = legs.first().map_or(DVec3::ZERO, |l| l.0);
    let start_tangent = start.map_or(first_tangent, |u| u.heading);

    let mut knots: Vec<Knot> = Vec::new();
    let mut s = 0.0;
    let mut push = |knots: &mut Vec<Knot>, k: Knot| {
        if let Some(last) = knots.last() {
            s += last.pos.distance(k.pos);
            if last.pos == k.pos && last.tangent == k.tangent {
                return;
            }
        }
        knots.push(Knot { s, ..k });
    };
    push(&mut knots, Knot { pos: w[0], tangent: start_tangent, curvature: DVec3::ZERO, s: 0.0 });
    if first_tangent != DVec3::ZERO {
        push(&mut knots, Knot { pos: w[0], tangent: first_tangent, curvature: DVec3::ZERO, s: 0.0 });
    }
    for (i, &(dir, _)) in legs.iter().enumerate() {
        // Leg i runs from waypoint i to waypoint i + 1; bends[j] belongs to waypoint j + 1.
        let start_cut = if i > 0 { bends[i - 1].as_ref().map_or(0.0, |b| b.l_out) } else { 0.0 };
        if start_cut > 0.0 {
            push(&mut knots, Knot { pos: w[i] + dir * start_cut, tangent: dir, curvature: DVec3::ZERO, s: 0.0 });
        }
        let bend = bends.get(i).and_then(Option::as_ref);
        match bend {
            Some(b) => {
                for k in &b.knots {
                    push(&mut knots, *k);
                }
            }
            None => {
                push(&mut knots, Knot { pos: w[i + 1], tangent: dir, curvature: DVec3::ZERO, s: 0.0 });
                if let Some(&(next, _)) = legs.get(i + 1) {
                    push(&mut knots, Knot { pos: w[i + 1], tangent: next, curvature: DVec3::ZERO, s: 0.0 });
                }
            }
        }
    }
    let mut sharp_corners = bends.iter().filter(|b| b.is_none()).count();
    if start.is_some() {
        // The turn in place at the start, replaced by a curve where one fits.
        let max_curvature = 1.0 / f64::from(config.min_turn_radius);
        let joined = if config.curves && knots.len() > 1 && knots[0].tangent != knots[1].tangent {
            join_from(world, pass, max_curvature, start_tangent, &knots)
        } else {
            None
        };
        knots = joined.unwrap_or(knots);
        sharp_corners = knots.windows(2).filter(|k| k[0].pos == k[1].pos && k[0].tangent != k[1].tangent).count();
    }
    Ok(SmoothPath {
        origin: world.origin(),
        voxel_size: world.voxel_size(),
        waypoints,
        knots,
        raw_length,
        polyline_length,
        sharp_corners,
        max_curvature: 1.0 / f64::from(config.min_turn_radius),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::UVec3;

    /// Voxels the swept box overlaps, by brute force over a box around the segment (exact).
    fn brute(a: IVec3, b: IVec3) -> Vec<IVec3> {
        let d = (b - a).as_i64vec3();
        let (lo, hi) = (a.min(b) - 2, a.max(b) + 2);
        let mut out = Vec::new();
        for z in lo.z..=hi.z {
            for y in lo.y..=hi.y {
                for x in lo.x..=hi.x {
                    let e = (IVec3::new(x, y, z) - a).as_i64vec3();
                    let (mut l, mut h) = (Frac { n: 0, d: 1 }, Frac { n: 1, d: 1 });
                    let mut ok = true;
                    for k in 0..3 {
                        match clip(l, h, e[k], d[k]) {
                            Some((a, b)) => (l, h) = (a, b),
                            None => ok = false,
                        }
                    }
                    if ok {
                        out.push(IVec3::new(x, y, z));
                    }
                }
            }
        }
        out.sort_by_key(|v| (v.x, v.y, v.z));
        out
    }

    fn swept(a: IVec3, b: IVec3) -> Vec<IVec3> {
        let mut out = Vec::new();
        sweep(a, b, |v| {
            out.push(v);
            true
        });
        out.sort_by_key(|v| (v.x, v.y, v.z));
        out
    }

    #[test]
    fn single_moves_sweep_their_bounding_box() {
        for z in -1..=1 {
            for y in -1..=1 {
                for x in -1..=1 {
                    let d = IVec3::new(x, y, z);
                    let mut want = Vec::new();
                    let (lo, hi) = (d.min(IVec3::ZERO), d.max(IVec3::ZERO));
                    for vz in lo.z..=hi.z {
                        for vy in lo.y..=hi.y {
                            for vx in lo.x..=hi.x {
                                want.push(IVec3::new(vx, vy, vz));
                            }
                        }
                    }
                    want.sort_by_key(|v| (v.x, v.y, v.z));
                    assert_eq!(swept(IVec3::ZERO, d), want, "move {d}");
                }
            }
        }
    }

    #[test]
    fn sweep_matches_brute_force_and_is_symmetric() {
        let mut seed = 7u64;
        let mut next = |m: i32| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % (2 * m as u64 + 1)) as i32 - m
        };
        for _ in 0..3000 {
            let a = IVec3::new(next(3), next(3), next(3));
            let b = a + IVec3::new(next(7), next(7), next(7));
            let got = swept(a, b);
            assert_eq!(got, brute(a, b), "{a} -> {b}");
            assert_eq!(got, swept(b, a), "{a} <-> {b}");
        }
    }

    #[test]
    fn sweep_covers_dense_samples_of_the_box() {
        // Independent check: every voxel a densely sampled box overlaps by more than 1e-6 is
        // reported.
        let mut seed = 99u64;
        let mut next = |m: i32| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % (2 * m as u64 + 1)) as i32 - m
        };
        for _ in 0..300 {
            let a = IVec3::new(next(2), next(2), next(2));
            let b = a + IVec3::new(next(6), next(6), next(6));
            let got = swept(a, b);
            let (pa, pb) = (a.as_dvec3() + 0.5, b.as_dvec3() + 0.5);
            for i in 0..=2000 {
                let p = pa.lerp(pb, f64::from(i) / 2000.0);
                let lo = (p - 0.5).floor().as_ivec3();
                for v in [lo, lo + IVec3::X, lo + IVec3::Y, lo + IVec3::Z, lo + 1, lo + IVec3::new(1, 1, 0)]
                    .into_iter()
                    .chain([lo + IVec3::new(1, 0, 1), lo + IVec3::new(0, 1, 1)])
                {
                    let c = v.as_dvec3() + 0.5;
                    let pen = 1.0 - (p - c).abs().max_element();
                    if pen > 1e-6 {
                        assert!(got.contains(&v), "{a} -> {b}: missed {v}");
                    }
                }
            }
        }
    }

    #[test]
    fn rejects_bad_paths() {
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(6)).unwrap();
        world.set(IVec3::new(1, 0, 0), crate::Voxel::Solid).unwrap();
        let c = SmoothConfig::default();
        let e = smooth_voxels(&world, &[IVec3::ZERO, IVec3::new(1, 1, 0)], &c).unwrap_err();
        assert!(matches!(e, SmoothError::StepClips { index: 0, .. }));
        let e = smooth_voxels(&world, &[IVec3::ZERO, IVec3::new(0, 2, 0)], &c).unwrap_err();
        assert!(matches!(e, SmoothError::NotAMove { index: 0, .. }));
        let e = smooth_voxels(&world, &[IVec3::ZERO, IVec3::ZERO], &c).unwrap_err();
        assert!(matches!(e, SmoothError::NotAMove { .. }));
        let e = smooth_voxels(&world, &[IVec3::new(1, 0, 0)], &c).unwrap_err();
        assert!(matches!(e, SmoothError::Blocked { index: 0, .. }));
        let e = smooth_voxels(&world, &[IVec3::new(-1, 0, 0)], &c).unwrap_err();
        assert!(matches!(e, SmoothError::Blocked { .. }));
        let bad = SmoothConfig { bend_length: 0.0, ..c };
        assert!(matches!(smooth_voxels(&world, &[IVec3::ZERO], &bad), Err(SmoothError::InvalidConfig { .. })));
        let water = SmoothConfig { media: Media::WATER, ..c };
        assert!(matches!(smooth_voxels(&world, &[IVec3::ZERO], &water), Err(SmoothError::Blocked { .. })));
    }

    #[test]
    fn a_single_voxel_is_a_point() {
        let world = VoxelWorld::new(Vec3::ZERO, 2.0, UVec3::splat(4)).unwrap();
        let s = smooth_voxels(&world, &[IVec3::ONE], &SmoothConfig::default()).unwrap();
        assert_eq!(s.points(), vec![Vec3::splat(3.0)]);
        assert_eq!(s.length(), 0.0);
    }

    #[test]
    fn an_open_corner_is_bent_and_a_corridor_corner_stays_sharp() {
        // Around a pillar in open space: the corner hugging the pillar's edge is bent.
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(16, 3, 16)).unwrap();
        world.fill_voxels(IVec3::new(0, 0, 0), IVec3::new(7, 2, 7), crate::Voxel::Solid).unwrap();
        let path = crate::Pathfinder::new()
            .find(
                &world,
                None,
                &crate::PathRequest::new(IVec3::new(0, 1, 14), IVec3::new(8, 1, 0), crate::SearchConfig::default()),
            )
            .unwrap();
        let s = smooth_path(&world, &path, &SmoothConfig::default()).unwrap();
        assert_eq!(s.waypoints(), &[IVec3::new(0, 1, 14), IVec3::new(8, 1, 8), IVec3::new(8, 1, 0)]);
        assert_eq!(s.sharp_corners(), 0);
        assert!(s.polyline_length() < s.length() && s.length() < s.raw_length());
        let voxels: Vec<IVec3> =
            (0..=8).map(|x| IVec3::new(x, 1, 8)).chain((0..8).rev().map(|z| IVec3::new(8, 1, z))).collect();
        // The same L as a one-voxel corridor: no room to bend.
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(16, 3, 16)).unwrap();
        world.fill_voxels(IVec3::ZERO, IVec3::new(15, 2, 15), crate::Voxel::Solid).unwrap();
        for &v in &voxels {
            world.set(v, crate::Voxel::Air).unwrap();
        }
        let s = smooth_voxels(&world, &voxels, &SmoothConfig::default()).unwrap();
        assert_eq!(s.sharp_corners(), 1);
        assert!((s.length() - 16.0).abs() < 1e-12);
    }
}
