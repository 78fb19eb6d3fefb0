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
    // A newer version, and the older one (rows stored whole, 516 bytes a chunk).
    for version in [3u8, 1] {
        let mut other = bytes.clone();
        other[8] = version;
        reseal(&mut other);
        assert!(matches!(
            VoxelWorld::from_vxn_bytes(&other, Limits::DEFAULT),
            Err(VxnError::UnsupportedVersion { found, supported: 2 }) if found == u32::from(version)
        ));
    }
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

/// One chunk record of a layer section, for hand-made files (layout in `src/io/vxn.rs`).
enum Rec {
    /// Chunk index, group codes (group `g` in bits `2g..2g + 2`), literal groups.
    Rows(u32, u128, Vec<u64>),
    /// Chunk index: every voxel of it inside the world is set.
    Full(u32),
    /// Chunk index, number of an earlier `Rows` record: the same rows.
    Same(u32, u32),
    /// A raw index word (kind in bits 30-31), nothing after it.
    Word(u32),
}

/// Group codes.
const LITERAL: u128 = 2;
const WHOLE: u128 = 1;
const BELOW: u128 = 3;

/// Group codes from `(group, code)` pairs.
fn codes(groups: &[(u32, u128)]) -> u128 {
    groups.iter().fold(0, |c, &(g, code)| c | code << (2 * g))
}

/// A layer section's payload; `with_rows` overrides the count of records with rows.
fn layer(recs: &[Rec], with_rows: Option<u32>) -> Vec<u8> {
    let rows = recs.iter().filter(|r| matches!(r, Rec::Rows(..))).count() as u32;
    let mut b = Vec::new();
    b.extend((recs.len() as u32).to_le_bytes());
    b.extend(with_rows.unwrap_or(rows).to_le_bytes());
    for r in recs {
        match r {
            Rec::Rows(i, c, literals) => {
                b.extend(i.to_le_bytes());
                b.extend(c.to_le_bytes());
                literals.iter().for_each(|l| b.extend(l.to_le_bytes()));
            }
            Rec::Full(i) => b.extend((i | 1 << 31).to_le_bytes()),
            Rec::Same(i, k) => {
                b.extend((i | 1 << 30).to_le_bytes());
                b.extend(k.to_le_bytes());
            }
            Rec::Word(w) => b.extend(w.to_le_bytes()),
        }
    }
    b
}

/// A whole file: magic, version 2, `dims`, origin 0, voxel size 1, the two layer sections and
/// the checksum.
fn file(dims: [u32; 3], solid: &[u8], water: &[u8]) -> Vec<u8> {
    let mut b = b"\x89VXN\r\n\x1a\n".to_vec();
    b.extend(2u32.to_le_bytes());
    dims.iter().for_each(|d| b.extend(d.to_le_bytes()));
    [0f32, 0.0, 0.0, 1.0].iter().for_each(|f| b.extend(f.to_le_bytes()));
    b.extend(2u32.to_le_bytes());
    for (tag, payload) in [(b"SOLD", solid), (b"WATR", water)] {
        b.extend(tag);
        b.extend(1u32.to_le_bytes());
        b.extend((payload.len() as u64).to_le_bytes());
        b.extend(payload);
    }
    let crc = crc32fast::hash(&b);
    b.extend(crc.to_le_bytes());
    b
}

/// 20^3 voxels: chunk 0 lies inside the world, chunk 1 reaches past its x extent (x = 16..19
/// inside), chunk 2 past y, chunk 4 past z, chunk 7 past all three.
const DIMS: [u32; 3] = [20, 20, 20];

/// The hand-made file every record kind and group code is in: chunk 0 wholly solid; chunk 1
/// the row x = 16..19 at y = z = 0 (a literal group); chunk 2 the same rows (x = 0..3 at
/// y = 16, z = 0); water at x = y = 0, z = 16..18 in chunk 4 (a literal, then two groups the
/// same as the one below).
fn hand_made(solid: &[Rec], water: &[Rec]) -> Vec<u8> {
    file(DIMS, &layer(solid, None), &layer(water, None))
}

