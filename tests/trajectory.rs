//! Trajectories: unit quaternions, forward along the tangent (within `FORWARD_TOLERANCE`, or
//! within the pitch clamp), bounded turn between consecutive samples (at most
//! `Trajectory::max_turn_rate()` times the travel between them) on random worlds, Warframe
//! problems, vertical climbs, dives and U-turns; the glam, elementary-rotation and nalgebra
//! transforms agree.
//!
//! Warframe maps: Moving AI Lab / Brewer & Sturtevant 2018, maps from Warframe by Digital
//! Extremes (ODC-By); read from `VOXNAV_WARFRAME_DIR` or `../shared/benchmarks/warframe`.

mod common;

use glam::{DQuat, IVec3, Quat, UVec3, Vec3};
use voxnav::{
    FlightProfile, Media, PathRequest, Pathfinder, Pose, SearchConfig, SmoothConfig, SmoothPath, Trajectory,
    TrajectoryError, Voxel, VoxelWorld, smooth_path, smooth_voxels,
};

/// Largest angle (radians) between the forward axis and the tangent where pitch is not
/// clamped: they agree exactly at the trajectory's knots and drift by second-order terms
/// between them (knots are at most 1/16 voxel apart on bends).
const FORWARD_TOLERANCE: f64 = 2e-3;
/// Extra allowance where the pitch clamp acts: the clamp is applied at knots (at most 1/16
/// radian of turn apart) and interpolated between them, so between knots near the clamp's
/// threshold forward may sit up to one knot's turn past the clamp of the interpolated tangent.
const CLAMP_INTERPOLATION: f64 = 1.0 / 16.0;
/// Rounding allowance (radians) on the turn bound: f32 quaternions.
const TURN_ROUNDING: f64 = 2e-6;

/// Rotation angle between two orientations, computed in f64 (acos of an f32 dot product is
/// too coarse for small angles).
fn turn(a: Quat, b: Quat) -> f64 {
    let r = a.as_dquat().conjugate() * b.as_dquat();
    2.0 * r.xyz().length().atan2(r.w.abs())
}

/// Angle between two directions, in f64.
fn angle(a: Vec3, b: Vec3) -> f64 {
    let (a, b) = (a.as_dvec3(), b.as_dvec3());
    a.cross(b).length().atan2(a.dot(b))
}

