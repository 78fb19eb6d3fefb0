//! Drones and fish cross a real game level in a Bevy app.
//!
//! ```text
//! cargo run --release -p bevy_voxnav --example level -- --headless [--level PATH] [--frames N]
//!     [--agents N] [--voxel S] [--seed x,y,z] [--time-budget-us N]
//! cargo run --release -p bevy_voxnav --features window --example level -- [--level PATH]
//!     [--frames N] [--screenshot F.png]
//! ```
//!
//! Builds the navigation world from the level's meshes off the main thread (`NavBuild`; nodes
//! named `water*` are water), spawns drones in the air and fish in the largest water, each with
//! its own destination, and runs the schedule at 60 simulated frames per second until every
//! agent has arrived or `--frames` have run. The last line sums it up:
//! `level agents=.. arrived=.. failed=.. rerouted=.. frames=.. build_ms=.. mean_frame_us=..
//! p99_frame_us=.. max_frame_us=..` (frame times are wall-clock times of `App::update`, all
//! systems included).
//!
//! Without `--headless` it opens a window with the level, the drones (orange) and the fish
//! (blue); there the navigation world is built from the meshes of the glTF scene Bevy spawned
//! (`NavMeshSource` on the scene's root, `NavSceneBuild`), and the camera follows the first
//! drone. With `--frames N` the window closes after N frames, `--screenshot F.png` saves the
//! window's last frame. That needs the `window` feature (the whole of Bevy's renderer), `cargo run --release
//! -p bevy_voxnav --features window --example level`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bevy_app::{App, TaskPoolPlugin, Update};
use bevy_ecs::prelude::*;
use bevy_math::{IVec3, Vec3};
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use bevy_transform::components::Transform;
use bevy_voxnav::voxnav::{Components, Media, Voxel, VoxelWorld};
use bevy_voxnav::{
    Arrived, Destination, NavAgent, NavBuild, NavSet, NavWorld, NavWorldReady, PathFailed, Rerouted, VoxNavPlugin,
};

/// Voxel sizes and open-air seed points of the shared levels (`../shared/levels/README.md`).
const KNOWN: [(&str, f32, [f32; 3]); 5] = [
    ("oa_hydronex", 0.5, [14.83, 2.23, 48.56]),
    ("oa_dm7", 0.5, [11.38, 4.66, 17.07]),
    ("oa_islandctf", 0.5, [11.79, 17.67, -0.41]),
    ("lq_e0m2", 0.5, [3.66, 6.49, 46.74]),
    ("samurai_monastery", 0.5, [-13.24, 2.48, -49.44]),
];

