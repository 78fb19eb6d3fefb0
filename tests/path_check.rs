//! Paths that notice edits: `Path::check` against a brute-force check of every step, on seeded
//! random worlds with random edits (solid and medium changes) on and off the path, on clones
//! and on replaced worlds.

mod common;

use common::*;
use rand::RngExt;
use voxnav::PathCheck;
use voxnav::prelude::*;

/// The first voxel from which the path cannot go on, checking every step (the oracle).
fn brute_force(world: &VoxelWorld, path: &Path, config: &SearchConfig) -> PathCheck {
    for (i, w) in path.voxels.windows(2).enumerate() {
        if !passable(world, w[0], config.media) {
            return PathCheck::Broken { at: i.saturating_sub(1) };
        }
        if !legal(world, w[0], w[1] - w[0], config.diagonal, config.media) {
            return PathCheck::Broken { at: i };
        }
    }
    let last = *path.voxels.last().unwrap();
    if !passable(world, last, config.media) {
        return PathCheck::Broken { at: path.voxels.len().saturating_sub(2) };
    }
    PathCheck::Valid
}

#[test]
fn checks_agree_with_a_full_recheck_after_random_edits() {
    let mut rng = rng(0x9A7C);
    let (mut valid, mut broken, mut clones) = (0, 0, 0);
    let mut finder = Pathfinder::new();
    for i in 0..300 {
        let mut world = walled_world(&mut rng, glam::UVec3::new(20 + i % 13, 6 + i % 5, 18 + i % 7), 12, 10);
        let rule = [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked][i as usize % 3];
        let media = [Media::ANY, Media::AIR, Media { air: Some(100), water: Some(250) }][i as usize / 3 % 3];
        let config = SearchConfig { diagonal: rule, media, ..Default::default() };
        let Some((s, g)) = random_free_pair(&mut rng, &world, media) else {
            continue;
        };
        let Ok(path) = finder.find(&world, None, &PathRequest::new(s, g, config)) else { continue };
        assert_eq!(path.check(&world, &config), PathCheck::Valid);
        // A few edits: some on the path, some anywhere; solid, water or air.
        for _ in 0..rng.random_range(2..6) {
            let v = if rng.random_bool(0.7) {
                path.voxels[rng.random_range(0..path.voxels.len())]
                    + IVec3::new(rng.random_range(-1..=1), rng.random_range(-1..=1), 0)
            } else {
                random_voxel(&mut rng, &world)
            };
            let voxel = [Voxel::Solid, Voxel::Water, Voxel::Air][rng.random_range(0..3)];
            let _ = world.set(v, voxel);
        }
        let expected = brute_force(&world, &path, &config);
        assert_eq!(path.check(&world, &config), expected, "world {i}");
        if expected == PathCheck::Valid {
            valid += 1
        } else {
            broken += 1
        }
        // A clone is another world object: checked in full, with the same answer.
        let copy = world.clone();
        assert_eq!(path.check(&copy, &config), expected, "clone of world {i}");
        clones += 1;
    }
    assert!(valid > 30 && broken > 30 && clones > 100, "valid {valid} broken {broken}");
}

#[test]
fn replaced_and_smaller_worlds_are_checked_in_full() {
    let world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(30, 5, 5)).unwrap();
    let config = SearchConfig::default();
    let path = Pathfinder::new()
        .find(&world, None, &PathRequest::new(IVec3::new(1, 2, 2), IVec3::new(28, 2, 2), config))
        .unwrap();
    let same = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(30, 5, 5)).unwrap();
    assert_eq!(path.check(&same, &config), PathCheck::Valid);
    let small = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(10, 5, 5)).unwrap();
    let PathCheck::Broken { at } = path.check(&small, &config) else { panic!("the path leaves the smaller world") };
    assert_eq!(path.voxels[at + 1].x, 10);
    // A medium change breaks a dry agent's path too.
    let mut wet = world.clone();
    wet.set(IVec3::new(15, 2, 2), Voxel::Water).unwrap();
    let dry = SearchConfig { media: Media::AIR, ..config };
    assert!(matches!(path.check(&wet, &dry), PathCheck::Broken { .. }));
    assert_eq!(path.check(&wet, &config), PathCheck::Valid);
}

/// A diagonal step whose side voxel lies in another 16^3 chunk than both its ends: editing
/// only that voxel must break the step (the check must look at every chunk the step's box
/// touches, not only its ends').
#[test]
fn an_edit_beside_a_diagonal_in_the_next_chunk_breaks_it() {
    let mut rng = rng(0x51DE);
    let mut found = 0;
    for _ in 0..2000 {
        let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(40, 40, 3)).unwrap();
        let p = |rng: &mut rand::rngs::StdRng| IVec3::new(rng.random_range(0..40), rng.random_range(0..40), 1);
        let (s, g) = (p(&mut rng), p(&mut rng));
        let config = SearchConfig::default();
        let path = Pathfinder::new().find(&world, None, &PathRequest::new(s, g, config)).unwrap();
        let chunk = |v: IVec3| v >> 4;
        let step = path.voxels.windows(2).position(|w| {
            let d = w[1] - w[0];
            let side = w[0] + IVec3::new(d.x, 0, 0);
            d.x != 0 && d.y != 0 && chunk(side) != chunk(w[0]) && chunk(side) != chunk(w[1])
        });
        let Some(i) = step else { continue };
        let (a, b) = (path.voxels[i], path.voxels[i + 1]);
        let side = a + IVec3::new(b.x - a.x, 0, 0);
        world.set(side, Voxel::Solid).unwrap();
        assert_eq!(path.check(&world, &config), PathCheck::Broken { at: i }, "{a} -> {b}, side {side}");
        found += 1;
    }
    assert!(found >= 5, "only {found} such steps found");
}

