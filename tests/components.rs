//! Connectivity labels: agree with the Dijkstra oracle's reachability on random worlds, answer
//! unreachable goals with zero expansions, stay correct across edits, and give the same closest
//! reachable voxel as the search's own fallback.

mod common;

use common::{distances, index, random_free_voxel, rng, walled_world};
use glam::{IVec3, UVec3, Vec3};
use rand::RngExt;
use voxnav::{
    Algorithm, Components, CostModel, DiagonalRule, Fallback, Media, PathError, PathRequest, Pathfinder, SearchConfig,
    Voxel, VoxelWorld,
};

#[test]
fn labels_match_reachability_on_random_worlds() {
    let mut rng = rng(0xC0C0_0001);
    let mut faces_maybe = 0;
    for i in 0..300 {
        // Large enough to span several 16^3 chunks.
        let dims = UVec3::new(8 + rng.random_range(0..30), 8 + rng.random_range(0..20), 8 + rng.random_range(0..30));
        let water = if i % 3 == 0 { 25 } else { 0 };
        let density = 5 + rng.random_range(0..40);
        let world = walled_world(&mut rng, dims, density, water);
        let media = [Media::ANY, Media::AIR, Media::WATER][i % 3];
        let rule = [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked][(i / 3) % 3];
        let islands = Components::with_rule(&world, media, rule).unwrap();
        assert_eq!(islands.rule(), rule);
        let Some(start) = random_free_voxel(&mut rng, &world, media) else { continue };
        let dist = distances(&world, start, rule, &CostModel::GAME, media);
        for _ in 0..40 {
            let Some(goal) = random_free_voxel(&mut rng, &world, media) else { continue };
            let reachable = dist[index(&world, goal)].is_some();
            let connected = islands.connected(&world, start, goal);
            if rule == DiagonalRule::Faces {
                // One-way corner moves: different labels still prove "unreachable".
                assert!(!reachable || connected == Some(true), "world {i} {rule:?}: {start} -> {goal}");
                faces_maybe += usize::from(!reachable && connected == Some(true));
            } else {
                assert_eq!(connected, Some(reachable), "world {i} {rule:?}: {start} -> {goal}");
            }
        }
    }
    println!("Faces labels said \"maybe\" for {faces_maybe} unreachable pairs");
}

#[test]
fn an_unreachable_goal_costs_no_expansion() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(64, 40, 64)).unwrap();
    // A sealed room around the goal.
    world.fill_voxels(IVec3::new(40, 10, 40), IVec3::new(50, 20, 50), Voxel::Solid).unwrap();
    world.fill_voxels(IVec3::new(41, 11, 41), IVec3::new(49, 19, 49), Voxel::Air).unwrap();
    let islands = Components::new(&world, Media::ANY).unwrap();
    assert_eq!(islands.count(), 2);
    let (start, goal) = (IVec3::new(2, 2, 2), IVec3::new(45, 15, 45));
    let mut finder = Pathfinder::new();
    let mut outside = 0;
    for algorithm in [Algorithm::AStar, Algorithm::Jps, Algorithm::BUDGET] {
        let config = SearchConfig { algorithm, ..Default::default() };
        assert_eq!(
            finder.find(&world, Some(&islands), &PathRequest::new(start, goal, config)),
            Err(PathError::Unreachable { expanded: 0 })
        );
        // Without the labels the search has to exhaust the outside; or, for jump point search
        // and the budget mode, whose prelude runs from the goal too, the room (9^3 voxels),
        // and less in all.
        match finder.find(&world, None, &PathRequest::new(start, goal, config)) {
            Err(PathError::Unreachable { expanded }) if algorithm != Algorithm::AStar => {
                assert!((9 * 9 * 9..outside).contains(&expanded), "{expanded}");
            }
            Err(PathError::Unreachable { expanded }) => {
                assert!(expanded > 1000, "{expanded}");
                outside = expanded;
            }
            other => panic!("{other:?}"),
        }
        // Closest reachable voxel: the same answer with and without labels.
        let closest = SearchConfig { fallback: Fallback::Closest, ..config };
        let fast = finder.find(&world, Some(&islands), &PathRequest::new(start, goal, closest)).unwrap();
        let slow = finder.find(&world, None, &PathRequest::new(start, goal, closest)).unwrap();
        assert_eq!(fast.voxels.last(), slow.voxels.last());
        assert_eq!(fast.cost, slow.cost);
        assert_eq!(fast.voxels.last(), Some(&IVec3::new(45, 15, 39)));
    }
}