fn valid_solid() -> Vec<Rec> {
    vec![Rec::Full(0), Rec::Rows(1, codes(&[(0, LITERAL)]), vec![0xF]), Rec::Same(2, 0)]
}

fn valid_water() -> Vec<Rec> {
    vec![Rec::Rows(4, codes(&[(0, LITERAL), (4, BELOW), (8, BELOW)]), vec![1])]
}

#[test]
fn each_record_kind_and_group_code_reads_as_written() {
    let bytes = hand_made(&valid_solid(), &valid_water());
    let world = VoxelWorld::from_vxn_bytes(&bytes, Limits::DEFAULT).unwrap();
    let mut expected = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::from_array(DIMS)).unwrap();
    expected.fill_voxels(IVec3::ZERO, IVec3::splat(15), Voxel::Solid).unwrap();
    expected.fill_voxels(IVec3::new(16, 0, 0), IVec3::new(19, 0, 0), Voxel::Solid).unwrap();
    expected.fill_voxels(IVec3::new(0, 16, 0), IVec3::new(3, 16, 0), Voxel::Solid).unwrap();
    expected.fill_voxels(IVec3::new(0, 0, 16), IVec3::new(0, 0, 18), Voxel::Water).unwrap();
    same_world(&world, &expected);
    // The writer chooses the same records, byte for byte.
    assert_eq!(bake(&expected), bytes);
    assert_eq!(bake(&world), bytes);
}

#[test]
fn hand_made_inconsistent_records_are_refused() {
    let solid = valid_solid;
    let water = valid_water;
    let rows = |i: u32, groups: &[(u32, u128)], literals: &[u64]| Rec::Rows(i, codes(groups), literals.to_vec());
    // (the reader's reason, file)
    let both = "a voxel both solid and water";
    let outside = "a voxel outside the world";
    let not_read = "a chunk the same as one not read";
    let empty = "an empty chunk stored";
    let order = "chunk indices out of range or not increasing";
    let counts = "more chunks than the world or the section holds";
    let inside = "a layer section ends inside a chunk";
    let four_literals = rows(1, &[(0, LITERAL), (1, LITERAL), (2, LITERAL), (3, LITERAL)], &[0xF; 4]);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (both, hand_made(&solid(), &[Rec::Full(0)])),
        (both, hand_made(&solid(), &[rows(1, &[(0, LITERAL)], &[1])])),
        (both, hand_made(&[Rec::Full(7)], &[rows(3, &[(0, LITERAL)], &[1]), Rec::Same(7, 0)])),
        (outside, hand_made(&[rows(1, &[(0, LITERAL)], &[0x10])], &water())),
        (outside, hand_made(&[rows(2, &[(1, LITERAL)], &[1])], &water())),
        (outside, hand_made(&[rows(0, &[(0, LITERAL)], &[0x8000]), Rec::Same(1, 0)], &water())),
        (not_read, hand_made(&[Rec::Full(0), Rec::Same(1, 0)], &water())),
        (not_read, hand_made(&[Rec::Same(0, 0), rows(1, &[(0, LITERAL)], &[1])], &water())),
        (
            "a group the same as one below the chunk",
            hand_made(&[rows(1, &[(0, LITERAL), (3, BELOW)], &[0xF])], &water()),
        ),
        ("an unknown kind of chunk record", hand_made(&[Rec::Word(1 | 3 << 30)], &water())),
        (empty, hand_made(&[rows(1, &[], &[])], &water())),
        (empty, hand_made(&[rows(1, &[(0, LITERAL)], &[0])], &water())),
        // Rows y = 4..7 of a chunk whose part inside the world is y = 16..19.
        (empty, hand_made(&[rows(2, &[(1, WHOLE)], &[])], &water())),
        (inside, hand_made(&[rows(1, &[(0, LITERAL), (1, LITERAL)], &[0xF])], &water())),
        (order, hand_made(&[Rec::Full(0), Rec::Full(0)], &water())),
        (order, hand_made(&[Rec::Full(1), Rec::Full(0)], &water())),
        (order, hand_made(&[Rec::Full(8)], &water())),
        ("more chunks with rows than counted", file(DIMS, &layer(&solid(), Some(0)), &layer(&water(), None))),
        (
            "fewer chunks with rows than counted",
            file(DIMS, &layer(&[four_literals, Rec::Full(2)], Some(2)), &layer(&water(), None)),
        ),
        (counts, file(DIMS, &layer(&solid(), Some(2)), &layer(&water(), None))),
        (counts, file(DIMS, &layer(&[Rec::Full(0)], Some(2)), &layer(&water(), None))),
        (counts, {
            let mut l = layer(&solid(), None);
            l[..4].copy_from_slice(&9u32.to_le_bytes());
            file(DIMS, &l, &layer(&water(), None))
        }),
        (inside, {
            let mut l = layer(&solid(), None);
            l[..4].copy_from_slice(&5u32.to_le_bytes());
            file(DIMS, &l, &layer(&water(), None))
        }),
        ("a layer section without its chunk counts", file(DIMS, &[1, 0, 0, 0], &layer(&water(), None))),
    ];
    for (reason, bytes) in cases {
        match VoxelWorld::from_vxn_bytes(&bytes, Limits::DEFAULT) {
            Err(VxnError::Corrupt(r)) => assert_eq!(r, reason),
            other => panic!("{reason}: {other:?}"),
        }
    }
}

