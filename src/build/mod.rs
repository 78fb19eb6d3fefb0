//! Building a [`VoxelWorld`](crate::VoxelWorld) from a level's triangle mesh, the Recast way:
//! one file per stage (a folder for a stage of several concepts), each with a plain input and
//! output.
//!
//! load ([`load`], then `load_gltf` or `load_obj`, into a [`mesh`]) -> rasterise
//! ([`rasterise`]: the stage in `rasterise/mod.rs`, what each triangle is scanned as in
//! `shapes.rs`, the scan into runs in `scan.rs`, where runs go in `write.rs`) -> water
//! ([`water`]) -> interiors ([`interiors`]) -> write the world ([`level`]). Stages share only
//! plain types (the meshes of [`mesh`], the bit grids of [`bits`]), never each other; [`level`]
//! runs them in order.

pub(crate) mod bits;
pub(crate) mod interiors;
pub(crate) mod level;
pub(crate) mod load;
#[cfg(feature = "gltf")]
pub(crate) mod load_gltf;
#[cfg(feature = "obj")]
pub(crate) mod load_obj;
pub(crate) mod mesh;
pub(crate) mod rasterise;
pub(crate) mod water;
