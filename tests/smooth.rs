//! Smoothing guarantees, on thousands of fixed-seed random worlds and on Warframe problems: the
//! agent's box never enters a blocked voxel (checked by dense sampling in `common`, independent
//! of the smoother), the curve starts at the start and ends at the goal, is never longer than
//! the raw path, and is deterministic.
//!
//! Warframe maps: Moving AI Lab / Brewer & Sturtevant 2018, maps from Warframe by Digital
//! Extremes (ODC-By); read from `VOXNAV_WARFRAME_DIR` or `../shared/benchmarks/warframe`.

mod common;

use glam::{IVec3, UVec3, Vec3};
use voxnav::{
    DiagonalRule, FlightProfile, Media, Path, PathRequest, Pathfinder, SearchConfig, SmoothConfig, SmoothError,
    SmoothPath, Trajectory, Voxel, VoxelWorld, segment_clear, smooth_path, smooth_voxels,
};

/// Checks every guarantee of one smoothed path; returns it.
fn check(world: &VoxelWorld, path: &Path, config: &SmoothConfig, what: &str) -> SmoothPath {
    let smooth = smooth_path(world, path, config).unwrap_or_else(|e| panic!("{what}: {e}"));
    let points = smooth.points();
    common::assert_clear(world, config.media, &points, what);
    let scale = world.voxel_size() * 1e-5 + world.origin().abs().max_element() * 1e-6;
    assert_approx!(points[0], world.voxel_center(path.voxels[0]), scale, "{what}: start");
    assert_approx!(*points.last().unwrap(), world.voxel_center(*path.voxels.last().unwrap()), scale, "{what}: goal");
    assert!(smooth.length() <= smooth.raw_length() * (1.0 + 1e-12), "{what}: longer than the raw path");
    assert_approx!(smooth.raw_length(), path.length, 1e-9 * path.length.max(1.0), "{what}: raw length");
    assert!(smooth.polyline_length() <= smooth.raw_length() * (1.0 + 1e-12), "{what}: polyline");
    // Waypoints: a subsequence of the path, joined by clear segments.
    let mut rest = path.voxels.iter();
    for w in smooth.waypoints() {
        assert!(rest.any(|v| v == w), "{what}: waypoint {w} not on the path in order");
    }
    for w in smooth.waypoints().windows(2) {
        assert!(segment_clear(world, w[0], w[1], config.media), "{what}: {} -> {} not clear", w[0], w[1]);
    }
    assert_eq!(smooth_path(world, path, config).as_ref(), Ok(&smooth), "{what}: not deterministic");
    smooth
}

#[test]
fn random_worlds_stay_clear_short_and_deterministic() {
    let (mut cases, mut bent, mut sharp) = (0, 0, 0);
    for seed in 0..3000 {
        let media = if seed % 3 == 0 { Media::AIR } else { Media::ANY };
        let Some((world, path)) = common::random_case(seed, media) else { continue };
        cases += 1;
        for curves in [true, false] {
            let config = SmoothConfig { media, curves, ..Default::default() };
            let smooth = check(&world, &path, &config, &format!("seed {seed} curves {curves}"));
            if curves {
                let corners = smooth.waypoints().len().saturating_sub(2);
                sharp += smooth.sharp_corners();
                bent += corners - smooth.sharp_corners();
            } else {
                assert_eq!(smooth.sharp_corners(), smooth.waypoints().len().saturating_sub(2));
                assert_approx!(smooth.length(), smooth.polyline_length(), 1e-9 * smooth.length().max(1.0));
            }
        }
    }
    println!("{cases} random paths: {bent} corners bent, {sharp} sharp");
    assert!(cases > 2500, "too few random cases: {cases}");
    // Cluttered random worlds leave many corners too tight to bend (about 15% bent when this
    // was written); a smoother that stopped bending would fail here.
    assert!(bent * 10 > bent + sharp, "the smoother bends too few corners: {bent} bent, {sharp} sharp");
}

#[test]
fn tight_configs_and_odd_bend_lengths_stay_clear() {
    for seed in 5000..5400 {
        let Some((world, path)) = common::random_case(seed, Media::ANY) else { continue };
        for (bend_length, min_turn_radius) in [(0.3, 0.1), (7.0, 3.0), (1.0, 0.5)] {
            let config = SmoothConfig { bend_length, min_turn_radius, ..Default::default() };
            check(&world, &path, &config, &format!("seed {seed} bend {bend_length} radius {min_turn_radius}"));
        }
    }
}

#[test]
fn a_wall_gap_is_threaded_without_clipping() {
    // A wall with a one-voxel hole: a thin ray from start to goal through the hole would clip
    // the hole's rim; the box must pass straight through it.
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(21, 21, 21)).unwrap();
    world.fill_voxels(IVec3::new(10, 0, 0), IVec3::new(10, 20, 20), Voxel::Solid).unwrap();
    world.set(IVec3::new(10, 10, 10), Voxel::Air).unwrap();
    let config = SearchConfig::default();
    let path = Pathfinder::new()
        .find(&world, None, &PathRequest::new(IVec3::new(2, 3, 15), IVec3::new(18, 17, 4), config))
        .unwrap();
    let smooth = check(&world, &path, &SmoothConfig::default(), "wall gap");
    // Through the hole the agent moves straight along x.
    let poses = Trajectory::new(&smooth, &FlightProfile::AIR).unwrap().samples_by_length(0.05).unwrap();
    let points: Vec<Vec3> = poses.iter().map(|p| p.position).collect();
    common::assert_points_clear(&world, Media::ANY, &points, "wall gap poses");
    let inside: Vec<&Vec3> = points.iter().filter(|p| p.x > 9.5 && p.x < 11.5).collect();
    assert!(!inside.is_empty());
    for p in inside {
        assert_approx!(Vec3::new(p.x, p.y, p.z), Vec3::new(p.x, 10.5, 10.5), 1e-4, "in the hole");
    }
}

