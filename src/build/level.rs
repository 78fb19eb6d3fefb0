//! [`build_level`]: the whole pipeline from a [`LevelMesh`] to a [`VoxelWorld`], with its
//! configuration and statistics.

use std::time::{Duration, Instant};

use glam::{DVec3, IVec3, UVec3, Vec3};

use super::bits::{Bits, Grid};
use super::interiors::{boundary, reachable};
use super::mesh::LevelMesh;
use super::rasterise::{Shape, rasterise, uses_columns};
use super::water::fill_water;
use crate::error::BuildError;
use crate::grid::world::VoxelWorld;
use crate::limits::Limits;
use crate::medium::Voxel;

/// How to build a level: voxel size, grid placement, seeds, threads, memory limit.
///
/// The default: 0.5 m voxels, the grid placed around the mesh, no seeds, interiors filled,
/// rayon's default thread count, at most 1 GiB of working memory.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LevelConfig {
    /// Edge of a voxel, world units.
    pub voxel_size: f32,
    /// World position of voxel `(0, 0, 0)`'s min corner. `None`: `floor((min - 2 s) / s) * s`
    /// for the mesh's box `min..max` and voxel size `s`. The grid then reaches to the voxel
    /// holding `max` and two more, so two voxels of margin surround the mesh on every side.
    /// Geometry outside the grid is ignored.
    pub origin: Option<Vec3>,
    /// Points in open, playable space. When given, every free voxel not connected to a seed
    /// (26-connected through free voxels, air or water) becomes solid: the void outside a
    /// closed level and the hollow insides of closed solids. Empty: see
    /// [`fill_interiors`](Self::fill_interiors).
    pub seeds: Vec<Vec3>,
    /// With no seeds: make solid every free voxel not connected to the grid's boundary (the
    /// hollow insides of closed solids in an open level). A closed level (sealed all around)
    /// would be filled whole this way: give it a seed instead. Ignored when seeds are given.
    pub fill_interiors: bool,
    /// Threads for rasterising (feature `parallel`): 0 for rayon's current pool.
    pub threads: usize,
    /// Memory limits: the build's working memory (three bits per voxel of the grid, the mesh's
    /// vertices and triangle corners in `f64`, and the world's chunk tables) is checked against
    /// `max_world_bytes` before allocating, and the world it makes carries these limits.
    pub limits: Limits,
}

impl Default for LevelConfig {
    fn default() -> Self {
        Self {
            voxel_size: 0.5,
            origin: None,
            seeds: Vec::new(),
            fill_interiors: true,
            threads: 0,
            limits: Limits::DEFAULT,
        }
    }
}

/// What a build did: counts and time per stage.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BuildStats {
    /// Solid triangles rasterised.
    pub triangles: usize,
    /// Water triangles.
    pub water_triangles: usize,
    /// Voxels per axis.
    pub dims: UVec3,
    /// Voxels a solid triangle touches.
    pub surface_voxels: u64,
    /// Free voxels cut off from the seeds (or from the boundary) and made solid.
    pub sealed_voxels: u64,
    /// Solid voxels in the world: `surface_voxels + sealed_voxels`.
    pub solid_voxels: u64,
    /// Water voxels in the world (inside a water shell, not solid, not sealed).
    pub water_voxels: u64,
    /// Time to rasterise the solid triangles.
    pub rasterise: Duration,
    /// Time to fill the water shells.
    pub water: Duration,
    /// Time to flood from the seeds (or the boundary).
    pub interiors: Duration,
    /// Time to write the world's chunks.
    pub write: Duration,
    /// Time in all.
    pub total: Duration,
}

/// A built level: its world and how it was built.
#[derive(Debug, Clone)]
pub struct LevelBuild {
    /// The voxels: solid, water and air.
    pub world: VoxelWorld,
    /// Counts and times.
    pub stats: BuildStats,
}

