//! The fly-through's promises, checked at a small picture size (fast in debug too): the scene
//! builds, every path exists, the fish stays in water and the drone in air (every sample of the
//! smoothed trajectories, not just the voxels), the drone passes under the arch and through
//! the tunnel, and frames render and encode at the size asked for.

use voxnav::Voxel;
use voxnav::glam::Vec3;

use crate::flight::{self, Flight, SPACING};
use crate::render::Renderer;
use crate::scene::Scene;
use crate::{output, parse_args, shots};

fn planned() -> (Scene, Vec<Flight>) {
    let scene = Scene::build().expect("the scene builds");
    let flights = flight::plan_all(&scene).expect("every trip has a path");
    (scene, flights)
}

#[test]
fn paths_exist_and_keep_to_their_media() {
    let (scene, flights) = planned();
    let [drone, fish, bird] = &flights[..] else { panic!("three flights") };
    let world = &scene.world;
    let medium = |p: Vec3| world.get(world.voxel_at(p));
    assert!(drone.path.voxels.iter().all(|&v| world.get(v) == Voxel::Air));
    assert!(fish.path.voxels.iter().all(|&v| world.get(v) == Voxel::Water));
    assert!(drone.poses.iter().all(|p| medium(p.position) == Voxel::Air));
    assert!(fish.poses.iter().all(|p| medium(p.position) == Voxel::Water));
    let checks = scene.check(&drone.points(), &fish.points());
    assert!(checks.all(), "{checks}");
    // The cormorant has to dive (its nest is only reachable through the flooded cave), and
    // the weight keeps the dive short: a minority of its voxels are water.
    let wet = bird.path.voxels.iter().filter(|&&v| world.get(v) == Voxel::Water).count();
    assert!(wet > 0 && 3 * wet < bird.path.voxels.len(), "{wet} of {}", bird.path.voxels.len());
    for f in &flights {
        assert_eq!(world.voxel_at(f.poses[0].position), world.voxel_at(f.trip.start));
        assert_eq!(world.voxel_at(f.poses.last().unwrap().position), world.voxel_at(f.trip.goal));
        assert!(f.length() <= f.path.length as f32 + 1e-3);
        for w in f.poses.windows(2) {
            assert!(w[0].position.distance(w[1].position) <= SPACING + 1e-4);
            assert!((w[0].orientation.length() - 1.0).abs() < 1e-4);
        }
    }
}

#[test]
fn the_scene_and_the_plans_are_deterministic() {
    let (a, fa) = planned();
    let (b, fb) = planned();
    let d = a.world.dims().as_ivec3();
    assert_eq!(a.world.dims(), b.world.dims());
    for z in 0..d.z {
        for y in 0..d.y {
            for x in 0..d.x {
                let v = glam::IVec3::new(x, y, z);
                assert_eq!(a.world.get(v), b.world.get(v), "{v}");
            }
        }
    }
    for (x, y) in fa.iter().zip(&fb) {
        assert_eq!(x.path.voxels, y.path.voxels);
        assert_eq!(x.poses, y.poses);
    }
}

#[test]
fn frames_render_and_encode_at_the_size_asked_for() {
    let (scene, flights) = planned();
    let palette = |v, n| scene.color(v, n);
    let renderer = Renderer::new(&scene.world, &palette);
    let (w, h) = (64, 36);
    let chase = shots::chase_frame(&renderer, &scene.world, &flights, shots::chase_start(&flights[0]) + 1.0, w, h, 2);
    assert_eq!((chase.width, chase.height), (w, h));
    assert_eq!(chase.to_rgb8().len(), (w * h * 3) as usize);
    // The camera is behind the drone in free space: it sees something, not all sky or rock.
    assert!(chase.depth.iter().any(|d| d.is_finite()));
    assert!(chase.color.iter().all(|c| c.is_finite()));
    let overview = shots::overview(&renderer, &shots::overview_camera(w, h), &flights, 2, 2);
    assert_eq!((overview.width, overview.height), (w, h));
    // The lake is in the overview: some pixels look through water.
    assert!(overview.water.iter().any(|d| d.is_finite()));

    let dir = std::env::temp_dir().join(format!("voxnav-flythrough-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png_path = dir.join("overview.png");
    output::write_png(&png_path, w, h, &overview.to_rgb8()).unwrap();
    let info = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png_path).unwrap()))
        .read_info()
        .unwrap()
        .info()
        .clone();
    assert_eq!((info.width, info.height), (w, h));
    let gif_path = dir.join("chase.gif");
    let mut gif = output::GifWriter::create(&gif_path, w, h).unwrap();
    gif.add(&chase.to_rgb8(), 4).unwrap();
    assert!(gif.add(&[0; 3], 4).is_err(), "a frame of the wrong size is an error");
    drop(gif);
    let mut decoder = gif::DecodeOptions::new().read_info(std::fs::File::open(&gif_path).unwrap()).unwrap();
    assert_eq!((decoder.width(), decoder.height()), (w as u16, h as u16));
    assert!(decoder.read_next_frame().unwrap().is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_are_errors() {
    let args = |s: &str| parse_args(s.split_whitespace().map(String::from));
    assert!(args("").is_ok());
    let a = args("--out x --size 320x200 --chase 64x48 --frames 60 --aa 1 --threads 1 --stills 3,40.5").unwrap();
    assert_eq!((a.size.x, a.size.y, a.chase.x, a.frames, a.aa), (320, 200, 64, 60, 1));
    assert_eq!(a.stills, [3.0, 40.5]);
    for bad in [
        "--frames 1",
        "--size 320",
        "--size 0x10",
        "--aa 9",
        "--out",
        "--what",
        "--chase 99999x10",
        "--stills 3,x",
        "--stills -1",
        "--doors --level x.glb",
    ] {
        assert!(args(bad).is_err(), "{bad}");
    }
}

/// `--level` on a shared level (skipped with a notice without the data; required in CI): the
/// level bakes, then loads from its bake, the drone keeps its clearance and the fish its water
/// on every pose, and the cutaway renders.
#[test]
fn a_real_level_flies_and_renders() {
    let dir = std::env::var_os("VOXNAV_LEVELS_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/levels"));
    let path = dir.join("oa_dm7.glb");
    if !path.is_file() {
        assert!(std::env::var_os("CI").is_none(), "{} is missing and CI is set", path.display());
        eprintln!("NOTICE: {} missing; skipping", path.display());
        return;
    }
    let out = std::env::temp_dir().join(format!("voxnav-flythrough-test-{}", std::process::id()));
    let args = crate::level::LevelArgs { path, ..Default::default() };
    let first = crate::level::load(&args, &out).expect("the level bakes");
    assert!(first.made.starts_with("baked"), "{}", first.made);
    let mut scene = crate::level::load(&args, &out).expect("the bake loads");
    assert!(scene.made.starts_with("loaded the bake"), "{}", scene.made);
    assert_eq!(scene.trips.len(), 2, "a drone and a fish");
    assert!(scene.trips[0].clearance >= 1, "a 1 m drone in 0.25 m voxels keeps clear");
    let mut finder = voxnav::Pathfinder::new();
    let flights: Vec<Flight> = scene
        .trips
        .iter()
        .zip([flight::PROFILES[0], flight::PROFILES[1]])
        .map(|(&trip, profile)| Flight::plan(&scene.world, &mut finder, trip, &profile).expect("a path"))
        .collect();
    for f in &flights {
        assert!(crate::level::keeps_clear(&scene.world, &f.trip, &f.points()), "{}", f.trip.name);
    }
    scene.cut_above(flights.iter().flat_map(|f| f.points())).unwrap();
    let palette = |v, n| scene.color(v, n);
    let renderer = Renderer::new(&scene.view, &palette);
    let camera = crate::level::overview_camera(&scene.view, scene.cut, 96, 54);
    let frame = shots::overview(&renderer, &camera, &flights, 1, 2);
    assert_eq!((frame.width, frame.height), (96, 54));
    std::fs::remove_dir_all(&out).ok();
}

