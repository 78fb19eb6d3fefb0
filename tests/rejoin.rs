//! Flying on after a repair: an agent somewhere on its trajectory, a block dropped on its path
//! ahead, the path repaired from the path voxel nearest the agent, smoothed from the agent's
//! pose (`smooth_from`) and flown on (`Trajectory::continue_from`). The new trajectory starts at
//! the agent's exact pose (position, direction of travel, orientation with its bank), turns by at
//! most its `max_turn_rate` between samples, ends at the goal, and its curve keeps the agent's
//! box clear of the edited world (checked densely from the definitions, `common::assert_clear`).

mod common;

use common::{assert_clear, random_case, rng};
use glam::{IVec3, Quat, UVec3, Vec3};
use rand::RngExt;
use voxnav::prelude::*;
use voxnav::{
    FlightProfile, Path, Pose, SmoothConfig, SmoothError, Trajectory, TrajectoryError, smooth_from, smooth_path,
    smooth_voxels,
};

/// Rotation angle between two orientations, in f64.
fn turn(a: Quat, b: Quat) -> f64 {
    let r = a.as_dquat().conjugate() * b.as_dquat();
    2.0 * r.xyz().length().atan2(r.w.abs())
}

/// Checks that `next` continues `pose` without a jump and flies `smooth`'s curve within its
/// turn bound; returns the poses.
fn check_continues(world: &VoxelWorld, media: Media, pose: &Pose, next: &Trajectory, goal: IVec3, what: &str) {
    let size = world.voxel_size();
    let first = next.pose_at_time(0.0).unwrap();
    let tol = 1e-4 * size + 1e-5 * pose.position.abs().max_element();
    assert!(first.position.distance(pose.position) <= tol, "{what}: position jumps {first:?} vs {pose:?}");
    assert!(turn(first.orientation, pose.orientation) < 1e-3, "{what}: orientation jumps {first:?} vs {pose:?}");
    assert!(first.tangent.angle_between(pose.tangent) < 1e-3, "{what}: heading jumps {first:?} vs {pose:?}");
    let spacing = 0.05 * size;
    let poses = next.samples_by_length(spacing).unwrap();
    let bound = f64::from(next.max_turn_rate()) * f64::from(spacing) + 2e-6;
    for w in poses.windows(2) {
        assert!(w[0].position.distance(w[1].position) <= spacing * (1.0 + 1e-4) + tol, "{what}: step too long");
        let t = turn(w[0].orientation, w[1].orientation);
        assert!(t <= bound, "{what}: turn {t} > bound {bound} at {:?}", w[0]);
    }
    let centre = world.origin() + (goal.as_vec3() + 0.5) * size;
    assert!(poses.last().unwrap().position.distance(centre) <= tol, "{what}: does not end at the goal");
    assert!(
        poses.iter().all(|p| media.allows(world.get(((p.position - world.origin()) / size).floor().as_ivec3()))),
        "{what}: a pose's centre leaves its media"
    );
}

/// How one case ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Skipped: too short, the block would hit the agent or the goal, or disconnects them.
    Skipped,
    /// Flown on, turning onto the new way on a curve.
    Curve,
    /// Flown on, turning in place first.
    Pivot,
}

/// An agent at a random time of its flight along `path`; a 3x3x3 block dropped on the path a
/// few voxels ahead; the path repaired, smoothed from the agent's pose and flown on; every
/// property checked.
fn fly_on(rng: &mut rand::rngs::StdRng, mut world: VoxelWorld, path: &Path, media: Media, what: &str) -> Outcome {
    let config = SearchConfig { media, diagonal: DiagonalRule::Strict, ..Default::default() };
    let smooth_config = SmoothConfig { media, ..Default::default() };
    let profile = if rng.random_bool(0.5) { FlightProfile::AIR } else { FlightProfile::SWIM };
    let smooth = smooth_path(&world, path, &smooth_config).unwrap();
    let flight = Trajectory::new(&smooth, &profile).unwrap();
    let pose = flight.pose_at_time(rng.random_range(0.05..0.6) * flight.duration()).unwrap();
    let size = world.voxel_size();
    let at = (pose.position - world.origin()) / size;
    // The path voxel nearest the agent, and a block dropped a few voxels ahead of it that
    // leaves the agent's box and the goal free.
    let from = common::nearest_voxel(&path.voxels, at);
    let last = path.voxels.len() - 1;
    if from + 3 >= last {
        return Outcome::Skipped;
    }
    let hit = path.voxels[rng.random_range(from + 3..last)];
    let (lo, hi) = (hit - 1, hit + 1);
    let near_agent = (at - Vec3::splat(1.5)).floor().as_ivec3();
    let far_agent = (at + Vec3::splat(0.5)).ceil().as_ivec3();
    let goal = path.voxels[last];
    let covers = |v: IVec3| v.cmpge(lo).all() && v.cmple(hi).all();
    let boxes_meet = lo.cmple(far_agent).all() && near_agent.cmple(hi).all();
    if covers(goal) || covers(path.voxels[from]) || boxes_meet {
        return Outcome::Skipped;
    }
    world.fill_voxels(lo.max(IVec3::ZERO), hi.min(world.dims().as_ivec3() - 1), Voxel::Solid).unwrap();
    let Ok(mended) = Pathfinder::new().repair_path(&world, path, from, &config) else { return Outcome::Skipped };
    let smooth = smooth_from(&world, pose.position, pose.tangent, &mended.voxels, &smooth_config)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(smooth.points()[0], pose.position, "{what}");
    assert_clear(&world, media, &smooth.points(), what);
    let next = Trajectory::continue_from(&pose, &smooth, &profile).unwrap();
    check_continues(&world, media, &pose, &next, goal, what);
    // A turn in place at the start leaves the agent where it is for a moment.
    let moment = next.pose_at_time(0.01 * size / profile.speed).unwrap();
    if moment.position == pose.position { Outcome::Pivot } else { Outcome::Curve }
}

