//! `PathQueue`: urgent requests pre-empt a running search, which is paused and resumed (not
//! restarted); ageing keeps a stream of urgent requests from starving a low one; a paused search
//! whose world was edited starts over and delivers a path valid on the world at delivery;
//! cancelling a paused request drops it at once.

use glam::{IVec3, UVec3, Vec3};
use voxnav::{Algorithm, PathCheck, PathQueue, PathRequest, Pathfinder, SearchConfig, Ticket, Voxel, VoxelWorld};

/// A world of walls with gaps at alternating ends: a long, winding A* search.
fn maze() -> VoxelWorld {
    maze_with(voxnav::Limits::default())
}

/// [`maze`] with its memory limits.
fn maze_with(limits: voxnav::Limits) -> VoxelWorld {
    let mut w = VoxelWorld::with_limits(Vec3::ZERO, 1.0, UVec3::new(48, 6, 48), limits).unwrap();
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

/// A stream of requests each more urgent than the last pauses one search per frame. The paused
/// searches and the spare pathfinder stay within the world's search memory (the least urgent
/// paused ones begin again later), every result is still its one-shot result, and once the
/// queue is empty it holds one pathfinder. The same stream with the default limit holds
/// more than the tight one: the bound is what kept it down.
#[test]
fn a_stream_of_urgent_requests_stays_within_the_search_memory_limit() {
    let open = maze();
    let mut largest = 0; // the most one search holds
    let requests: Vec<PathRequest> = (0..40)
        .map(|i| {
            let (start, goal) = (IVec3::new(1 + i % 3, 1 + i % 4, 1 + i % 5), IVec3::new(46, 2, 46 - i % 6));
            PathRequest::new(start, goal, SearchConfig { algorithm: Algorithm::AStar, ..Default::default() })
        })
        .collect();
    let once: Vec<_> = requests
        .iter()
        .map(|r| {
            let mut finder = Pathfinder::new();
            let path = finder.find(&open, None, r).unwrap();
            largest = largest.max(finder.memory_bytes());
            path
        })
        .collect();
    let run = |world: &VoxelWorld| {
        let mut queue = PathQueue::new();
        let (mut peak, mut frames, mut tickets) = (0, 0, Vec::new());
        let mut delivered = 0;
        while delivered < requests.len() {
            if let Some(r) = requests.get(frames) {
                tickets.push(queue.push(*r, frames as u32 + 1)); // outranks the running one
            }
            for (t, result) in queue.update(world, None, 40) {
                let i = tickets.iter().position(|&k| k == t).unwrap();
                let path = result.unwrap_or_else(|e| panic!("request {i}: {e}"));
                assert_eq!((path.cost, &path.voxels), (once[i].cost, &once[i].voxels), "request {i}");
                delivered += 1;
            }
            peak = peak.max(queue.memory_bytes());
            frames += 1;
            assert!(frames < 100_000);
        }
        (peak, frames, queue.memory_bytes())
    };
    let (free_peak, free_frames, free_end) = run(&open);
    // Room for two searches: every search fits (the running one may hold up to `largest`
    // alone, and then nothing else is kept), not every paused one.
    let limit = 2 * largest;
    let (tight_peak, tight_frames, tight_end) =
        run(&maze_with(voxnav::Limits { max_search_bytes: limit, ..Default::default() }));
    assert!(free_peak > limit, "the default limit holds {free_peak} bytes, not above {limit}");
    assert!(tight_peak <= limit, "{tight_peak} bytes held, over the limit of {limit}");
    assert!(tight_frames > free_frames, "searches begun again: {tight_frames} against {free_frames} frames");
    // One pathfinder, grown by the searches it served (40 finished searches each kept theirs).
    let one = 2 * largest;
    assert!(
        free_end < one && tight_end < one,
        "one spare pathfinder: {free_end} and {tight_end} bytes, {largest} a search"
    );
}

/// A search whose open list's refills pause within their slice's share
/// (`Pathfinder::advance`), so that slices of 2 expansions often expand fewer: the queue counts
/// such a slice as a whole one, so a frame of 2 expansions ends there, one `advance` per frame,
/// as many frames as a lone pathfinder's slices of 2; and it delivers the one-shot result.
#[test]
fn a_slice_that_paused_ends_the_frame() {
    // A wall with one small opening at a far corner: A* fills the near half of the world.
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(40)).unwrap();
    world.fill_voxels(IVec3::new(20, 0, 0), IVec3::new(20, 39, 39), Voxel::Solid).unwrap();
    world.fill_voxels(IVec3::new(20, 37, 37), IVec3::new(20, 38, 38), Voxel::Air).unwrap();
    let config = SearchConfig { algorithm: Algorithm::AStar, ..Default::default() };
    let request = PathRequest::new(IVec3::new(2, 20, 20), IVec3::new(37, 20, 20), config);
    let expected = Pathfinder::new().find(&world, None, &request).unwrap();
    let mut lone = Pathfinder::new();
    lone.begin(&world, None, &request).unwrap();
    let (mut slices, mut short) = (0, 0);
    loop {
        slices += 1;
        let before = lone.stats().expanded;
        match lone.advance(&world, 2) {
            voxnav::SearchStep::Pending => short += usize::from(lone.stats().expanded < before + 2),
            voxnav::SearchStep::Found(path) => break assert_eq!(path, expected),
            voxnav::SearchStep::Failed(e) => panic!("{e}"),
        }
    }
    assert!(short > 10, "{short} short slices");
    let mut queue = PathQueue::new();
    let ticket = queue.push(request, 1);
    let mut frames = 0;
    let got = loop {
        frames += 1;
        if let Some((_, r)) = queue.update(&world, None, 2).into_iter().find(|(t, _)| *t == ticket) {
            break r.unwrap();
        }
    };
    assert_eq!(got, expected);
    assert_eq!(frames, slices);
}
