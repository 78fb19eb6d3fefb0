//! The Moving AI Warframe 3D benchmark: A* (the reference search; jump point search has its own
//! samples in `tests/jps.rs`) with precise costs and the octile heuristic: every length
//! is the published optimum (all 10,000 problems of Simple and Complex, every 500th problem of
//! every other map). Skipped with a notice when the data is absent.

mod common;

use common::{assert_path_valid, warframe_dir, warframe_maps};
use voxnav::Scenario;
use voxnav::prelude::*;

fn check_map(dir: &std::path::Path, name: &str, every: usize) -> usize {
    let world = VoxelWorld::load_3dmap(dir.join(format!("maps/{name}.3dmap"))).unwrap();
    let scen = Scenario::load(dir.join(format!("scenarios/{name}.3dmap.3dscen"))).unwrap();
    assert_eq!(scen.map, format!("{name}.3dmap"));
    assert_eq!(scen.problems.len(), 10_000);
    let config = SearchConfig { costs: CostModel::PRECISE, algorithm: Algorithm::AStar, ..Default::default() };
    let mut finder = Pathfinder::new();
    let mut checked = 0;
    for (i, p) in scen.problems.iter().enumerate().step_by(every) {
        let path = finder
            .find(&world, None, &PathRequest::new(p.start, p.goal, config))
            .unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
        assert!(
            (path.length - p.optimal_length).abs() <= 1e-6,
            "{name} #{i}: length {} != optimal {}",
            path.length,
            p.optimal_length
        );
        // The exact cost is the benchmark length times 1e9, to the constants' 9 decimals.
        assert!((path.cost as f64 / 1e9 - p.optimal_length).abs() <= 1e-6);
        if i % (every * 20) == 0 {
            assert_path_valid(&world, &path, p.start, p.goal, &config);
        }
        checked += 1;
    }
    println!("{name}: {checked} problems optimal");
    checked
}

#[test]
fn simple_and_complex_all_problems_optimal() {
    let Some(dir) = warframe_dir() else { return };
    assert_eq!(check_map(&dir, "Simple", 1) + check_map(&dir, "Complex", 1), 20_000);
}

#[test]
fn every_map_every_500th_problem_optimal() {
    let Some(dir) = warframe_dir() else { return };
    let maps = warframe_maps(&dir);
    assert!(maps.len() >= 20, "expected the full benchmark, found {maps:?}");
    let mut total = 0;
    for name in maps.iter().filter(|m| *m != "Simple" && *m != "Complex") {
        total += check_map(&dir, name, 500);
    }
    assert_eq!(total, 20 * (maps.len() - 2));
}

#[test]
fn largest_map_stays_small_in_memory() {
    let Some(dir) = warframe_dir() else { return };
    let world = VoxelWorld::load_3dmap(dir.join("maps/BA1.3dmap")).unwrap();
    assert_eq!(world.dims(), UVec3::new(745, 527, 615));
    println!("BA1: {} bytes of occupancy", world.memory_bytes());
    assert!(world.memory_bytes() <= 16 << 20, "{} bytes", world.memory_bytes());
}
