//! What the mesh fuzz targets check of a mesh a loader accepted: it is valid, and building a
//! world from it (under a small memory limit, so huge boxes are refused) never panics.

pub fn check(mesh: voxnav::LevelMesh) {
    assert!(mesh.solid.validate().is_ok() && mesh.water.validate().is_ok());
    let config = voxnav::LevelConfig {
        voxel_size: 0.5,
        limits: voxnav::Limits { max_world_bytes: 1 << 24, ..voxnav::Limits::DEFAULT },
        ..Default::default()
    };
    let _ = voxnav::build_level(&mesh, &config);
}
