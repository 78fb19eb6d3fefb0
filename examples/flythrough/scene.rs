//! The fly-through world: a canyon with hoodoo pillars, a lake split by a rock dam with an
//! underwater cave and a grotto, a natural arch, floating islands, a ridge with a tunnel and a
//! landing pad. Built only from the library's fills, deterministic (fixed seed).

use std::f32::consts::PI;

use voxnav::glam::{IVec3, Vec3};
use voxnav::{Agent, Media, Voxel, VoxelWorld, WorldError};

/// The seed of every noise value in the scene.
const SEED: u32 = 0x5EED_F17E;

/// World size in metres: x along the canyon, y up, z across.
pub const SIZE: Vec3 = Vec3::new(192.0, 54.0, 120.0);
/// Mean height of the plateau the canyon cuts (metres).
const PLATEAU: f32 = 34.0;
/// Height of the lake's surface (metres).
pub const WATER_LEVEL: f32 = 8.0;
/// The lake's centre on the canyon's line, and its radius.
const LAKE_X: f32 = 88.0;
const LAKE_RADIUS: f32 = 30.0;
/// The natural arch: across the canyon at this x, centre height and radius of its curve, and
/// the angle (radians, about +Y) its plane makes with the canyon's cross-section.
const ARCH_X: f32 = 128.0;
const ARCH_Y: f32 = 24.0;
const ARCH_RADIUS: f32 = 22.0;
const ARCH_TURN: f32 = 0.7;
/// The ridge the tunnel goes through, from x to x.
pub const RIDGE: (f32, f32) = (148.0, 162.0);
/// The landing pad: centre x, half size, top height.
const PAD_X: f32 = 178.0;
const PAD_HALF: f32 = 3.5;
const PAD_TOP: f32 = 16.0;

/// One agent's trip: who, from where, to where.
#[derive(Debug, Clone, Copy)]
pub struct Trip {
    /// Name printed and drawn.
    pub name: &'static str,
    /// The agent (size and media).
    pub agent: Agent,
    /// Start (a voxel centre, world units).
    pub start: Vec3,
    /// Goal (a voxel centre, world units).
    pub goal: Vec3,
    /// Clearance radius in voxels (`SearchConfig::clearance`): 0 where the voxel is the
    /// agent's step, as in this scene.
    pub clearance: u8,
}

/// The built world and the trips planned through it.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The voxel world (voxels of the drone's step).
    pub world: VoxelWorld,
    /// The drone: air only.
    pub drone: Trip,
    /// The fish: water only.
    pub fish: Trip,
    /// The cormorant: flies, and dives at three times the cost.
    pub bird: Trip,
    /// Min and max corner of the landing pad.
    pub pad: (Vec3, Vec3),
    /// Boxes drawn as steel gates where they are solid (`--doors`).
    pub gates: Vec<(Vec3, Vec3)>,
}

/// The canyon's centre line: its z at a given x.
pub fn canyon_z(x: f32) -> f32 {
    60.0 + 15.0 * (x * 0.045 - 0.6).sin() + 3.0 * (x * 0.11 + 1.0).sin()
}

