//! Error types. "No path" is a value of [`PathError`]; bad input is always an error, never a panic.

use glam::IVec3;
use thiserror::Error;

/// Why a world or an agent could not be built.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum WorldError {
    /// An agent dimension was zero, negative, NaN or infinite.
    #[error("agent {name} must be finite and > 0, got {value}")]
    InvalidAgentSize {
        /// Which dimension: `length`, `width` or `height`.
        name: &'static str,
        /// The value given.
        value: f32,
    },
    /// The voxel size was zero, negative, NaN or infinite.
    #[error("voxel size must be finite and > 0, got {0}")]
    InvalidVoxelSize(f32),
    /// The world bounds were not finite, or `min` was not below `max` on every axis.
    #[error("world bounds must be finite with min < max on every axis")]
    InvalidBounds,
    /// A voxel coordinate lay outside the world.
    #[error("voxel {0} is outside the world")]
    OutOfBounds(glam::IVec3),
    /// A shape had a NaN or infinite coordinate, or a negative radius.
    #[error("shape coordinates must be finite (and radii >= 0)")]
    NonFinite,
    /// The world would have too many voxels (see [`crate::VoxelWorld::MAX_AXIS`] and
    /// [`crate::VoxelWorld::MAX_VOXELS`]), or a dimension was zero.
    #[error("world of {x} x {y} x {z} voxels is empty or larger than supported")]
    InvalidDimensions {
        /// Voxels along X.
        x: u64,
        /// Voxels along Y.
        y: u64,
        /// Voxels along Z.
        z: u64,
    },
    /// An agent is too large for the world's voxels: its clearance radius would pass
    /// [`SearchConfig::MAX_CLEARANCE`](crate::SearchConfig::MAX_CLEARANCE) voxels.
    #[error(
        "an agent of step {step} needs a clearance of {radius} voxels of {voxel_size}; at most {max} are supported (use coarser voxels)"
    )]
    AgentTooLarge {
        /// The agent's step (its largest dimension).
        step: f32,
        /// The world's voxel edge.
        voxel_size: f32,
        /// The radius it would need, in voxels.
        radius: u32,
        /// The largest supported radius.
        max: u8,
    },
    /// The world's voxels are too coarse for an agent: more than twice its step, so gaps it
    /// fits through would be closed to it (build a world with finer voxels for it).
    #[error("voxels of {voxel_size} are too coarse for an agent of step {step} (at most twice its step)")]
    VoxelTooCoarse {
        /// The agent's step (its largest dimension).
        step: f32,
        /// The world's voxel edge.
        voxel_size: f32,
    },
    /// The world (or a structure built over it) would need more memory than its
    /// [`Limits`](crate::Limits) allow; nothing was allocated or changed.
    #[error("needs {needed} bytes, over the memory limit of {limit}")]
    MemoryLimit {
        /// Bytes the operation would hold.
        needed: usize,
        /// The limit in force.
        limit: usize,
    },
}

