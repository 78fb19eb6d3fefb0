//! [`Avoidance`]: 3D local avoidance (ORCA, as in RVO2-3D) that keeps every agent in free space.

use glam::{IVec3, Vec3};
use thiserror::Error;

use crate::VoxelWorld;
use crate::crowd::orca::{Plane, solve};
use crate::medium::Media;

/// Why a crowd could not be stepped. Nothing moves when a step fails.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum AvoidanceError {
    /// The time step was not finite and positive, or an agent could cross more than one voxel
    /// in it (`max_speed * dt > voxel_size`).
    #[error("time step {0} must be finite, > 0 and short enough that no agent crosses more than a voxel")]
    InvalidTimeStep(f32),
    /// An [`AvoidanceConfig`] field was out of range (the message says which).
    #[error("invalid avoidance config: {0}")]
    InvalidConfig(&'static str),
    /// An agent had a non-finite or negative field, or its centre was not in a voxel its media
    /// allow.
    #[error("agent {index} is invalid or outside the free space of its media")]
    InvalidAgent {
        /// Index of the agent in the slice given.
        index: usize,
    },
    /// A moving obstacle had a non-finite field or a negative radius.
    #[error("moving obstacle {index} is not finite")]
    InvalidObstacle {
        /// Index of the obstacle in the slice given.
        index: usize,
    },
}

/// One agent of a crowd, in world units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrowdAgent {
    /// Centre of the agent's sphere.
    pub position: Vec3,
    /// Velocity of the last step (units per second); [`Avoidance::step`] updates it.
    pub velocity: Vec3,
    /// Where the agent would go without others, set by the caller each step (for example
    /// toward the next waypoint of its path, at cruise speed).
    pub preferred_velocity: Vec3,
    /// Radius of the agent's sphere.
    pub radius: f32,
    /// Largest speed a step may give it.
    pub max_speed: f32,
    /// Media the agent's centre may be in (a fish: [`Media::WATER`]).
    pub media: Media,
}

impl CrowdAgent {
    /// A resting agent at `position` with `radius`, `max_speed` and `media`.
    #[must_use]
    pub fn new(position: Vec3, radius: f32, max_speed: f32, media: Media) -> Self {
        Self { position, velocity: Vec3::ZERO, preferred_velocity: Vec3::ZERO, radius, max_speed, media }
    }
}

/// A sphere that moves on its own (a patrol, a player, a falling rock): agents avoid it and
/// take the whole responsibility for avoiding it. The caller moves it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MovingObstacle {
    /// Centre.
    pub position: Vec3,
    /// Velocity (units per second).
    pub velocity: Vec3,
    /// Radius.
    pub radius: f32,
}

/// How agents avoid each other.
///
/// # Examples
/// ```
/// let config = voxnav::AvoidanceConfig::default();
/// assert_eq!(config.max_neighbors, 10);
/// assert!(config.validate().is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AvoidanceConfig {
    /// How far ahead (seconds) collisions with other agents are avoided. Default 2.
    pub time_horizon: f32,
    /// How far ahead (seconds) collisions with moving obstacles are avoided. Default 2.
    pub obstacle_time_horizon: f32,
    /// Agents farther apart than this (world units, centre to centre) ignore each other.
    /// Default 2.
    pub neighbor_distance: f32,
    /// At most this many nearest agents are avoided. Default 10.
    pub max_neighbors: usize,
    /// Passes of overlap removal after each move (as Detour's crowd): agents whose spheres
    /// still overlap (ORCA can fail in a jam, where walls and neighbours leave no room) are
    /// pushed apart, each by half the overlap, never into a forbidden voxel, until none
    /// overlap or the passes run out. Pairs are those within `neighbor_distance` at the start
    /// of the step (keep it above twice the radius plus twice a step's travel). Default 16.
    pub separation_passes: usize,
}

