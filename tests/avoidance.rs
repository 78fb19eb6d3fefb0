//! Local avoidance: bad input is an error and moves nothing, centres never leave the free space
//! of their media, moving obstacles are avoided, a group led by a shared-goal field reaches
//! its goal without overlaps, and runs replay exactly.

mod common;

use common::{random_free_voxel, rng};
use rand::RngExt;
use voxnav::prelude::*;
use voxnav::{Avoidance, AvoidanceConfig, AvoidanceError, CrowdAgent, GoalField, MovingObstacle};

const DT: f32 = 0.05;

/// Largest overlap of two spheres, as a fraction of the smaller radius.
fn worst_overlap(agents: &[CrowdAgent]) -> f32 {
    let mut worst = 0.0f32;
    for (i, a) in agents.iter().enumerate() {
        for b in &agents[i + 1..] {
            let overlap = a.radius + b.radius - a.position.distance(b.position);
            worst = worst.max(overlap / a.radius.min(b.radius));
        }
    }
    worst
}

fn in_free_space(world: &VoxelWorld, a: &CrowdAgent) -> bool {
    a.media.allows(world.get(world.voxel_at(a.position)))
}

#[test]
fn bad_input_is_an_error_and_moves_nothing() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(8)).unwrap();
    world.set(IVec3::new(1, 1, 1), Voxel::Solid).unwrap();
    let good = CrowdAgent { preferred_velocity: Vec3::X, ..CrowdAgent::new(Vec3::splat(4.5), 0.3, 2.0, Media::AIR) };
    let config = AvoidanceConfig::default();
    let mut avoidance = Avoidance::new();
    let cases: Vec<(Vec<CrowdAgent>, Vec<MovingObstacle>, f32, AvoidanceConfig)> = vec![
        (vec![good], vec![], 0.0, config),
        (vec![good], vec![], f32::NAN, config),
        (vec![good], vec![], 0.6, config), // 2 units/s for 0.6 s crosses more than a voxel
        (vec![good], vec![], DT, AvoidanceConfig { time_horizon: -1.0, ..config }),
        (vec![good], vec![], DT, AvoidanceConfig { neighbor_distance: f32::INFINITY, ..config }),
        (vec![good, CrowdAgent { position: Vec3::splat(1.5), ..good }], vec![], DT, config), // in solid
        (vec![good, CrowdAgent { position: Vec3::new(4.5, 20.0, 4.5), ..good }], vec![], DT, config), // outside
        (vec![good, CrowdAgent { radius: f32::NAN, ..good }], vec![], DT, config),
        (vec![good, CrowdAgent { media: Media::WATER, ..good }], vec![], DT, config), // a fish in air
        (vec![good], vec![MovingObstacle { position: Vec3::ZERO, velocity: Vec3::ZERO, radius: -1.0 }], DT, config),
    ];
    for (i, (mut agents, obstacles, dt, config)) in cases.into_iter().enumerate() {
        let before = agents.clone();
        let result = avoidance.step(&world, &mut agents, &obstacles, dt, &config);
        assert!(result.is_err(), "case {i} was accepted");
        assert_eq!(format!("{agents:?}"), format!("{before:?}"), "case {i} moved agents");
    }
    let mut agents = vec![good, CrowdAgent { position: Vec3::splat(1.5), ..good }];
    assert_eq!(avoidance.step(&world, &mut agents, &[], DT, &config), Err(AvoidanceError::InvalidAgent { index: 1 }));
}

#[test]
fn centres_never_leave_the_free_space_of_their_media() {
    // Seeded random worlds with water; drones and fish pushing in random directions (into
    // walls, through the surface) for many steps.
    for seed in 0..6u64 {
        let mut r = rng(300 + seed);
        let world = common::walled_world(&mut r, UVec3::new(16, 12, 16), 15, 30);
        let mut agents = Vec::new();
        for k in 0..40 {
            let media = if k % 2 == 0 { Media::AIR } else { Media::WATER };
            if let Some(v) = random_free_voxel(&mut r, &world, media) {
                let p = world.voxel_center(v);
                if agents.iter().all(|a: &CrowdAgent| a.position.distance(p) > 0.7) {
                    agents.push(CrowdAgent::new(p, 0.3, 3.0, media));
                }
            }
        }
        assert!(agents.len() > 15, "seed {seed}: {} agents", agents.len());
        let mut avoidance = Avoidance::new();
        for tick in 0..300 {
            if tick % 40 == 0 {
                for a in &mut agents {
                    let d = Vec3::new(r.random_range(-1.0..1.0), r.random_range(-1.0..1.0), r.random_range(-1.0..1.0));
                    a.preferred_velocity = d.normalize_or(Vec3::Y) * 3.0;
                }
            }
            avoidance.step(&world, &mut agents, &[], DT, &AvoidanceConfig::default()).unwrap();
            for (i, a) in agents.iter().enumerate() {
                assert!(
                    in_free_space(&world, a),
                    "seed {seed} tick {tick}: agent {i} at {} left its media",
                    a.position
                );
                assert!(a.velocity.length() <= a.max_speed * 1.001);
            }
            assert!(worst_overlap(&agents) <= 0.05, "seed {seed} tick {tick}: overlap {}", worst_overlap(&agents));
        }
    }
}

