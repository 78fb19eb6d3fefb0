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