impl Default for AvoidanceConfig {
    fn default() -> Self {
        Self {
            time_horizon: 2.0,
            obstacle_time_horizon: 2.0,
            neighbor_distance: 2.0,
            max_neighbors: 10,
            separation_passes: 16,
        }
    }
}

impl AvoidanceConfig {
    /// Checks every field is finite and positive (`max_neighbors` may be 0).
    ///
    /// # Errors
    /// [`AvoidanceError::InvalidConfig`] naming the field.
    pub fn validate(&self) -> Result<(), AvoidanceError> {
        let ok = |x: f32| x.is_finite() && x > 0.0;
        if !ok(self.time_horizon) {
            return Err(AvoidanceError::InvalidConfig("time_horizon must be finite and > 0"));
        }
        if !ok(self.obstacle_time_horizon) {
            return Err(AvoidanceError::InvalidConfig("obstacle_time_horizon must be finite and > 0"));
        }
        if !ok(self.neighbor_distance) {
            return Err(AvoidanceError::InvalidConfig("neighbor_distance must be finite and > 0"));
        }
        Ok(())
    }
}

/// Reusable state of 3D local avoidance: ORCA (optimal reciprocal collision avoidance, van den
/// Berg et al. 2011, the RVO2-3D library's algorithm) over a [`VoxelWorld`].
///
/// Each [`step`](Self::step), every agent picks the velocity closest to its preferred one
/// that avoids collisions with its nearest agents (each pair shares the avoidance half and
/// half) and with the moving obstacles (the agent's alone) for the time horizon, and stays
/// clear of blocked voxels: the faces of blocked (or wrong-medium) voxels next to the agent's
/// voxel bound its velocity so its sphere does not reach them (by at most its radius, capped
/// at 0.45 voxel), and the move is then swept axis by axis (x, y, z) so that the agent's
/// **centre never enters a voxel its media forbid**, whatever the other constraints asked.
/// When the constraints cannot all hold, the walls stay hard and the agent takes the velocity
/// that least violates the others (RVO2's fallback); spheres that still overlap after the move
/// are then pushed apart ([`AvoidanceConfig::separation_passes`]), swept the same way. Each agent's preferred velocity is nudged
/// by a thousandth of its top speed in a fixed direction of its own, so perfectly symmetric
/// encounters (head-on on one line) do not stall.
///
/// Neighbours come from a spatial hash grid rebuilt every step in buffers the next step reuses:
/// no allocation per agent, and no per-step allocation once the buffers have grown. The result
/// is deterministic: agents are visited in slice order, neighbours sorted by distance then
/// index, and nothing depends on hash iteration order.
///
/// # Examples
/// ```
/// use glam::Vec3;
/// use voxnav::{Avoidance, AvoidanceConfig, CrowdAgent, Media, VoxelWorld};
/// let world = VoxelWorld::new(Vec3::ZERO, 1.0, glam::UVec3::new(20, 6, 6)).unwrap();
/// let mut a = CrowdAgent::new(Vec3::new(2.5, 3.0, 3.0), 0.3, 2.0, Media::AIR);
/// let mut b = CrowdAgent::new(Vec3::new(17.5, 3.0, 3.0), 0.3, 2.0, Media::AIR);
/// let mut crowd = [a, b];
/// let mut avoidance = Avoidance::new();
/// for _ in 0..200 {
///     crowd[0].preferred_velocity = (Vec3::new(17.5, 3.0, 3.0) - crowd[0].position).clamp_length_max(2.0);
///     crowd[1].preferred_velocity = (Vec3::new(2.5, 3.0, 3.0) - crowd[1].position).clamp_length_max(2.0);
///     avoidance.step(&world, &mut crowd, &[], 0.05, &AvoidanceConfig::default()).unwrap();
///     assert!(crowd[0].position.distance(crowd[1].position) >= 0.6 * 0.95); // head-on, no overlap
/// }
/// assert!(crowd[0].position.distance(Vec3::new(17.5, 3.0, 3.0)) < 0.1); // they swapped sides
/// ```
#[derive(Debug, Clone, Default)]
pub struct Avoidance {
    grid: HashGrid,
    /// Candidates of the current agent: (squared distance, index).
    near: Vec<(f32, u32)>,
    /// Per agent, the first index into `pairs` of the agents within reach at the step's start
    /// (and one past the last agent's).
    pair_start: Vec<u32>,
    pairs: Vec<u32>,
    planes: Vec<Plane>,
    scratch: Vec<Plane>,
    velocities: Vec<Vec3>,
}