/// Corners in a one-voxel layer between two slabs (a block in the layer keeps string pulling
/// from cutting them), with room to turn: the agent's box touches both slabs all the way, and
/// the bends must still fit. (The curves' points were
/// weighted sums whose rounding put the box a hair into a slab: those corners stayed sharp.)
#[test]
fn corners_between_slabs_are_bent() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(16)).unwrap();
    world.fill_voxels(IVec3::new(0, 0, 12), IVec3::new(15, 15, 12), Voxel::Solid).unwrap();
    world.fill_voxels(IVec3::new(0, 0, 14), IVec3::new(15, 15, 14), Voxel::Solid).unwrap();
    world.fill_voxels(IVec3::new(0, 4, 13), IVec3::new(7, 15, 13), Voxel::Solid).unwrap();
    let mut bent = 0;
    for (turn, corner) in [(IVec3::new(0, 1, 0), 11), (IVec3::new(1, 1, 0), 10), (IVec3::new(0, 1, 0), 13)] {
        let mut voxels: Vec<IVec3> = (2..=corner).map(|x| IVec3::new(x, 3, 13)).collect();
        voxels.extend((1..6).map(|i| IVec3::new(corner, 3, 13) + turn * i));
        let smooth = smooth_voxels(&world, &voxels, &SmoothConfig::default()).unwrap();
        common::assert_clear(&world, Media::ANY, &smooth.points(), &format!("turn {turn}"));
        bent += smooth.waypoints().len() - 2 - smooth.sharp_corners();
    }
    // Before, two of the three stayed sharp.
    assert_eq!(bent, 3);
}

#[test]
fn loose_diagonal_paths_are_refused() {
    // Two voxels blocking a diagonal's sides: an unchecked search cuts between them.
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(8, 3, 8)).unwrap();
    world.fill_voxels(IVec3::ZERO, IVec3::new(7, 2, 7), Voxel::Solid).unwrap();
    world.fill_voxels(IVec3::new(1, 1, 1), IVec3::new(3, 1, 1), Voxel::Air).unwrap();
    world.fill_voxels(IVec3::new(3, 1, 2), IVec3::new(3, 1, 3), Voxel::Air).unwrap();
    world.set(IVec3::new(2, 1, 2), Voxel::Air).unwrap();
    world.set(IVec3::new(2, 1, 3), Voxel::Air).unwrap();
    world.set(IVec3::new(2, 1, 1), Voxel::Solid).unwrap();
    world.set(IVec3::new(3, 1, 2), Voxel::Solid).unwrap();
    let config = SearchConfig { diagonal: DiagonalRule::Unchecked, ..Default::default() };
    let voxels = [IVec3::new(1, 1, 1), IVec3::new(2, 1, 2)];
    assert!(world.is_blocked(IVec3::new(2, 1, 1)));
    let _ = config;
    let e = smooth_voxels(&world, &voxels, &SmoothConfig::default()).unwrap_err();
    assert_eq!(e, SmoothError::StepClips { index: 0, from: voxels[0], to: voxels[1] });
}

#[test]
fn warframe_problems_stay_clear() {
    let Some(dir) = common::warframe_dir() else { return };
    let mut finder = Pathfinder::new();
    let config = SearchConfig { max_expansions: Some(300_000), ..Default::default() };
    let smooth_config = SmoothConfig::default();
    let (mut solved, mut ratio_sum) = (0, 0.0);
    for (map, every) in [("Simple", 400), ("Complex", 250), ("A1", 500), ("DA1", 500)] {
        let (world, problems) = common::warframe(&dir, map, every, usize::MAX);
        for (i, p) in problems.iter().enumerate() {
            let Ok(path) = finder.find(&world, None, &PathRequest::new(p.start, p.goal, config)) else { continue };
            let what = format!("{map} problem {}", i * every);
            let smooth = check(&world, &path, &smooth_config, &what);
            // Warframe maps: origin 0, voxel 1, so the ends are exactly the voxel centres.
            assert_eq!(smooth.points()[0], p.start.as_vec3() + 0.5);
            let trajectory = Trajectory::new(&smooth, &FlightProfile::AIR).unwrap();
            let poses = trajectory.samples_by_length(0.25).unwrap();
            let positions: Vec<Vec3> = poses.iter().map(|q| q.position).collect();
            common::assert_points_clear(&world, smooth_config.media, &positions, &what);
            ratio_sum += smooth.length() / smooth.raw_length().max(1e-9);
            solved += 1;
        }
    }
    println!("{solved} Warframe problems, mean smoothed/raw {:.4}", ratio_sum / f64::from(solved.max(1)));
    assert!(solved >= 60, "only {solved} problems solved");
}
