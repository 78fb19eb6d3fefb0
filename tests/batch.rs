//! Many agents: the parallel batch equals the sequential one, and the request queue serves by
//! priority within its frame budget with one-shot results.

mod common;

use common::{random_free_voxel, rng, walled_world};
use glam::UVec3;
use voxnav::{
    Algorithm, Components, Media, PathQueue, PathRequest, Pathfinder, SearchConfig, find_paths, find_paths_sequential,
};

fn requests(rng: &mut rand::rngs::StdRng, world: &voxnav::VoxelWorld, n: usize) -> Vec<PathRequest> {
    (0..n)
        .filter_map(|i| {
            let algorithm = [Algorithm::AStar, Algorithm::Jps, Algorithm::BUDGET][i % 3];
            let s = random_free_voxel(rng, world, Media::ANY)?;
            let g = random_free_voxel(rng, world, Media::ANY)?;
            Some(PathRequest::new(s, g, SearchConfig { algorithm, ..Default::default() }))
        })
        .collect()
}

#[test]
fn batch_equals_sequential() {
    let mut rng = rng(0xBA7C_0001);
    let world = walled_world(&mut rng, UVec3::new(48, 24, 48), 18, 0);
    let islands = Components::new(&world, Media::ANY).unwrap();
    let reqs = requests(&mut rng, &world, 300);
    for components in [None, Some(&islands)] {
        let seq = find_paths_sequential(&world, components, &reqs);
        for _ in 0..3 {
            assert_eq!(find_paths(&world, components, &reqs), seq);
        }
        #[cfg(feature = "parallel")]
        {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
            assert_eq!(pool.install(|| find_paths(&world, components, &reqs)), seq);
        }
    }
}

#[test]
fn queue_serves_by_priority_with_one_shot_results() {
    let mut rng = rng(0xBA7C_0002);
    let world = walled_world(&mut rng, UVec3::new(40, 20, 40), 15, 0);
    let reqs = requests(&mut rng, &world, 60);
    let mut queue = PathQueue::new();
    let tickets: Vec<_> = reqs.iter().enumerate().map(|(i, r)| (queue.push(*r, (i % 3) as u32), i)).collect();
    let cancelled = tickets[5].0;
    assert!(queue.cancel(cancelled));
    let mut finished = Vec::new();
    let mut frames = 0;
    while !queue.is_empty() {
        let done = queue.update(&world, None, 50);
        frames += 1;
        finished.extend(done);
    }
    assert!(frames > 10, "the budget should spread the work over frames");
    assert_eq!(finished.len(), reqs.len() - 1);
    let mut finder = Pathfinder::new();
    let mut last_priority = u32::MAX;
    for (ticket, result) in &finished {
        let &(_, i) = tickets.iter().find(|(t, _)| t == ticket).unwrap();
        assert_ne!(*ticket, cancelled);
        let r = reqs[i];
        assert_eq!(*result, finder.find(&world, None, &r));
        let priority = (i % 3) as u32;
        assert!(priority <= last_priority, "served out of priority order");
        last_priority = priority;
    }
    assert!(!queue.cancel(cancelled));
}