/// Agents hashed by cell: a counting sort into buckets, rebuilt every step in reused buffers.
#[derive(Debug, Clone, Default)]
struct HashGrid {
    /// `1 / cell size`.
    inv: f32,
    /// Per hash bucket, the first index into `order` (and one past the last bucket).
    bucket_start: Vec<u32>,
    /// Agent indices sorted by bucket.
    order: Vec<u32>,
    /// Their positions, in the same order (read contiguously by the scans).
    sorted: Vec<Vec3>,
    /// Per agent, its bucket; then per bucket, a fill cursor.
    cursor: Vec<u32>,
    /// Per bucket, the stamp of the last scan that visited it.
    visited: Vec<u32>,
    stamp: u32,
}

impl HashGrid {
    /// Sorts `agents` into buckets of cells `cell_size` wide.
    fn build(&mut self, agents: &[CrowdAgent], cell_size: f32) {
        let buckets = (agents.len() * 2).next_power_of_two().max(16);
        let mask = buckets as u32 - 1;
        self.inv = 1.0 / cell_size;
        self.bucket_start.clear();
        self.bucket_start.resize(buckets + 1, 0);
        self.cursor.clear();
        for a in agents {
            let b = bucket(cell(a.position, self.inv), mask);
            self.cursor.push(b);
            self.bucket_start[b as usize + 1] += 1;
        }
        for b in 0..buckets {
            self.bucket_start[b + 1] += self.bucket_start[b];
        }
        self.order.clear();
        self.order.resize(agents.len(), 0);
        self.sorted.clear();
        self.sorted.resize(agents.len(), Vec3::ZERO);
        let n = agents.len();
        self.cursor.extend_from_slice(&self.bucket_start[..buckets]);
        for (i, a) in agents.iter().enumerate() {
            let b = self.cursor[i] as usize;
            let slot = self.cursor[n + b] as usize;
            self.order[slot] = i as u32;
            self.sorted[slot] = a.position;
            self.cursor[n + b] += 1;
        }
        if self.visited.len() != buckets || self.stamp == u32::MAX {
            self.visited.clear();
            self.visited.resize(buckets, 0);
            self.stamp = 0;
        }
    }

    /// Calls `f(agent, position)` for every agent hashed into the 27 cells around `p`'s cell
    /// (each bucket once, so each agent once).
    fn near(&mut self, p: Vec3, mut f: impl FnMut(usize, Vec3)) {
        let mask = self.bucket_start.len() as u32 - 2;
        let c = cell(p, self.inv);
        self.stamp += 1;
        for k in 0..27 {
            let b = bucket(c + IVec3::new(k % 3 - 1, (k / 3) % 3 - 1, k / 9 - 1), mask) as usize;
            if self.visited[b] == self.stamp {
                continue;
            }
            self.visited[b] = self.stamp;
            for slot in self.bucket_start[b] as usize..self.bucket_start[b + 1] as usize {
                f(self.order[slot] as usize, self.sorted[slot]);
            }
        }
    }

    fn heap_bytes(&self) -> usize {
        (self.bucket_start.capacity() + self.order.capacity() + self.cursor.capacity() + self.visited.capacity()) * 4
            + self.sorted.capacity() * 12
    }
}

