//! The searches on adversarial maps (`common/adversarial.rs`): a wall with four small windows
//! far from the straight line, a corridor of blind branches that lead toward the goal, a sealed
//! room around the goal. Exact modes agree on the optimal cost, the budget mode stays within
//! its bound with a valid path, and a goal sealed in a small room costs the budget mode one
//! phase, not a pass over the reachable space per weight.

mod common;

use common::adversarial::{Case, dead_ends, sealed_room, windowed_wall};
use voxnav::prelude::*;
use voxnav::{PathCheck, PathRequest};

fn find(case: &Case, algorithm: Algorithm) -> (Result<Path, PathError>, usize) {
    let config = SearchConfig { algorithm, ..Default::default() };
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

#[test]
fn a_sealed_goal_costs_the_budget_mode_one_phase() {
    let case = sealed_room(64);
    let (astar, astar_expanded) = find(&case, Algorithm::AStar);
    assert!(matches!(astar, Err(PathError::Unreachable { .. })));
    let (jps, _) = find(&case, Algorithm::Jps);
    assert!(matches!(jps, Err(PathError::Unreachable { .. })));
    let (budget, budget_expanded) = find(&case, Algorithm::BUDGET);
    assert!(matches!(budget, Err(PathError::Unreachable { .. })));
    // A* closes every voxel it can reach. The budget mode, after its first phase (30,000
    // expansions), floods the goal's side for as many voxels: the room is smaller, so it
    // answers there (without that, seven capped phases and a pass like A*'s; reopening
    // voxels, seven passes).
    let Algorithm::Budget { phase_expansions, .. } = Algorithm::BUDGET else { unreachable!() };
    assert!(astar_expanded > 4 * phase_expansions as usize, "{astar_expanded}");
    assert!(
        budget_expanded <= phase_expansions as usize + 7 * 7 * 7,
        "{budget_expanded} expansions against A*'s {astar_expanded}"
    );
    // A door in the room: the goal's side is the whole world, larger than a phase, so the
    // flood gives up and the phases go on to a path within the bound.
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
