//! Baked worlds (`.vxn`): a round trip gives the same world (random worlds and every shared
//! level), and every damaged, truncated, foreign, newer or hostile file is refused with a typed
//! error, never a panic or an absurd allocation.

mod common;

use common::levels::{LEVELS, levels_dir};
use common::rng;
use glam::{IVec3, UVec3, Vec3};
use rand::RngExt;
use voxnav::{LevelConfig, LevelMesh, Limits, Voxel, VoxelWorld, VxnError, WorldError, build_level};

fn same_world(a: &VoxelWorld, b: &VoxelWorld) {
    assert_eq!((a.dims(), a.origin(), a.voxel_size()), (b.dims(), b.origin(), b.voxel_size()));
    let d = a.dims().as_ivec3();
    for z in 0..d.z {
        for y in 0..d.y {
            for x in 0..d.x {
                let v = IVec3::new(x, y, z);
                assert_eq!(a.get(v), b.get(v), "{v}");
            }
        }
    }
    assert_eq!(a.has_water(), b.has_water());
}

fn bake(world: &VoxelWorld) -> Vec<u8> {
    let mut bytes = Vec::new();
    world.write_vxn(&mut bytes).unwrap();
    bytes
}

/// Rewrites the checksum after an edit, so the reader's deeper checks are reached.
fn reseal(bytes: &mut [u8]) {
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
}

fn small_world() -> VoxelWorld {
    let mut w = VoxelWorld::new(Vec3::new(1.5, -2.0, 0.25), 0.5, UVec3::new(21, 18, 35)).unwrap();
    w.fill_voxels(IVec3::new(2, 3, 4), IVec3::new(18, 4, 20), Voxel::Solid).unwrap();
    w.fill_voxels(IVec3::new(0, 10, 30), IVec3::new(20, 17, 34), Voxel::Water).unwrap();
    w
}

#[test]
fn random_worlds_round_trip() {
    let mut rng = rng(0xBA4E);
    for case in 0..40 {
        let dims = UVec3::new(rng.random_range(1..50), rng.random_range(1..50), rng.random_range(1..50));
        let mut world = VoxelWorld::new(Vec3::new(case as f32, -3.0, 0.5), 0.25 + case as f32, dims).unwrap();
        for _ in 0..rng.random_range(0..400) {
            let v = IVec3::new(
                rng.random_range(0..dims.x as i32),
                rng.random_range(0..dims.y as i32),
                rng.random_range(0..dims.z as i32),
            );
            world.set(v, if rng.random_bool(0.7) { Voxel::Solid } else { Voxel::Water }).unwrap();
        }
        if case % 3 == 0 {
            // Wholly solid chunks, inside and at the world's edges (stored without rows).
            let lo = IVec3::new(rng.random_range(0..4), 0, rng.random_range(0..4));
            world.fill_voxels(lo, dims.as_ivec3() - 1, Voxel::Solid).unwrap();
        }
        let back = VoxelWorld::from_vxn_bytes(&bake(&world), Limits::DEFAULT).unwrap();
        same_world(&world, &back);
        assert_eq!(bake(&back), bake(&world), "deterministic bytes");
    }
}

#[test]
fn damaged_files_are_refused_with_typed_errors() {
    let bytes = bake(&small_world());
    // Every truncation.
    for n in 0..bytes.len() {
        let e = VoxelWorld::from_vxn_bytes(&bytes[..n], Limits::DEFAULT).unwrap_err();
        assert!(
            matches!(e, VxnError::BadMagic | VxnError::Truncated { .. } | VxnError::ChecksumMismatch { .. }),
            "{n}: {e:?}"
        );
    }
    // Seeded bit flips anywhere.
    let mut rng = rng(5);
    for _ in 0..3000 {
        let mut b = bytes.clone();
        let i = rng.random_range(0..b.len());
        b[i] ^= 1 << rng.random_range(0..8);
        let e = VoxelWorld::from_vxn_bytes(&b, Limits::DEFAULT).unwrap_err();
        assert!(
            matches!(e, VxnError::BadMagic | VxnError::UnsupportedVersion { .. } | VxnError::ChecksumMismatch { .. }),
            "{i}: {e:?}"
        );
    }
    // Foreign files.
    for foreign in [&b"voxel 10 10 10\n1 2 3\n"[..], b"glTF\x02\0\0\0", b"", b"\x89PNG\r\n\x1a\n\0\0\0\0"] {
        assert!(matches!(VoxelWorld::from_vxn_bytes(foreign, Limits::DEFAULT), Err(VxnError::BadMagic)));
    }
    // A newer version.
    let mut newer = bytes.clone();
    newer[8] = 2;
    reseal(&mut newer);
    assert!(matches!(
        VoxelWorld::from_vxn_bytes(&newer, Limits::DEFAULT),
        Err(VxnError::UnsupportedVersion { found: 2, supported: 1 })
    ));
}