/// Cell of a point in the hash grid.
#[inline]
fn cell(p: Vec3, inv: f32) -> IVec3 {
    (p * inv).floor().as_ivec3()
}

#[inline]
fn bucket(c: IVec3, mask: u32) -> u32 {
    let h = (c.x as u32).wrapping_mul(0x8DA6_B343)
        ^ (c.y as u32).wrapping_mul(0xD816_3841)
        ^ (c.z as u32).wrapping_mul(0xCB1A_B31F);
    h & mask
}

impl Avoidance {
    /// Empty state; it allocates on first use.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves every agent by one time step `dt` (seconds): new velocities from ORCA (see
    /// [`Avoidance`]), then positions. `obstacles` are read, not moved.
    ///
    /// # Errors
    /// [`AvoidanceError::InvalidTimeStep`], [`AvoidanceError::InvalidConfig`],
    /// [`AvoidanceError::InvalidAgent`], [`AvoidanceError::InvalidObstacle`]; nothing moves.
    pub fn step(
        &mut self,
        world: &VoxelWorld,
        agents: &mut [CrowdAgent],
        obstacles: &[MovingObstacle],
        dt: f32,
        config: &AvoidanceConfig,
    ) -> Result<(), AvoidanceError> {
        config.validate()?;
        if !(dt.is_finite() && dt > 0.0) {
            return Err(AvoidanceError::InvalidTimeStep(dt));
        }
        for (index, a) in agents.iter().enumerate() {
            let finite = a.position.is_finite() && a.velocity.is_finite() && a.preferred_velocity.is_finite();
            if !(finite && a.radius.is_finite() && a.radius >= 0.0 && a.max_speed.is_finite() && a.max_speed >= 0.0) {
                return Err(AvoidanceError::InvalidAgent { index });
            }
            if a.max_speed * dt > world.voxel_size() {
                return Err(AvoidanceError::InvalidTimeStep(dt));
            }
            if !a.media.allows(world.get(world.voxel_at(a.position))) {
                return Err(AvoidanceError::InvalidAgent { index });
            }
        }
        for (index, o) in obstacles.iter().enumerate() {
            if !(o.position.is_finite() && o.velocity.is_finite() && o.radius.is_finite() && o.radius >= 0.0) {
                return Err(AvoidanceError::InvalidObstacle { index });
            }
        }
        self.grid.build(agents, config.neighbor_distance);
        self.pair_start.clear();
        self.pairs.clear();
        self.velocities.clear();
        for i in 0..agents.len() {
            let v = self.new_velocity(world, agents, obstacles, i, dt, config);
            self.velocities.push(v);
        }
        for (a, &v) in agents.iter_mut().zip(&self.velocities) {
            let (p, v) = sweep(world, a.position, v, dt, a.media);
            a.position = p;
            a.velocity = v;
        }
        self.pair_start.push(self.pairs.len() as u32);
        for _ in 0..config.separation_passes {
            if !self.separate(world, agents, obstacles) {
                break;
            }
        }
        Ok(())
    }

    /// One pass of overlap removal over the pairs found at the step's start; returns whether
    /// any agent overlapped.
    fn separate(&mut self, world: &VoxelWorld, agents: &mut [CrowdAgent], obstacles: &[MovingObstacle]) -> bool {
        self.velocities.clear();
        let mut any = false;
        for (i, me) in agents.iter().enumerate() {
            let mut push = Vec3::ZERO;
            let mut away = |other: Vec3, r: f32, share: f32, j: usize| {
                let d = me.position - other;
                let reach = me.radius + r;
                if d.length_squared() < reach * reach {
                    let dist = d.length();
                    let overlap = reach - dist;
                    let dir = if dist > 1e-6 { d / dist } else { nudge(i) - nudge(j) };
                    push += dir.normalize_or(Vec3::X) * (overlap * share + 1e-4);
                }
            };
            for &j in &self.pairs[self.pair_start[i] as usize..self.pair_start[i + 1] as usize] {
                let o = &agents[j as usize];
                away(o.position, o.radius, 0.5, j as usize);
            }
            for (k, o) in obstacles.iter().enumerate() {
                away(o.position, o.radius, 1.0, usize::MAX - k);
            }
            any |= push != Vec3::ZERO;
            self.velocities.push(push);
        }
        for (a, &push) in agents.iter_mut().zip(&self.velocities) {
            if push != Vec3::ZERO {
                // A push is at most a radius: it crosses at most one voxel face per axis.
                let push = push.clamp_length_max(world.voxel_size() * 0.9);
                a.position = sweep(world, a.position, push, 1.0, a.media).0;
            }
        }
        any
    }

