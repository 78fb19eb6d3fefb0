//! Agents of every size from one world: a search with a clearance radius `r` finds exactly the
//! paths a radius-0 search finds on a copy of the world whose solid voxels (and outside) are
//! dilated by `r` (built voxel by voxel in `common::dilated`), for every algorithm and diagonal
//! rule; smoothed paths keep the agent's whole box clear; and on the shared real levels a 1 m
//! drone flies between the README's sample points.

mod common;

use common::levels::{LEVELS, levels_dir};
use common::{check_steps, dijkstra, dilated, rng};
use glam::{IVec3, UVec3, Vec3};
use rand::RngExt;
use voxnav::prelude::*;
use voxnav::{LevelConfig, LevelMesh, SmoothConfig, WorldError, build_level, smooth_path};

/// A world with a few random boxes of solid and water: open enough that wide agents fit.
fn boxes_world(rng: &mut rand::rngs::StdRng, dims: UVec3, boxes: usize) -> VoxelWorld {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
    let d = dims.as_ivec3();
    for i in 0..boxes {
        let min = IVec3::new(rng.random_range(0..d.x), rng.random_range(0..d.y), rng.random_range(0..d.z));
        let size = IVec3::new(rng.random_range(1..8), rng.random_range(1..8), rng.random_range(1..8));
        let kind = if i % 4 == 3 { Voxel::Water } else { Voxel::Solid };
        world.fill_voxels(min, (min + size).min(d - 1), kind).unwrap();
    }
    world
}

fn free_voxel(rng: &mut rand::rngs::StdRng, world: &VoxelWorld, media: Media) -> Option<IVec3> {
    let d = world.dims().as_ivec3();
    (0..200)
        .map(|_| IVec3::new(rng.random_range(0..d.x), rng.random_range(0..d.y), rng.random_range(0..d.z)))
        .find(|&v| media.allows(world.get(v)))
}

#[test]
fn paths_with_clearance_are_the_paths_of_the_dilated_world() {
    let mut rng = rng(0xC1EA);
    let (mut found, mut unreachable) = (0, 0);
    for case in 0..90 {
        let r = [1u8, 2, 3, 5, 7][case % 5];
        let big = 2 * u32::from(r) + 14;
        let dims = UVec3::new(
            rng.random_range(big..big + 12),
            rng.random_range(big..big + 8),
            rng.random_range(big..big + 12),
        );
        let world = boxes_world(&mut rng, dims, 10 + case % 20);
        let oracle = dilated(&world, r);
        let rule = [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked][case % 3];
        let media = [Media::ANY, Media::AIR, Media::ANY, Media::WATER][case % 4];
        let mut finder = Pathfinder::new();
        for q in 0..4 {
            let (Some(start), Some(goal)) =
                (free_voxel(&mut rng, &oracle, media), free_voxel(&mut rng, &oracle, media))
            else {
                continue;
            };
            let costs = CostModel::GAME;
            let best = dijkstra(&oracle, start, goal, rule, &costs, media);
            for algorithm in [Algorithm::AStar, Algorithm::Jps, Algorithm::Weighted { percent: 130 }, Algorithm::BUDGET]
            {
                let config =
                    SearchConfig { clearance: r, diagonal: rule, media, algorithm, costs, ..Default::default() };
                let what = format!("case {case} query {q} r={r} {rule:?} {media:?} {algorithm:?} {start} -> {goal}");
                match (finder.find(&world, None, &PathRequest::new(start, goal, config)), best) {
                    (Ok(path), Some(best)) => {
                        check_steps(&oracle, &path, start, rule, &costs, media);
                        assert_eq!(path.voxels.last(), Some(&goal), "{what}");
                        let bound = (algorithm.suboptimality_bound() * best as f64).round() as u64;
                        assert!(path.cost >= best && path.cost <= bound, "{what}: {} vs {best}", path.cost);
                        if algorithm.suboptimality_bound() == 1.0 {
                            assert_eq!(path.cost, best, "{what}");
                        }
                        found += 1;
                    }
                    (Err(PathError::Unreachable { .. }), None) => unreachable += 1,
                    (got, best) => panic!("{what}: {got:?} but the dilated world says {best:?}"),
                }
            }
        }
        // Endpoints the dilation covers are refused as blocked.
        if let Some(v) = free_voxel(&mut rng, &world, media).filter(|&v| !oracle.get(v).eq(&world.get(v)))
            && world.contains(v + 1)
        {
            let config = SearchConfig { clearance: r, media, ..Default::default() };
            assert_eq!(
                finder.find(&world, None, &PathRequest::new(v, v + 1, config)).unwrap_err(),
                PathError::StartBlocked(v)
            );
        }
    }
    assert!(found > 400 && unreachable > 10, "found {found}, unreachable {unreachable}");
}

#[test]
fn clearance_counts_the_distance_to_solid_and_the_outside() {
    let mut rng = rng(77);
    let world = boxes_world(&mut rng, UVec3::new(40, 30, 35), 12);
    let d = world.dims().as_ivec3();
    for _ in 0..3000 {
        let v = IVec3::new(rng.random_range(-2..d.x + 2), rng.random_range(-2..d.y + 2), rng.random_range(-2..d.z + 2));
        let mut naive = 0u8;
        while naive <= 15 {
            let r = i32::from(naive);
            let near = (-r..=r).any(|z| (-r..=r).any(|y| (-r..=r).any(|x| world.is_blocked(v + IVec3::new(x, y, z)))));
            if near {
                break;
            }
            naive += 1;
        }
        assert_eq!(world.clearance(v), naive, "{v}");
    }
}

