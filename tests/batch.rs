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

/// Batches run on pathfinders kept from earlier batches: after batches on another world of the
/// same size, and on this world before an edit (its chunks' scan events read, its node pages
/// grown), each result is still what a new pathfinder finds.
#[test]
fn kept_pathfinders_answer_as_new_ones() {
    let mut rng = rng(0xBA7C_0003);
    let dims = UVec3::new(40, 20, 40);
    let (mut first, second) = (walled_world(&mut rng, dims, 15, 5), walled_world(&mut rng, dims, 20, 0));
    let first_requests = requests(&mut rng, &first, 90);
    let second_requests = requests(&mut rng, &second, 90);
    let fresh = |world: &voxnav::VoxelWorld, reqs: &[PathRequest]| -> Vec<_> {
        reqs.iter().map(|r| Pathfinder::new().find(world, None, r)).collect()
    };
    for _ in 0..2 {
        assert_eq!(find_paths(&first, None, &first_requests), fresh(&first, &first_requests));
        assert_eq!(find_paths_sequential(&second, None, &second_requests), fresh(&second, &second_requests));
        assert_eq!(find_paths(&second, None, &second_requests), fresh(&second, &second_requests));
    }
    // Wall off a slab across the first world: some paths change, some goals become unreachable.
    let before = fresh(&first, &first_requests);
    first.fill_voxels(glam::IVec3::new(18, 0, 0), glam::IVec3::new(21, 19, 39), voxnav::Voxel::Solid).unwrap();
    let after = fresh(&first, &first_requests);
    assert_ne!(after, before, "the edit changed nothing");
    assert_eq!(find_paths(&first, None, &first_requests), after);
    assert_eq!(find_paths_sequential(&first, None, &first_requests), after);
}