struct Args {
    headless: bool,
    level: PathBuf,
    frames: usize,
    agents: usize,
    voxel: Option<f32>,
    seed: Option<Vec3>,
    /// `NavSettings::time_budget`, microseconds.
    time_budget_us: Option<u64>,
    /// Windowed mode: frames given explicitly (then it closes after them).
    frames_given: bool,
    /// Windowed mode: a PNG of the window written at the last frame.
    #[cfg_attr(not(feature = "window"), allow(dead_code))]
    screenshot: Option<PathBuf>,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        headless: false,
        level: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/levels/oa_dm7.glb"),
        frames: 3600,
        agents: 100,
        voxel: None,
        seed: None,
        frames_given: false,
        screenshot: None,
        time_budget_us: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--headless" => a.headless = true,
            "--level" => a.level = PathBuf::from(value()?),
            "--frames" => {
                a.frames = value()?.parse().map_err(|_| "--frames takes a number")?;
                a.frames_given = true;
            }
            "--screenshot" => a.screenshot = Some(PathBuf::from(value()?)),
            "--time-budget-us" => {
                a.time_budget_us = Some(value()?.parse().map_err(|_| "--time-budget-us takes microseconds")?)
            }
            "--agents" => a.agents = value()?.parse().map_err(|_| "--agents takes a number")?,
            "--voxel" => a.voxel = Some(value()?.parse().map_err(|_| "--voxel takes metres")?),
            "--seed" => {
                let v: Vec<f32> = value()?.split(',').filter_map(|p| p.trim().parse().ok()).collect();
                a.seed = Some(Vec3::from_slice(v.get(..3).ok_or("--seed takes x,y,z")?));
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(a)
}

#[derive(Resource, Default)]
struct Tally {
    arrived: usize,
    failed: usize,
    rerouted: usize,
}

fn tally(
    mut t: ResMut<Tally>,
    mut a: MessageReader<Arrived>,
    mut f: MessageReader<PathFailed>,
    mut r: MessageReader<Rerouted>,
) {
    t.arrived += a.read().count();
    t.failed += f.read().count();
    t.rerouted += r.read().count();
}

/// `n` voxels of the largest component of `media` (of `kind`), at least 2 voxels from each
/// other and from `taken` (deterministic).
fn spread(world: &VoxelWorld, media: Media, kind: Voxel, n: usize, taken: &mut Vec<IVec3>) -> Vec<IVec3> {
    let Ok(labels) = Components::new(world, media) else { return Vec::new() };
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
    let Some(pool) = by_label.into_values().max_by_key(Vec::len) else { return Vec::new() };
    let mut state = 0x5EED_u64;
    let mut out = Vec::new();
    for _ in 0..n * 200 {
        if out.len() == n {
            break;
        }
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let v = pool[(state >> 33) as usize % pool.len()];
        if taken.iter().all(|t| (*t - v).abs().max_element() >= 2) {
            taken.push(v);
            out.push(v);
        }
    }
    out
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!(
                "{e}\nusage: level [--headless] [--level PATH] [--frames N] [--agents N] [--voxel S] [--seed x,y,z] [--time-budget-us N] [--screenshot F.png]"
            );
            return if e.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    if !args.headless {
        #[cfg(feature = "window")]
        return windowed::run(&args);
        #[cfg(not(feature = "window"))]
        {
            eprintln!("this build has no window: run with --headless, or build with --features window");
            return ExitCode::from(2);
        }
    }
    let name = args.level.file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
    let known = KNOWN.iter().find(|k| k.0 == name);
    let voxel = args.voxel.or(known.map(|k| k.1)).unwrap_or(0.5);
    let seeds: Vec<Vec3> = args.seed.or(known.map(|k| Vec3::from_array(k.2))).into_iter().collect();

    let mut app = App::new();
    let t = Instant::now();
    let settings =
        bevy_voxnav::NavSettings { time_budget: args.time_budget_us.map(Duration::from_micros), ..Default::default() };
    app.add_plugins((TaskPoolPlugin::default(), TimePlugin, VoxNavPlugin { settings }))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(1.0 / 60.0)))
        .init_resource::<Tally>()
        .add_systems(Update, tally.after(NavSet))
        .insert_resource(NavBuild::from_level(&args.level, voxel, seeds, "water*"));
    let ready = loop {
        app.update();
        if let Some(m) = app.world_mut().resource_mut::<Messages<NavWorldReady>>().drain().next() {
            break m;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    if let Some(e) = ready.error {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let build_ms = t.elapsed().as_secs_f64() * 1e3;
    let world = app.world().resource::<NavWorld>().world().clone();
    let mut taken = Vec::new();
    let fish_count = if world.has_water() { args.agents / 2 } else { 0 };
    let drones = spread(&world, Media::AIR, Voxel::Air, 2 * (args.agents - fish_count), &mut taken);
    let fish = spread(&world, Media::WATER, Voxel::Water, 2 * fish_count, &mut taken);
    let centre = |v: IVec3| world.voxel_center(v);
    let mut spawned = 0;
    for (points, agent) in [(&drones, NavAgent::drone(voxel)), (&fish, NavAgent::fish(voxel * 0.8))] {
        let half = points.len() / 2;
        for i in 0..half {
            app.world_mut().spawn((
                agent.clone(),
                Transform::from_translation(centre(points[i])),
                Destination(centre(points[half + i])),
            ));
            spawned += 1;
        }
    }
    let mut frame_us = Vec::with_capacity(args.frames);
    for _ in 0..args.frames {
        let t = Instant::now();
        app.update();
        frame_us.push(t.elapsed().as_micros());
        let tally = app.world().resource::<Tally>();
        if tally.arrived + tally.failed >= spawned {
            break;
        }
    }
    let tally = app.world().resource::<Tally>();
    let frames = frame_us.len();
    let mean = frame_us.iter().sum::<u128>() / frames.max(1) as u128;
    let mut sorted = frame_us.clone();
    sorted.sort_unstable();
    let p99 = sorted.get(frames * 99 / 100).copied().unwrap_or(0);
    let max = sorted.last().copied().unwrap_or(0);
    println!(
        "level name={name} agents={spawned} drones={} fish={} arrived={} failed={} rerouted={} frames={frames} build_ms={build_ms:.0} mean_frame_us={mean} p99_frame_us={p99} max_frame_us={max}",
        drones.len() / 2,
        fish.len() / 2,
        tally.arrived,
        tally.failed,
        tally.rerouted
    );
    if tally.arrived == spawned { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// The windowed mode: the level's own scene drawn by Bevy, agents as spheres, a camera chasing
/// the first drone.
#[cfg(feature = "window")]
mod windowed {
    use super::*;
    use bevy::prelude::*;
    use bevy::render::view::screenshot::{Screenshot, save_to_disk};
    use bevy_voxnav::{NavMeshSource, NavSceneBuild};

    #[derive(Resource)]
    struct Level {
        voxel: f32,
        agents: usize,
        spawned: bool,
        /// Frames to run before closing (`None`: until the window is closed).
        frames: Option<usize>,
        frame: usize,
        arrived: usize,
        screenshot: Option<PathBuf>,
    }

    /// The drone the camera follows.
    #[derive(Component)]
    struct Chased;

    pub fn run(args: &Args) -> ExitCode {
        let name = args.level.file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
        let known = KNOWN.iter().find(|k| k.0 == name);
        let voxel = args.voxel.or(known.map(|k| k.1)).unwrap_or(0.5);
        let seeds: Vec<Vec3> = args.seed.or(known.map(|k| Vec3::from_array(k.2))).into_iter().collect();
        // Bevy resolves a relative asset folder from the executable's (or the crate's) folder.
        let Ok(path) = std::fs::canonicalize(&args.level) else {
            eprintln!("{}: no such level file", args.level.display());
            return ExitCode::from(2);
        };
        let dir = path.parent().map_or(PathBuf::from("."), PathBuf::from);
        let file = path.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned());
        let level = Level {
            voxel,
            agents: args.agents,
            spawned: false,
            frames: args.frames_given.then_some(args.frames),
            frame: 0,
            arrived: 0,
            screenshot: args.screenshot.clone(),
        };
        let mut app = App::new();
        app.add_plugins(DefaultPlugins.set(AssetPlugin { file_path: dir.to_string_lossy().into_owned(), ..default() }))
            .add_plugins(VoxNavPlugin::default())
            // The navigation world from the scene's own meshes once Bevy has loaded them.
            .insert_resource(NavSceneBuild::new(voxel, seeds, "water*"))
            .insert_resource(level)
            .insert_resource(GlobalAmbientLight { brightness: 400.0, ..default() })
            .add_systems(Startup, move |mut commands: Commands, assets: Res<AssetServer>| {
                commands.spawn((
                    WorldAssetRoot(assets.load(GltfAssetLabel::Scene(0).from_asset(file.clone()))),
                    NavMeshSource,
                ));
                commands.spawn((Camera3d::default(), Transform::from_xyz(0.0, 5.0, 10.0)));
            })
            .add_systems(Update, (spawn_agents, chase.after(NavSet), count_frames));
        if app.run().is_success() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
    }

    /// Once the navigation world is ready: the agents, and a light at the camera.
    fn spawn_agents(
        mut commands: Commands,
        mut level: ResMut<Level>,
        nav: Option<Res<NavWorld>>,
        mut meshes: ResMut<Assets<Mesh>>,
        mut materials: ResMut<Assets<StandardMaterial>>,
    ) {
        let Some(nav) = nav else { return };
        if level.spawned {
            return;
        }
        level.spawned = true;
        let world = nav.world();
        let mut taken = Vec::new();
        let fish_count = if world.has_water() { level.agents / 2 } else { 0 };
        let drones = spread(world, Media::AIR, Voxel::Air, 2 * (level.agents - fish_count), &mut taken);
        let fish = spread(world, Media::WATER, Voxel::Water, 2 * fish_count, &mut taken);
        let kinds = [
            (&drones, NavAgent::drone(level.voxel), Color::srgb(1.0, 0.5, 0.1)),
            (&fish, NavAgent::fish(level.voxel * 0.8), Color::srgb(0.2, 0.5, 1.0)),
        ];
        for (k, (points, agent, color)) in kinds.into_iter().enumerate() {
            let mesh = meshes.add(Sphere::new(agent.radius()));
            let material = materials.add(StandardMaterial { base_color: color, ..default() });
            let half = points.len() / 2;
            for i in 0..half {
                let mut entity = commands.spawn((
                    agent.clone(),
                    Mesh3d(mesh.clone()),
                    MeshMaterial3d(material.clone()),
                    Transform::from_translation(world.voxel_center(points[i])),
                    Destination(world.voxel_center(points[half + i])),
                ));
                if k == 0 && i == 0 {
                    entity.insert(Chased).with_child(PointLight { range: 40.0, intensity: 2.0e6, ..default() });
                }
            }
        }
    }

    /// The camera behind and above the chased drone, looking where it flies.
    fn chase(
        time: Res<Time>,
        drone: Query<&Transform, (With<Chased>, Without<Camera3d>)>,
        mut camera: Query<&mut Transform, With<Camera3d>>,
        level: Res<Level>,
    ) {
        let (Ok(drone), Ok(mut camera)) = (drone.single(), camera.single_mut()) else { return };
        let back = drone.rotation * Vec3::Z; // forward is -Z
        let want = drone.translation + back * 6.0 * level.voxel + Vec3::Y * 2.5 * level.voxel;
        let k = 1.0 - (-4.0 * time.delta_secs()).exp();
        camera.translation = camera.translation.lerp(want, k);
        camera.look_at(drone.translation, Vec3::Y);
    }

    /// Closes the window after `--frames`, saving `--screenshot` first; the last line sums up
    /// (`level window frames=.. agents=.. arrived=..`), and the exit is an error if the
    /// navigation world was never built from the scene.
    fn count_frames(
        mut commands: Commands,
        mut level: ResMut<Level>,
        mut exit: MessageWriter<AppExit>,
        mut arrived: MessageReader<Arrived>,
        agents: Query<(), With<NavAgent>>,
    ) {
        let Some(frames) = level.frames else { return };
        level.frame += 1;
        level.arrived += arrived.read().count();
        if level.frame == frames
            && let Some(path) = level.screenshot.clone()
        {
            commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
        }
        if level.frame >= frames + 10 {
            println!("level window frames={} agents={} arrived={}", level.frame, agents.iter().count(), level.arrived);
            exit.write(if level.spawned { AppExit::Success } else { AppExit::error() });
        }
    }
}
