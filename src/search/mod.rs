//! Path searches over a [`VoxelWorld`](crate::VoxelWorld) and their configuration.

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
pub(crate) mod nodes;
pub(crate) mod path;
pub(crate) mod queue;
pub(crate) mod radix_heap;
pub(crate) mod repair;

pub use config::{Algorithm, CostModel, DiagonalRule, Fallback, SearchConfig};
pub use heuristic::Heuristic;
