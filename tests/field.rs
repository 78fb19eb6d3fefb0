//! The shared-goal field against an independent Dijkstra oracle (seeded random worlds, every
//! diagonal rule, priced media) and against fresh exact searches on a Warframe map.

mod common;

use common::{check_steps, distances, index, random_free_voxel, random_world, rng, walled_world};
use rand::RngExt;
use voxnav::prelude::*;
use voxnav::{FieldError, GoalField, Scenario};

/// Reverse Dijkstra oracle: the cost from every voxel to `goal`, from forward searches.
fn oracle_cost(world: &VoxelWorld, start: IVec3, goal: IVec3, config: &SearchConfig) -> Option<u64> {
    distances(world, start, config.diagonal, &config.costs, config.media)[index(world, goal)]
}

fn check_world(world: &VoxelWorld, seed: u64, config: &SearchConfig, starts: usize) -> usize {
    let mut r = rng(seed);
    let Some(goal) = random_free_voxel(&mut r, world, config.media) else { return 0 };
    let mut field = GoalField::new(world, goal, config).unwrap();
    let starts: Vec<IVec3> = (0..starts).filter_map(|_| random_free_voxel(&mut r, world, config.media)).collect();
    let reached = field.grow_to(world, &starts).unwrap();
    let mut checked = 0;
    for &s in &starts {
        let want = oracle_cost(world, s, goal, config);
        match field.path_from(world, s) {
            Ok(path) => {
                assert_eq!(Some(path.cost), want, "seed {seed} {config:?}: {s} -> {goal}");
                check_steps(world, &path, s, config.diagonal, &config.costs, config.media);
                assert_eq!(path.voxels.last(), Some(&goal));
                checked += 1;
            }
            Err(FieldError::Unreachable(v)) => {
                assert_eq!(v, s);
                assert_eq!(want, None, "seed {seed}: field says {s} cannot reach {goal}");
            }
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
    assert_eq!(reached, checked);
    checked
}

#[test]
fn field_costs_match_dijkstra_on_random_worlds() {
    let mut total = 0;
    for seed in 0..120u64 {
        let mut r = rng(1000 + seed);
        let world = random_world(&mut r, 12);
        let diagonal = [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked][seed as usize % 3];
        let media =
            [Media::ANY, Media::AIR, Media::WATER, Media { air: Some(100), water: Some(250) }][(seed / 3) as usize % 4];
        let costs = if seed % 2 == 0 { CostModel::GAME } else { CostModel::PRECISE };
        let config = SearchConfig { diagonal, media, costs, ..Default::default() };
        total += check_world(&world, seed, &config, 12);
    }
    assert!(total > 600, "only {total} reachable starts checked");
}

#[test]
fn faces_rule_and_priced_water_use_the_forward_move() {
    // Walled worlds with much water: one-way corner moves under Faces, and entering water costs
    // more than leaving it, so a backward search priced by the reverse move would differ.
    let mut total = 0;
    for seed in 0..30u64 {
        let mut r = rng(2000 + seed);
        let dims = UVec3::new(r.random_range(6..14), r.random_range(6..14), r.random_range(6..14));
        let world = walled_world(&mut r, dims, 25, 35);
        let media = Media { air: Some(100), water: Some(300) };
        let config = SearchConfig { diagonal: DiagonalRule::Faces, media, ..Default::default() };
        total += check_world(&world, seed, &config, 16);
    }
    assert!(total > 200, "only {total} reachable starts checked");
}

#[test]
fn a_one_way_corner_is_priced_forward() {
    // Under Faces, from a the corner move to b = a + (1,1,1) needs the three face voxels of a;
    // the move back from b needs b's three face voxels. Block one of b's only.
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(3)).unwrap();
    for z in 0..3 {
        for y in 0..3 {
            for x in 0..3 {
                world.set(IVec3::new(x, y, z), Voxel::Solid).unwrap();
            }
        }
    }
    let (a, b) = (IVec3::ZERO, IVec3::ONE);
    for v in [a, b, IVec3::X, IVec3::Y, IVec3::Z] {
        world.set(v, Voxel::Water).unwrap();
    }
    let config = SearchConfig {
        diagonal: DiagonalRule::Faces,
        media: Media { air: None, water: Some(200) },
        ..Default::default()
    };
    // a -> b: one corner move into water: 17 * 2.
    let mut field = GoalField::new(&world, b, &config).unwrap();
    assert_eq!(field.cost_from(&world, a).unwrap(), 34);
    assert_eq!(field.next_step(a), Some(b));
    // b -> a: b's face voxels (0,1,1), (1,0,1), (1,1,0) are solid: no way back.
    let mut back = GoalField::new(&world, a, &config).unwrap();
    assert_eq!(back.cost_from(&world, b), Err(FieldError::Unreachable(b)));
    assert_eq!(oracle_cost(&world, b, a, &config), None);
    assert_eq!(oracle_cost(&world, a, b, &config), Some(34));
}

#[test]
fn bad_input_and_limits_are_errors() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(40, 8, 40)).unwrap();
    world.set(IVec3::new(5, 5, 5), Voxel::Solid).unwrap();
    let config = SearchConfig::default();
    assert!(matches!(GoalField::new(&world, IVec3::new(-1, 0, 0), &config), Err(FieldError::GoalOutOfBounds(_))));
    assert!(matches!(GoalField::new(&world, IVec3::new(5, 5, 5), &config), Err(FieldError::GoalBlocked(_))));
    let bad = SearchConfig { costs: CostModel { face: 0, edge: 1, corner: 1 }, ..config };
    assert!(matches!(GoalField::new(&world, IVec3::ZERO, &bad), Err(FieldError::InvalidCosts(_))));
    // A world-space goal is the voxel containing it; a NaN one is an error.
    assert_eq!(GoalField::new(&world, Vec3::new(3.5, 2.0, 1.9), &config).unwrap().goal(), IVec3::new(3, 2, 1));
    assert!(matches!(GoalField::new(&world, Vec3::NAN, &config), Err(FieldError::NonFinite)));
    let mut field = GoalField::new(&world, IVec3::ZERO, &config).unwrap();
    assert_eq!(field.cost_from(&world, IVec3::new(5, 5, 5)), Err(FieldError::StartBlocked(IVec3::new(5, 5, 5))));
    assert_eq!(field.grow_to(&world, &[IVec3::new(0, 9, 0)]), Err(FieldError::StartOutOfBounds(IVec3::new(0, 9, 0))));
    // A memory limit of about one page stops the far query, and what was settled stays exact.
    let mut small = GoalField::with_max_bytes(&world, IVec3::ZERO, &config, 60_000).unwrap();
    assert_eq!(small.cost_from(&world, IVec3::new(39, 7, 39)), Err(FieldError::MemoryLimit { limit: 60_000 }));
    assert!(small.memory_bytes() <= 60_000, "{} bytes", small.memory_bytes());
    let near = IVec3::new(3, 2, 1);
    assert_eq!(small.cost_from(&world, near), field.cost_from(&world, near));
    // An expansion budget.
    let capped = SearchConfig { max_expansions: Some(20), ..config };
    let mut capped = GoalField::new(&world, IVec3::ZERO, &capped).unwrap();
    assert_eq!(capped.cost_from(&world, IVec3::new(39, 7, 39)), Err(FieldError::BudgetExhausted { settled: 20 }));
    // An edited world is refused.
    world.set(IVec3::new(9, 1, 1), Voxel::Solid).unwrap();
    assert_eq!(field.cost_from(&world, near), Err(FieldError::WorldChanged));
}

