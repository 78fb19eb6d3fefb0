//! Fuzz target: the Moving AI `.3dmap` reader. Any bytes give a world or a typed error, never a
//! panic, and never a world past the default memory limits.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(world) = voxnav::VoxelWorld::from_3dmap(&text) {
        assert!(world.memory_bytes() <= voxnav::Limits::DEFAULT.max_world_bytes);
    }
});
