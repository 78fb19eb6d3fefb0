//! Path searches over a [`VoxelWorld`](crate::VoxelWorld) and their configuration.
//!
//! Bottom up, each file importing only those below it: a query's settings ([`costs`],
//! [`heuristic`], [`config`]); per-search tables ([`nodes`], [`radix_heap`], [`closest`],
//! [`canonical`], [`memory`]) and the result ([`path`]); [`jps`], the engine that [`dispatch`]
//! runs for the queries plain A* does not (jump point search, weighted and budget modes, the
//! closest-voxel fallback); [`astar`]'s `Pathfinder`, the one way in, which runs plain A*
//! itself and hands the rest to `dispatch`; over it [`batch`], [`queue`], [`repair`] and
//! [`labels`].

pub(crate) mod astar;
pub(crate) mod batch;
pub(crate) mod canonical;
pub(crate) mod closest;
pub(crate) mod config;
pub(crate) mod costs;
pub(crate) mod dispatch;
pub(crate) mod heuristic;
pub(crate) mod jps;
pub(crate) mod labels;
pub(crate) mod memory;
pub(crate) mod nodes;
pub(crate) mod path;
pub(crate) mod queue;
pub(crate) mod radix_heap;
pub(crate) mod repair;

pub use config::{Algorithm, CostModel, DiagonalRule, Fallback, SearchConfig};
pub use heuristic::Heuristic;
