// The README's pictures as data URIs, so that it renders on docs.rs too: a link definition
// given first wins over the README's relative one (docs/flythrough.png) in rustdoc.
#![doc = concat!("[flythrough]: data:image/jpeg;base64,", include_str!("../docs/flythrough.jpg.b64"))]
#![doc = concat!("[level]: data:image/jpeg;base64,", include_str!("../docs/level-oa_dm7.jpg.b64"))]
#![doc = ""]
#![doc = include_str!("../README.md")]
//!
//! # Crate map
//!
//! Start from [`VoxelWorld`] (build or load a world), then ask a [`Pathfinder`] for a [`Path`]
//! with a [`SearchConfig`]. [`Agent`] sizes the world's voxels; [`Media`] says where an agent may
//! go; [`Scenario`] reads benchmark problems.
//!
//! # Levels from meshes
//!
//! [`LevelMesh::load`] reads a level's triangles (glTF `.glb`/`.gltf`, Wavefront `.obj`; features
//! `gltf` and `obj`), with water volumes chosen by name; [`build_level`] voxelises it
//! conservatively (every voxel a triangle touches is blocked), fills water shells with
//! [`Voxel::Water`] and seals what the [`LevelConfig::seeds`] cannot reach.
//!
//! # Benchmark maps
//!
//! [`VoxelWorld::from_3dmap`] and [`Scenario::from_3dscen`] read the Moving AI Lab 3D formats
//! (Brewer & Sturtevant 2018): a `.3dmap` is a header `voxel X Y Z` then one blocked voxel
//! `x y z` per line; a `.3dscen` is `version 1`, a map name, then
//! `sx sy sz gx gy gz optimal_length ratio` per line.

mod agent;
mod build;
mod crowd;
mod error;
mod grid;
mod io;
mod limits;
mod medium;
mod search;
// Flight: smoothing, orientation, trajectories, interop.
mod interop;
mod orient;
mod rejoin;
mod smooth;
mod trajectory;

pub use agent::Agent;
pub use build::level::{BuildStats, LevelBuild, LevelConfig, build_level};
pub use build::mesh::{LevelMesh, TriangleMesh, matches_pattern};
pub use crowd::avoidance::{Avoidance, AvoidanceConfig, AvoidanceError, CrowdAgent, MovingObstacle};
pub use crowd::field::{FieldError, GoalField};
pub use error::{BuildError, LoadError, MeshError, PathError, TrajectoryError, VxnError, WorldError};
pub use grid::components::Components;
pub use grid::world::VoxelWorld;
#[cfg(feature = "gltf")]
pub use io::glb_view::ViewStats;
pub use io::movingai::{Problem, Scenario};
pub use limits::Limits;
pub use medium::{Media, Voxel};
pub use search::batch::{drop_spare_pathfinders, find_paths, find_paths_sequential};
pub use search::path::{Path, PathCheck, SearchStats, SearchStep};
pub use search::pathfinder::Pathfinder;
pub use search::queue::{PathQueue, Ticket};
pub use search::request::{Endpoint, PathRequest};
pub use search::{Algorithm, CostModel, DiagonalRule, Fallback, Heuristic, SearchConfig};
// Flight: smoothing, orientation, trajectories.
pub use orient::{FlightProfile, euler_transform};
pub use rejoin::smooth_from;
pub use smooth::{SmoothConfig, SmoothError, SmoothPath, segment_clear, smooth_path, smooth_voxels};
pub use trajectory::{Pose, Trajectory};

/// The nalgebra version of the [`Pose`] conversions (feature `nalgebra`, on by default),
/// re-exported so callers match it.
#[cfg(feature = "nalgebra")]
pub use nalgebra;

/// The glam version this crate's API uses, re-exported so callers match it.
pub use glam;

/// The types most programs need: `use voxnav::prelude::*;`.
pub mod prelude {
    pub use crate::{
        Agent, Algorithm, Components, CostModel, DiagonalRule, Fallback, Heuristic, Limits, Media, Path, PathError,
        PathRequest, Pathfinder, SearchConfig, Voxel, VoxelWorld,
    };
    pub use glam::{IVec3, UVec3, Vec3};
}
