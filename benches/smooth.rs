//! Smoothing and trajectory building on seeded paths: a maze-like random world and, when the
//! Warframe maps are present, problems of the `Complex` map. Every iteration asserts the result
//! is right (ends at the goal, no longer than the raw path) before it counts.
//!
//! Benchmark maps: Moving AI Lab / Brewer & Sturtevant 2018, maps from Warframe by Digital
//! Extremes (ODC-By).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{IVec3, UVec3, Vec3};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use voxnav::{
    FlightProfile, Path, PathRequest, Pathfinder, Scenario, SearchConfig, SmoothConfig, Trajectory, Voxel, VoxelWorld,
};

/// A 64^3 world with 600 random pillars, and 20 paths across it (fixed seed).
fn random_paths() -> (VoxelWorld, Vec<Path>) {
    let mut rng = StdRng::seed_from_u64(2024);
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(64)).unwrap();
    for _ in 0..600 {
        let a = IVec3::new(rng.random_range(0..64), rng.random_range(0..64), rng.random_range(0..64));
        world
            .fill_voxels(
                a,
                a + IVec3::new(rng.random_range(0..3), rng.random_range(0..12), rng.random_range(0..3)),
                Voxel::Solid,
            )
            .unwrap();
    }
    let mut finder = Pathfinder::new();
    let mut paths = Vec::new();
    while paths.len() < 20 {
        let s = IVec3::new(rng.random_range(0..8), rng.random_range(0..64), rng.random_range(0..64));
        let g = IVec3::new(rng.random_range(56..64), rng.random_range(0..64), rng.random_range(0..64));
        if let Ok(p) = finder.find(&world, None, &PathRequest::new(s, g, SearchConfig::default())) {
            paths.push(p);
        }
    }
    (world, paths)
}

/// `Complex` problems 0, 500, 1000, ... when the maps are present.
fn warframe_paths() -> Option<(VoxelWorld, Vec<Path>)> {
    let dir = std::env::var_os("VOXNAV_WARFRAME_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/warframe"));
    let world = VoxelWorld::load_3dmap(dir.join("maps/Complex.3dmap")).ok()?;
    let scenario = Scenario::load(dir.join("scenarios/Complex.3dmap.3dscen")).ok()?;
    let mut finder = Pathfinder::new();
    let paths = scenario
        .problems
        .iter()
        .step_by(500)
        .filter_map(|p| finder.find(&world, None, &PathRequest::new(p.start, p.goal, SearchConfig::default())).ok())
        .collect();
    Some((world, paths))
}

fn bench_set(c: &mut Criterion, name: &str, world: &VoxelWorld, paths: &[Path]) {
    let config = SmoothConfig::default();
    c.bench_function(&format!("smooth_path/{name}"), |b| {
        b.iter(|| {
            for path in paths {
                let smooth = voxnav::smooth_path(black_box(world), black_box(path), &config).unwrap();
                assert!(smooth.length() <= path.length * (1.0 + 1e-12));
                assert_eq!(smooth.waypoints().last(), path.voxels.last());
                black_box(smooth);
            }
        })
    });
    let smoothed: Vec<_> = paths.iter().map(|p| voxnav::smooth_path(world, p, &config).unwrap()).collect();
    c.bench_function(&format!("trajectory_quarter_voxel/{name}"), |b| {
        b.iter(|| {
            for (smooth, path) in smoothed.iter().zip(paths) {
                let trajectory = Trajectory::new(black_box(smooth), &FlightProfile::AIR).unwrap();
                let poses = trajectory.samples_by_length(0.25).unwrap();
                let goal = world.voxel_center(*path.voxels.last().unwrap());
                assert!(poses.last().unwrap().position.distance(goal) < 1e-4);
                black_box(poses);
            }
        })
    });
}

fn benches(c: &mut Criterion) {
    let (world, paths) = random_paths();
    bench_set(c, "random64", &world, &paths);
    match warframe_paths() {
        Some((world, paths)) => bench_set(c, "warframe_complex", &world, &paths),
        None => println!("notice: Warframe maps not found (set VOXNAV_WARFRAME_DIR); skipping their benches"),
    }
}

criterion_group!(smooth, benches);
criterion_main!(smooth);