impl Scene {
    /// Builds the scene.
    pub fn build() -> Result<Scene, WorldError> {
        let drone = Agent::with_media(1.2, 1.2, 0.5, Media::AIR)?;
        let fish = Agent::with_media(0.9, 0.3, 0.4, Media::WATER)?;
        // A diving bird: air at the normal price, water at three times it, so it dives where
        // it must and keeps the dive short.
        let bird = Agent::with_media(0.9, 1.2, 0.4, Media { air: Some(100), water: Some(300) })?;
        let mut world = VoxelWorld::for_agent(&drone, Vec3::ZERO, SIZE)?;

        world.fill_heightfield(terrain_height, Voxel::Solid)?;
        // The dam splitting the lake along the canyon, rising above the water.
        world.fill_columns(dam_span, Voxel::Solid)?;
        build_pillars(&mut world)?;
        build_arch(&mut world)?;
        build_islands(&mut world)?;
        build_ridge_and_tunnel(&mut world)?;
        let pad_centre = Vec3::new(PAD_X, PAD_TOP, canyon_z(PAD_X));
        let pad =
            (pad_centre - Vec3::new(PAD_HALF, PAD_TOP, PAD_HALF), pad_centre + Vec3::new(PAD_HALF, 0.0, PAD_HALF));
        world.fill_box(pad.0, pad.1, Voxel::Solid)?;

        // The underwater cave through the dam, a shaft up from it and a grotto above the water
        // inside the dam, then the water: poured in, it fills the lake, the cave and the shaft
        // but leaves the grotto's air.
        let cave = [(78.0, 3.8, -12.0), (85.0, 3.2, -3.0), (91.0, 3.5, 3.0), (98.0, 4.0, 12.0)];
        let cave = cave.map(|(x, y, dz)| Vec3::new(x, y, canyon_z(x) + dz));
        for w in cave.windows(2) {
            world.fill_capsule(w[0], w[1], 2.0, Voxel::Air)?;
        }
        let grotto = Vec3::new(LAKE_X, 10.6, canyon_z(LAKE_X));
        world.fill_capsule(Vec3::new(LAKE_X, 3.0, grotto.z), grotto, 1.4, Voxel::Air)?;
        world.fill_sphere(grotto, 2.2, Voxel::Air)?;
        world.flood(Vec3::new(LAKE_X, WATER_LEVEL - 1.0, canyon_z(LAKE_X) - 16.0), WATER_LEVEL)?;
        world.flood(Vec3::new(LAKE_X, WATER_LEVEL - 1.0, canyon_z(LAKE_X) + 16.0), WATER_LEVEL)?;

        let centre = |p: Vec3| world.voxel_center(world.voxel_at(p));
        let drone = Trip {
            name: "drone",
            agent: drone,
            start: centre(Vec3::new(2.0, 18.0, canyon_z(2.0))),
            goal: centre(pad_centre + Vec3::Y * 1.0),
            clearance: 0,
        };
        let fish = Trip {
            name: "fish",
            agent: fish,
            start: mid_water(&world, LAKE_X - 6.0, canyon_z(LAKE_X) - 18.0),
            goal: mid_water(&world, LAKE_X + 7.0, canyon_z(LAKE_X) + 17.0),
            clearance: 0,
        };
        let bird = Trip {
            name: "cormorant",
            agent: bird,
            start: centre(Vec3::new(44.0, 40.0, canyon_z(44.0) + 36.0)),
            goal: centre(grotto + Vec3::Y * 0.6),
            clearance: 0,
        };
        Ok(Scene { world, drone, fish, bird, pad, gates: Vec::new() })
    }

    /// The colour (linear RGB) of the face of solid voxel `v` facing `normal`.
    pub fn color(&self, v: IVec3, normal: IVec3) -> Vec3 {
        let p = self.world.voxel_center(v);
        let jitter = 0.93 + 0.14 * hash3(v, 1);
        let top = normal.y > 0;
        let (lo, hi) = self.pad;
        if self.gates.iter().any(|(a, b)| p.cmpge(*a).all() && p.cmple(*b).all()) {
            // Steel with yellow and black hazard stripes.
            let stripe = ((p.y + p.z) / 1.2).floor() as i32 % 2 == 0;
            return if stripe { srgb(0.95, 0.75, 0.1) } else { srgb(0.12, 0.12, 0.13) } * jitter;
        }
        let rgb = if p.x > lo.x && p.x < hi.x && p.z > lo.z && p.z < hi.z && p.y > hi.y - 1.5 {
            if top && pad_marking(p.x - (lo.x + hi.x) / 2.0, p.z - (lo.z + hi.z) / 2.0) {
                return srgb(0.95, 0.55, 0.1);
            }
            srgb(0.62, 0.63, 0.66)
        } else if p.y < WATER_LEVEL + 1.0 && (top || p.y < WATER_LEVEL) {
            srgb(0.78, 0.70, 0.50) // sand: beaches and the lake bed
        } else if (p.x > RIDGE.0 - 14.0 && p.x < RIDGE.1 + 14.0 && p.y > PLATEAU + 2.0)
            || (p.x > RIDGE.0 - 1.0 && p.x < RIDGE.1 + 4.0)
        {
            // The ridge: granite, with snow on the top faces of its upper part.
            if top && p.y > 46.0 && fbm(p.x / 5.0, p.z / 5.0, 5) > 0.1 {
                return srgb(0.9, 0.92, 0.96) * jitter;
            }
            let g = hash3(v, 6);
            srgb(0.52 + 0.06 * g, 0.52 + 0.05 * g, 0.54 + 0.05 * g)
        } else if arch_frame().1.dot(p - arch_frame().0).abs() < 6.0 && p.y > PLATEAU + 1.0 {
            srgb(0.78, 0.47, 0.30) // the arch
        } else if top && p.y < PLATEAU - 12.0 && p.x < RIDGE.0 {
            let g = hash3(v / 2, 4);
            srgb(0.70 + 0.08 * g, 0.60 + 0.06 * g, 0.42) // the canyon's gravel floor
        } else if top {
            let g = hash3(v / 3, 2);
            srgb(0.30 + 0.12 * g, 0.52 + 0.08 * g, 0.22)
        } else {
            // Sandstone in bands, as in a real canyon wall.
            let band = hash3(IVec3::new(0, (p.y / 2.4).floor() as i32, 0), 3);
            let rock = [srgb(0.72, 0.40, 0.25), srgb(0.80, 0.52, 0.32), srgb(0.64, 0.34, 0.24), srgb(0.84, 0.64, 0.44)];
            rock[(band * 3.99) as usize]
        };
        rgb * jitter
    }
}

