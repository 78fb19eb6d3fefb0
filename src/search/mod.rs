//! Path searches over a [`VoxelWorld`](crate::VoxelWorld) and their configuration.

pub(crate) mod astar;
pub(crate) mod config;
pub(crate) mod heuristic;
pub(crate) mod nodes;
pub(crate) mod path;
pub(crate) mod radix_heap;

pub use config::{CostModel, DiagonalRule, SearchConfig};
pub use heuristic::Heuristic;
