//! A* against a plain Dijkstra oracle on thousands of fixed-seed random worlds, plus endpoint
//! errors, determinism and concurrent queries.

mod common;

use common::*;
use voxnav::SearchStep;
use voxnav::prelude::*;

fn configs() -> Vec<SearchConfig> {
    let mut out = Vec::new();
    for diagonal in [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked] {
        for costs in [CostModel::GAME, CostModel::PRECISE] {
            for media in [Media::ANY, Media::AIR, Media::WATER, Media { air: Some(100), water: Some(250) }] {
                out.push(SearchConfig { costs, diagonal, media, algorithm: Algorithm::AStar, ..Default::default() });
            }
        }
    }
    out
}

#[test]
fn octile_matches_the_oracle_and_manhattan_never_beats_it() {
    let configs = configs();
    let mut r = rng(0x5EED_A57A);
    let (mut found, mut none) = (0, 0);
    for round in 0..3000 {
        let world = random_world(&mut r, 9);
        let config = configs[round % configs.len()];
        let (Some(start), Some(goal)) =
            (random_free_voxel(&mut r, &world, config.media), random_free_voxel(&mut r, &world, config.media))
        else {
            continue;
        };
        let oracle = dijkstra(&world, start, goal, config.diagonal, &config.costs, config.media);
        let mut finder = Pathfinder::new();
        for heuristic in [Heuristic::Octile, Heuristic::Zero, Heuristic::Manhattan] {
            let config = SearchConfig { heuristic, ..config };
            match (finder.find(&world, None, &PathRequest::new(start, goal, config)), oracle) {
                (Ok(path), Some(best)) => {
                    assert_path_valid(&world, &path, start, goal, &config);
                    if heuristic == Heuristic::Manhattan {
                        assert!(path.cost >= best, "round {round}: manhattan below the optimum");
                    } else {
                        assert_eq!(path.cost, best, "round {round}: {heuristic:?} not optimal, {config:?}");
                    }
                }
                (Err(PathError::Unreachable { .. }), None) => {}
                (got, want) => panic!("round {round}: got {got:?}, oracle {want:?}"),
            }
        }
        if oracle.is_some() { found += 1 } else { none += 1 }
    }
    // The generator must exercise both outcomes, or this test checks little.
    assert!(found > 1500 && none > 50, "found {found}, unreachable {none}");
}

#[test]
fn larger_worlds_across_chunk_borders_match_the_oracle() {
    let mut r = rng(42);
    for round in 0..60 {
        let world = random_world(&mut r, 40);
        let config = SearchConfig { costs: CostModel::PRECISE, algorithm: Algorithm::AStar, ..Default::default() };
        let (Some(start), Some(goal)) =
            (random_free_voxel(&mut r, &world, config.media), random_free_voxel(&mut r, &world, config.media))
        else {
            continue;
        };
        let oracle = dijkstra(&world, start, goal, config.diagonal, &config.costs, config.media);
        let got = Pathfinder::new().find(&world, None, &PathRequest::new(start, goal, config)).map(|p| p.cost).ok();
        assert_eq!(got, oracle, "round {round}");
    }
}

