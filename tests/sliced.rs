//! Time-sliced search: advancing a search a few expansions at a time gives exactly the one-shot
//! result, for every algorithm and the closest-voxel fallback.

mod common;

use common::{random_free_pair, rng, walled_world};
use glam::UVec3;
use rand::RngExt;
use voxnav::{Algorithm, Fallback, Media, PathRequest, Pathfinder, SearchConfig, SearchStep, Voxel};

#[test]
fn sliced_equals_one_shot() {
    let mut rng = rng(0x511C_E001);
    let mut one_shot = Pathfinder::new();
    let mut sliced = Pathfinder::new();
    let mut pending_seen = 0;
    for i in 0..400 {
        let dims = UVec3::new(6 + rng.random_range(0..20), 6 + rng.random_range(0..12), 6 + rng.random_range(0..20));
        let density = rng.random_range(0..35);
        let world = walled_world(&mut rng, dims, density, 0);
        let algorithm = [Algorithm::AStar, Algorithm::Jps, Algorithm::BUDGET][i % 3];
        let fallback = if i % 4 == 0 { Fallback::Closest } else { Fallback::Fail };
        let config = SearchConfig { algorithm, fallback, ..Default::default() };
        let Some((s, g)) = random_free_pair(&mut rng, &world, Media::ANY) else {
            continue;
        };
        let expected = one_shot.find(&world, None, &PathRequest::new(s, g, config));
        sliced.begin(&world, None, &PathRequest::new(s, g, config)).unwrap();
        let slice = 1 + rng.random_range(0..7) as usize;
        let got = loop {
            match sliced.advance(&world, slice) {
                SearchStep::Pending => pending_seen += 1,
                SearchStep::Found(p) => break Ok(p),
                SearchStep::Failed(e) => break Err(e),
            }
        };
        assert_eq!(got, expected, "world {i} {algorithm:?} {fallback:?} slice {slice}");
    }
    assert!(pending_seen > 1000, "slices too coarse to test anything: {pending_seen}");
}

/// A search whose open list holds thousands of entries: in slices of one or a few
/// expansions, its refills (which move a whole bucket of the radix heap) and its pops of stale
/// entries pause within the slice's share and go on in the next, and the answer is the
/// one-shot one. Slices of one expansion then outnumber the expansions.
#[test]
fn refills_pause_within_slices_and_give_the_one_shot_answer() {
    // A wall across the world with one small opening at a far corner: A* fills the near half.
    let n = 40;
    let mut world = voxnav::VoxelWorld::new(glam::Vec3::ZERO, 1.0, UVec3::splat(n)).unwrap();
    let n = n as i32;
    world.fill_voxels(glam::IVec3::new(n / 2, 0, 0), glam::IVec3::new(n / 2, n - 1, n - 1), Voxel::Solid).unwrap();
    world
        .fill_voxels(glam::IVec3::new(n / 2, n - 3, n - 3), glam::IVec3::new(n / 2, n - 2, n - 2), Voxel::Air)
        .unwrap();
    let (start, goal) = (glam::IVec3::new(2, n / 2, n / 2), glam::IVec3::new(n - 3, n / 2, n / 2));
    let (mut one_shot, mut sliced) = (Pathfinder::new(), Pathfinder::new());
    for algorithm in [Algorithm::AStar, Algorithm::BUDGET] {
        for slice in [1, 3, 16] {
            let config = SearchConfig { algorithm, ..Default::default() };
            let request = PathRequest::new(start, goal, config);
            let expected = one_shot.find(&world, None, &request).unwrap();
            sliced.begin(&world, None, &request).unwrap();
            let mut steps = 0;
            let got = loop {
                steps += 1;
                match sliced.advance(&world, slice) {
                    SearchStep::Pending => {}
                    SearchStep::Found(p) => break p,
                    SearchStep::Failed(e) => panic!("{algorithm:?} slice {slice}: {e}"),
                }
            };
            assert_eq!(got, expected, "{algorithm:?} slice {slice}");
            if algorithm == Algorithm::AStar {
                assert!(expected.stats.expanded > 5_000, "expanded {}", expected.stats.expanded);
                if slice == 1 {
                    assert!(
                        steps > expected.stats.expanded + 10,
                        "{steps} steps, {} expanded",
                        expected.stats.expanded
                    );
                }
            }
        }
    }
}

#[test]
fn an_edited_world_stops_a_sliced_search() {
    let mut world = voxnav::VoxelWorld::new(glam::Vec3::ZERO, 1.0, UVec3::splat(32)).unwrap();
    let mut finder = Pathfinder::new();
    let config = SearchConfig { algorithm: Algorithm::Jps, ..Default::default() };
    finder.begin(&world, None, &PathRequest::new(glam::IVec3::ZERO, glam::IVec3::new(31, 20, 9), config)).unwrap();
    world.set(glam::IVec3::new(5, 5, 5), Voxel::Solid).unwrap();
    assert_eq!(finder.advance(&world, 10), SearchStep::Failed(voxnav::PathError::WorldChanged));
}

/// A `begin` that fails ends the search begun before it, whatever its algorithm: `advance`
/// answers `Unreachable { expanded: 0 }` instead of carrying on with the old query.
#[test]
fn a_failed_begin_ends_the_previous_search() {
    let mut world = voxnav::VoxelWorld::new(glam::Vec3::ZERO, 1.0, UVec3::splat(32)).unwrap();
    world.set(glam::IVec3::splat(7), Voxel::Solid).unwrap();
    let mut finder = Pathfinder::new();
    for algorithm in [Algorithm::AStar, Algorithm::Jps, Algorithm::BUDGET] {
        for fallback in [Fallback::Fail, Fallback::Closest] {
            let config = SearchConfig { algorithm, fallback, ..Default::default() };
            finder
                .begin(&world, None, &PathRequest::new(glam::IVec3::ZERO, glam::IVec3::new(31, 20, 9), config))
                .unwrap();
            assert_eq!(finder.advance(&world, 1), SearchStep::Pending);
            let err = finder
                .begin(&world, None, &PathRequest::new(glam::IVec3::splat(7), glam::IVec3::ZERO, config))
                .unwrap_err();
            assert_eq!(err, voxnav::PathError::StartBlocked(glam::IVec3::splat(7)));
            let step = finder.advance(&world, usize::MAX);
            assert_eq!(step, SearchStep::Failed(voxnav::PathError::Unreachable { expanded: 0 }), "{config:?}");
        }
    }
}