/// The centre of the middle water voxel of the column at `(x, z)` (or of the water level's
/// voxel, if the column is dry).
fn mid_water(world: &VoxelWorld, x: f32, z: f32) -> Vec3 {
    let column = world.voxel_at(Vec3::new(x, WATER_LEVEL, z));
    let wet: Vec<i32> = (0..column.y + 1).filter(|&y| world.get(column.with_y(y)) == Voxel::Water).collect();
    world.voxel_center(column.with_y(wet.get(wet.len() / 2).copied().unwrap_or(column.y)))
}

/// What the scene promises of the planned paths, checked point by point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checks {
    /// Every point of the drone's path is in an air voxel.
    pub drone_in_air: bool,
    /// Every point of the fish's path is in a water voxel.
    pub fish_in_water: bool,
    /// The drone passes the arch's plane inside its opening.
    pub drone_under_arch: bool,
    /// The drone crosses the ridge (which reaches the sky: only the tunnel goes through).
    pub drone_through_tunnel: bool,
    /// The fish crosses the dam's line (which it can only do through the cave).
    pub fish_through_cave: bool,
}

impl Checks {
    /// Whether every check holds.
    pub fn all(&self) -> bool {
        self.drone_in_air
            && self.fish_in_water
            && self.drone_under_arch
            && self.drone_through_tunnel
            && self.fish_through_cave
    }
}

impl std::fmt::Display for Checks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let yes = |b: bool| if b { "yes" } else { "NO" };
        write!(
            f,
            "drone always in air: {}; fish always in water: {}; drone under the arch: {}, through the tunnel: {}; fish through the cave: {}",
            yes(self.drone_in_air),
            yes(self.fish_in_water),
            yes(self.drone_under_arch),
            yes(self.drone_through_tunnel),
            yes(self.fish_through_cave)
        )
    }
}

impl Scene {
    /// Checks dense samples of the drone's and the fish's paths (world points).
    pub fn check(&self, drone: &[Vec3], fish: &[Vec3]) -> Checks {
        let medium = |p: Vec3| self.world.get(self.world.voxel_at(p));
        // Where the path crosses the arch's plane, it must be inside the half circle.
        let (centre, normal, across) = arch_frame();
        let drone_under_arch = drone
            .windows(2)
            .filter_map(|w| {
                let (a, b) = ((w[0] - centre).dot(normal), (w[1] - centre).dot(normal));
                (a * b <= 0.0 && a != b).then(|| w[0].lerp(w[1], a / (a - b)))
            })
            .any(|p| {
                let u = (p - centre).dot(across);
                u.abs() < ARCH_RADIUS
                    && p.y > ARCH_Y - 20.0
                    && p.y < ARCH_Y + (ARCH_RADIUS * ARCH_RADIUS - u * u).sqrt()
            });
        let side = |p: &Vec3| p.z > canyon_z(p.x);
        Checks {
            drone_in_air: !drone.is_empty() && drone.iter().all(|&p| medium(p) == Voxel::Air),
            fish_in_water: !fish.is_empty() && fish.iter().all(|&p| medium(p) == Voxel::Water),
            drone_under_arch,
            drone_through_tunnel: drone.iter().any(|p| p.x > RIDGE.0 && p.x < RIDGE.1)
                && drone.last().is_some_and(|p| p.x > RIDGE.1),
            fish_through_cave: fish.first().map(side) != fish.last().map(side),
        }
    }
}

/// A "+" of landing markings in the middle of the pad and a ring at its edge.
fn pad_marking(dx: f32, dz: f32) -> bool {
    let r = dx.hypot(dz);
    (r > 2.3 && r < 3.4) || r < 1.0
}