#[test]
fn hostile_headers_and_contents_are_refused_before_allocating() {
    let bytes = bake(&small_world());
    // Absurd dims: refused by the world's own checks or its limits.
    for dims in [[u32::MAX, u32::MAX, u32::MAX], [0, 5, 5], [1 << 20, 1 << 20, 1 << 10]] {
        let mut b = bytes.clone();
        for (i, d) in dims.iter().enumerate() {
            b[12 + 4 * i..16 + 4 * i].copy_from_slice(&d.to_le_bytes());
        }
        reseal(&mut b);
        assert!(matches!(VoxelWorld::from_vxn_bytes(&b, Limits::DEFAULT), Err(VxnError::World(_))));
    }
    // NaN voxel size.
    let mut b = bytes.clone();
    b[36..40].copy_from_slice(&f32::NAN.to_le_bytes());
    reseal(&mut b);
    assert!(matches!(VoxelWorld::from_vxn_bytes(&b, Limits::DEFAULT), Err(VxnError::World(_))));
    // A huge section length or chunk count.
    for at in [44 + 8, 44 + 16] {
        let mut b = bytes.clone();
        b[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        reseal(&mut b);
        let e = VoxelWorld::from_vxn_bytes(&b, Limits::DEFAULT).unwrap_err();
        assert!(matches!(e, VxnError::Truncated { .. } | VxnError::Corrupt(_)), "{e:?}");
    }
    // Over the caller's limits: refused, not allocated.
    let tight = Limits { max_world_bytes: 2048, max_search_bytes: 2048 };
    assert!(matches!(VoxelWorld::from_vxn_bytes(&bytes, tight), Err(VxnError::World(WorldError::MemoryLimit { .. }))));
    // A bit past the world's x edge (21 voxels: chunk 1 holds x = 16..20).
    let mut b = bytes.clone();
    let count = u32::from_le_bytes(b[44 + 16..44 + 20].try_into().unwrap()) as usize;
    let mut edge = None;
    for k in 0..count {
        let rec = 44 + 16 + 4 + k * 516;
        let index = u32::from_le_bytes(b[rec..rec + 4].try_into().unwrap());
        if index % 2 == 1 {
            edge = Some(rec + 4);
        }
    }
    let row = edge.expect("a chunk at the x edge");
    b[row + 1] |= 0x80; // x = 31
    reseal(&mut b);
    assert!(matches!(VoxelWorld::from_vxn_bytes(&b, Limits::DEFAULT), Err(VxnError::Corrupt(_))));
    // An unknown required section is refused; an unknown optional one is skipped.
    for (flags, ok) in [(1u32, false), (0, true)] {
        let mut b = bytes[..bytes.len() - 4].to_vec();
        b[40..44].copy_from_slice(&3u32.to_le_bytes());
        b.extend_from_slice(b"CLRN");
        b.extend_from_slice(&flags.to_le_bytes());
        b.extend_from_slice(&3u64.to_le_bytes());
        b.extend_from_slice(&[1, 2, 3, 0, 0, 0, 0]);
        reseal(&mut b);
        assert_eq!(VoxelWorld::from_vxn_bytes(&b, Limits::DEFAULT).is_ok(), ok, "flags {flags}");
    }
}

#[test]
fn every_shared_level_round_trips() {
    let Some(dir) = levels_dir() else {
        common::missing_data("the shared levels are missing");
        return;
    };
    for level in &LEVELS {
        let mesh = LevelMesh::load(dir.join(format!("{}.glb", level.name)), "water").unwrap();
        let config = LevelConfig { voxel_size: level.voxel, seeds: vec![level.seed], ..Default::default() };
        let world = build_level(&mesh, &config).unwrap().world;
        let bytes = bake(&world);
        let back = VoxelWorld::from_vxn_bytes(&bytes, Limits::DEFAULT).unwrap();
        same_world(&world, &back);
        eprintln!("level {} file_bytes={} world_bytes={}", level.name, bytes.len(), world.memory_bytes());
    }
}
