//! Many agents, one goal: a shared-goal field against one exact search per agent
//! ([`Algorithm::Jps`], the fastest exact mode), side by side on Warframe maps (skipped with a
//! notice when the data is absent). 1,000 agents spawned as a squad around problem 0's start,
//! heading for problem 0's goal. Every iteration asserts every agent's cost equals the
//! reference.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use voxnav::prelude::*;
use voxnav::{GoalField, Scenario};

#[path = "../examples/support/squad.rs"]
mod squad;

fn bench(c: &mut Criterion) {
    let Some(dir) = common::warframe_dir() else { return };
    let config = SearchConfig { costs: CostModel::PRECISE, ..Default::default() };
    let jps = SearchConfig { algorithm: Algorithm::Jps, ..config };
    let mut group = c.benchmark_group("field_1000_agents");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(8));
    for map in ["Complex", "BC1"] {
        let world = VoxelWorld::load_3dmap(dir.join(format!("maps/{map}.3dmap"))).unwrap();
        let scen = Scenario::load(dir.join(format!("scenarios/{map}.3dmap.3dscen"))).unwrap();
        let goal = scen.problems[0].goal;
        let mut finder = Pathfinder::new();
        // The agents that can reach the goal, and their reference costs.
        let (starts, reference): (Vec<IVec3>, Vec<u64>) = squad::squad(&world, scen.problems[0].start, 1000)
            .into_iter()
            .filter_map(|s| Some((s, finder.find(&world, None, &PathRequest::new(s, goal, jps)).ok()?.cost)))
            .unzip();
        assert!(starts.len() >= 900, "{map}: {} agents", starts.len());
        group.bench_function(format!("{map}/jps_per_agent"), |b| {
            b.iter(|| {
                for (&s, &cost) in starts.iter().zip(&reference) {
                    assert_eq!(
                        finder.find(&world, None, &PathRequest::new(black_box(s), goal, jps)).unwrap().cost,
                        cost
                    );
                }
            })
        });
        group.bench_function(format!("{map}/goal_field"), |b| {
            b.iter(|| {
                let mut field = GoalField::new(&world, black_box(goal), &config).unwrap();
                assert_eq!(field.grow_to(&world, &starts).unwrap(), starts.len());
                for (&s, &cost) in starts.iter().zip(&reference) {
                    let path = field.path_from(&world, s).unwrap();
                    assert_eq!((path.cost, path.voxels.last()), (cost, Some(&goal)));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
