//! The sparse voxel world and the tables the searches read it through.
//!
//! Bottom up, each file importing only those below it: [`layer`] (chunks of bit rows) and
//! [`moves`] (the 26 moves and their 3x3x3 masks); [`world`] (the voxels); [`clearance`] (the
//! solid voxels dilated by an agent's radius); [`pass`] (one query's view of the voxels: its
//! media and radius); over them [`scan`] (jump point search's per-chunk scan events),
//! [`components`] (connectivity labels), [`regions`] (the free space as pieces of 8^3 blocks and
//! the links between them, built lazily) and [`shapes`] (column, capsule and flood fills).

pub(crate) mod clearance;
pub(crate) mod components;
pub(crate) mod layer;
pub(crate) mod moves;
pub(crate) mod pass;
pub(crate) mod pieces;
pub(crate) mod regions;
pub(crate) mod scan;
#[cfg(test)]
pub(crate) mod seeded;
pub(crate) mod shapes;
pub(crate) mod world;