/// The Warframe folder; skips with a notice locally, fails in CI.
fn warframe_or_skip() -> Option<std::path::PathBuf> {
    let dir = common::warframe_dir();
    if dir.is_none() {
        eprintln!("NOTICE: Warframe benchmark missing: the field's Warframe oracle test is skipped");
        assert!(std::env::var_os("CI").is_none(), "CI is set and the Warframe benchmark is missing");
    }
    dir
}

#[test]
fn field_costs_match_exact_searches_on_a_warframe_map() {
    let Some(dir) = warframe_or_skip() else { return };
    let world = VoxelWorld::load_3dmap(dir.join("maps/Complex.3dmap")).unwrap();
    let scen = Scenario::load(dir.join("scenarios/Complex.3dmap.3dscen")).unwrap();
    let config = SearchConfig { costs: CostModel::PRECISE, ..Default::default() };
    let goal = scen.problems[0].goal;
    let starts: Vec<IVec3> = scen.problems.iter().step_by(50).map(|p| p.start).collect();
    let mut field = GoalField::new(&world, goal, &config).unwrap();
    assert_eq!(field.grow_to(&world, &starts).unwrap(), starts.len());
    let jps = SearchConfig { algorithm: Algorithm::Jps, ..config };
    let mut finder = Pathfinder::new();
    for &s in &starts {
        let path = field.path_from(&world, s).unwrap();
        let fresh = finder.find(&world, None, &PathRequest::new(s, goal, jps)).unwrap();
        assert_eq!(path.cost, fresh.cost, "{s} -> {goal}");
        check_steps(&world, &path, s, config.diagonal, &config.costs, config.media);
    }
    println!(
        "Complex: {} field paths equal to JPS, {} voxels settled, {} bytes",
        starts.len(),
        field.settled(),
        field.memory_bytes()
    );
}