/// Samples `smooth` every `spacing` voxels with `profile` and checks every pose property.
fn check(world: &VoxelWorld, media: Media, smooth: &SmoothPath, profile: &FlightProfile, what: &str) -> Vec<Pose> {
    let trajectory = Trajectory::new(smooth, profile).unwrap();
    let size = world.voxel_size();
    let spacing = 0.1 * size;
    let poses = trajectory.samples_by_length(spacing).unwrap();
    let points = smooth.points();
    let end_tol = 1e-5 * (1.0 + points[0].abs().max_element());
    assert_approx!(poses[0].position, points[0], end_tol, "{what}: start");
    assert_approx!(poses.last().unwrap().position, *points.last().unwrap(), end_tol, "{what}: goal");
    assert_approx!(poses.last().unwrap().s, trajectory.length(), 1e-4 * trajectory.length().max(1.0), "{what}");
    assert_approx!(trajectory.duration() * profile.speed, trajectory.travel(), 1e-4 * trajectory.travel().max(1.0));
    let bound = f64::from(trajectory.max_turn_rate()) * f64::from(spacing) + TURN_ROUNDING;
    for (i, p) in poses.iter().enumerate() {
        assert_approx!(p.orientation.length(), 1.0, 1e-5, "{what}: pose {i} not unit");
        assert_approx!(p.tangent.length(), 1.0, 1e-5, "{what}: tangent {i} not unit");
        let excess = (f64::from(p.tangent.y).asin().abs() - f64::from(profile.max_pitch)).max(0.0);
        let off = angle(p.forward(), p.tangent);
        let clamps = profile.max_pitch < std::f32::consts::FRAC_PI_2;
        let slack = if clamps { CLAMP_INTERPOLATION } else { 0.0 };
        assert!(off <= excess + FORWARD_TOLERANCE + slack, "{what}: pose {i} forward {off} rad off the tangent");
        let scale = 1.0 + p.position.abs().max_element();
        assert_approx!(p.transform(), p.euler_transform(), 2e-6 * scale, "{what}: pose {i} transforms");
        #[cfg(feature = "nalgebra")]
        {
            let glam_m = p.transform().to_cols_array();
            let iso: [f32; 16] = p.to_isometry().to_homogeneous().as_slice().try_into().unwrap();
            assert_approx!(iso, glam_m, 2e-6 * scale, "{what}: pose {i} isometry");
            let m: [f32; 16] = p.to_matrix4().as_slice().try_into().unwrap();
            assert_approx!(m, glam_m, 0.0, "{what}: pose {i} matrix");
            let q = p.to_unit_quaternion();
            assert_approx!(Quat::from_xyzw(q.i, q.j, q.k, q.w), p.orientation, 0.0, "{what}: pose {i} quaternion");
            let v = nalgebra::Vector3::new(0.3, -1.0, 2.0);
            let (a, b) = (q * v, p.orientation * Vec3::new(0.3, -1.0, 2.0));
            assert_approx!(Vec3::new(a.x, a.y, a.z), b, 2e-6, "{what}: pose {i} rotates alike");
        }
    }
    for (i, w) in poses.windows(2).enumerate() {
        let (a, b) = (&w[0], &w[1]);
        let rounding = 1e-5 + 3e-7 * a.position.abs().max_element();
        assert!(a.position.distance(b.position) <= spacing + rounding, "{what}: poses {i} too far apart");
        assert!(b.s >= a.s && b.time > a.time, "{what}: poses {i} go back");
        let t = turn(a.orientation, b.orientation);
        assert!(t <= bound, "{what}: poses {i}..{} turn {t} rad > {bound} at {}", i + 1, a.position);
    }
    let positions: Vec<Vec3> = poses.iter().map(|p| p.position).collect();
    common::assert_points_clear(world, media, &positions, what);
    assert_eq!(Trajectory::new(smooth, profile).unwrap().samples_by_length(spacing).unwrap(), poses, "{what}");
    poses
}

#[test]
fn random_worlds_give_unit_bounded_aligned_poses() {
    let mut count = 0;
    for seed in 10_000..11_000 {
        // Media and profiles vary apart from the path's algorithm (the seed's parity).
        let media = if seed % 3 == 0 { Media::AIR } else { Media::ANY };
        let Some((world, path)) = common::random_case(seed, media) else { continue };
        let smooth = smooth_path(&world, &path, &SmoothConfig { media, ..Default::default() }).unwrap();
        common::assert_clear(&world, media, &smooth.points(), "smooth");
        let profile = if seed / 2 % 2 == 0 { FlightProfile::AIR } else { FlightProfile::SWIM };
        check(&world, media, &smooth, &profile, &format!("seed {seed}"));
        count += 1;
    }
    assert!(count > 800, "{count}");
}

/// A world of solid rock with the given voxels carved out as air.
fn carved(dims: UVec3, voxels: &[IVec3]) -> VoxelWorld {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
    world.fill_voxels(IVec3::ZERO, dims.as_ivec3() - 1, Voxel::Solid).unwrap();
    for &v in voxels {
        world.set(v, Voxel::Air).unwrap();
    }
    world
}

