//! `cargo fuzz run mesh_glb`: any bytes given to the glTF loader give a mesh or a typed error,
//! never a panic; a loaded mesh is valid and builds (or is refused) without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use voxnav::{LevelConfig, LevelMesh, build_level};

fuzz_target!(|data: &[u8]| {
    if let Ok(mesh) = LevelMesh::from_glb_bytes(data, "water") {
        assert!(mesh.solid.validate().is_ok() && mesh.water.validate().is_ok());
        // A small memory limit keeps huge boxes from being built.
        let config = LevelConfig {
            voxel_size: 0.5,
            limits: voxnav::Limits { max_world_bytes: 1 << 24, ..voxnav::Limits::DEFAULT },
            ..Default::default()
        };
        let _ = build_level(&mesh, &config);
    }
});