/// The built-in cost models, and valid models with each kind of tie the metric's rules allow:
/// an edge move as dear as two face moves, a corner move as dear as a face and an edge move or
/// as an edge move, all moves alike, a corner and a face move as dear as two edge moves.
const TIED_AND_STRICT: [CostModel; 6] = [
    CostModel::GAME,
    CostModel::PRECISE,
    CostModel { face: 10, edge: 20, corner: 30 },
    CostModel { face: 6, edge: 8, corner: 8 },
    CostModel { face: 10, edge: 10, corner: 10 },
    CostModel { face: 10, edge: 15, corner: 20 },
];

/// The pruned field (jump point search's canonical successors, with every move a voxel is
/// reached by at its cost kept) against Dijkstra from the goal on every free voxel, in sparse
/// worlds full of equal-cost ties, for the symmetric rules where it prunes.
#[test]
fn every_voxel_of_a_pruned_field_is_exact() {
    let mut checked = 0usize;
    for seed in 0..240u64 {
        let mut r = rng(7000 + seed);
        let dims = glam::UVec3::new(r.random_range(6..18), r.random_range(6..18), r.random_range(4..14));
        let world = walled_world(&mut r, dims, [0, 3, 8, 15][seed as usize % 4], 0);
        let diagonal = [DiagonalRule::Strict, DiagonalRule::Unchecked][(seed / 4) as usize % 2];
        let costs = TIED_AND_STRICT[(seed / 8) as usize % TIED_AND_STRICT.len()];
        let config = SearchConfig { diagonal, costs, ..Default::default() };
        let Some(goal) = random_free_voxel(&mut r, &world, config.media) else { continue };
        let want = distances(&world, goal, diagonal, &costs, config.media);
        let mut field = GoalField::new(&world, goal, &config).unwrap();
        let d = world.dims().as_ivec3();
        for z in 0..d.z {
            for y in 0..d.y {
                for x in 0..d.x {
                    let v = IVec3::new(x, y, z);
                    if world.is_blocked(v) {
                        continue;
                    }
                    let got = field.cost_from(&world, v).ok();
                    assert_eq!(got, want[index(&world, v)], "seed {seed} {diagonal:?} {costs:?}: {v} -> {goal}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 50_000, "only {checked} voxels checked");
}