#[test]
fn labels_follow_edits_and_ignore_other_queries() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(48, 20, 20)).unwrap();
    world.fill_voxels(IVec3::new(24, 0, 0), IVec3::new(24, 19, 19), Voxel::Solid).unwrap();
    let mut islands = Components::new(&world, Media::ANY).unwrap();
    let (a, b) = (IVec3::new(3, 3, 3), IVec3::new(40, 3, 3));
    assert_eq!(islands.connected(&world, a, b), Some(false));
    world.fill_sphere(Vec3::new(24.5, 10.5, 10.5), 2.0, Voxel::Air).unwrap();
    // Stale labels are never used: the search still finds the new way through.
    assert!(!islands.is_current(&world));
    let mut finder = Pathfinder::new();
    assert!(finder.find(&world, Some(&islands), &PathRequest::new(a, b, SearchConfig::default())).is_ok());
    assert!(islands.update(&world).unwrap());
    assert!(!islands.update(&world).unwrap());
    assert_eq!(islands.connected(&world, a, b), Some(true));
    // Another rule or other media: labels are not applied.
    let faces = SearchConfig { diagonal: DiagonalRule::Faces, ..Default::default() };
    assert!(!islands.applies_to(&world, &faces));
    assert!(Components::with_rule(&world, Media::ANY, DiagonalRule::Faces).unwrap().applies_to(&world, &faces));
    let fish = SearchConfig { media: Media::WATER, ..Default::default() };
    assert!(!islands.applies_to(&world, &fish));
    assert_eq!(islands.label(&world, IVec3::new(24, 0, 0)), None);
    assert!(islands.memory_bytes() > 0);
}

/// Labels updated after each of many random edits (and after switching to diverged clones)
/// partition the voxels exactly as labels built from scratch.
#[test]
fn updated_labels_equal_fresh_ones_after_random_edits() {
    let mut rng = rng(0xC0C0_0003);
    for i in 0..40 {
        let dims = UVec3::new(20 + rng.random_range(0..40), 10 + rng.random_range(0..30), 20 + rng.random_range(0..40));
        let density = 5 + rng.random_range(0..30);
        let mut world = walled_world(&mut rng, dims, density, if i % 2 == 0 { 20 } else { 0 });
        let media = [Media::ANY, Media::AIR, Media::WATER][i % 3];
        let mut islands = Components::new(&world, media).unwrap();
        for step in 0..12 {
            if step == 6 {
                // A clone that diverges, and the labels handed from one to the other.
                let mut other = world.clone();
                other.fill_voxels(IVec3::ZERO, dims.as_ivec3() / 3, Voxel::Air).unwrap();
                assert!(islands.update(&other).unwrap());
                assert_same_partition(&islands, &Components::new(&other, media).unwrap(), &other, &mut rng, i);
                world.set(IVec3::new(1, 1, 1), Voxel::Solid).unwrap();
            }
            for _ in 0..rng.random_range(1..4) {
                let v = IVec3::new(
                    rng.random_range(0..dims.x as i32),
                    rng.random_range(0..dims.y as i32),
                    rng.random_range(0..dims.z as i32),
                );
                let voxel = [Voxel::Solid, Voxel::Air, Voxel::Water][rng.random_range(0..3usize)];
                if rng.random_range(0..2) == 0 {
                    world.set(v, voxel).unwrap();
                } else {
                    let size = IVec3::new(rng.random_range(0..20), rng.random_range(0..20), rng.random_range(0..3));
                    world.fill_voxels(v, v + size, voxel).unwrap();
                }
            }
            assert!(islands.update(&world).unwrap());
            assert_same_partition(&islands, &Components::new(&world, media).unwrap(), &world, &mut rng, i);
        }
    }
}

fn assert_same_partition(a: &Components, b: &Components, world: &VoxelWorld, rng: &mut rand::rngs::StdRng, i: usize) {
    assert_eq!(a.count(), b.count(), "world {i}");
    let media = a.media();
    for _ in 0..200 {
        let (Some(s), Some(g)) = (random_free_voxel(rng, world, media), random_free_voxel(rng, world, media)) else {
            return;
        };
        assert_eq!(a.connected(world, s, g), b.connected(world, s, g), "world {i}: {s} -> {g}");
    }
}

#[test]
fn warframe_labels_are_small_and_quick() {
    let Some(dir) = common::warframe_dir() else { return };
    let world = VoxelWorld::load_3dmap(dir.join("maps/BA1.3dmap")).unwrap();
    let islands = Components::new(&world, Media::ANY).unwrap();
    // 241 M voxels: labels must stay a small fraction of a dense array (241 MB at a byte each).
    assert!(islands.memory_bytes() < 16 << 20, "{} bytes", islands.memory_bytes());
    println!("BA1: {} components, {} bytes of labels", islands.count(), islands.memory_bytes());
    let scen = voxnav::Scenario::load(dir.join("scenarios/BA1.3dmap.3dscen")).unwrap();
    for p in scen.problems.iter().step_by(97) {
        assert_eq!(islands.connected(&world, p.start, p.goal), Some(true));
    }
}
