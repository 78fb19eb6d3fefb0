//! [`SmoothError`]: why a path could not be smoothed.

use glam::{IVec3, Vec3};
use thiserror::Error;

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
    /// A [`SmoothConfig`](crate::SmoothConfig) field is NaN, infinite, zero or negative.
    #[error("smoothing parameter {name} must be finite and > 0, got {value}")]
    InvalidConfig {
        /// The field.
        name: &'static str,
        /// The value given.
        value: f32,
    },
}