/// Why a path query returned no path.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum PathError {
    /// A world-space endpoint had a NaN or infinite coordinate.
    #[error("{which} point is not finite")]
    NonFinite {
        /// `"start"` or `"goal"`.
        which: &'static str,
    },
    /// The start is outside the world's bounds.
    #[error("start voxel {0} is outside the world")]
    StartOutOfBounds(IVec3),
    /// The goal is outside the world's bounds.
    #[error("goal voxel {0} is outside the world")]
    GoalOutOfBounds(IVec3),
    /// The start voxel is solid, or of a medium the query does not allow.
    #[error("start voxel {0} is blocked for this agent")]
    StartBlocked(IVec3),
    /// The goal voxel is solid, or of a medium the query does not allow.
    #[error("goal voxel {0} is blocked for this agent")]
    GoalBlocked(IVec3),
    /// The whole reachable region was searched and the goal is not in it.
    #[error("no path: the goal is unreachable from the start ({expanded} nodes expanded)")]
    Unreachable {
        /// Nodes expanded before giving up (0 when a precomputed label proved it).
        expanded: usize,
    },
    /// The search hit [`crate::SearchConfig::max_expansions`] before finding the goal.
    #[error("search budget exhausted after {expanded} expansions")]
    BudgetExhausted {
        /// Nodes expanded.
        expanded: usize,
    },
    /// [`Pathfinder::advance`](crate::Pathfinder::advance) was given a world other than the
    /// one its search began on, or that world was edited since.
    #[error("the world changed since the search began")]
    WorldChanged,
    /// The cost model cannot be used: see [`crate::CostModel::validate`].
    #[error("invalid cost model: {0}")]
    InvalidCosts(&'static str),
    /// Another part of the [`SearchConfig`](crate::SearchConfig) cannot be used (a medium's
    /// price, an algorithm's weight or phase): see [`crate::SearchConfig::validate`].
    #[error("invalid search configuration: {0}")]
    InvalidConfig(&'static str),
    /// The search's tables would pass the world's [`Limits::max_search_bytes`](crate::Limits);
    /// checked before allocating them.
    #[error("search needs {needed} bytes, over the memory limit of {limit}")]
    MemoryLimit {
        /// Bytes the search would hold.
        needed: usize,
        /// The limit in force.
        limit: usize,
    },
}

/// Why a Moving AI `.3dmap` or `.3dscen` file could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// A line did not have the expected form.
    #[error("line {line}: {message}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What was expected.
        message: String,
    },
    /// A voxel coordinate lay outside the map's declared size.
    #[error("line {line}: voxel {voxel} is outside the {dims} map")]
    OutOfRange {
        /// 1-based line number.
        line: usize,
        /// The coordinate read.
        voxel: IVec3,
        /// The map size from the header.
        dims: glam::UVec3,
    },
    /// The header declared a world the library refuses to allocate.
    #[error("line {line}: {source}")]
    World {
        /// 1-based line number.
        line: usize,
        /// The underlying error.
        source: WorldError,
    },
}