/// Worlds whose chunks are of every encoding: wholly solid (inside the world and at each edge),
/// equal to an earlier chunk, walls (groups the same as the one below), sparse rows, single
/// voxels, water.
fn structured_world(rng: &mut impl RngExt, dims: UVec3) -> VoxelWorld {
    let mut world = VoxelWorld::new(Vec3::new(-1.0, 2.0, 0.5), 0.5, dims).unwrap();
    let d = dims.as_ivec3();
    let point = |rng: &mut _| {
        let r: &mut dyn rand::Rng = rng;
        IVec3::new(r.random_range(0..d.x), r.random_range(0..d.y), r.random_range(0..d.z))
    };
    if rng.random_bool(0.5) {
        world.fill_voxels(IVec3::ZERO, d - 1, Voxel::Solid).unwrap();
    }
    for _ in 0..rng.random_range(0..12) {
        let (a, b) = (point(rng), point(rng));
        let voxel = [Voxel::Air, Voxel::Solid, Voxel::Water][rng.random_range(0..3)];
        world.fill_voxels(a.min(b), a.max(b), voxel).unwrap();
    }
    for _ in 0..rng.random_range(0..4) {
        // A wall one voxel thick across the world.
        let axis = rng.random_range(0..3);
        let (mut lo, mut hi) = (IVec3::ZERO, d - 1);
        let at = point(rng)[axis];
        (lo[axis], hi[axis]) = (at, at);
        world.fill_voxels(lo, hi, Voxel::Solid).unwrap();
    }
    for _ in 0..rng.random_range(0..30) {
        let voxel = [Voxel::Air, Voxel::Solid, Voxel::Water][rng.random_range(0..3)];
        world.set(point(rng), voxel).unwrap();
    }
    world
}

#[test]
fn structured_worlds_round_trip() {
    let mut rng = rng(0x5EA1);
    for _ in 0..60 {
        let dims = UVec3::new(rng.random_range(1..70), rng.random_range(1..40), rng.random_range(1..70));
        let world = structured_world(&mut rng, dims);
        let bytes = bake(&world);
        let back = VoxelWorld::from_vxn_bytes(&bytes, Limits::DEFAULT).unwrap();
        same_world(&world, &back);
        assert_eq!(bake(&back), bytes, "deterministic bytes");
        // Shared chunks cost memory once; loading reserves exactly what it uses, within the
        // limits.
        let used = back.memory_bytes();
        assert!(used <= world.memory_bytes() + 8 * 512, "{dims}");
        let limits = |max_world_bytes| Limits { max_world_bytes, ..Limits::DEFAULT };
        assert_eq!(VoxelWorld::from_vxn_bytes(&bytes, limits(used)).unwrap().memory_bytes(), used);
        let e = VoxelWorld::from_vxn_bytes(&bytes, limits(used - 1)).unwrap_err();
        assert!(matches!(e, VxnError::World(WorldError::MemoryLimit { .. })), "{e:?}");
    }
}

