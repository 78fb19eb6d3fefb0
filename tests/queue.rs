//! `PathQueue`: urgent requests pre-empt a running search, which is paused and resumed (not
//! restarted); ageing keeps a stream of urgent requests from starving a low one; a paused search
//! whose world was edited starts over and delivers a path valid on the world at delivery;
//! cancelling a paused request drops it at once.

use glam::{IVec3, UVec3, Vec3};
use voxnav::{PathCheck, PathQueue, PathRequest, Pathfinder, SearchConfig, Ticket, Voxel, VoxelWorld};

/// A world of walls with gaps at alternating ends: a long, winding A* search.
fn maze() -> VoxelWorld {
    let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(48, 6, 48)).unwrap();
    for (i, x) in (4..44).step_by(6).enumerate() {
        let (z0, z1) = if i % 2 == 0 { (0, 40) } else { (7, 47) };
        w.fill_voxels(IVec3::new(x, 0, z0), IVec3::new(x, 5, z1), Voxel::Solid).unwrap();
    }
    w
}

fn run_until(queue: &mut PathQueue, world: &VoxelWorld, budget: usize, ticket: Ticket, frames: usize) -> Option<usize> {
    (1..=frames).find(|_| queue.update(world, None, budget).iter().any(|(t, _)| *t == ticket))
}

#[test]
fn an_urgent_request_pauses_the_running_one_which_resumes_where_it_stopped() {
    let world = maze();
    let config = SearchConfig::default();
    let (long_req, short_req) = (
        PathRequest::new(IVec3::new(1, 2, 1), IVec3::new(46, 2, 46), config),
        PathRequest::new(IVec3::new(1, 2, 1), IVec3::new(3, 2, 5), config),
    );
    let mut finder = Pathfinder::new();
    let long_once = finder.find(&world, None, &long_req).unwrap();
    let short_once = finder.find(&world, None, &short_req).unwrap();
    let (e_long, e_short) = (long_once.stats.expanded, short_once.stats.expanded);
    let budget = 100;
    assert!(e_long > 20 * budget, "a long search: {e_long}");

    let mut queue = PathQueue::new();
    let long = queue.push(long_req, 0);
    let spent_frames = 10; // half of the long search or so
    for _ in 0..spent_frames {
        assert!(queue.update(&world, None, budget).is_empty());
    }
    let short = queue.push(short_req, 5);
    let mut order = Vec::new();
    let mut frames = spent_frames;
    while !queue.is_empty() {
        frames += 1;
        for (t, r) in queue.update(&world, None, budget) {
            let p = r.unwrap();
            let once = if t == long { &long_once } else { &short_once };
            assert_eq!((p.cost, &p.voxels), (once.cost, &once.voxels), "exactly the one-shot result");
            order.push(t);
        }
        assert!(frames < 10_000);
    }
    assert_eq!(order, vec![short, long], "the urgent one first");
    // Resumed, not restarted: the frames add up to both searches' expansions (one frame of
    // slack for each switch), where a restart would add the 10 frames spent before.
    let needed = (e_long + e_short).div_ceil(budget);
    assert!(frames <= needed + 2, "{frames} frames for {needed} frames of work");
}

#[test]
fn ageing_keeps_urgent_streams_from_starving_a_low_request() {
    let world = maze();
    let config = SearchConfig::default();
    let low_req = PathRequest::new(IVec3::new(1, 2, 1), IVec3::new(2, 2, 9), config);
    let urgent_req = PathRequest::new(IVec3::new(1, 2, 1), IVec3::new(8, 2, 44), config);
    for (ageing, served) in [(4, true), (0, false)] {
        let mut queue = PathQueue::new();
        queue.set_ageing(ageing);
        let low = queue.push(low_req, 0);
        let mut got = None;
        for frame in 1..=120 {
            queue.push(urgent_req, 2); // one more urgent request every frame, more than a frame's work
            if queue.update(&world, None, 60).iter().any(|(t, _)| *t == low) {
                got = Some(frame);
                break;
            }
        }
        assert_eq!(got.is_some(), served, "ageing {ageing}: served at {got:?}");
    }
}

#[test]
fn a_paused_search_whose_world_changed_starts_over_and_delivers_a_valid_path() {
    let mut world = maze();
    let config = SearchConfig::default();
    let mut queue = PathQueue::new();
    let long = queue.push(PathRequest::new(IVec3::new(1, 2, 1), IVec3::new(46, 2, 46), config), 0);
    for _ in 0..5 {
        queue.update(&world, None, 100);
    }
    let short = queue.push(PathRequest::new(IVec3::new(1, 2, 1), IVec3::new(3, 2, 5), config), 5);
    assert!(run_until(&mut queue, &world, 100, short, 5).is_some());
    // The long one is paused; a new block narrows the corridor it was heading down.
    world.fill_voxels(IVec3::new(17, 0, 10), IVec3::new(19, 5, 30), Voxel::Solid).unwrap();
    let mut result = None;
    for _ in 0..1000 {
        if let Some((_, r)) = queue.update(&world, None, 100).into_iter().find(|(t, _)| *t == long) {
            result = Some(r.unwrap());
            break;
        }
    }
    let path = result.expect("delivered");
    assert_eq!(path.check(&world.clone(), &config), PathCheck::Valid);
    let once = Pathfinder::new()
        .find(&world, None, &PathRequest::new(IVec3::new(1, 2, 1), IVec3::new(46, 2, 46), config))
        .unwrap();
    assert_eq!(path.cost, once.cost);
}

#[test]
fn cancelling_a_paused_request_drops_it_at_once() {
    let world = maze();
    let config = SearchConfig::default();
    let mut queue = PathQueue::new();
    let long = queue.push(PathRequest::new(IVec3::new(1, 2, 1), IVec3::new(46, 2, 46), config), 0);
    queue.update(&world, None, 100);
    let short = queue.push(PathRequest::new(IVec3::new(1, 2, 1), IVec3::new(3, 2, 5), config), 5);
    queue.update(&world, None, 1); // the short one runs; the long one is paused
    assert_eq!(queue.len(), 2);
    assert!(queue.cancel(long));
    assert!(!queue.cancel(long));
    assert_eq!(queue.len(), 1);
    let mut delivered = Vec::new();
    while !queue.is_empty() {
        delivered.extend(queue.update(&world, None, 100).into_iter().map(|(t, _)| t));
    }
    assert_eq!(delivered, vec![short]);
}
