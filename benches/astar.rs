//! A* query benchmarks: seeded synthetic worlds, and sampled Warframe problems (skipped when the
//! data is absent) side by side with the `pathfinding` crate's `astar` on the same moves, costs
//! and heuristic. Every iteration asserts its answer against an oracle or the published optimum.

#[path = "../examples/support/baseline.rs"]
mod baseline;
#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use voxnav::prelude::*;
use voxnav::{Problem, Scenario};

/// Seeded 64^3 world: random 15 % solid voxels plus a few walls with holes.
fn synthetic() -> (VoxelWorld, Vec<(IVec3, IVec3, u64)>) {
    let mut r = common::rng(2024);
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(64)).unwrap();
    for x in [16, 32, 48] {
        world.fill_voxels(IVec3::new(x, 0, 0), IVec3::new(x, 63, 63), Voxel::Solid).unwrap();
        world.fill_voxels(IVec3::new(x, 30, 30), IVec3::new(x, 33, 33), Voxel::Air).unwrap();
    }
    for _ in 0..(64 * 64 * 64 * 15 / 100) {
        let v = common::random_voxel(&mut r, &world);
        world.set(v, Voxel::Solid).unwrap();
    }
    let mut queries = Vec::new();
    while queries.len() < 8 {
        let s = IVec3::new(2, 0, 0) + common::random_voxel(&mut r, &world) * IVec3::new(0, 1, 1);
        let g = IVec3::new(61, 0, 0) + common::random_voxel(&mut r, &world) * IVec3::new(0, 1, 1);
        if world.is_blocked(s) || world.is_blocked(g) {
            continue;
        }
        let c = CostModel::GAME;
        if let Some(cost) = common::dijkstra(&world, s, g, DiagonalRule::Strict, &c, Media::ANY) {
            queries.push((s, g, cost));
        }
    }
    (world, queries)
}

fn bench_synthetic(c: &mut Criterion) {
    let (world, queries) = synthetic();
    let mut finder = Pathfinder::new();
    let config = SearchConfig::default();
    c.bench_function("synthetic64/astar_octile_8_queries", |b| {
        b.iter(|| {
            for &(s, g, cost) in &queries {
                let p = finder.find(black_box(&world), None, &PathRequest::new(s, g, config)).unwrap();
                assert_eq!(p.cost, cost);
            }
        })
    });
}

fn bench_warframe(c: &mut Criterion) {
    let Some(dir) = common::warframe_dir() else { return };
    for (name, every) in [("Simple", 100), ("Complex", 250), ("DA1", 500)] {
        let world = VoxelWorld::load_3dmap(dir.join(format!("maps/{name}.3dmap"))).unwrap();
        let scen = Scenario::load(dir.join(format!("scenarios/{name}.3dmap.3dscen"))).unwrap();
        let problems: Vec<Problem> = scen.problems.iter().copied().step_by(every).collect();
        let config = SearchConfig { costs: CostModel::PRECISE, ..Default::default() };
        let mut group = c.benchmark_group(format!("warframe_{name}_every{every}"));
        group.sample_size(10).measurement_time(Duration::from_secs(5));
        let mut finder = Pathfinder::new();
        group.bench_function("voxnav_astar", |b| {
            b.iter(|| {
                for p in &problems {
                    let path = finder.find(&world, None, &PathRequest::new(p.start, p.goal, config)).unwrap();
                    assert!((path.length - p.optimal_length).abs() <= 1e-6);
                }
            })
        });
        group.bench_function("pathfinding_astar", |b| {
            b.iter(|| {
                for p in &problems {
                    let cost =
                        baseline::pathfinding_astar(&world, p.start, p.goal, CostModel::PRECISE, Heuristic::Octile)
                            .unwrap();
                    assert!((cost as f64 / 1e9 - p.optimal_length).abs() <= 1e-6);
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench_synthetic, bench_warframe);
criterion_main!(benches);
