//! The plugin in a headless `App` (no renderer): a level built from a shared glTF level, 100
//! drones and fish sent across it, the schedule run for simulated time. Every agent arrives,
//! none enters a voxel of the wrong medium, no two overlap; a door closing in front of a drone
//! re-routes it without a jump; a baked `.vxn` loads as an asset.
//!
//! The levels are found through `VOXNAV_LEVELS_DIR` or `../shared/levels` beside the
//! repository; without them the level test prints a notice and passes, except in CI (`CI` set),
//! where it fails.

use std::path::PathBuf;
use std::time::Duration;

use bevy_app::{App, TaskPoolPlugin};
use bevy_ecs::prelude::*;
use bevy_math::{IVec3, UVec3, Vec3};
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use bevy_transform::components::Transform;
use bevy_voxnav::voxnav::{Components, Media, Voxel, VoxelWorld};
use bevy_voxnav::{
    Arrived, Destination, NavAgent, NavBuild, NavState, NavWorld, NavWorldReady, PathFailed, Rerouted, VoxNavPlugin,
};

/// Frames per simulated second.
const FPS: f32 = 30.0;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((TaskPoolPlugin::default(), TimePlugin, VoxNavPlugin::default()));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(1.0 / FPS)));
    app
}

fn levels_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VOXNAV_LEVELS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/levels"));
    if dir.join("oa_dm7.glb").is_file() {
        return Some(dir);
    }
    assert!(std::env::var_os("CI").is_none(), "{} is missing and CI is set", dir.display());
    eprintln!("NOTICE: shared levels not found in {}; skipping", dir.display());
    None
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// `n` voxels of the largest component of `media` (whose voxels are all of `kind`), each at
/// least `gap` voxels (Chebyshev) from the others and from `taken`.
fn spread(
    world: &VoxelWorld,
    media: Media,
    kind: Voxel,
    n: usize,
    gap: i32,
    taken: &mut Vec<IVec3>,
    rng: &mut Rng,
) -> Vec<IVec3> {
    let labels = Components::new(world, media).unwrap();
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
    let pool = by_label.into_values().max_by_key(Vec::len).unwrap();
    let mut out = Vec::new();
    for _ in 0..n * 200 {
        if out.len() == n {
            break;
        }
        let v = pool[rng.below(pool.len())];
        if taken.iter().all(|t| (*t - v).abs().max_element() >= gap) {
            taken.push(v);
            out.push(v);
        }
    }
    assert_eq!(out.len(), n, "room for {n} agents");
    out
}

/// Runs until `done` or `frames` updates; checks every frame that no agent is in a voxel of the
/// wrong medium and no two agents overlap by more than 5 % of a radius. Returns the frames run.
fn run(app: &mut App, frames: usize, mut done: impl FnMut(&mut App) -> bool) -> usize {
    for frame in 0..frames {
        app.update();
        let world = app.world().resource::<NavWorld>().world().clone();
        let mut agents = app.world_mut().query::<(Entity, &NavAgent, &Transform)>();
        let agents: Vec<(Entity, Media, f32, Vec3)> =
            agents.iter(app.world()).map(|(e, a, t)| (e, a.agent.media(), a.radius(), t.translation)).collect();
        for (i, &(e, media, radius, p)) in agents.iter().enumerate() {
            assert!(media.allows(world.get(world.voxel_at(p))), "frame {frame}: {e:?} at {p} is outside its media");
            for &(f, _, r, q) in &agents[i + 1..] {
                let overlap = radius + r - p.distance(q);
                assert!(overlap <= 0.05 * radius.min(r), "frame {frame}: {e:?} and {f:?} overlap by {overlap}");
            }
        }
        if done(app) {
            return frame + 1;
        }
    }
    frames
}

#[derive(Resource, Default)]
struct Tally {
    arrived: usize,
    failed: Vec<String>,
    rerouted: usize,
}

fn tally(
    mut t: ResMut<Tally>,
    mut a: MessageReader<Arrived>,
    mut f: MessageReader<PathFailed>,
    mut r: MessageReader<Rerouted>,
) {
    t.arrived += a.read().count();
    t.failed.extend(f.read().map(|f| f.error.to_string()));
    t.rerouted += r.read().count();
}

