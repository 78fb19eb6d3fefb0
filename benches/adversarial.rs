//! The searches side by side on adversarial maps (`tests/common/adversarial.rs`): a 96^3 wall
//! with four small windows far from the straight line (and an 84^3 one, whose wall cuts
//! through the coarse graph's blocks), a 192-long corridor of blind branches, a sealed room
//! around the goal in a 96^3 world. Every iteration asserts its answer (the
//! optimal cost, a cost within the bound, or unreachable).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Duration;

use common::adversarial::{dead_ends, sealed_room, windowed_wall};
use criterion::{Criterion, criterion_group, criterion_main};
use voxnav::PathRequest;
use voxnav::prelude::*;

fn adversarial(c: &mut Criterion) {
    for (label, case) in [
        ("windowed_wall", windowed_wall(96)),
        ("windowed_wall_84", windowed_wall(84)),
        ("dead_ends", dead_ends(192)),
        ("sealed_room", sealed_room(96)),
    ] {
        let request =
            |algorithm| PathRequest::new(case.start, case.goal, SearchConfig { algorithm, ..Default::default() });
        let optimal = Pathfinder::new().find(&case.world, None, &request(Algorithm::AStar)).map(|p| p.cost).ok();
        let mut group = c.benchmark_group(format!("adversarial/{label}"));
        group.sample_size(10).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_secs(3));
        for (name, algorithm) in [("astar", Algorithm::AStar), ("jps", Algorithm::Jps), ("budget", Algorithm::BUDGET)] {
            let mut finder = Pathfinder::new();
            group.bench_function(name, |b| {
                b.iter(|| {
                    let found = finder.find(&case.world, None, &request(algorithm)).map(|p| p.cost);
                    match (found, optimal) {
                        (Ok(cost), Some(best)) if algorithm == Algorithm::BUDGET => {
                            assert!(cost >= best && cost <= best * 10, "{label}: {cost} vs {best}")
                        }
                        (Ok(cost), Some(best)) => assert_eq!(cost, best),
                        (Err(PathError::Unreachable { .. }), None) => {}
                        (other, _) => panic!("{label}: {other:?}"),
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, adversarial);
criterion_main!(benches);
