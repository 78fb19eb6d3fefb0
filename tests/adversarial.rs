//! The searches on adversarial maps (`common/adversarial.rs`): a wall with a few small windows
//! far from the straight line, a corridor of blind branches that lead toward the goal, a sealed
//! room around the goal. Exact modes agree on the optimal cost, the budget mode stays within
//! the bound each path reports with a valid path, finds the windows (it follows the coarse
//! guide) instead of filling the space in front of the wall, and a goal sealed in a room costs
//! it part of one phase, not a pass over the reachable space per weight.

mod common;

use common::adversarial::{Case, dead_ends, sealed_room, windowed_wall, windowed_wall_at};
use rand::RngExt;
use voxnav::prelude::*;
use voxnav::{PathCheck, PathRequest};

fn find(case: &Case, algorithm: Algorithm) -> (Result<Path, PathError>, usize) {
    find_with(case, SearchConfig { algorithm, ..Default::default() })
}

fn find_with(case: &Case, config: SearchConfig) -> (Result<Path, PathError>, usize) {
    let mut finder = Pathfinder::new();
    let found = finder.find(&case.world, None, &PathRequest::new(case.start, case.goal, config));
    (found, finder.stats().expanded)
}

#[test]
fn exact_modes_agree_and_the_budget_mode_keeps_its_bound() {
    for case in [windowed_wall(40), dead_ends(96)] {
        let (astar, _) = find(&case, Algorithm::AStar);
        let astar = astar.unwrap();
        // The windows are the only way through: the path goes through one of them.
        let (jps, _) = find(&case, Algorithm::Jps);
        assert_eq!(jps.unwrap().cost, astar.cost, "{}", case.name);
        let (budget, _) = find(&case, Algorithm::BUDGET);
        let budget = budget.unwrap();
        let config = SearchConfig { algorithm: Algorithm::BUDGET, ..Default::default() };
        assert_eq!(budget.check(&case.world, &config), PathCheck::Valid, "{}", case.name);
        assert!(budget.cost >= astar.cost, "{}", case.name);
        assert!(budget.cost * 100 <= astar.cost * u64::from(budget.stats.weight), "{}", case.name);
        println!("{} astar={} budget={} weight={}", case.name, astar.cost, budget.cost, budget.stats.weight);
    }
    // Through the wall only by a window: the path's voxel in the wall is one of them.
    let case = windowed_wall(40);
    let path = find(&case, Algorithm::AStar).0.unwrap();
    let crossing: Vec<IVec3> = path.voxels.iter().copied().filter(|v| v.x == 20).collect();
    assert!(!crossing.is_empty() && crossing.iter().all(|v| v.y <= 3 || v.y >= 36), "{crossing:?}");
}

/// Behind a wall whose few windows are far from the straight line, the octile estimate leads a
/// weighted search to fill the space in front of the wall (the budget mode's weights only make
/// that worse). Sized up on the coarse graph of chunk pieces, the budget mode follows the guide
/// to a window: a valid path within the bound it reports (proved against a lower bound, not a
/// weight: not one of the schedule's), at a small part of A*'s expansions. Windows in random
/// places, seeded.
#[test]
fn the_budget_mode_goes_round_walls_by_their_windows() {
    let Algorithm::Budget { phase_expansions, .. } = Algorithm::BUDGET else { unreachable!() };
    let mut rng = common::rng(0x3A11_5EED);
    let mut guided = 0;
    for round in 0..8 {
        let n = 64 + 16 * (round % 3);
        let case = if round == 0 {
            windowed_wall(96)
        } else {
            let windows: Vec<(i32, i32)> = (0..1 + round % 3)
                .map(|_| {
                    // Near an edge of the wall: far from the straight line through its middle.
                    let edge = [1, n - 3][rng.random_range(0..2usize)];
                    let along = rng.random_range(1..n - 3);
                    if rng.random_range(0..2) == 0 { (edge, along) } else { (along, edge) }
                })
                .collect();
            windowed_wall_at(n, &windows)
        };
        let (astar, astar_expanded) = find(&case, Algorithm::AStar);
        let astar = astar.unwrap();
        let (budget, budget_expanded) = find(&case, Algorithm::BUDGET);
        let budget = budget.unwrap();
        let config = SearchConfig { algorithm: Algorithm::BUDGET, ..Default::default() };
        assert_eq!(budget.check(&case.world, &config), PathCheck::Valid, "round {round}");
        // The coarse graph a `Pathfinder` keeps from earlier queries (here the way back, which
        // labels other blocks first) changes nothing: the same path, the same statistics.
        let mut warm = Pathfinder::new();
        warm.find(&case.world, None, &PathRequest::new(case.goal, case.start, config)).unwrap();
        let again = warm.find(&case.world, None, &PathRequest::new(case.start, case.goal, config));
        assert_eq!(again.as_ref(), Ok(&budget), "round {round}");
        assert!(budget.cost >= astar.cost, "round {round}");
        assert!(budget.cost * 100 <= astar.cost * u64::from(budget.stats.weight), "round {round}");
        let x = case.world.dims().x as i32 / 2;
        assert!(budget.voxels.iter().any(|v| v.x == x), "round {round}: crosses the wall");
        // Sized up at 4,096 expansions, then guided: far fewer expansions than A*, and fewer
        // than one phase of the schedule.
        assert!(budget_expanded < phase_expansions as usize, "round {round}: {budget_expanded}");
        assert!(budget_expanded * 5 < astar_expanded, "round {round}: {budget_expanded} vs A*'s {astar_expanded}");
        guided += usize::from(![110, 120, 140, 180, 260, 420, 740, 1000].contains(&budget.stats.weight));
        println!(
            "round {round} n={} astar={} ({astar_expanded}) budget={} ({budget_expanded}) weight={}",
            case.world.dims().x,
            astar.cost,
            budget.cost,
            budget.stats.weight
        );
    }
    assert!(guided >= 6, "only {guided} of 8 paths followed the guide");
}