/// sRGB components to linear.
pub fn srgb(r: f32, g: f32, b: f32) -> Vec3 {
    Vec3::new(r, g, b).powf(2.2)
}

/// Terrain: a plateau with a meandering, terraced canyon along x, widening into a lake basin.
fn terrain_height(x: f32, z: f32) -> f32 {
    // East of the ridge the plateau falls away to a valley.
    let valley = smoothstep(RIDGE.1, RIDGE.1 + 8.0, x);
    let plateau = PLATEAU + 4.0 * fbm(x / 28.0, z / 28.0, 1) - (PLATEAU - 12.0) * valley;
    let floor = 10.0 + 1.5 * fbm(x / 9.0, z / 9.0, 2);
    let dz = (z - canyon_z(x)).abs() + 2.0 * fbm(x / 7.0, z / 7.0, 3);
    let t = ((dz - 7.0) / 8.0).clamp(0.0, 1.0);
    let wall = floor + (plateau - floor) * t;
    // Terraces: pull the wall towards 4 m steps.
    let steps = (wall / 4.0).floor() * 4.0 + 4.0 * smoothstep(0.7, 1.0, (wall / 4.0).fract());
    let canyon = wall + 0.8 * (steps - wall);
    // The lake: a bowl whose steep shores rise into the plateau.
    let r = (x - LAKE_X).hypot(z - canyon_z(LAKE_X)) / LAKE_RADIUS + 0.04 * fbm(x / 5.0, z / 5.0, 4);
    let bowl = if r < 1.0 { 0.5 + 9.5 * r * r } else { 10.0 + 70.0 * (r - 1.0) };
    canyon.min(bowl)
}

/// The dam: a ridge along the canyon line over the lake, about 3 m above the water.
fn dam_span(x: f32, z: f32) -> Option<(f32, f32)> {
    let r = (x - LAKE_X).hypot(z - canyon_z(LAKE_X)) / LAKE_RADIUS;
    let dz = (z - canyon_z(x)).abs() / 6.0;
    (r < 1.05 && dz < 1.0).then(|| (f32::NEG_INFINITY, 14.0 - 3.0 * dz * dz + 0.8 * fbm(x / 4.0, z / 4.0, 5)))
}

/// Hoodoos in the first part of the canyon: columns with wider caps.
fn build_pillars(world: &mut VoxelWorld) -> Result<(), WorldError> {
    for i in 0..7 {
        let x = 16.0 + 6.5 * i as f32 + 2.0 * hash(i, 0, 10);
        let side = if i % 2 == 0 { -1.0 } else { 1.0 };
        let z = canyon_z(x) + side * (2.0 + 3.0 * hash(i, 0, 11));
        let top = 24.0 + 12.0 * hash(i, 0, 12);
        let radius = 1.2 + 0.6 * hash(i, 0, 13);
        world.fill_capsule(Vec3::new(x, 0.0, z), Vec3::new(x, top, z), radius, Voxel::Solid)?;
        world.fill_sphere(Vec3::new(x, top + 0.5, z), radius + 1.0, Voxel::Solid)?;
    }
    Ok(())
}

/// A natural arch across the canyon: capsules along a half circle, thicker at the feet.
fn build_arch(world: &mut VoxelWorld) -> Result<(), WorldError> {
    let (centre, _, across) = arch_frame();
    let point = |a: f32| centre + (Vec3::Y * a.sin() + across * a.cos()) * ARCH_RADIUS;
    const PIECES: i32 = 14;
    for i in 0..PIECES {
        let (a0, a1) = (PI * i as f32 / PIECES as f32, PI * (i + 1) as f32 / PIECES as f32);
        let foot = 1.0 - ((a0 + a1) * 0.5).sin();
        world.fill_capsule(point(a0), point(a1), 2.2 + 2.0 * foot, Voxel::Solid)?;
    }
    Ok(())
}

/// The arch's centre, the normal of its plane and the horizontal direction across it.
fn arch_frame() -> (Vec3, Vec3, Vec3) {
    let across = Vec3::new(ARCH_TURN.sin(), 0.0, ARCH_TURN.cos());
    (Vec3::new(ARCH_X, ARCH_Y, canyon_z(ARCH_X)), across.cross(Vec3::Y), across)
}