#[test]
fn vertical_shafts_climb_and_dive_without_flips() {
    // Along a tunnel, up a one-voxel shaft, along another tunnel: sharp corners at both ends
    // of the shaft, so the agent turns in place there.
    let mut voxels: Vec<IVec3> = (1..=6).map(|x| IVec3::new(x, 1, 4)).collect();
    voxels.extend((2..=20).map(|y| IVec3::new(6, y, 4)));
    voxels.extend((5..=9).map(|z| IVec3::new(6, 20, z)));
    let world = carved(UVec3::new(12, 24, 12), &voxels);
    for profile in [FlightProfile::AIR, FlightProfile::SWIM] {
        for (name, path) in [("climb", voxels.clone()), ("dive", voxels.iter().rev().copied().collect())] {
            let smooth = smooth_voxels(&world, &path, &SmoothConfig::default()).unwrap();
            assert_eq!(smooth.sharp_corners(), 2);
            let poses = check(&world, Media::ANY, &smooth, &profile, name);
            // In the shaft, the whole frame holds still: no spin, no flip.
            let shaft: Vec<&Pose> = poses.iter().filter(|p| p.position.y > 3.0 && p.position.y < 19.0).collect();
            assert!(shaft.len() > 100);
            for p in &shaft {
                assert_approx!(p.orientation, shaft[0].orientation, 1e-6, "{name}: turned in the shaft");
                assert!(p.tangent.y.abs() > 0.999);
            }
            // With a pitch limit the nose stops at it; without one it points along the shaft.
            let pitch = shaft[0].forward().y.asin().abs();
            let want = profile.max_pitch.min(std::f32::consts::FRAC_PI_2);
            assert_approx!(pitch, want, 1e-3, "{name}: pitch in the shaft");
            // The agent turns in place at the corners: same position, time passes.
            let turning = poses.windows(2).filter(|w| w[0].position == w[1].position).count();
            assert!(turning > 10, "{name}: no turn in place");
        }
    }
}

#[test]
fn open_air_climbs_u_turns_and_dives_turn_gradually() {
    // A thin wall in open air, either full width (the path goes over it: climb, turn over the
    // top, dive) or full height (the path goes around its end: a horizontal U-turn).
    let mut finder = Pathfinder::new();
    let config = SearchConfig::default();
    for (name, wall_top) in [("over", IVec3::new(14, 20, 29)), ("around", IVec3::new(14, 29, 20))] {
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(30, 30, 30)).unwrap();
        world.fill_voxels(IVec3::new(14, 0, 0), wall_top, Voxel::Solid).unwrap();
        let path = finder
            .find(&world, None, &PathRequest::new(IVec3::new(13, 10, 10), IVec3::new(15, 10, 10), config))
            .unwrap();
        let smooth = smooth_path(&world, &path, &SmoothConfig::default()).unwrap();
        for profile in [FlightProfile::AIR, FlightProfile::SWIM] {
            let poses = check(&world, Media::ANY, &smooth, &profile, name);
            // The path really turns around, and the orientation follows gradually (checked
            // in `check`).
            let reversal = angle(poses[0].tangent, poses.last().unwrap().tangent);
            assert!(reversal > 3.0, "{name}: turned only {reversal} rad");
            let up_or_down = poses.iter().any(|p| p.tangent.y.abs() > 0.99);
            assert_eq!(up_or_down, name == "over", "{name}");
        }
    }
}

#[test]
fn level_turns_bank_into_the_turn_within_limits() {
    // A flat world one voxel high: all turns are level.
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(40, 1, 40)).unwrap();
    world.fill_voxels(IVec3::new(10, 0, 0), IVec3::new(12, 0, 25), Voxel::Solid).unwrap();
    let path = Pathfinder::new()
        .find(&world, None, &PathRequest::new(IVec3::new(2, 0, 2), IVec3::new(20, 0, 3), SearchConfig::default()))
        .unwrap();
    let smooth = smooth_path(&world, &path, &SmoothConfig::default()).unwrap();
    assert_eq!(smooth.sharp_corners(), 0);
    for profile in [FlightProfile::AIR, FlightProfile::SWIM] {
        let poses = check(&world, Media::ANY, &smooth, &profile, "flat");
        let mut most: f32 = 0.0;
        for p in &poses {
            let (_, pitch, roll) = p.euler_angles();
            assert_approx!(pitch, 0.0, 1e-4);
            assert!(roll.abs() <= profile.max_bank + 1e-5, "roll {roll}");
            most = most.max(roll.abs());
        }
        // The flyer turns hard enough here to bank most of the way to its limit (averaging over
        // `bank_smoothing` trims the peaks); the swimmer, slower, banks a little.
        let least = if profile == FlightProfile::AIR { 0.6 * profile.max_bank } else { 0.02 };
        assert!(most > least, "{profile:?}: banks at most {most}");
    }
    // Banking into the turn: a right turn (heading +X, then +Z; right is +X x +Y = +Z) with room
    // inside the corner, rounded there, banks right: up leans toward +Z, right wing down.
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(40, 1, 40)).unwrap();
    world.fill_voxels(IVec3::new(0, 0, 4), IVec3::new(8, 0, 11), Voxel::Solid).unwrap();
    let voxels: Vec<IVec3> =
        (0..=10).map(|x| IVec3::new(x, 0, 1)).chain((2..=11).map(|z| IVec3::new(10, 0, z))).collect();
    let smooth = smooth_voxels(&world, &voxels, &SmoothConfig::default()).unwrap();
    assert_eq!((smooth.waypoints().len(), smooth.sharp_corners()), (3, 0));
    for profile in [FlightProfile::AIR, FlightProfile::SWIM] {
        let poses = check(&world, Media::ANY, &smooth, &profile, "right turn");
        let rolls: Vec<f32> = poses.iter().map(|p| p.euler_angles().2).collect();
        let most = rolls.iter().copied().fold(0.0, f32::min);
        assert!(most < -0.3 * profile.max_bank, "{profile:?}: rolls only {most}");
        assert!(rolls.iter().all(|&r| r <= 1e-6), "banks left in a right turn");
        let corner = poses.iter().zip(&rolls).find(|(_, r)| **r == most).unwrap().0;
        assert!(corner.up().z > 0.0);
    }
}

