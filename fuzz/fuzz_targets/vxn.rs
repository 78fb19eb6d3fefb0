//! Fuzz target: the baked world (`.vxn`) reader. Any bytes give a world or a typed error, never
//! a panic, and never a world past the default memory limits. The checksum is recomputed over
//! a copy of the input, so that mutations reach the parser behind it; a world that loads is
//! written again and must load again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use voxnav::{Limits, VoxelWorld};

fn check(bytes: &[u8]) {
    if let Ok(world) = VoxelWorld::from_vxn_bytes(bytes, Limits::DEFAULT) {
        assert!(world.memory_bytes() <= Limits::DEFAULT.max_world_bytes);
        let mut again = Vec::new();
        world.write_vxn(&mut again).unwrap();
        let back = VoxelWorld::from_vxn_bytes(&again, Limits::DEFAULT).unwrap();
        assert_eq!((back.dims(), back.has_water()), (world.dims(), world.has_water()));
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    if data.len() >= 8 {
        let mut sealed = data.to_vec();
        let n = sealed.len() - 4;
        let crc = crc32fast::hash(&sealed[..n]);
        sealed[n..].copy_from_slice(&crc.to_le_bytes());
        check(&sealed);
    }
});
