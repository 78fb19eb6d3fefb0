//! Repair, not replan: on seeded random worlds, a path broken by a dropped block is mended from
//! an agent's position on it; the mended path starts there, ends at the goal, is legal on the
//! edited world (checked step by step in full on a copy), costs exactly the sum of its steps
//! and at least a fresh search's optimum, and fails only where a fresh search does.

mod common;

use common::{check_steps, dijkstra, rng};
use glam::{IVec3, UVec3, Vec3};
use rand::RngExt;
use voxnav::PathCheck;
use voxnav::prelude::*;

#[test]
fn repaired_paths_are_legal_and_no_cheaper_than_the_optimum() {
    let mut rng = rng(0xE1D);
    let (mut mended, mut unreachable, mut intact) = (0, 0, 0);
    let (mut sum_excess, mut n_excess) = (0.0, 0);
    for case in 0..300 {
        let dims = UVec3::new(rng.random_range(8..24), rng.random_range(4..12), rng.random_range(8..24));
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
        let d = dims.as_ivec3();
        for _ in 0..rng.random_range(0..25) {
            let v = IVec3::new(rng.random_range(0..d.x), rng.random_range(0..d.y), rng.random_range(0..d.z));
            let kind = if rng.random_bool(0.8) { Voxel::Solid } else { Voxel::Water };
            world.fill_voxels(v, (v + IVec3::new(1, 2, 1)).min(d - 1), kind).unwrap();
        }
        let rule = [DiagonalRule::Strict, DiagonalRule::Unchecked, DiagonalRule::Faces][case % 3];
        let media = [Media::ANY, Media::AIR, Media { air: Some(100), water: Some(250) }][case % 3];
        let algorithm = [Algorithm::AStar, Algorithm::Jps, Algorithm::BUDGET][case % 3];
        let config = SearchConfig { diagonal: rule, media, algorithm, ..Default::default() };
        let mut finder = Pathfinder::new();
        let (s, g) = (IVec3::new(0, d.y / 2, 0), d - IVec3::new(1, d.y - d.y / 2, 1));
        let Ok(path) = finder.find(&world, None, &PathRequest::new(s, g, config)) else { continue };
        if path.voxels.len() < 4 {
            continue;
        }
        // A 3x3x3 block on an inner voxel, the agent somewhere before it.
        let hit = rng.random_range(1..path.voxels.len() - 1);
        // Mostly on the path; sometimes anywhere (the path may then be intact).
        let centre = if case % 5 == 4 {
            IVec3::new(rng.random_range(0..d.x), rng.random_range(0..d.y), rng.random_range(0..d.z))
        } else {
            path.voxels[hit]
        };
        let mut edited = world.clone();
        edited.fill_voxels(centre - 1, centre + 1, Voxel::Solid).unwrap();
        let from = rng.random_range(0..hit);
        let agent = path.voxels[from];
        if edited.is_blocked(agent) || edited.is_blocked(g) {
            continue;
        }
        let result = finder.repair_path(&edited, &path, from, &config);
        let fresh = dijkstra(&edited, agent, g, rule, &config.costs, media);
        let what = format!("case {case} {rule:?} {algorithm:?} from {from} hit {hit}");
        match (result, fresh) {
            (Ok(p), Some(best)) => {
                assert_eq!(p.voxels[0], agent, "{what}");
                assert_eq!(p.voxels.last(), Some(&g), "{what}");
                check_steps(&edited, &p, agent, rule, &config.costs, media);
                assert_eq!(p.check(&edited.clone(), &config), PathCheck::Valid, "{what}");
                assert!(p.cost >= best, "{what}: {} < optimum {best}", p.cost);
                if path.check(&edited, &config) == PathCheck::Valid {
                    intact += 1;
                    assert_eq!(&p.voxels[..], &path.voxels[from..], "{what}: an intact path comes back as is");
                } else {
                    mended += 1;
                }
                sum_excess += p.cost as f64 / best as f64 - 1.0;
                n_excess += 1;
            }
            (Err(PathError::Unreachable { .. }), None) => unreachable += 1,
            (got, best) => panic!("{what}: {got:?}, fresh optimum {best:?}"),
        }
    }
    eprintln!(
        "mended {mended} intact {intact} unreachable {unreachable} mean excess {:.4}",
        sum_excess / n_excess as f64
    );
    assert!(mended > 80 && intact > 5, "mended {mended} intact {intact} unreachable {unreachable}");
}

#[test]
fn bad_repair_requests_are_errors() {
    let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(10, 3, 3)).unwrap();
    let config = SearchConfig::default();
    let mut finder = Pathfinder::new();
    let path = finder.find(&world, None, &PathRequest::new(IVec3::new(0, 1, 1), IVec3::new(9, 1, 1), config)).unwrap();
    let past = path.voxels.len();
    assert!(matches!(finder.repair_path(&world, &path, past, &config), Err(PathError::InvalidConfig(_))));
    let mut walled = world.clone();
    walled.set(IVec3::new(9, 1, 1), Voxel::Solid).unwrap();
    assert_eq!(
        finder.repair_path(&walled, &path, 0, &config).unwrap_err(),
        PathError::GoalBlocked(IVec3::new(9, 1, 1))
    );
    walled.set(IVec3::new(0, 1, 1), Voxel::Solid).unwrap();
    assert_eq!(
        finder.repair_path(&walled, &path, 0, &config).unwrap_err(),
        PathError::StartBlocked(IVec3::new(0, 1, 1))
    );
}

/// A wall across the corridor cuts the goal off. With `Fallback::Closest` the repair answers as
/// a fresh search does, a path to the closest voxel the agent can reach: the detour to the
/// rejoin point must not take that fallback itself (its path to the voxel closest to the
/// rejoin point, spliced to the rest of the old path, jumped through the wall).
#[test]
fn a_cut_off_goal_with_the_closest_fallback_is_answered_as_a_fresh_search() {
    let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(30, 5, 5)).unwrap();
    for algorithm in [Algorithm::AStar, Algorithm::Jps, Algorithm::BUDGET] {
        let config = SearchConfig { fallback: Fallback::Closest, algorithm, ..Default::default() };
        let mut finder = Pathfinder::new();
        let (s, g) = (IVec3::new(0, 2, 2), IVec3::new(29, 2, 2));
        let path = finder.find(&world, None, &PathRequest::new(s, g, config)).unwrap();
        let mut walled = world.clone();
        walled.fill_voxels(IVec3::new(15, 0, 0), IVec3::new(15, 4, 4), Voxel::Solid).unwrap();
        let from = 3;
        let mended = finder.repair_path(&walled, &path, from, &config).unwrap();
        let fresh = finder.find(&walled, None, &PathRequest::new(path.voxels[from], g, config)).unwrap();
        check_steps(&walled, &mended, path.voxels[from], config.diagonal, &config.costs, config.media);
        assert_eq!(mended.voxels.last(), fresh.voxels.last(), "{algorithm:?}");
        assert_eq!(mended.voxels.last().unwrap().x, 14, "{algorithm:?}");
    }
}