/// The grid for `mesh` and `config` (see [`LevelConfig::origin`]).
pub(crate) fn level_grid(mesh: &LevelMesh, config: &LevelConfig) -> Result<Grid, BuildError> {
    let s = config.voxel_size;
    if !(s.is_finite() && s > 0.0) {
        return Err(BuildError::InvalidVoxelSize(s));
    }
    let (min, max) = mesh.bounds().ok_or(BuildError::EmptyMesh)?;
    let size = f64::from(s);
    let origin = match config.origin {
        Some(o) if !o.is_finite() => return Err(BuildError::NonFinite),
        Some(o) => o.as_dvec3(),
        None => ((min.as_dvec3() - 2.0 * size) / size).floor() * size,
    };
    // Store the origin as the f32 the world will hold, so every stage sees the same grid.
    let origin = origin.as_vec3().as_dvec3();
    let n = ((max.as_dvec3() - origin) / size).floor() + 3.0;
    let cap = f64::from(VoxelWorld::MAX_AXIS);
    if !n.is_finite() || n.max_element() > cap {
        let n = n.clamp(DVec3::ZERO, DVec3::splat(u64::MAX as f64));
        return Err(BuildError::World(crate::error::WorldError::InvalidDimensions {
            x: n.x as u64,
            y: n.y as u64,
            z: n.z as u64,
        }));
    }
    let dims = n.max(DVec3::ONE).as_ivec3();
    Ok(Grid { origin, size, dims })
}

/// Voxelises a level: solid triangles block every voxel they touch (exactly, conservatively),
/// water shells fill the voxels whose centre they enclose with [`Voxel::Water`], and the space
/// not connected to the seeds (or to the grid's boundary) becomes solid.
///
/// Voxel `(i, j, k)` is the closed box `origin + [i, i+1] x [j, j+1] x [k, k+1] * voxel_size`
/// (see [`LevelConfig::origin`]); a triangle touching it, even only on its boundary, blocks it,
/// so a triangle on a voxel face blocks both voxels and a wall never leaves a gap. Solid wins
/// over water. Deterministic whatever the thread count.
///
/// # Examples
/// ```
/// use glam::Vec3;
/// use voxnav::{LevelConfig, LevelMesh, TriangleMesh, Voxel, build_level};
/// // One floor triangle, 4 m x 4 m, at y = 0.
/// let solid = TriangleMesh {
///     positions: vec![Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 4.0)],
///     triangles: vec![[0, 1, 2]],
/// };
/// let mesh = LevelMesh { solid, water: Default::default() };
/// let config = LevelConfig { voxel_size: 1.0, ..Default::default() };
/// let level = build_level(&mesh, &config).unwrap();
/// let world = &level.world;
/// assert_eq!(world.origin(), Vec3::splat(-2.0));
/// // The floor lies on a voxel face: the voxels below and above it are both blocked.
/// assert_eq!(world.get(world.voxel_at(Vec3::new(0.5, -0.5, 0.5))), Voxel::Solid);
/// assert_eq!(world.get(world.voxel_at(Vec3::new(0.5, 0.5, 0.5))), Voxel::Solid);
/// assert_eq!(world.get(world.voxel_at(Vec3::new(0.5, 1.5, 0.5))), Voxel::Air);
/// // Columns (i, k) of the closed cells touching the triangle x + z <= 4, x, z >= 0: those
/// // along its edges x = 0 and z = 0 count too: 26 columns, 2 layers each.
/// assert_eq!(level.stats.surface_voxels, 2 * 26);
/// ```
///
/// # Errors
/// [`BuildError::InvalidMesh`], [`BuildError::EmptyMesh`], [`BuildError::InvalidVoxelSize`], [`BuildError::NonFinite`]
/// for a bad origin or seed, [`BuildError::TooLarge`] past the working-memory limit of [`LevelConfig::limits`],
/// [`BuildError::World`] for a grid too large for a [`VoxelWorld`],
/// [`BuildError::SeedOutside`] / [`BuildError::SeedBlocked`], [`BuildError::Threads`].
pub fn build_level(mesh: &LevelMesh, config: &LevelConfig) -> Result<LevelBuild, BuildError> {
    let start = Instant::now();
    for part in [&mesh.solid, &mesh.water] {
        part.validate().map_err(|e| BuildError::InvalidMesh(e.to_string()))?;
    }
    let grid = level_grid(mesh, config)?;
    // Three bit grids, the rasteriser's y-columns, the water's vertices in f64, the shapes
    // the rasteriser stores for several threads, and the world's chunk tables (16 bytes a
    // chunk).
    let chunks = grid.dims.as_u64vec3().map(|n| n.div_ceil(16));
    let bytes = grid
        .words()
        .saturating_mul(8 * 3)
        .saturating_add(if uses_columns(grid.dims) { grid.column_words().saturating_mul(8) } else { 0 })
        .saturating_add(mesh.water.positions.len() as u64 * 24)
        .saturating_add(mesh.solid.triangles.len() as u64 * std::mem::size_of::<Shape>() as u64)
        .saturating_add(chunks.x.saturating_mul(chunks.y).saturating_mul(chunks.z).saturating_mul(16));
    let limit = config.limits.max_world_bytes as u64;
    if bytes > limit {
        return Err(BuildError::TooLarge { bytes, limit });
    }
    let world = VoxelWorld::with_limits(grid.origin.as_vec3(), config.voxel_size, grid.dims.as_uvec3(), config.limits)?;
    let seeds = config
        .seeds
        .iter()
        .map(|&p| {
            if !p.is_finite() {
                return Err(BuildError::NonFinite);
            }
            let v = grid.voxel_coords(p).floor();
            if v.cmplt(DVec3::ZERO).any() || v.cmpge(grid.dims.as_dvec3()).any() {
                return Err(BuildError::SeedOutside(p));
            }
            Ok(v.as_ivec3())
        })
        .collect::<Result<Vec<IVec3>, _>>()?;
    #[cfg(feature = "parallel")]
    {
        if config.threads > 0 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(config.threads)
                .build()
                .map_err(|e| BuildError::Threads(e.to_string()))?;
            return pool.install(|| run(mesh, config, grid, world, &seeds, start));
        }
    }
    run(mesh, config, grid, world, &seeds, start)
}