#[test]
fn repaired_flights_continue_without_a_jump() {
    let mut rng = rng(0x5EA1);
    let mut count = [0; 3];
    for seed in 0..1500u64 {
        let media = [Media::ANY, Media::AIR, Media::WATER][seed as usize % 3];
        let Some((world, path)) = random_case(seed, media) else { continue };
        if path.voxels.len() < 6 {
            continue;
        }
        count[fly_on(&mut rng, world, &path, media, &format!("seed {seed}")) as usize] += 1;
    }
    let [skipped, curves, pivots] = count;
    eprintln!("random worlds: skipped {skipped}, turned on a curve {curves}, in place {pivots}");
    assert!(curves + pivots >= 250, "only {} cases flown", curves + pivots);
    // Cluttered worlds (up to a quarter of the voxels solid): many turns must be in place.
    assert!(curves * 4 >= curves + pivots, "curves {curves}, in place {pivots}");
}

#[test]
fn on_warframe_maps_agents_mostly_turn_on_a_curve() {
    let Some(dir) = common::warframe_dir() else { return common::missing_data("Warframe maps") };
    let mut rng = rng(0xF1E5);
    let mut count = [0; 3];
    for map in ["Complex", "DA1", "EB1", "A1"] {
        let (world, problems) = common::warframe(&dir, map, 97, 40);
        let config = SearchConfig { algorithm: Algorithm::Jps, ..Default::default() };
        let mut finder = Pathfinder::new();
        for (i, p) in problems.iter().enumerate() {
            let Ok(path) = finder.find(&world, None, &PathRequest::new(p.start, p.goal, config)) else { continue };
            if path.voxels.len() < 12 {
                continue;
            }
            count[fly_on(&mut rng, world.clone(), &path, Media::ANY, &format!("{map} #{i}")) as usize] += 1;
        }
    }
    let [skipped, curves, pivots] = count;
    eprintln!("warframe: skipped {skipped}, turned on a curve {curves}, in place {pivots}");
    assert!(curves + pivots >= 100, "only {} cases flown", curves + pivots);
    assert!(curves * 10 >= (curves + pivots) * 8, "curves {curves}, in place {pivots}");
}

/// An agent flying in the plane between two solid slabs, its box touching both, rejoins a path
/// in that plane. (Found with jump point search's paths in `repaired_flights_continue_without_a_jump`:
/// the points checked on the way were interpolated with a rounding error that put the box a
/// hair into the slabs, and the agent could not rejoin the voxel it was in.)
#[test]
fn an_agent_touching_walls_on_both_sides_rejoins() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(16)).unwrap();
    world.fill_voxels(IVec3::new(0, 0, 12), IVec3::new(15, 15, 12), Voxel::Solid).unwrap();
    world.fill_voxels(IVec3::new(0, 0, 14), IVec3::new(15, 15, 14), Voxel::Solid).unwrap();
    let position = Vec3::new(8.965_698, 4.965_698, 13.5);
    let heading = Vec3::new(-1.0, -1.0, 0.0);
    let voxels = [IVec3::new(8, 4, 13), IVec3::new(7, 3, 13), IVec3::new(6, 2, 13), IVec3::new(5, 2, 13)];
    for n in 1..=voxels.len() {
        let smooth = smooth_from(&world, position, heading, &voxels[..n], &SmoothConfig::default())
            .unwrap_or_else(|e| panic!("{n} voxels: {e}"));
        assert_eq!(smooth.points()[0], position);
        assert_clear(&world, Media::ANY, &smooth.points(), "between slabs");
    }
}