#[test]
fn file_sizes_follow_the_encoding() {
    let sized = |dims: [u32; 3], fill: &dyn Fn(&mut VoxelWorld)| {
        let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::from_array(dims)).unwrap();
        fill(&mut w);
        let bytes = bake(&w);
        same_world(&w, &VoxelWorld::from_vxn_bytes(&bytes, Limits::DEFAULT).unwrap());
        bytes.len()
    };
    // Header, two empty sections with their counts, checksum.
    let empty = 44 + 2 * (16 + 8) + 4;
    assert_eq!(sized(DIMS, &|_| ()), empty);
    // One voxel: its chunk's index, codes and one literal group; solid or water, in the
    // world's far corner or inside.
    for (v, voxel) in [(IVec3::splat(19), Voxel::Solid), (IVec3::new(3, 7, 9), Voxel::Water)] {
        assert_eq!(sized(DIMS, &|w| w.set(v, voxel).unwrap()), empty + 4 + 16 + 8);
    }
    // A world wholly solid: 8 chunks, of 8 shapes, in 4 bytes each.
    let full = |w: &mut VoxelWorld| {
        w.fill_voxels(IVec3::ZERO, IVec3::splat(19), Voxel::Solid).unwrap();
    };
    assert_eq!(sized(DIMS, &full), empty + 8 * 4);
    // All rows full but one voxel: the other groups coded as full.
    let holed = |w: &mut VoxelWorld| {
        full(w);
        w.set(IVec3::new(5, 5, 5), Voxel::Air).unwrap();
    };
    assert_eq!(sized(DIMS, &holed), empty + 7 * 4 + 4 + 16 + 8);
    // A wall x = 3 through 32^3 voxels: four chunks with rows 0x0008, the first stored (its
    // first four groups literal, the others the same as the group below), three the same.
    let wall = |w: &mut VoxelWorld| {
        w.fill_voxels(IVec3::new(3, 0, 0), IVec3::new(3, 31, 31), Voxel::Solid).unwrap();
    };
    assert_eq!(sized([32, 32, 32], &wall), empty + (4 + 16 + 4 * 8) + 3 * 8);
    // Sparse rows: every fifth row of one chunk (row `lz * 16 + ly` holds voxel `lx = ly`).
    let sparse = |w: &mut VoxelWorld| {
        for i in (0..256).step_by(5) {
            w.set(IVec3::new(i % 16, i % 16, i / 16), Voxel::Solid).unwrap();
        }
    };
    let groups = (0..64).filter(|g| (4 * g..4 * g + 4).any(|r| r % 5 == 0)).count();
    assert_eq!(sized([16, 16, 16], &sparse), empty + 4 + 16 + 8 * groups);
}

#[test]
fn edits_to_a_loaded_world_change_only_their_voxels() {
    let mut rng = rng(0xED17);
    for case in 0..12 {
        let dims = UVec3::new(rng.random_range(20..60), rng.random_range(20..40), rng.random_range(20..60));
        let mut world = structured_world(&mut rng, dims);
        if case % 2 == 0 {
            world.fill_voxels(IVec3::ZERO, dims.as_ivec3() - 1, Voxel::Solid).unwrap();
            world.fill_voxels(IVec3::splat(17), IVec3::splat(19), Voxel::Water).unwrap();
        }
        let mut back = VoxelWorld::from_vxn_bytes(&bake(&world), Limits::DEFAULT).unwrap();
        let d = dims.as_ivec3();
        for _ in 0..40 {
            let v = IVec3::new(rng.random_range(0..d.x), rng.random_range(0..d.y), rng.random_range(0..d.z));
            let voxel = [Voxel::Air, Voxel::Solid, Voxel::Water][rng.random_range(0..3)];
            if rng.random_bool(0.5) {
                world.set(v, voxel).unwrap();
                back.set(v, voxel).unwrap();
            } else {
                let to = v + IVec3::new(rng.random_range(0..20), rng.random_range(0..20), rng.random_range(0..20));
                assert_eq!(world.fill_voxels(v, to, voxel).unwrap(), back.fill_voxels(v, to, voxel).unwrap());
            }
        }
        same_world(&world, &back);
        assert_eq!(bake(&back), bake(&world));
    }
}