/// Floating islands: inverted cones of rock with grassy tops.
fn build_islands(world: &mut VoxelWorld) -> Result<(), WorldError> {
    let islands =
        [(58.0, 45.0, -24.0, 8.0), (104.0, 47.0, 20.0, 7.0), (112.0, 40.0, -3.0, 5.0), (138.0, 47.0, -24.0, 6.5)];
    for (i, &(cx, cy, dz, radius)) in islands.iter().enumerate() {
        let cz = canyon_z(cx) + dz;
        let seed = 20 + i as u32;
        world.fill_columns(
            |x, z| {
                let r = (x - cx).hypot(z - cz) / radius + 0.15 * fbm(x / 3.0, z / 3.0, seed);
                (r < 1.0).then(|| {
                    let top = cy + 1.2 * (1.0 - r * r);
                    let bottom = cy - 1.3 * radius * (1.0 - r).powf(0.8) * (0.8 + 0.4 * fbm(x / 2.0, z / 2.0, seed));
                    (bottom, top)
                })
            },
            Voxel::Solid,
        )?;
    }
    Ok(())
}

/// A ridge across the whole world, up to its ceiling, with a winding tunnel through it.
fn build_ridge_and_tunnel(world: &mut VoxelWorld) -> Result<(), WorldError> {
    world.fill_columns(
        |x, z| {
            let west = RIDGE.0 + 3.0 * fbm(z / 10.0, 0.0, 30);
            let east = RIDGE.1 + 3.0 * fbm(z / 10.0, 5.0, 31);
            (x > west && x < east).then_some((f32::NEG_INFINITY, f32::INFINITY))
        },
        Voxel::Solid,
    )?;
    // Slopes on both sides of the ridge, up to the snow.
    world.fill_columns(
        |x, z| {
            let d = (RIDGE.0 - x).max(x - RIDGE.1).max(0.0);
            let h = 52.0 - 3.0 * d + 3.0 * fbm(x / 5.0, z / 5.0, 32);
            let canyon = (z - canyon_z(x)).abs();
            (h > 0.0 && canyon > 8.0).then_some((f32::NEG_INFINITY, h))
        },
        Voxel::Solid,
    )?;
    let tunnel = [(140.0, 18.0, 0.0), (148.0, 19.0, 5.0), (155.0, 21.0, -5.0), (162.0, 19.0, 3.0), (168.0, 18.5, 0.0)];
    let tunnel = tunnel.map(|(x, y, dz)| Vec3::new(x, y, canyon_z(x) + dz));
    for w in tunnel.windows(2) {
        world.fill_capsule(w[0], w[1], 2.4, Voxel::Air)?;
    }
    Ok(())
}

fn smoothstep(a: f32, b: f32, x: f32) -> f32 {
    let t = ((x - a) / (b - a)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// A hash of integer coordinates to `0..1`.
fn hash(x: i32, z: i32, salt: u32) -> f32 {
    let mut h = (x as u32).wrapping_mul(0x8DA6_B343)
        ^ (z as u32).wrapping_mul(0xD816_3841)
        ^ SEED
        ^ salt.wrapping_mul(0xCB1A_B31F);
    h ^= h >> 13;
    h = h.wrapping_mul(0x5BD1_E995);
    h ^= h >> 15;
    (h >> 8) as f32 / (1 << 24) as f32
}

/// A hash of a voxel to `0..1`.
pub fn hash3(v: IVec3, salt: u32) -> f32 {
    hash(v.x ^ v.y.wrapping_mul(0x2F1B_3A49), v.z, salt)
}

/// Value noise in `-1..1`, smooth between integer lattice points.
fn noise(x: f32, z: f32, salt: u32) -> f32 {
    let (ix, iz) = (x.floor() as i32, z.floor() as i32);
    let (fx, fz) = (x - ix as f32, z - iz as f32);
    let (u, w) = (fx * fx * (3.0 - 2.0 * fx), fz * fz * (3.0 - 2.0 * fz));
    let corner = |dx, dz| hash(ix + dx, iz + dz, salt);
    let a = corner(0, 0) + (corner(1, 0) - corner(0, 0)) * u;
    let b = corner(0, 1) + (corner(1, 1) - corner(0, 1)) * u;
    2.0 * (a + (b - a) * w) - 1.0
}

/// Three octaves of value noise, in about `-1..1`.
fn fbm(x: f32, z: f32, salt: u32) -> f32 {
    noise(x, z, salt) * 0.57 + noise(2.0 * x, 2.0 * z, salt + 100) * 0.29 + noise(4.0 * x, 4.0 * z, salt + 200) * 0.14
}