/// A world with the same voxels but no history (a new object, not a clone): checks on it look
/// at every step.
fn without_history(world: &VoxelWorld) -> VoxelWorld {
    let mut bytes = Vec::new();
    world.write_vxn(&mut bytes).unwrap();
    VoxelWorld::from_vxn_bytes(&bytes, voxnav::Limits::DEFAULT).unwrap()
}

/// The incremental check (only steps near chunks edited since) against the full one, for wide
/// agents (an edit in the next chunk can narrow a step's clearance) and on clones: a clone made
/// after the path was found knows its history and checks incrementally; one made before the
/// path (or the original edited after the cloning) does not share it and is checked in full.
#[test]
fn incremental_checks_agree_with_full_ones_on_clones_and_for_wide_agents() {
    let mut rng = rng(0xC1A5);
    let (mut broken, mut valid) = (0, 0);
    let mut finder = Pathfinder::new();
    for i in 0..300 {
        let mut world = walled_world(&mut rng, glam::UVec3::new(24 + i % 11, 8 + i % 5, 20 + i % 9), 6, 8);
        let clearance = (i % 3) as u8;
        let config = SearchConfig { clearance, ..Default::default() };
        let Some((s, g)) = random_free_pair(&mut rng, &world, Media::ANY) else {
            continue;
        };
        let before = world.clone(); // a clone made before the path
        let Ok(path) = finder.find(&world, None, &PathRequest::new(s, g, config)) else { continue };
        let mut fork = world.clone(); // one made after it
        let edit = |rng: &mut rand::rngs::StdRng, w: &mut VoxelWorld| {
            let r = i32::from(clearance) + 1;
            for _ in 0..rng.random_range(1..4) {
                let near = path.voxels[rng.random_range(0..path.voxels.len())];
                let v = near + IVec3::new(rng.random_range(-r..=r), rng.random_range(-r..=r), rng.random_range(-r..=r));
                let kind = if rng.random_bool(0.6) {
                    Voxel::Solid
                } else {
                    [Voxel::Water, Voxel::Air][rng.random_range(0..2)]
                };
                let _ = w.set(v, kind);
            }
        };
        edit(&mut rng, &mut fork);
        edit(&mut rng, &mut world);
        for (what, w) in [("edited original", &world), ("clone made after", &fork), ("clone made before", &before)] {
            let full = path.check(&without_history(w), &config);
            assert_eq!(path.check(w, &config), full, "world {i}, clearance {clearance}, {what}");
            if full == PathCheck::Valid { valid += 1 } else { broken += 1 }
        }
        // The original edited after the fork: a path found there now, checked on the fork,
        // must not trust the fork's stamps.
        if let Ok(later) = finder.find(&world, None, &PathRequest::new(s, g, config)) {
            assert_eq!(later.check(&fork, &config), later.check(&without_history(&fork), &config), "world {i}");
        }
    }
    assert!(valid > 100 && broken > 30, "valid {valid} broken {broken}");
}

/// For a wide agent an edit in the next chunk, within its clearance of a step, breaks the step
/// though neither of the step's voxels is in that chunk.
#[test]
fn an_edit_within_clearance_in_the_next_chunk_breaks_a_wide_agents_path() {
    let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(40, 32, 5)).unwrap();
    let config = SearchConfig { clearance: 1, ..Default::default() };
    // Along the last row of the first chunk in y (y = 15); the edit is at y = 16.
    let path = Pathfinder::new()
        .find(&world, None, &PathRequest::new(IVec3::new(2, 15, 2), IVec3::new(37, 15, 2), config))
        .unwrap();
    assert!(path.voxels.iter().all(|v| v.y == 15), "a straight path");
    world.set(IVec3::new(20, 16, 2), Voxel::Solid).unwrap();
    assert!(matches!(path.check(&world, &config), PathCheck::Broken { .. }));
    // A one-voxel agent is not hurt by it.
    let thin = Pathfinder::new()
        .find(
            &VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(40, 32, 5)).unwrap(),
            None,
            &PathRequest::new(IVec3::new(2, 15, 2), IVec3::new(37, 15, 2), SearchConfig::default()),
        )
        .unwrap();
    assert_eq!(thin.check(&world, &SearchConfig::default()), PathCheck::Valid);
}