#[test]
fn a_moving_obstacle_is_avoided() {
    let world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(40, 12, 12)).unwrap();
    // Agents fly +x along a line; a ball comes the other way on the same line.
    let mut agents: Vec<CrowdAgent> =
        (0..4).map(|k| CrowdAgent::new(Vec3::new(3.5 + 1.5 * k as f32, 6.0, 6.0), 0.3, 3.0, Media::AIR)).collect();
    let mut ball =
        MovingObstacle { position: Vec3::new(36.0, 6.0, 6.0), velocity: Vec3::new(-2.0, 0.0, 0.0), radius: 1.0 };
    let mut avoidance = Avoidance::new();
    let mut closest = f32::MAX;
    for _ in 0..400 {
        for a in &mut agents {
            a.preferred_velocity = Vec3::new(2.5, 0.0, 0.0).min((Vec3::new(36.5, 6.0, 6.0) - a.position) / (4.0 * DT));
        }
        avoidance.step(&world, &mut agents, &[ball], DT, &AvoidanceConfig::default()).unwrap();
        ball.position += ball.velocity * DT;
        for a in &agents {
            closest = closest.min(a.position.distance(ball.position) - a.radius - ball.radius);
        }
    }
    assert!(closest >= -0.05 * 0.3, "an agent entered the ball by {}", -closest);
    assert!(agents.iter().all(|a| a.position.x > 30.0), "{:?}", agents.iter().map(|a| a.position).collect::<Vec<_>>());
}

/// A group led by a shared-goal field: each agent's preferred velocity points at the centre
/// of its voxel's next step. Returns the final agents.
fn rally(seed: u64) -> (Vec<CrowdAgent>, usize, f32) {
    let mut r = rng(seed);
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(30, 10, 30)).unwrap();
    world.fill_voxels(IVec3::new(14, 0, 0), IVec3::new(15, 9, 29), Voxel::Solid).unwrap();
    world.fill_voxels(IVec3::new(14, 3, 12), IVec3::new(15, 6, 17), Voxel::Air).unwrap(); // the gap
    for _ in 0..40 {
        let v = IVec3::new(r.random_range(0..30), r.random_range(0..10), r.random_range(0..30));
        if v.x < 12 || v.x > 17 {
            world.set(v, Voxel::Solid).unwrap();
        }
    }
    let goal = IVec3::new(25, 5, 15);
    world.set(goal, Voxel::Air).unwrap();
    let config = SearchConfig::default();
    let mut field = GoalField::new(&world, goal, &config).unwrap();
    let mut agents: Vec<CrowdAgent> = Vec::new();
    while agents.len() < 30 {
        let v = IVec3::new(r.random_range(1..10), r.random_range(1..9), r.random_range(2..28));
        let p = world.voxel_center(v);
        if !world.is_blocked(v)
            && field.cost_from(&world, v).is_ok()
            && agents.iter().all(|a| a.position.distance(p) > 0.8)
        {
            agents.push(CrowdAgent::new(p, 0.3, 3.0, Media::AIR));
        }
    }
    let starts: Vec<IVec3> = agents.iter().map(|a| world.voxel_at(a.position)).collect();
    assert_eq!(field.grow_to(&world, &starts).unwrap(), starts.len());
    let mut avoidance = Avoidance::new();
    let mut worst = 0.0f32;
    let mut ticks = 0;
    let zone = |a: &CrowdAgent| a.position.distance(world.voxel_center(goal)) < 3.0;
    while ticks < 1500 && !agents.iter().all(zone) {
        for a in &mut agents {
            let v = world.voxel_at(a.position);
            // Off the field's region (pushed aside): grow it there, a voxel costs little.
            let next = match field.next_step(v) {
                Some(n) => n,
                None if v == goal => goal,
                None => {
                    field.cost_from(&world, v).unwrap();
                    field.next_step(v).unwrap_or(goal)
                }
            };
            let to = world.voxel_center(next) - a.position;
            a.preferred_velocity = to.normalize_or_zero() * 2.5f32.min(to.length() / (4.0 * DT));
        }
        avoidance.step(&world, &mut agents, &[], DT, &AvoidanceConfig::default()).unwrap();
        worst = worst.max(worst_overlap(&agents));
        assert!(agents.iter().all(|a| in_free_space(&world, a)));
        ticks += 1;
    }
    let arrived = agents.iter().filter(|a| zone(a)).count();
    (agents, arrived, worst)
}

#[test]
fn a_group_led_by_a_goal_field_rallies_without_overlap() {
    for seed in [1u64, 2, 3] {
        let (agents, arrived, worst) = rally(seed);
        assert_eq!(arrived, agents.len(), "seed {seed}");
        assert!(worst <= 0.05, "seed {seed}: overlap {:.1} % of a radius", worst * 100.0);
    }
}

#[test]
fn runs_replay_exactly() {
    let (a, _, _) = rally(7);
    let (b, _, _) = rally(7);
    assert_eq!(a, b);
}