#[test]
fn copies_of_shared_chunks_respect_the_limits() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(64, 40, 64)).unwrap();
    world.fill_voxels(IVec3::ZERO, IVec3::new(63, 39, 63), Voxel::Solid).unwrap();
    let mut back = VoxelWorld::from_vxn_bytes(&bake(&world), Limits::DEFAULT).unwrap();
    let before = back.memory_bytes();
    // 48 chunks of 2 shapes (y reaches past the world in the top ones): two slots of rows.
    assert!(world.memory_bytes() - before >= 45 * 512, "{before} vs {}", world.memory_bytes());
    back.set_limits(Limits { max_world_bytes: before, ..Limits::DEFAULT });
    // Setting what is set changes nothing, and needs no memory.
    assert_eq!(back.fill_voxels(IVec3::ZERO, IVec3::splat(30), Voxel::Solid).unwrap(), 31 * 31 * 31);
    assert_eq!(back.memory_bytes(), before);
    // Clearing a voxel of a shared chunk needs a copy of it: over the limit, refused, and
    // nothing changes.
    let v = IVec3::new(20, 5, 40);
    for voxel in [Voxel::Air, Voxel::Water] {
        let e = back.set(v, voxel).unwrap_err();
        assert!(matches!(e, WorldError::MemoryLimit { .. }), "{e:?}");
        assert_eq!((back.get(v), back.memory_bytes()), (Voxel::Solid, before));
    }
    back.set_limits(Limits::DEFAULT);
    back.set(v, Voxel::Water).unwrap();
    world.set(v, Voxel::Water).unwrap();
    same_world(&world, &back);
    // A slot in each layer (the row tables grow by doubling: 3 solid slots to 6, 1 water to 2).
    assert_eq!(back.memory_bytes(), before + 4 * 512);
    assert!(back.memory_bytes() <= Limits::DEFAULT.max_world_bytes);
}

#[test]
fn resealed_mutations_load_or_fail_cleanly() {
    // Damage past the checksum's reach: any result but a panic, and a world that loads is a
    // consistent one (written again, it loads again the same).
    let mut rng = rng(0xF122);
    let worlds: Vec<Vec<u8>> = (0..4).map(|_| bake(&structured_world(&mut rng, UVec3::new(40, 20, 35)))).collect();
    let mut loaded = 0;
    for _ in 0..3000 {
        let mut b = worlds[rng.random_range(0..worlds.len())].clone();
        let n = b.len() - 4;
        for _ in 0..rng.random_range(1..4) {
            let i = rng.random_range(44..n);
            match rng.random_range(0..3) {
                0 => b[i] ^= 1 << rng.random_range(0..8),
                1 => b[i] = rng.random(),
                _ => {
                    let end = (i + 4).min(n);
                    b[i..end].copy_from_slice(&rng.random::<u32>().to_le_bytes()[..end - i]);
                }
            }
        }
        reseal(&mut b);
        if let Ok(world) = VoxelWorld::from_vxn_bytes(&b, Limits::DEFAULT) {
            loaded += 1;
            let back = VoxelWorld::from_vxn_bytes(&bake(&world), Limits::DEFAULT).unwrap();
            same_world(&world, &back);
        }
    }
    eprintln!("{loaded} of 3000 mutated files loaded");
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