/// An agent with clearance sees the coarse graph through its radius: 2 x 2 windows are closed
/// to a radius of 1 (the budget mode proves it at the size-up, as A* does by a full pass), and
/// 4 x 4 ones let it through, on a path valid for its size and within the weight it reports.
#[test]
fn the_coarse_graph_sees_the_agent_size() {
    let case = windowed_wall(72);
    let fat = SearchConfig { algorithm: Algorithm::BUDGET, clearance: 1, ..Default::default() };
    let (astar, _) = find_with(&case, SearchConfig { algorithm: Algorithm::AStar, ..fat });
    assert!(matches!(astar, Err(PathError::Unreachable { .. })), "{astar:?}");
    let (budget, expanded) = find_with(&case, fat);
    assert!(matches!(budget, Err(PathError::Unreachable { .. })), "{budget:?}");
    assert!(expanded <= 4096, "{expanded}");
    let mut wide = windowed_wall(72);
    for (y, z) in [(1, 1), (1, 67), (67, 1), (67, 67)] {
        wide.world.fill_voxels(IVec3::new(36, y, z), IVec3::new(36, y + 3, z + 3), voxnav::Voxel::Air).unwrap();
    }
    let (astar, astar_expanded) = find_with(&wide, SearchConfig { algorithm: Algorithm::AStar, ..fat });
    let (budget, expanded) = find_with(&wide, fat);
    let (astar, budget) = (astar.unwrap(), budget.unwrap());
    assert_eq!(budget.check(&wide.world, &fat), PathCheck::Valid);
    assert!(budget.cost >= astar.cost && budget.cost * 100 <= astar.cost * u64::from(budget.stats.weight));
    assert!(expanded * 5 < astar_expanded, "{expanded} vs A*'s {astar_expanded}");
}