#[test]
fn a_hundred_drones_and_fish_cross_a_real_level() {
    let Some(dir) = levels_dir() else { return };
    let mut app = app();
    app.init_resource::<Tally>().add_systems(bevy_app::Update, tally.after(bevy_voxnav::NavSet));
    let seed = Vec3::new(11.38, 4.66, 17.07);
    app.insert_resource(NavBuild::from_level(dir.join("oa_dm7.glb"), 0.5, vec![seed], "water"));
    let mut ready = None;
    for _ in 0..6000 {
        app.update();
        let mut msgs = app.world_mut().resource_mut::<Messages<NavWorldReady>>();
        if let Some(m) = msgs.drain().next() {
            ready = Some(m);
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(ready.expect("the build finishes").error, None);
    let world = app.world().resource::<NavWorld>().world().clone();
    assert!(world.has_water(), "oa_dm7 has water");

    let mut rng = Rng(0xB00F);
    let mut taken = Vec::new();
    let drones = spread(&world, Media::AIR, Voxel::Air, 100, 2, &mut taken, &mut rng);
    let fish = spread(&world, Media::WATER, Voxel::Water, 100, 2, &mut taken, &mut rng);
    let centre = |v: IVec3| world.voxel_center(v);
    for i in 0..50 {
        app.world_mut().spawn((
            NavAgent::drone(0.5),
            Transform::from_translation(centre(drones[i])),
            Destination(centre(drones[50 + i])),
        ));
        app.world_mut().spawn((
            NavAgent::fish(0.4),
            Transform::from_translation(centre(fish[i])),
            Destination(centre(fish[50 + i])),
        ));
    }
    let frames = run(&mut app, 3000, |app| app.world().resource::<Tally>().arrived == 100);
    let tally = app.world().resource::<Tally>();
    assert!(tally.failed.is_empty(), "failed: {:?}", tally.failed);
    let mut states = app.world_mut().query::<&NavState>();
    let stuck: Vec<NavState> = states.iter(app.world()).filter(|s| **s != NavState::Arrived).cloned().collect();
    assert_eq!(app.world().resource::<Tally>().arrived, 100, "after {frames} frames, not arrived: {stuck:?}");
    eprintln!("100 agents arrived in {frames} frames ({:.1} s simulated)", frames as f32 / FPS);
}

/// A hall of 0.5 m voxels with a wall across it at x = 30-31 and two doors in the wall: the near
/// one at z = 8-11, the far one at z = 30-33 (both y = 4-7).
fn hall_with_two_doors() -> VoxelWorld {
    let mut world = VoxelWorld::new(Vec3::ZERO, 0.5, UVec3::new(60, 12, 40)).unwrap();
    world.fill_voxels(IVec3::new(30, 0, 0), IVec3::new(31, 11, 39), Voxel::Solid).unwrap();
    world.fill_voxels(IVec3::new(30, 4, 8), IVec3::new(31, 7, 11), Voxel::Air).unwrap();
    world.fill_voxels(IVec3::new(30, 4, 30), IVec3::new(31, 7, 33), Voxel::Air).unwrap();
    world
}

#[test]
fn a_door_closing_ahead_reroutes_without_a_jump() {
    // A hall with a wall across it and two doors; the drone plans through the near one, which
    // closes when it is half way there.
    let world = hall_with_two_doors();
    let mut app = app();
    app.init_resource::<Tally>().add_systems(bevy_app::Update, tally.after(bevy_voxnav::NavSet));
    app.insert_resource(NavWorld::new(world));
    let start = Vec3::new(2.25, 2.75, 4.75);
    let drone = app
        .world_mut()
        .spawn((NavAgent::drone(0.5), Transform::from_translation(start), Destination(Vec3::new(27.75, 2.75, 4.75))))
        .id();
    let speed = NavAgent::drone(0.5).profile.speed;
    let mut last = start;
    let mut closed = false;
    let frames = run(&mut app, 2000, |app| {
        let t = *app.world().get::<Transform>(drone).unwrap();
        assert!(
            t.translation.distance(last) <= speed / FPS * 1.05 + 1e-4,
            "the drone jumps: {last} -> {}",
            t.translation
        );
        last = t.translation;
        if !closed && t.translation.x > 7.5 {
            closed = true;
            let mut nav = app.world_mut().resource_mut::<NavWorld>();
            nav.world_mut().fill_voxels(IVec3::new(30, 4, 8), IVec3::new(31, 7, 11), Voxel::Solid).unwrap();
        }
        app.world().resource::<Tally>().arrived == 1
    });
    let tally = app.world().resource::<Tally>();
    assert!(closed && tally.rerouted == 1, "closed {closed}, rerouted {}", tally.rerouted);
    assert_eq!(tally.arrived, 1, "arrived after {frames} frames; failed {:?}", tally.failed);
    assert!(app.world().get::<Destination>(drone).is_none(), "the destination is removed on arrival");
}

#[test]
fn a_baked_world_loads_as_an_asset() {
    use bevy_asset::{AssetPlugin, AssetServer};
    use bevy_voxnav::NavWorldAsset;
    let dir = std::env::temp_dir().join(format!("bevy_voxnav_asset_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut world = VoxelWorld::new(Vec3::new(1.0, 2.0, 3.0), 0.25, UVec3::new(20, 10, 30)).unwrap();
    world.fill_voxels(IVec3::new(3, 0, 0), IVec3::new(5, 9, 29), Voxel::Solid).unwrap();
    world.write_vxn(std::fs::File::create(dir.join("hall.vxn")).unwrap()).unwrap();
    std::fs::write(dir.join("bad.vxn"), b"not a baked world").unwrap();

    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        AssetPlugin { file_path: dir.to_string_lossy().into_owned(), ..Default::default() },
        VoxNavPlugin::default(),
    ));
    let handle = app.world().resource::<AssetServer>().load("hall.vxn");
    let bad = app.world().resource::<AssetServer>().load::<bevy_voxnav::VxnWorld>("bad.vxn");
    app.insert_resource(NavWorldAsset(handle));
    let mut loaded = false;
    for _ in 0..2000 {
        app.update();
        if app.world_mut().resource_mut::<Messages<NavWorldReady>>().drain().next().is_some() {
            loaded = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(loaded, "the asset loads");
    let nav = app.world().resource::<NavWorld>().world();
    assert_eq!((nav.dims(), nav.voxel_size(), nav.origin()), (world.dims(), world.voxel_size(), world.origin()));
    assert_eq!(nav.get(IVec3::new(4, 5, 6)), Voxel::Solid);
    // The file changes and is reloaded (what the `file-watcher` feature does on its own): the new
    // world replaces the old.
    world.fill_voxels(IVec3::new(10, 0, 0), IVec3::new(12, 9, 29), Voxel::Water).unwrap();
    world.write_vxn(std::fs::File::create(dir.join("hall.vxn")).unwrap()).unwrap();
    app.world().resource::<AssetServer>().reload("hall.vxn");
    let mut reloaded = false;
    for _ in 0..2000 {
        app.update();
        if app.world_mut().resource_mut::<Messages<NavWorldReady>>().drain().next().is_some() {
            reloaded = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(reloaded, "the reloaded asset becomes the world");
    assert_eq!(app.world().resource::<NavWorld>().world().get(IVec3::new(11, 5, 6)), Voxel::Water);
    // The foreign file is an error, not a panic.
    for _ in 0..2000 {
        if app.world().resource::<AssetServer>().load_state(&bad).is_failed() {
            break;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(app.world().resource::<AssetServer>().load_state(&bad).is_failed());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_world_builds_from_the_scene_meshes_it_is_given() {
    use bevy_asset::{AssetApp, AssetPlugin, Assets, RenderAssetUsages};
    use bevy_ecs::name::Name;
    use bevy_mesh::{Indices, Mesh, Mesh3d, PrimitiveTopology};
    use bevy_voxnav::voxnav::{LevelConfig, LevelMesh, TriangleMesh, build_level};
    use bevy_voxnav::{NavMeshSource, NavSceneBuild};
    let Some(dir) = levels_dir() else { return };
    let level = LevelMesh::load(dir.join("oa_dm7.glb"), "water").unwrap();
    let seed = Vec3::new(11.38, 4.66, 17.07);
    let config = LevelConfig { voxel_size: 0.5, seeds: vec![seed], ..Default::default() };
    let expected = build_level(&level, &config).unwrap().world;

    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        AssetPlugin::default(),
        bevy_transform::TransformPlugin,
        VoxNavPlugin::default(),
    ));
    app.init_asset::<Mesh>();
    // Meshes in local coordinates: the solid split in two, one half under a node scaled by 2
    // (exact in floating point), the water under a node named "Water_pool" whose own mesh
    // entity has no name; plus a marker-less decoy that must not count.
    let mesh_of = |m: &TriangleMesh, scale: f32, range: std::ops::Range<usize>| {
        let mut out = Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default());
        out.insert_attribute(
            Mesh::ATTRIBUTE_POSITION,
            m.positions.iter().map(|p| (*p * scale).to_array()).collect::<Vec<_>>(),
        );
        out.insert_indices(Indices::U32(m.triangles[range].iter().flatten().copied().collect()));
        out
    };
    let half = level.solid.triangles.len() / 2;
    let parts = [
        mesh_of(&level.solid, 1.0, 0..half),
        mesh_of(&level.solid, 0.5, half..level.solid.triangles.len()),
        mesh_of(&level.water, 1.0, 0..level.water.triangles.len()),
        mesh_of(&level.solid, 1.0, 0..half),
    ];
    let handles: Vec<bevy_asset::Handle<Mesh>> =
        (0..4).map(|_| app.world().resource::<Assets<Mesh>>().reserve_handle()).collect();
    let world = app.world_mut();
    world.spawn((NavMeshSource, Transform::default(), Name::new("level"))).with_children(|level| {
        level.spawn((Mesh3d(handles[0].clone()), Transform::default(), Name::new("walls.0")));
        level.spawn((Transform::from_scale(Vec3::splat(2.0)), Name::new("scaled"))).with_children(|s| {
            s.spawn((Mesh3d(handles[1].clone()), Transform::default()));
        });
        level.spawn((Transform::default(), Name::new("Water_pool"))).with_children(|w| {
            w.spawn((Mesh3d(handles[2].clone()), Transform::default()));
        });
    });
    world.spawn((Mesh3d(handles[3].clone()), Transform::from_xyz(0.0, 3.0, 0.0), Name::new("decoy")));
    app.insert_resource(NavSceneBuild::new(0.5, vec![seed], "water"));
    // Nothing starts while a marked mesh is still loading.
    for _ in 0..5 {
        app.update();
        assert!(!app.world().contains_resource::<NavBuild>(), "a build began before the meshes were there");
    }
    for (handle, mesh) in handles.iter().zip(parts) {
        app.world_mut().resource_mut::<Assets<Mesh>>().insert(handle.id(), mesh).unwrap();
    }
    let mut ready = None;
    for _ in 0..6000 {
        app.update();
        if let Some(m) = app.world_mut().resource_mut::<Messages<NavWorldReady>>().drain().next() {
            ready = Some(m);
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(ready.expect("the build finishes").error, None);
    assert!(!app.world().contains_resource::<NavSceneBuild>(), "the request is taken");
    let built = app.world().resource::<NavWorld>().world();
    assert_eq!(
        (built.dims(), built.origin(), built.voxel_size()),
        (expected.dims(), expected.origin(), expected.voxel_size())
    );
    let d = expected.dims().as_ivec3();
    let mut differ = 0usize;
    for z in 0..d.z {
        for y in 0..d.y {
            for x in 0..d.x {
                let v = IVec3::new(x, y, z);
                differ += usize::from(built.get(v) != expected.get(v));
            }
        }
    }
    assert_eq!(differ, 0, "voxels that differ from building the level file");
    assert!(built.has_water());
}

#[derive(Resource, Default)]
struct PerFrame {
    most_found: usize,
    most_rerouted: usize,
    rerouted: usize,
}

fn per_frame(mut t: ResMut<PerFrame>, mut f: MessageReader<bevy_voxnav::PathFound>, mut r: MessageReader<Rerouted>) {
    let (found, rerouted) = (f.read().count(), r.read().count());
    t.most_found = t.most_found.max(found);
    t.most_rerouted = t.most_rerouted.max(rerouted);
    t.rerouted += rerouted;
}

#[test]
fn with_no_time_to_spare_work_still_moves_on_a_piece_per_frame() {
    // A time budget of zero: a frame searches at most one slice, delivers at most one path (one
    // that waited three frames) and
    // mends at most one route, yet everything gets done. Six drones plan through the near door
    // of a wall; it closes once all follow their routes, so all six are mended, one per frame.
    let world = hall_with_two_doors();
    let mut app = App::new();
    let settings = bevy_voxnav::NavSettings { time_budget: Some(Duration::ZERO), ..Default::default() };
    app.add_plugins((TaskPoolPlugin::default(), TimePlugin, VoxNavPlugin { settings }));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(1.0 / FPS)));
    app.init_resource::<Tally>().init_resource::<PerFrame>();
    app.add_systems(bevy_app::Update, (tally, per_frame).after(bevy_voxnav::NavSet));
    app.insert_resource(NavWorld::new(world));
    for i in 0..6 {
        let z = 2.25 + i as f32 * 0.75;
        app.world_mut().spawn((
            NavAgent::drone(0.5),
            Transform::from_translation(Vec3::new(2.25, 2.75, z)),
            Destination(Vec3::new(27.75, 2.75, z)),
        ));
    }
    let mut closed = false;
    let frames = run(&mut app, 3000, |app| {
        let mut states = app.world_mut().query::<&NavState>();
        if !closed && states.iter(app.world()).all(|s| *s == NavState::Following) {
            closed = true;
            let mut nav = app.world_mut().resource_mut::<NavWorld>();
            nav.world_mut().fill_voxels(IVec3::new(30, 4, 8), IVec3::new(31, 7, 11), Voxel::Solid).unwrap();
        }
        app.world().resource::<Tally>().arrived == 6
    });
    let tally = app.world().resource::<Tally>();
    assert!(tally.failed.is_empty(), "failed: {:?}", tally.failed);
    assert_eq!(tally.arrived, 6, "arrived after {frames} frames");
    let per = app.world().resource::<PerFrame>();
    assert!(closed);
    assert_eq!(
        (per.most_found, per.most_rerouted, per.rerouted),
        (1, 1, 6),
        "most found, most rerouted per frame; rerouted"
    );
}