#[test]
fn time_sampling_moves_at_the_profile_speed() {
    let Some((world, path)) = common::random_case(42, Media::ANY) else { panic!("seed 42 has a path") };
    let smooth = smooth_path(&world, &path, &SmoothConfig::default()).unwrap();
    let trajectory = Trajectory::new(&smooth, &FlightProfile::SWIM).unwrap();
    let poses = trajectory.samples_by_time(0.05).unwrap();
    let step = 0.05 * FlightProfile::SWIM.speed;
    for w in poses.windows(2) {
        assert!(w[0].position.distance(w[1].position) <= step * (1.0 + 1e-4) + 1e-5);
        assert!(w[1].time - w[0].time <= 0.05 + 1e-5);
    }
    assert_approx!(poses.last().unwrap().time, trajectory.duration(), 1e-5);
    let mid = trajectory.pose_at_time(trajectory.duration() / 2.0).unwrap();
    assert_approx!(mid.time, trajectory.duration() / 2.0, 1e-4);
    let by_length = trajectory.pose_at_length(mid.s).unwrap();
    assert_approx!(by_length.position, mid.position, 1e-4);
    assert_eq!(trajectory.pose_at_time(1e9).unwrap().position, poses.last().unwrap().position);
    assert_eq!(trajectory.pose_at_length(-5.0).unwrap().position, poses[0].position);
}

#[test]
fn a_single_voxel_path_is_one_upright_pose() {
    let world = VoxelWorld::new(Vec3::splat(-1.0), 0.5, UVec3::splat(4)).unwrap();
    let smooth = smooth_voxels(&world, &[IVec3::ONE], &SmoothConfig::default()).unwrap();
    let trajectory = Trajectory::new(&smooth, &FlightProfile::AIR).unwrap();
    let poses = trajectory.samples_by_length(0.1).unwrap();
    assert_eq!(poses.len(), 1);
    assert_approx!(poses[0].position, Vec3::splat(-0.25), 1e-6);
    assert_approx!(poses[0].orientation, Quat::IDENTITY, 1e-6);
    assert_eq!(trajectory.duration(), 0.0);
}