    /// Bytes of heap the reused buffers hold.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.grid.heap_bytes()
            + (self.pair_start.capacity() + self.pairs.capacity()) * 4
            + self.near.capacity() * 8
            + (self.planes.capacity() + self.scratch.capacity()) * std::mem::size_of::<Plane>()
            + self.velocities.capacity() * 12
    }

    /// The ORCA velocity of agent `i`.
    fn new_velocity(
        &mut self,
        world: &VoxelWorld,
        agents: &[CrowdAgent],
        obstacles: &[MovingObstacle],
        i: usize,
        dt: f32,
        config: &AvoidanceConfig,
    ) -> Vec3 {
        let me = agents[i];
        let range_sq = config.neighbor_distance * config.neighbor_distance;
        // Neighbours: the agents hashed into the 27 cells around, within range; all of them
        // are kept for the overlap removal, the nearest for ORCA.
        self.pair_start.push(self.pairs.len() as u32);
        let (near, pairs) = (&mut self.near, &mut self.pairs);
        near.clear();
        self.grid.near(me.position, |j, p| {
            let d = p.distance_squared(me.position);
            if j != i && d < range_sq {
                near.push((d, j as u32));
                pairs.push(j as u32);
            }
        });
        let by_distance = |a: &(f32, u32), b: &(f32, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if self.near.len() > config.max_neighbors {
            if config.max_neighbors > 0 {
                self.near.select_nth_unstable_by(config.max_neighbors - 1, by_distance);
            }
            self.near.truncate(config.max_neighbors);
        }
        self.near.sort_unstable_by(by_distance);

        // Hard planes first: the walls around the agent's voxel.
        self.planes.clear();
        wall_planes(world, &me, dt, &mut self.planes);
        let hard = self.planes.len();
        for o in obstacles {
            self.planes.push(orca_plane(&me, o.position, o.velocity, o.radius, 1.0, config.obstacle_time_horizon, dt));
        }
        for &(_, j) in &self.near {
            let other = &agents[j as usize];
            self.planes.push(orca_plane(
                &me,
                other.position,
                other.velocity,
                other.radius,
                0.5,
                config.time_horizon,
                dt,
            ));
        }
        let preferred = me.preferred_velocity + nudge(i) * (1e-3 * me.max_speed);
        solve(&self.planes, hard, me.max_speed, preferred, &mut self.scratch)
    }
}

/// A fixed unit direction per agent index: a nudge of a thousandth of its top speed that breaks
/// the perfect symmetries (two agents head-on on one line) in which ORCA only slows agents down.
fn nudge(i: usize) -> Vec3 {
    let h = (i as u32).wrapping_mul(0x9E37_79B9);
    let angle = (h >> 8) as f32 * (std::f32::consts::TAU / (1 << 24) as f32);
    let z = ((h.wrapping_mul(0x85EB_CA6B) >> 8) as f32 / (1 << 24) as f32) * 2.0 - 1.0;
    let r = (1.0 - z * z).max(0.0).sqrt();
    Vec3::new(r * angle.cos(), z, r * angle.sin())
}

