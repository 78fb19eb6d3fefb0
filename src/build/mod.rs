//! Building a [`VoxelWorld`](crate::VoxelWorld) from a level's triangle mesh, the Recast way:
//! one file per stage, each with a plain input and output.
//!
//! load ([`mesh`], `load_gltf`, `load_obj`) -> rasterise ([`rasterise`]) -> water
//! ([`water`]) -> interiors ([`interiors`]) -> write the world ([`level`]).

pub(crate) mod bits;
pub(crate) mod interiors;
pub(crate) mod level;
#[cfg(feature = "gltf")]
pub(crate) mod load_gltf;
#[cfg(feature = "obj")]
pub(crate) mod load_obj;
pub(crate) mod mesh;
pub(crate) mod rasterise;
pub(crate) mod water;
