//! Frame time of the plugin: 100 agents (50 drones, 50 fish) cross oa_dm7 (0.5 m voxels) in a
//! headless `App`, every frame's `App::update` timed (all the plugin's systems: requests, the
//! queue within its expansion budget, re-routing, following with avoidance). Side by side for
//! two queue budgets (`NavSettings::expansions_per_frame`) and a wall-clock budget of 1 ms for
//! the queue (`NavSettings::time_budget`). Criterion times a whole crossing; before it, one
//! crossing per setting prints the frame-time distribution:
//! `frames budget=.. time_budget_us=.. frames=.. mean_us=.. p99_us=.. max_us=.. plugin_p99_us=..
//! plugin_max_us=.. plugin_over_budget=.. arrived=..` (`plugin_*`: from just before the plugin's
//! systems to just after them; `plugin_over_budget`: frames where that exceeded the time budget).
//! Skipped with a notice without `../shared/levels`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy_app::{App, TaskPoolPlugin, Update};
use bevy_ecs::prelude::*;
use bevy_math::{IVec3, Vec3};
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use bevy_transform::components::Transform;
use bevy_voxnav::voxnav::{Components, LevelConfig, LevelMesh, Media, Voxel, VoxelWorld, build_level};
use bevy_voxnav::{Arrived, Destination, NavAgent, NavSet, NavSettings, NavWorld, VoxNavPlugin};
use criterion::{Criterion, criterion_group, criterion_main};

#[derive(Resource, Default)]
struct Count(usize);

/// The plugin's own time this frame: from just before its systems to just after them.
#[derive(Resource, Default)]
struct PluginTime {
    began: Option<Instant>,
    took: Duration,
}

fn before_plugin(mut t: ResMut<PluginTime>) {
    t.began = Some(Instant::now());
}

fn after_plugin(mut t: ResMut<PluginTime>) {
    t.took = t.began.map_or(Duration::ZERO, |b| b.elapsed());
}

fn count(mut c: ResMut<Count>, mut a: MessageReader<Arrived>) {
    c.0 += a.read().count();
}

fn spread(world: &VoxelWorld, media: Media, kind: Voxel, n: usize, taken: &mut Vec<IVec3>) -> Vec<IVec3> {
    let labels = Components::new(world, media).expect("labels");
    let d = world.dims().as_ivec3();
    let mut by_label: std::collections::HashMap<u32, Vec<IVec3>> = Default::default();
    for z in 0..d.z {
        for y in 0..d.y {
            for x in 0..d.x {
                let v = IVec3::new(x, y, z);
                if world.get(v) == kind
                    && let Some(l) = labels.label(world, v)
                {
                    by_label.entry(l).or_default().push(v);
                }
            }
        }
    }
    let pool = by_label.into_values().max_by_key(Vec::len).expect("some voxels");
    let (mut state, mut out) = (0x5EED_u64, Vec::new());
    while out.len() < n {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let v = pool[(state >> 33) as usize % pool.len()];
        if taken.iter().all(|t| (*t - v).abs().max_element() >= 2) {
            taken.push(v);
            out.push(v);
        }
    }
    out
}

/// A ready app with the 100 agents spawned.
fn scenario(world: &VoxelWorld, (budget, time_budget): (usize, Option<Duration>)) -> App {
    let mut app = App::new();
    let settings = NavSettings { expansions_per_frame: budget, time_budget, ..Default::default() };
    app.add_plugins((TaskPoolPlugin::default(), TimePlugin, VoxNavPlugin { settings }))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(1.0 / 60.0)))
        .insert_resource(NavWorld::new(world.clone()))
        .init_resource::<Count>()
        .init_resource::<PluginTime>()
        .add_systems(Update, (before_plugin.before(NavSet), (after_plugin, count).after(NavSet)));
    let mut taken = Vec::new();
    let drones = spread(world, Media::AIR, Voxel::Air, 100, &mut taken);
    let fish = spread(world, Media::WATER, Voxel::Water, 100, &mut taken);
    for i in 0..50 {
        for (points, agent) in [(&drones, NavAgent::drone(0.5)), (&fish, NavAgent::fish(0.4))] {
            app.world_mut().spawn((
                agent,
                Transform::from_translation(world.voxel_center(points[i])),
                Destination(world.voxel_center(points[50 + i])),
            ));
        }
    }
    app
}

/// Runs a crossing; returns each frame's time (`App::update`) and the plugin's part of it.
fn cross(app: &mut App) -> Vec<(Duration, Duration)> {
    let mut frames = Vec::new();
    for _ in 0..6000 {
        let t = Instant::now();
        app.update();
        frames.push((t.elapsed(), app.world().resource::<PluginTime>().took));
        if app.world().resource::<Count>().0 == 100 {
            break;
        }
    }
    frames
}

fn bench(c: &mut Criterion) {
    let dir = std::env::var_os("VOXNAV_LEVELS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/levels"));
    let Ok(mesh) = LevelMesh::load(dir.join("oa_dm7.glb"), "water") else {
        eprintln!("NOTICE: {} has no oa_dm7.glb; skipping", dir.display());
        return;
    };
    let config = LevelConfig { voxel_size: 0.5, seeds: vec![Vec3::new(11.38, 4.66, 17.07)], ..Default::default() };
    let world = build_level(&mesh, &config).expect("the level builds").world;
    let budgets = [(5_000, None), (20_000, None), (20_000, Some(Duration::from_millis(1)))];
    for budget in budgets {
        let mut app = scenario(&world, budget);
        let run = cross(&mut app);
        let (mut frames, mut plugin): (Vec<u128>, Vec<u128>) =
            run.iter().map(|(f, p)| (f.as_micros(), p.as_micros())).unzip();
        let n = frames.len();
        let mean = frames.iter().sum::<u128>() / n as u128;
        let over = budget.1.map_or(0, |b| plugin.iter().filter(|&&p| p > b.as_micros()).count());
        frames.sort_unstable();
        plugin.sort_unstable();
        println!(
            "frames budget={} time_budget_us={} frames={n} mean_us={mean} p99_us={} max_us={} plugin_p99_us={} plugin_max_us={} plugin_over_budget={over} arrived={}",
            budget.0,
            budget.1.map_or(0, |d| d.as_micros()),
            frames[n * 99 / 100],
            frames[n - 1],
            plugin[n * 99 / 100],
            plugin[n - 1],
            app.world().resource::<Count>().0
        );
    }
    let mut group = c.benchmark_group("crossing_100_agents_oa_dm7");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(10));
    for budget in budgets {
        let name =
            format!("budget_{}{}", budget.0, budget.1.map_or(String::new(), |d| format!("_{}us", d.as_micros())));
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let mut app = scenario(&world, budget);
                    total += cross(&mut app).into_iter().map(|f| f.0).sum::<Duration>();
                    assert_eq!(app.world().resource::<Count>().0, 100, "every agent arrives");
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