/// Why a level mesh (glTF or OBJ) could not be loaded.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum MeshError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file name has no extension this build can load (`.glb`, `.gltf` with feature
    /// `gltf`; `.obj` with feature `obj`).
    #[error("cannot load {0:?}: unknown extension, or its loader's cargo feature is off")]
    UnknownFormat(std::path::PathBuf),
    /// The glTF parser rejected the file (bad JSON, bad GLB container, invalid references).
    #[error("invalid glTF: {0}")]
    Gltf(String),
    /// The OBJ parser rejected the file.
    #[error("invalid OBJ: {0}")]
    Obj(String),
    /// A glTF accessor or buffer view does not fit in its buffer, or has the wrong type.
    #[error("bad accessor {accessor}: {reason}")]
    BadAccessor {
        /// The accessor's index in the file.
        accessor: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A glTF feature this loader does not read (sparse or quantised accessors, embedded
    /// base64 buffers, external buffers when loading from bytes).
    #[error("unsupported glTF feature: {0}")]
    Unsupported(&'static str),
    /// A vertex position (after its node transforms) is NaN or infinite.
    #[error("vertex {vertex} is not finite")]
    NonFinite {
        /// The vertex's index in the loaded mesh.
        vertex: usize,
    },
    /// A triangle names a vertex that does not exist.
    #[error("triangle index {index} is out of range ({vertices} vertices)")]
    IndexOutOfRange {
        /// The index read.
        index: u64,
        /// How many vertices there are.
        vertices: usize,
    },
    /// The scene graph would produce more triangles (after instancing) than
    /// [`LevelMesh::MAX_TRIANGLES`](crate::LevelMesh::MAX_TRIANGLES), or nests deeper than
    /// its depth limit.
    #[error("mesh too large or scene graph too deep: {0}")]
    TooLarge(&'static str),
}

/// Why a level could not be built from its mesh.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The mesh has no triangle (neither solid nor water), so it has no bounds.
    #[error("the level mesh has no triangle")]
    EmptyMesh,
    /// The voxel size was zero, negative, NaN or infinite.
    #[error("voxel size must be finite and > 0, got {0}")]
    InvalidVoxelSize(f32),
    /// A vertex of the mesh is not finite, or a triangle names a missing vertex (see
    /// [`TriangleMesh::validate`](crate::TriangleMesh::validate)).
    #[error("invalid mesh: {0}")]
    InvalidMesh(String),
    /// A configured origin or seed point is NaN or infinite.
    #[error("origin and seeds must be finite")]
    NonFinite,
    /// The grid would need more working memory than the working-memory limit of [`LevelConfig::limits`](crate::LevelConfig::limits).
    #[error("building needs {bytes} bytes of working memory, more than the limit of {limit}")]
    TooLarge {
        /// Bytes the build would allocate.
        bytes: u64,
        /// The configured limit.
        limit: u64,
    },
    /// The world could not be made (too many voxels on an axis or in all).
    #[error(transparent)]
    World(#[from] WorldError),
    /// A seed point lies outside the grid.
    #[error("seed {0} is outside the level's grid")]
    SeedOutside(glam::Vec3),
    /// A seed point lies in a voxel that the level's geometry blocks.
    #[error("seed {0} is inside a blocked voxel")]
    SeedBlocked(glam::Vec3),
    /// The thread pool for [`LevelConfig::threads`](crate::LevelConfig::threads) could not be started.
    #[error("cannot start the thread pool: {0}")]
    Threads(String),
}

/// Why a trajectory could not be built or sampled. Bad input is always an error, never a panic.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum TrajectoryError {
    /// A [`FlightProfile`](crate::FlightProfile) field is NaN, infinite or out of its range.
    #[error("flight profile field {name} is out of range: {value}")]
    InvalidProfile {
        /// The field.
        name: &'static str,
        /// The value given.
        value: f32,
    },
    /// A sampling argument (spacing, time step, length, time) is NaN, infinite, or not
    /// positive where it must be.
    #[error("{name} must be finite{}, got {value}", if *.positive { " and > 0" } else { "" })]
    InvalidArgument {
        /// The argument.
        name: &'static str,
        /// The value given.
        value: f32,
        /// Whether it had to be positive.
        positive: bool,
    },
    /// The spacing or time step is so small that sampling would return more than 50 million
    /// samples.
    #[error("sampling would return {0} samples (more than 50 million)")]
    TooManySamples(u64),
    /// [`Trajectory::continue_from`](crate::Trajectory::continue_from): the smoothed path does
    /// not start at the pose's position (`distance` away, world units), or the pose is not
    /// finite (`distance` is then NaN or infinite).
    #[error("the smoothed path starts {distance} units from the pose it should continue")]
    NotAtStart {
        /// Distance from the pose to the path's start, world units.
        distance: f32,
    },
}

/// Why a baked world (`.vxn`) could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum VxnError {
    /// The file could not be read.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The file does not start with the `.vxn` magic bytes: not a baked world.
    #[error("not a voxnav baked world (bad magic bytes)")]
    BadMagic,
    /// The file was written by a newer (or unknown) version of the format.
    #[error("format version {found} is not supported (this library reads version {supported})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
        /// The version this library reads and writes.
        supported: u32,
    },
    /// The file ends before its declared contents do.
    #[error("truncated: needs {needed} bytes, has {len}")]
    Truncated {
        /// Bytes the contents need.
        needed: u64,
        /// Bytes in the file.
        len: u64,
    },
    /// The checksum does not match the contents: the file was damaged.
    #[error("checksum mismatch: stored {stored:#010x}, computed {computed:#010x}")]
    ChecksumMismatch {
        /// CRC-32 stored in the file.
        stored: u32,
        /// CRC-32 of the contents read.
        computed: u32,
    },
    /// The contents are inconsistent (a chunk outside the world, bits past its edge, water and
    /// solid on one voxel, a required section this version does not know, ...).
    #[error("corrupt baked world: {0}")]
    Corrupt(&'static str),
    /// The header declares a world the library refuses to build (bad size, over the limits).
    #[error(transparent)]
    World(#[from] WorldError),
}
