//! `cargo fuzz run mesh_obj`: any bytes given to the OBJ loader give a mesh or a typed error,
//! never a panic; a loaded mesh is valid and builds (or is refused) without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "mesh_build.rs"]
mod mesh_build;

fuzz_target!(|data: &[u8]| {
    if let Ok(mesh) = voxnav::LevelMesh::from_obj_bytes(data, "water") {
        mesh_build::check(mesh);
    }
});