#[test]
fn bad_arguments_are_errors() {
    let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(8)).unwrap();
    let voxels = [IVec3::ONE, IVec3::new(2, 1, 1), IVec3::new(3, 2, 1)];
    let smooth = smooth_voxels(&world, &voxels, &SmoothConfig::default()).unwrap();
    let t = Trajectory::new(&smooth, &FlightProfile::AIR).unwrap();
    for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert!(matches!(t.samples_by_length(bad), Err(TrajectoryError::InvalidArgument { name: "spacing", .. })));
        assert!(matches!(t.samples_by_time(bad), Err(TrajectoryError::InvalidArgument { name: "dt", .. })));
    }
    assert!(matches!(t.pose_at_time(f32::NAN), Err(TrajectoryError::InvalidArgument { .. })));
    assert!(matches!(t.pose_at_length(f32::NEG_INFINITY), Err(TrajectoryError::InvalidArgument { .. })));
    assert!(matches!(t.samples_by_length(1e-9), Err(TrajectoryError::TooManySamples(n)) if n > 50_000_000));
    let fields: [(&str, FlightProfile); 7] = [
        ("speed", FlightProfile { speed: 0.0, ..FlightProfile::AIR }),
        ("gravity", FlightProfile { gravity: f32::NAN, ..FlightProfile::AIR }),
        ("max_bank", FlightProfile { max_bank: 2.0, ..FlightProfile::AIR }),
        ("bank_smoothing", FlightProfile { bank_smoothing: 0.0, ..FlightProfile::AIR }),
        ("max_pitch", FlightProfile { max_pitch: 0.0, ..FlightProfile::AIR }),
        ("turn_rate", FlightProfile { turn_rate: f32::INFINITY, ..FlightProfile::AIR }),
        ("level_rate", FlightProfile { level_rate: -1.0, ..FlightProfile::AIR }),
    ];
    for (field, profile) in fields {
        match Trajectory::new(&smooth, &profile) {
            Err(TrajectoryError::InvalidProfile { name, .. }) => assert_eq!(name, field),
            other => panic!("{field}: {other:?}"),
        }
    }
}

#[test]
fn transforms_agree_on_arbitrary_orientations() {
    // Beyond the trajectories: every orientation, including straight up and down.
    let mut seed = 1u64;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 40) as f64 / (1u64 << 24) as f64
    };
    for i in 0..5000 {
        let (yaw, roll) = ((next() - 0.5) * 7.0, (next() - 0.5) * 7.0);
        let pitch =
            if i % 5 == 0 { std::f64::consts::FRAC_PI_2 * (next() - 0.5).signum() } else { (next() - 0.5) * 3.2 };
        let q = DQuat::from_euler(glam::EulerRot::YXZ, yaw, pitch, roll).as_quat();
        let position = Vec3::new(next() as f32, next() as f32, next() as f32) * 100.0;
        let pose = Pose { s: 0.0, time: 0.0, position, tangent: q * Vec3::NEG_Z, orientation: q };
        assert_approx!(pose.transform(), pose.euler_transform(), 2e-6 * 101.0, "{yaw} {pitch} {roll}");
        let (y, p, r) = pose.euler_angles();
        assert_approx!(voxnav::euler_transform(position, y, p, r), pose.transform(), 2e-6 * 101.0);
        #[cfg(feature = "nalgebra")]
        {
            let m: [f32; 16] = pose.to_isometry().to_homogeneous().as_slice().try_into().unwrap();
            assert_approx!(m, pose.transform().to_cols_array(), 2e-6 * 101.0);
        }
    }
}

#[test]
fn warframe_trajectories_are_bounded_and_aligned() {
    let Some(dir) = common::warframe_dir() else { return };
    let mut finder = Pathfinder::new();
    let config = SearchConfig { max_expansions: Some(300_000), ..Default::default() };
    let mut count = 0;
    for (map, every) in [("Complex", 500), ("EB1", 1000)] {
        let (world, problems) = common::warframe(&dir, map, every, usize::MAX);
        for (i, p) in problems.iter().enumerate() {
            let Ok(path) = finder.find(&world, None, &PathRequest::new(p.start, p.goal, config)) else { continue };
            let smooth = smooth_path(&world, &path, &SmoothConfig::default()).unwrap();
            common::assert_clear(&world, Media::ANY, &smooth.points(), "smooth");
            let profile = if i % 2 == 0 { FlightProfile::AIR } else { FlightProfile::SWIM };
            check(&world, Media::ANY, &smooth, &profile, &format!("{map} problem {}", i * every));
            count += 1;
        }
    }
    assert!(count >= 20, "{count}");
}