/// The ORCA half-space of velocities of `me` that avoid a sphere at `pos` moving at `vel`,
/// taking `share` of the avoidance (RVO2-3D's `computeNewVelocity`).
fn orca_plane(me: &CrowdAgent, pos: Vec3, vel: Vec3, radius: f32, share: f32, horizon: f32, dt: f32) -> Plane {
    let rel_pos = pos - me.position;
    let rel_vel = me.velocity - vel;
    let dist_sq = rel_pos.length_squared();
    let r = me.radius + radius;
    let r_sq = r * r;
    let (normal, u);
    if dist_sq > r_sq {
        let inv_h = 1.0 / horizon;
        // Vector from the cut-off centre to the relative velocity.
        let w = rel_vel - inv_h * rel_pos;
        let w_len_sq = w.length_squared();
        let dot = w.dot(rel_pos);
        if dot < 0.0 && dot * dot > r_sq * w_len_sq {
            // Project on the cut-off circle.
            let w_len = w_len_sq.sqrt();
            let unit = w / w_len;
            normal = unit;
            u = (r * inv_h - w_len) * unit;
        } else {
            // Project on the cone.
            let a = dist_sq;
            let b = rel_pos.dot(rel_vel);
            let c = rel_vel.length_squared() - rel_pos.cross(rel_vel).length_squared() / (dist_sq - r_sq);
            let t = (b + (b * b - a * c).max(0.0).sqrt()) / a;
            let w = rel_vel - t * rel_pos;
            let w_len = w.length();
            let unit = if w_len > 0.0 { w / w_len } else { -rel_pos.normalize_or(Vec3::X) };
            normal = unit;
            u = (r * t - w_len) * unit;
        }
    } else {
        // Already overlapping: separate within this step.
        let inv_dt = 1.0 / dt;
        let w = rel_vel - inv_dt * rel_pos;
        let w_len = w.length();
        let unit = if w_len > 0.0 { w / w_len } else { -rel_pos.normalize_or(Vec3::X) };
        normal = unit;
        u = (r * inv_dt - w_len) * unit;
    }
    Plane { point: me.velocity + share * u, normal }
}

/// Half-spaces keeping the agent's sphere (up to 0.45 voxel of it) off the faces of the
/// blocked voxels next to its voxel.
fn wall_planes(world: &VoxelWorld, me: &CrowdAgent, dt: f32, out: &mut Vec<Plane>) {
    let size = world.voxel_size();
    let q = (me.position - world.origin()) / size;
    let v = q.floor().as_ivec3();
    let margin = (me.radius / size).min(0.45);
    for axis in 0..3 {
        for side in [-1, 1] {
            let mut n = v;
            n[axis] += side;
            if me.media.allows(world.get(n)) {
                continue;
            }
            let gap = if side > 0 { v[axis] as f32 + 1.0 - q[axis] } else { q[axis] - v[axis] as f32 };
            let room = (gap - margin).max(0.0) * size / dt;
            let mut dir = Vec3::ZERO;
            dir[axis] = side as f32;
            out.push(Plane { point: dir * room, normal: -dir });
        }
    }
}

/// Moves `p` by `v * dt` axis by axis, stopping on an axis just short of a voxel `media`
/// forbids (and zeroing that axis of the velocity). Returns the new position and velocity.
fn sweep(world: &VoxelWorld, p: Vec3, mut v: Vec3, dt: f32, media: Media) -> (Vec3, Vec3) {
    let size = world.voxel_size();
    let mut q = (p - world.origin()) / size;
    const EPS: f32 = 1e-3;
    for axis in 0..3 {
        let cur = q.floor().as_ivec3();
        let mut next = q;
        next[axis] += v[axis] * dt / size;
        if media.allows(world.get(next.floor().as_ivec3())) {
            q = next;
        } else {
            q[axis] = if v[axis] > 0.0 { cur[axis] as f32 + 1.0 - EPS } else { cur[axis] as f32 + EPS };
            v[axis] = 0.0;
        }
    }
    (world.origin() + q * size, v)
}