#[test]
fn an_agent_heading_away_turns_in_place_first() {
    let world = VoxelWorld::new(Vec3::ZERO, 0.5, UVec3::new(24, 8, 8)).unwrap();
    let config = SmoothConfig::default();
    // The old flight goes -X; the new way goes +X from where the agent is.
    let old: Vec<IVec3> = (2..20).rev().map(|x| IVec3::new(x, 4, 4)).collect();
    let flight = Trajectory::new(&smooth_voxels(&world, &old, &config).unwrap(), &FlightProfile::AIR).unwrap();
    let pose = flight.pose_at_time(0.5).unwrap();
    let at = ((pose.position - world.origin()) / world.voxel_size()).floor().as_ivec3();
    let new: Vec<IVec3> = (at.x..22).map(|x| IVec3::new(x, 4, 4)).collect();
    let smooth = smooth_from(&world, pose.position, pose.tangent, &new, &config).unwrap();
    assert!(smooth.sharp_corners() >= 1, "a U-turn needs a turn in place");
    let next = Trajectory::continue_from(&pose, &smooth, &FlightProfile::AIR).unwrap();
    check_continues(&world, Media::ANY, &pose, &next, IVec3::new(21, 4, 4), "u-turn");
    // It turned round: later it flies +X.
    assert!(next.pose_at_length(2.0).unwrap().forward().x > 0.9);
}

#[test]
fn a_banked_agent_rolls_out_smoothly() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(32, 8, 32)).unwrap();
    world.fill_voxels(IVec3::new(0, 0, 4), IVec3::new(13, 7, 31), Voxel::Solid).unwrap();
    let config = SmoothConfig::default();
    // An L-shaped flight round the block, sampled in its turn where the agent banks.
    let mut old: Vec<IVec3> = (2..16).map(|x| IVec3::new(x, 4, 2)).collect();
    old.extend((3..20).map(|z| IVec3::new(15, 4, z)));
    let flight = Trajectory::new(&smooth_voxels(&world, &old, &config).unwrap(), &FlightProfile::AIR).unwrap();
    let poses = flight.samples_by_length(0.1).unwrap();
    let pose = *poses.iter().min_by(|a, b| a.up().y.total_cmp(&b.up().y)).unwrap();
    let bank = pose.up().y.acos();
    assert!(bank > 0.3, "the old flight banks ({bank} rad)");
    // A straight new way onward.
    let at = pose.position.floor().as_ivec3();
    let dir = pose.tangent.round().as_ivec3();
    let new: Vec<IVec3> = (0..8).map(|i| at + dir * i).collect();
    let smooth = smooth_from(&world, pose.position, pose.tangent, &new, &config).unwrap();
    let next = Trajectory::continue_from(&pose, &smooth, &FlightProfile::AIR).unwrap();
    check_continues(&world, Media::ANY, &pose, &next, *new.last().unwrap(), "banked");
    let rolled_out = next.pose_at_length(next.length()).unwrap();
    assert!(rolled_out.up().y > 0.99, "levels out by the end: {rolled_out:?}");
}

#[test]
fn bad_poses_are_typed_errors() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(12)).unwrap();
    let config = SmoothConfig::default();
    let voxels: Vec<IVec3> = (2..8).map(|x| IVec3::new(x, 4, 4)).collect();
    for (position, heading) in
        [(Vec3::NAN, Vec3::X), (Vec3::splat(2.5), Vec3::ZERO), (Vec3::splat(2.5), Vec3::new(f32::INFINITY, 0.0, 0.0))]
    {
        let e = smooth_from(&world, position, heading, &voxels, &config).unwrap_err();
        assert!(matches!(e, SmoothError::InvalidPose { .. }), "{e}");
    }
    // Outside the world, or in a solid voxel.
    for position in [Vec3::new(-3.0, 4.5, 4.5), Vec3::new(2.5, 8.5, 4.5)] {
        if position.y > 8.0 {
            world.set(IVec3::new(2, 8, 4), Voxel::Solid).unwrap();
        }
        let e = smooth_from(&world, position, Vec3::X, &voxels, &config).unwrap_err();
        assert!(matches!(e, SmoothError::CannotRejoin { .. }), "{e}");
    }
    // A trajectory must continue from where its curve starts.
    let smooth = smooth_from(&world, Vec3::new(2.6, 4.5, 4.5), Vec3::X, &voxels, &config).unwrap();
    let pose =
        Pose { s: 0.0, time: 0.0, position: Vec3::new(5.0, 5.0, 5.0), tangent: Vec3::X, orientation: Quat::IDENTITY };
    let e = Trajectory::continue_from(&pose, &smooth, &FlightProfile::AIR).unwrap_err();
    assert!(matches!(e, TrajectoryError::NotAtStart { .. }), "{e}");
    let nan = Pose { position: Vec3::NAN, ..pose };
    assert!(matches!(
        Trajectory::continue_from(&nan, &smooth, &FlightProfile::AIR),
        Err(TrajectoryError::NotAtStart { .. })
    ));
}
