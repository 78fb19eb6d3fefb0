//! Jump point search, the weighted budget mode, component labels and the parallel batch:
//! seeded synthetic worlds (one with a lake, for an agent whose moves cost more in water, one
//! an open sky above pillars) and sampled Warframe problems (skipped when the data is absent).
//! Every iteration asserts its answer (optimal cost, bounded cost, or label).

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::RngExt;
use voxnav::prelude::*;
use voxnav::{Heuristic, PathRequest, Scenario, find_paths, find_paths_sequential};

fn synthetic() -> (VoxelWorld, Vec<(IVec3, IVec3, u64)>) {
    let mut rng = common::rng(2025);
    let world = common::walled_world(&mut rng, UVec3::new(48, 32, 48), 12, 0);
    let mut queries = Vec::new();
    while queries.len() < 8 {
        let (Some(s), Some(g)) = (
            common::random_free_voxel(&mut rng, &world, Media::ANY),
            common::random_free_voxel(&mut rng, &world, Media::ANY),
        ) else {
            continue;
        };
        let dist = common::distances(&world, s, DiagonalRule::Strict, &CostModel::GAME, Media::ANY);
        if let Some(cost) = dist[common::index(&world, g)] {
            queries.push((s, g, cost));
        }
    }
    (world, queries)
}

/// The synthetic world with a lake under its lower half, for an agent that may dive (water at
/// three times air's cost): jump point search cannot jump there and prunes where the price
/// around a voxel is one.
const DIVER: Media = Media { air: Some(100), water: Some(300) };

fn lake() -> (VoxelWorld, Vec<(IVec3, IVec3, u64)>) {
    let mut rng = common::rng(2026);
    let mut world = common::walled_world(&mut rng, UVec3::new(48, 32, 48), 12, 0);
    world.fill_voxels(IVec3::new(4, 0, 4), IVec3::new(43, 12, 43), Voxel::Water).unwrap();
    let mut queries = Vec::new();
    while queries.len() < 8 {
        let (Some(s), Some(g)) =
            (common::random_free_voxel(&mut rng, &world, DIVER), common::random_free_voxel(&mut rng, &world, DIVER))
        else {
            continue;
        };
        let dist = common::distances(&world, s, DiagonalRule::Strict, &CostModel::GAME, DIVER);
        if let Some(cost) = dist[common::index(&world, g)] {
            queries.push((s, g, cost));
        }
    }
    (world, queries)
}

/// An open sky: 40 pillars from the ground to y = 20 in a 128 x 48 x 128 world, and 32 queries
/// between voxels above them, where the octile path joins the ends.
fn sky() -> (VoxelWorld, Vec<(IVec3, IVec3)>) {
    let mut rng = common::rng(2027);
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(128, 48, 128)).unwrap();
    for _ in 0..40 {
        let (x, z) = (rng.random_range(0..120), rng.random_range(0..120));
        world.fill_voxels(IVec3::new(x, 0, z), IVec3::new(x + 4, 20, z + 4), Voxel::Solid).unwrap();
    }
    let mut above = || IVec3::new(rng.random_range(0..128), rng.random_range(22..48), rng.random_range(0..128));
    let queries = (0..32).map(|_| (above(), above())).collect();
    (world, queries)
}

fn bench(c: &mut Criterion) {
    let mut finder = Pathfinder::new();
    let (sky, flights) = sky();
    for (name, algorithm) in [("astar", Algorithm::AStar), ("jps", Algorithm::Jps), ("budget", Algorithm::BUDGET)] {
        let config = SearchConfig { algorithm, ..Default::default() };
        c.bench_function(&format!("open_sky_128x48x128/{name}"), |b| {
            b.iter(|| {
                for &(s, g) in &flights {
                    let path = finder.find(&sky, None, &PathRequest::new(black_box(s), black_box(g), config)).unwrap();
                    assert_eq!(path.cost, Heuristic::Octile.estimate(g - s, &config.costs));
                }
            })
        });
    }
    let (lake, dives) = lake();
    for (name, algorithm) in [("astar", Algorithm::AStar), ("jps", Algorithm::Jps)] {
        let config = SearchConfig { algorithm, media: DIVER, ..Default::default() };
        c.bench_function(&format!("synthetic_lake_48x32x48/{name}"), |b| {
            b.iter(|| {
                for &(s, g, best) in &dives {
                    let path = finder.find(&lake, None, &PathRequest::new(black_box(s), black_box(g), config)).unwrap();
                    assert_eq!(path.cost, best);
                }
            })
        });
    }
    let (world, queries) = synthetic();
    for (name, algorithm) in [("astar", Algorithm::AStar), ("jps", Algorithm::Jps), ("budget", Algorithm::BUDGET)] {
        let config = SearchConfig { algorithm, ..Default::default() };
        c.bench_function(&format!("synthetic_48x32x48/{name}"), |b| {
            b.iter(|| {
                for &(s, g, best) in &queries {
                    let path =
                        finder.find(&world, None, &PathRequest::new(black_box(s), black_box(g), config)).unwrap();
                    assert!(path.cost as f64 <= best as f64 * algorithm.suboptimality_bound() + 1e-9);
                    assert!(algorithm != Algorithm::Jps || path.cost == best);
                }
            })
        });
    }
    let islands = Components::new(&world, Media::ANY).unwrap();
    c.bench_function("synthetic_48x32x48/components_build", |b| {
        b.iter(|| assert_eq!(Components::new(black_box(&world), Media::ANY).unwrap().count(), islands.count()))
    });
    let requests: Vec<PathRequest> = (0..64)
        .map(|i| {
            let (s, g, _) = queries[i % queries.len()];
            PathRequest::new(s, g, SearchConfig { algorithm: Algorithm::BUDGET, ..Default::default() })
        })
        .collect();
    let expected = find_paths_sequential(&world, None, &requests);
    c.bench_function("synthetic_48x32x48/batch64_sequential", |b| {
        b.iter(|| assert_eq!(find_paths_sequential(black_box(&world), None, &requests), expected))
    });
    c.bench_function("synthetic_48x32x48/batch64_parallel", |b| {
        b.iter(|| assert_eq!(find_paths(black_box(&world), None, &requests), expected))
    });

    let Some(dir) = common::warframe_dir() else { return };
    for map in ["Complex", "DB2"] {
        let world = VoxelWorld::load_3dmap(dir.join(format!("maps/{map}.3dmap"))).unwrap();
        let scen = Scenario::load(dir.join(format!("scenarios/{map}.3dmap.3dscen"))).unwrap();
        let problems: Vec<_> = scen.problems.iter().step_by(1000).copied().collect();
        for (name, algorithm) in [("jps", Algorithm::Jps), ("budget", Algorithm::BUDGET)] {
            let config = SearchConfig { costs: CostModel::PRECISE, algorithm, ..Default::default() };
            c.bench_function(&format!("warframe_{map}/{name}"), |b| {
                b.iter(|| {
                    for p in &problems {
                        let path = finder.find(&world, None, &PathRequest::new(p.start, p.goal, config)).unwrap();
                        let bound = p.optimal_length * algorithm.suboptimality_bound();
                        assert!(path.length <= bound + 1e-6 && path.length >= p.optimal_length - 1e-6);
                    }
                })
            });
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