/// The stages, on the current thread pool.
fn run(
    mesh: &LevelMesh,
    config: &LevelConfig,
    grid: Grid,
    mut world: VoxelWorld,
    seeds: &[IVec3],
    start: Instant,
) -> Result<LevelBuild, BuildError> {
    let mut stats = BuildStats {
        triangles: mesh.solid.triangles.len(),
        water_triangles: mesh.water.triangles.len(),
        dims: grid.dims.as_uvec3(),
        ..Default::default()
    };
    let t = Instant::now();
    let mut solid = rasterise(&mesh.solid, &grid);
    stats.rasterise = t.elapsed();
    stats.surface_voxels = solid.count();
    if let Some((_, p)) = seeds.iter().zip(&config.seeds).find(|(v, _)| solid.get(**v)) {
        return Err(BuildError::SeedBlocked(*p));
    }

    let t = Instant::now();
    let mut water = if mesh.water.triangles.is_empty() { None } else { Some(fill_water(&mesh.water, &grid)) };
    stats.water = t.elapsed();

    let t = Instant::now();
    let reached = if !seeds.is_empty() {
        Some(reachable(&solid, seeds.iter().copied()))
    } else if config.fill_interiors {
        Some(reachable(&solid, boundary(grid.dims)))
    } else {
        None
    };
    if let Some(reached) = reached {
        // Solid: the surface and every free voxel not reached (inside the x extent).
        let dx = grid.dims.x as usize;
        let wpr = solid.wpr;
        let last = if dx.is_multiple_of(64) { !0 } else { (1u64 << (dx % 64)) - 1 };
        for (i, (s, r)) in solid.words.iter_mut().zip(&reached.words).enumerate() {
            let valid = if i % wpr == wpr - 1 { last } else { !0 };
            *s |= !r & valid;
        }
        stats.sealed_voxels = solid.count() - stats.surface_voxels;
    }
    if let Some(w) = &mut water {
        for (w, s) in w.words.iter_mut().zip(&solid.words) {
            *w &= !s;
        }
    }
    stats.interiors = t.elapsed();

    let t = Instant::now();
    stats.solid_voxels = world.or_rows(Voxel::Solid, &solid.words, solid.wpr);
    stats.water_voxels = water.as_ref().map_or(0, |w: &Bits| world.or_rows(Voxel::Water, &w.words, w.wpr));
    stats.write = t.elapsed();
    stats.total = start.elapsed();
    Ok(LevelBuild { world, stats })
}