#[test]
fn endpoint_errors_name_the_problem() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 0.5, UVec3::new(8, 8, 8)).unwrap();
    world.set(IVec3::new(1, 1, 1), Voxel::Solid).unwrap();
    world.set(IVec3::new(6, 6, 6), Voxel::Water).unwrap();
    let mut f = Pathfinder::new();
    let c = SearchConfig { algorithm: Algorithm::AStar, ..Default::default() };
    let o = IVec3::ZERO;
    assert_eq!(
        f.find(&world, None, &PathRequest::new(IVec3::new(-1, 0, 0), o, c)),
        Err(PathError::StartOutOfBounds(IVec3::new(-1, 0, 0)))
    );
    assert_eq!(
        f.find(&world, None, &PathRequest::new(o, IVec3::new(0, 8, 0), c)),
        Err(PathError::GoalOutOfBounds(IVec3::new(0, 8, 0)))
    );
    assert_eq!(f.find(&world, None, &PathRequest::new(IVec3::ONE, o, c)), Err(PathError::StartBlocked(IVec3::ONE)));
    assert_eq!(f.find(&world, None, &PathRequest::new(o, IVec3::ONE, c)), Err(PathError::GoalBlocked(IVec3::ONE)));
    let dry = SearchConfig { media: Media::AIR, ..c };
    assert_eq!(
        f.find(&world, None, &PathRequest::new(o, IVec3::splat(6), dry)),
        Err(PathError::GoalBlocked(IVec3::splat(6)))
    );
    let fish = SearchConfig { media: Media::WATER, ..c };
    assert_eq!(f.find(&world, None, &PathRequest::new(o, IVec3::splat(6), fish)), Err(PathError::StartBlocked(o)));
    assert_eq!(
        f.find(&world, None, &PathRequest::new(Vec3::NAN, Vec3::ONE, c)),
        Err(PathError::NonFinite { which: "start" })
    );
    assert_eq!(
        f.find(&world, None, &PathRequest::new(Vec3::ONE, Vec3::new(0.0, f32::INFINITY, 0.0), c)),
        Err(PathError::NonFinite { which: "goal" })
    );
    let bad = SearchConfig { costs: CostModel { face: 0, edge: 1, corner: 1 }, ..c };
    assert!(matches!(
        f.find(&world, None, &PathRequest::new(o, IVec3::splat(2), bad)),
        Err(PathError::InvalidCosts(_))
    ));
    // A wall cutting the world in two: unreachable after searching one side.
    world.fill_voxels(IVec3::new(4, 0, 0), IVec3::new(4, 7, 7), Voxel::Solid).unwrap();
    let e = f.find(&world, None, &PathRequest::new(o, IVec3::new(7, 0, 0), c)).unwrap_err();
    assert!(matches!(e, PathError::Unreachable { expanded } if expanded > 0), "{e:?}");
    // A budget too small for the trip.
    let tight = SearchConfig { max_expansions: Some(3), ..c };
    let e = f.find(&world, None, &PathRequest::new(o, IVec3::new(3, 7, 7), tight)).unwrap_err();
    assert_eq!(e, PathError::BudgetExhausted { expanded: 3 });
    // The pathfinder is still usable after every error.
    let p = f.find(&world, None, &PathRequest::new(o, o, c)).unwrap();
    assert_eq!((p.voxels.len(), p.cost, p.length), (1, 0, 0.0));
}

#[test]
fn world_points_map_to_voxels_and_lengths_are_in_world_units() {
    let world = VoxelWorld::new(Vec3::new(-10.0, 0.0, 5.0), 2.0, UVec3::new(10, 10, 10)).unwrap();
    let mut finder = Pathfinder::new();
    let request = PathRequest::new(
        Vec3::new(-9.0, 1.0, 6.0),
        Vec3::new(-3.0, 1.0, 6.0),
        SearchConfig { algorithm: Algorithm::AStar, ..Default::default() },
    );
    let p = finder.find(&world, None, &request).unwrap();
    assert_eq!(p.voxels.first(), Some(&IVec3::ZERO));
    assert_eq!(p.voxels.last(), Some(&IVec3::new(3, 0, 0)));
    assert_eq!(p.points[0], Vec3::new(-9.0, 1.0, 6.0));
    assert!((p.length - 6.0).abs() < 1e-9);
    assert_eq!(p.cost, 30);
    // The same query by voxel indices, and mixed, finds the same path.
    let by_voxel = PathRequest::new(
        IVec3::ZERO,
        IVec3::new(3, 0, 0),
        SearchConfig { algorithm: Algorithm::AStar, ..Default::default() },
    );
    assert_eq!(finder.find(&world, None, &by_voxel), Ok(p.clone()));
    let mixed = PathRequest::new(
        IVec3::ZERO,
        Vec3::new(-3.0, 1.0, 6.0),
        SearchConfig { algorithm: Algorithm::AStar, ..Default::default() },
    );
    assert_eq!(finder.find(&world, None, &mixed), Ok(p));
}