#[test]
fn limits_of_clearance_are_errors() {
    let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(40)).unwrap();
    let config = SearchConfig { clearance: SearchConfig::MAX_CLEARANCE + 1, ..Default::default() };
    let mut finder = Pathfinder::new();
    assert!(matches!(
        finder.find(&world, None, &PathRequest::new(IVec3::splat(20), IVec3::splat(21), config)),
        Err(PathError::InvalidConfig(_))
    ));
    // The largest radius works, as far from the edges as it needs.
    let config = SearchConfig { clearance: SearchConfig::MAX_CLEARANCE, ..Default::default() };
    let path = finder.find(&world, None, &PathRequest::new(IVec3::splat(16), IVec3::new(23, 16, 20), config)).unwrap();
    assert_eq!(path.voxels.len(), 8);
    assert_eq!(
        finder.find(&world, None, &PathRequest::new(IVec3::splat(14), IVec3::splat(20), config)).unwrap_err(),
        PathError::StartBlocked(IVec3::splat(14))
    );
    let bird = Agent::new(0.3, 0.3, 0.3).unwrap();
    assert!(matches!(bird.clearance_in(1.0), Err(WorldError::VoxelTooCoarse { .. })));
    assert_eq!(bird.clearance_in(0.01), Ok(15));
    assert!(matches!(bird.clearance_in(0.005), Err(WorldError::AgentTooLarge { radius: 30, .. })));
    assert_eq!(bird.clearance_in(0.3), Ok(0));
    assert_eq!(bird.clearance_in(0.1), Ok(1));
    assert!(bird.clearance_in(f32::NAN).is_err());
    let smooth = SmoothConfig { clearance: 16, ..Default::default() };
    assert!(smooth.validate().is_err());
}

/// Whether a cube of half-edge `half` (voxels) centred at `p` (voxel units) overlaps a solid
/// voxel (with positive volume).
fn box_hits_solid(world: &VoxelWorld, p: Vec3, half: f32) -> Option<IVec3> {
    let lo = (p - half + 1e-4).floor().as_ivec3();
    let hi = (p + half - 1e-4).floor().as_ivec3();
    for z in lo.z..=hi.z {
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let v = IVec3::new(x, y, z);
                if world.is_blocked(v) {
                    return Some(v);
                }
            }
        }
    }
    None
}

#[test]
fn smoothed_paths_keep_the_whole_agent_clear() {
    let mut rng = rng(4242);
    let mut checked = 0;
    for case in 0..30 {
        let r = [1u8, 2, 3][case % 3];
        let world = boxes_world(&mut rng, UVec3::new(40, 30, 40), 25);
        let oracle = dilated(&world, r);
        let mut finder = Pathfinder::new();
        let (Some(start), Some(goal)) =
            (free_voxel(&mut rng, &oracle, Media::AIR), free_voxel(&mut rng, &oracle, Media::AIR))
        else {
            continue;
        };
        let config = SearchConfig { clearance: r, media: Media::AIR, ..Default::default() };
        let Ok(path) = finder.find(&world, None, &PathRequest::new(start, goal, config)) else { continue };
        let smooth = SmoothConfig { clearance: r, media: Media::AIR, ..Default::default() };
        let smoothed = smooth_path(&world, &path, &smooth).unwrap();
        let points = smoothed.points();
        for w in points.windows(2) {
            for i in 0..=20 {
                // World units are voxels here (origin 0, voxel 1).
                let p = w[0].lerp(w[1], i as f32 / 20.0);
                let half = f32::from(r) + 0.5;
                assert_eq!(box_hits_solid(&world, p, half), None, "case {case} r={r} at {p}");
            }
        }
        // Smoothing for a one-voxel agent cuts closer: the radius is what keeps it away.
        checked += 1;
    }
    assert!(checked > 15, "{checked}");
}

#[test]
fn a_one_metre_drone_flies_between_the_sample_points_of_every_level() {
    let Some(dir) = levels_dir() else {
        common::missing_data("the shared levels are missing");
        return;
    };
    let drone = Agent::with_media(1.0, 1.0, 1.0, Media::ANY).unwrap();
    for level in &LEVELS {
        let mesh = LevelMesh::load(dir.join(format!("{}.glb", level.name)), "water").unwrap();
        let config = LevelConfig { voxel_size: level.voxel, seeds: vec![level.seed], ..Default::default() };
        let world = build_level(&mesh, &config).unwrap().world;
        // The built world knows its water (dry media must not enter it).
        assert_eq!(world.has_water(), level.water, "{}", level.name);
        let r = drone.clearance_in(world.voxel_size()).unwrap();
        assert_eq!(r, (0.5 / level.voxel).ceil() as u8, "the README's radius");
        let (start, goal) = (world.voxel_at(level.start), world.voxel_at(level.goal));
        assert!(world.clearance(start) > r && world.clearance(goal) > r, "{}", level.name);
        let config = SearchConfig { clearance: r, algorithm: Algorithm::Jps, ..SearchConfig::for_agent(&drone) };
        let mut finder = Pathfinder::new();
        let path = finder.find(&world, None, &PathRequest::new(start, goal, config)).unwrap();
        assert!(path.voxels.iter().all(|&v| world.clearance(v) > r), "{}", level.name);
        // Exact: the same cost as A*.
        let astar = SearchConfig { algorithm: Algorithm::AStar, ..config };
        assert_eq!(
            finder.find(&world, None, &PathRequest::new(start, goal, astar)).unwrap().cost,
            path.cost,
            "{}",
            level.name
        );
        eprintln!(
            "level {} radius={r} voxels={} cost={} expanded={}",
            level.name,
            path.voxels.len(),
            path.cost,
            path.stats.expanded
        );
    }
}