#[test]
fn a_sealed_goal_costs_the_budget_mode_one_phase() {
    let case = sealed_room(64);
    let (astar, astar_expanded) = find(&case, Algorithm::AStar);
    assert!(matches!(astar, Err(PathError::Unreachable { .. })));
    let (jps, _) = find(&case, Algorithm::Jps);
    assert!(matches!(jps, Err(PathError::Unreachable { .. })));
    let (budget, budget_expanded) = find(&case, Algorithm::BUDGET);
    assert!(matches!(budget, Err(PathError::Unreachable { .. })));
    // A* closes every voxel it can reach. The budget mode sizes the query up 4,096 expansions
    // into its first phase: under the strict diagonal rule the coarse graph is exact, and the
    // goal's pieces do not reach the start's (without that, seven capped phases and a pass like
    // A*'s; reopening voxels, seven passes).
    let Algorithm::Budget { phase_expansions, .. } = Algorithm::BUDGET else { unreachable!() };
    assert!(astar_expanded > 4 * phase_expansions as usize, "{astar_expanded}");
    assert!(budget_expanded <= 4096, "{budget_expanded} expansions against A*'s {astar_expanded}");
    // Under the unchecked rule the pieces (face-connected) cannot prove it. The prelude's
    // search from the goal runs dry inside the room (7^3 voxels); without the prelude, after
    // the first phase a flood of at most one phase's voxels from the goal does.
    let unchecked =
        SearchConfig { algorithm: Algorithm::BUDGET, diagonal: DiagonalRule::Unchecked, ..Default::default() };
    let (budget, budget_expanded) = find_with(&case, unchecked);
    assert!(matches!(budget, Err(PathError::Unreachable { .. })));
    assert!(budget_expanded <= 7 * 7 * 7, "{budget_expanded} expansions");
    let mut finder = Pathfinder::new();
    finder.set_jps_prelude(Some(0));
    let budget = finder.find(&case.world, None, &PathRequest::new(case.start, case.goal, unchecked));
    let budget_expanded = finder.stats().expanded;
    assert!(matches!(budget, Err(PathError::Unreachable { .. })));
    assert!(
        budget_expanded > 4096 && budget_expanded <= phase_expansions as usize + 7 * 7 * 7,
        "{budget_expanded} expansions"
    );
    // A sealed hall larger than a phase (47^3 free voxels inside): the flood could not tell,
    // the coarse graph can.
    let mut hall = sealed_room(96);
    hall.world.fill_voxels(IVec3::splat(40), IVec3::splat(88), voxnav::Voxel::Solid).unwrap();
    hall.world.fill_voxels(IVec3::splat(41), IVec3::splat(87), voxnav::Voxel::Air).unwrap();
    hall.goal = IVec3::splat(64);
    let (budget, budget_expanded) = find(&hall, Algorithm::BUDGET);
    assert!(matches!(budget, Err(PathError::Unreachable { .. })), "{budget:?}");
    assert!(budget_expanded <= 4096, "{budget_expanded} expansions");
    // A door in the room: the coarse graph finds it, and the phases go on to a path within the
    // bound.
    let mut open = sealed_room(64);
    open.world.set(IVec3::new(52, 48, 48), voxnav::Voxel::Air).unwrap();
    let (astar, _) = find(&open, Algorithm::AStar);
    let (budget, _) = find(&open, Algorithm::BUDGET);
    let (astar, budget) = (astar.unwrap(), budget.unwrap());
    assert!(budget.cost >= astar.cost && budget.cost * 100 <= astar.cost * u64::from(budget.stats.weight));
    // With connectivity labels the answer needs no search at all.
    let config = SearchConfig { algorithm: Algorithm::BUDGET, ..Default::default() };
    let components = Components::new(&case.world, config.media).unwrap();
    let mut finder = Pathfinder::new();
    let labelled = finder.find(&case.world, Some(&components), &PathRequest::new(case.start, case.goal, config));
    assert_eq!(labelled, Err(PathError::Unreachable { expanded: 0 }));
}

/// Within every search limit tried, the budget mode answers wherever it answers without its
/// prelude, within its bound, never says a reachable goal is unreachable, and keeps no more
/// than the limit after the query. (The prelude's two A*s share the limit: where they run out
/// of room the weighted phase takes over with the whole limit. At ab64f2f, without the
/// prelude, 24 of these limits answered `Unreachable`, the coarse graph missing the links of
/// blocks it could not label, and 13 kept up to 1.1 times the limit, its cache beside a
/// guided search.)
#[test]
fn the_budget_mode_within_a_limit() {
    let config = SearchConfig { algorithm: Algorithm::BUDGET, ..Default::default() };
    for case in [windowed_wall(40), windowed_wall(64), windowed_wall(96), dead_ends(96), dead_ends(192)] {
        let (astar, _) = find(&case, Algorithm::AStar);
        let best = astar.unwrap().cost;
        for limit in (100_000..3_000_000).step_by(10_000) {
            let mut tight = case.world.clone();
            tight.set_limits(voxnav::Limits { max_search_bytes: limit, ..voxnav::Limits::default() });
            let request = PathRequest::new(case.start, case.goal, config);
            let mut plain = Pathfinder::new();
            plain.set_jps_prelude(Some(0));
            let without = plain.find(&tight, None, &request);
            let mut finder = Pathfinder::new();
            let with = finder.find(&tight, None, &request);
            let what = format!("{} within {limit}", case.name);
            for (answer, kept) in [(&without, plain.memory_bytes()), (&with, finder.memory_bytes())] {
                match answer {
                    Ok(path) => {
                        assert_eq!(path.check(&tight, &config), PathCheck::Valid, "{what}");
                        let bound = best * u64::from(path.stats.weight);
                        assert!(path.cost >= best && path.cost * 100 <= bound, "{what}");
                        assert!(path.stats.peak_bytes <= limit, "{what}");
                    }
                    Err(e) => assert!(matches!(e, PathError::MemoryLimit { .. }), "{what}: {e:?}"),
                }
                assert!(kept <= limit, "{what}: {kept} bytes kept");
            }
            assert!(!(without.is_ok() && with.is_err()), "{what}: answered without the prelude, not with it: {with:?}");
        }
    }
}
