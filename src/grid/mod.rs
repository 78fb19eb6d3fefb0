//! The sparse voxel world and the tables the searches read it through.

pub(crate) mod components;
pub(crate) mod layer;
pub(crate) mod moves;
pub(crate) mod scan;
pub(crate) mod shapes;
pub(crate) mod world;