#[test]
fn same_query_same_path_and_threads_agree() {
    let mut r = rng(7);
    let world = random_world(&mut r, 30);
    let queries: Vec<(IVec3, IVec3)> = (0..40)
        .filter_map(|_| {
            Some((random_free_voxel(&mut r, &world, Media::ANY)?, random_free_voxel(&mut r, &world, Media::ANY)?))
        })
        .collect();
    let solve = |finder: &mut Pathfinder| -> Vec<Option<Vec<IVec3>>> {
        queries
            .iter()
            .map(|&(s, g)| {
                finder
                    .find(
                        &world,
                        None,
                        &PathRequest::new(s, g, SearchConfig { algorithm: Algorithm::AStar, ..Default::default() }),
                    )
                    .ok()
                    .map(|p| p.voxels)
            })
            .collect()
    };
    let reference = solve(&mut Pathfinder::new());
    // Reusing one pathfinder (pages recycled) gives the same paths as fresh ones.
    let mut reused = Pathfinder::new();
    assert_eq!(solve(&mut reused), reference);
    assert_eq!(solve(&mut reused), reference);
    // Four threads share the world, each with its own pathfinder.
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4).map(|_| s.spawn(|| solve(&mut Pathfinder::new()))).collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), reference);
        }
    });
}

#[test]
fn sliced_advance_gives_the_one_shot_result() {
    let mut r = rng(99);
    for _ in 0..50 {
        let world = random_world(&mut r, 20);
        let (Some(s), Some(g)) =
            (random_free_voxel(&mut r, &world, Media::ANY), random_free_voxel(&mut r, &world, Media::ANY))
        else {
            continue;
        };
        let c = SearchConfig { algorithm: Algorithm::AStar, ..Default::default() };
        let one_shot = Pathfinder::new().find(&world, None, &PathRequest::new(s, g, c));
        let mut f = Pathfinder::new();
        f.begin(&world, None, &PathRequest::new(s, g, c)).unwrap();
        let sliced = loop {
            match f.advance(&world, 7) {
                SearchStep::Pending => continue,
                SearchStep::Found(p) => break Ok(p),
                SearchStep::Failed(e) => break Err(e),
            }
        };
        assert_eq!(sliced, one_shot);
    }
}

#[test]
fn advancing_on_an_edited_world_is_an_error() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(32)).unwrap();
    let mut f = Pathfinder::new();
    let c = SearchConfig { algorithm: Algorithm::AStar, ..Default::default() };
    f.begin(&world, None, &PathRequest::new(IVec3::ZERO, IVec3::splat(31), c)).unwrap();
    assert_eq!(f.advance(&world, 2), SearchStep::Pending);
    world.set(IVec3::splat(5), Voxel::Solid).unwrap();
    assert_eq!(f.advance(&world, 2), SearchStep::Failed(PathError::WorldChanged));
    let other = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(8)).unwrap();
    f.begin(&world, None, &PathRequest::new(IVec3::ZERO, IVec3::splat(31), c)).unwrap();
    assert_eq!(f.advance(&other, 2), SearchStep::Failed(PathError::WorldChanged));
}

/// Random, extreme and non-finite inputs to the query API: always a value or a typed error.
#[test]
fn random_queries_never_panic() {
    let mut r = rng(1234);
    let world = random_world(&mut r, 12);
    let mut f = Pathfinder::new();
    let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, f32::MIN, -0.0, 1e-30, 1e9];
    let ints = [i32::MIN, i32::MAX, -1, 0, 1, 11, 12, 1 << 20];
    let pick_f = |r: &mut rand::rngs::StdRng| {
        use rand::RngExt;
        if r.random_bool(0.3) { specials[r.random_range(0..specials.len())] } else { r.random_range(-5.0..20.0) }
    };
    for _ in 0..3000 {
        use rand::RngExt;
        let a = Vec3::new(pick_f(&mut r), pick_f(&mut r), pick_f(&mut r));
        let b = Vec3::new(pick_f(&mut r), pick_f(&mut r), pick_f(&mut r));
        let c = SearchConfig {
            max_expansions: Some(r.random_range(0..500)),
            algorithm: Algorithm::AStar,
            ..Default::default()
        };
        let _ = f.find(&world, None, &PathRequest::new(a, b, c));
        let iv =
            |r: &mut rand::rngs::StdRng| {
                IVec3::from_array([0; 3].map(|_| {
                    if r.random_bool(0.5) { ints[r.random_range(0..ints.len())] } else { r.random_range(-2..14) }
                }))
            };
        let (s, g) = (iv(&mut r), iv(&mut r));
        if let Ok(p) = f.find(&world, None, &PathRequest::new(s, g, c)) {
            assert_path_valid(&world, &p, s, g, &c);
        }
        let _ = Heuristic::Octile.estimate(s.wrapping_sub(g), &CostModel::PRECISE);
    }
}
