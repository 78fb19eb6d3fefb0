//! The sparse voxel world and the tables the searches read it through.

pub(crate) mod clearance;
pub(crate) mod components;
pub(crate) mod layer;
pub(crate) mod moves;
pub(crate) mod scan;
#[cfg(test)]
pub(crate) mod seeded;
pub(crate) mod shapes;
pub(crate) mod world;
