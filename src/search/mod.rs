//! Path searches over a [`VoxelWorld`](crate::VoxelWorld) and their configuration.
//!
//! Bottom up, each file importing only those below it: a query's settings ([`costs`],
//! [`heuristic`], [`config`]) and its description ([`request`]); per-search tables ([`nodes`],
//! [`radix_heap`], [`open_list`], [`flood`], [`canonical`], [`memory`]), the coarse estimate
//! of [`guide`] and the result ([`path`]); the two engines, both on the same node store and open list: [`astar`], the one
//! A* (exact, weighted, the budget mode's phases, the closest-voxel fallback's searches,
//! repairs' canonical detours), and [`jps`], jump point search; [`dispatch`], which runs a
//! query's phases on them (the budget schedule, the race of two jump searches, the
//! closest-voxel fallback); [`labels`], what connectivity labels say of a query before it is
//! searched; [`pathfinder`]'s `Pathfinder`, the one way in; over it [`batch`], [`queue`] and
//! [`repair`].

pub(crate) mod astar;
pub(crate) mod batch;
pub(crate) mod canonical;
pub(crate) mod config;
pub(crate) mod costs;
pub(crate) mod dispatch;
pub(crate) mod flood;
pub(crate) mod guide;
pub(crate) mod heuristic;
pub(crate) mod jps;
pub(crate) mod labels;
pub(crate) mod memory;
pub(crate) mod nodes;
pub(crate) mod open_list;
pub(crate) mod path;
pub(crate) mod pathfinder;
pub(crate) mod queue;
pub(crate) mod radix_heap;
pub(crate) mod repair;
pub(crate) mod request;

pub use config::{Algorithm, CostModel, DiagonalRule, Fallback, SearchConfig};
pub use heuristic::Heuristic;