/// `--doors`: a door closes across the tunnel ahead of the drone and the dam is blasted open
/// under water. The drone's path breaks and is mended, the fish takes the breach; every agent
/// still arrives, keeps to its medium (on the final world, which holds both edits), never
/// passes the closed door, and flies on from each re-route without a jump.
#[test]
fn doors_close_and_walls_open_while_they_fly() {
    let mut scene = Scene::build().unwrap();
    crate::doors::prepare(&mut scene).unwrap();
    let mut flights = flight::plan_all(&scene).unwrap();
    let planned = flights[0].path.voxels.iter().map(|&v| scene.world.voxel_center(v));
    assert!(
        planned.filter(|p| p.x > crate::scene::RIDGE.0 && p.x < crate::scene::RIDGE.1).all(|p| p.y < 24.0),
        "the drone plans through the tunnel, not the longer mine"
    );
    let story = crate::doors::play(&mut scene, &mut flights).unwrap();
    assert_eq!(story.worlds.len(), 3, "two edits");
    assert!(story.repaired >= 1 && story.shortened >= 1, "{story:?}");
    let world = &scene.world;
    let medium = |p: Vec3| world.get(world.voxel_at(p));
    let [drone, fish, _bird] = &flights[..] else { panic!("three flights") };
    assert!(drone.legs.len() >= 2 && fish.legs.len() >= 2, "both re-routed");
    assert!(drone.poses.iter().all(|p| medium(p.position) == Voxel::Air));
    assert!(fish.poses.iter().all(|p| medium(p.position) == Voxel::Water));
    let inside = |p: Vec3, (lo, hi): (Vec3, Vec3)| p.cmpge(lo).all() && p.cmple(hi).all();
    assert!(!drone.poses.iter().any(|p| inside(p.position, crate::doors::door())), "through the closed door");
    assert!(
        drone.poses.iter().any(|p| p.position.x > crate::scene::RIDGE.0 && p.position.y > 26.0),
        "the drone re-routed through the mine"
    );
    assert!(fish.poses.iter().any(|p| inside(p.position, crate::doors::breach())), "the fish took the breach");
    for f in &flights {
        let last = f.poses.last().unwrap().position;
        assert_eq!(world.voxel_at(last), world.voxel_at(f.trip.goal), "{} arrives", f.trip.name);
        for pair in f.legs.windows(2) {
            let (old, new) = (&pair[0], &pair[1]);
            let before = old.trajectory.pose_at_time(new.time - old.time).unwrap();
            let after = new.trajectory.pose_at_time(0.0).unwrap();
            assert!(before.position.distance(after.position) < 1e-3, "{}: position jumps", f.trip.name);
            assert!(before.orientation.angle_between(after.orientation) < 2e-3, "{}: orientation jumps", f.trip.name);
            assert!(before.tangent.angle_between(after.tangent) < 2e-3, "{}: heading jumps", f.trip.name);
            // No jump later either: each turn between samples within the leg's bound.
            let bound = new.trajectory.max_turn_rate() * SPACING + 1e-4;
            let poses = new.trajectory.samples_by_length(SPACING).unwrap();
            assert!(poses.windows(2).all(|w| w[0].orientation.angle_between(w[1].orientation) <= bound));
        }
    }
}
