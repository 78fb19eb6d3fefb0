//! The fly-through: a drone and a fish (and a diving bird) cross a built world.
//!
//! ```text
//! cargo run --release --example flythrough [-- --out DIR] [--size WxH] [--chase WxH]
//!     [--frames N] [--aa N] [--threads N] [--stills M,M,...] [--doors]
//!     [--level PATH [--voxel S] [--seed x,y,z] [--start x,y,z] [--goal x,y,z]]
//! ```
//!
//! Builds a procedural scene (a canyon with hoodoos, a lake split by a dam with an underwater
//! cave, a natural arch, floating islands, a ridge with a tunnel, a landing pad), plans the
//! drone (air only) from the canyon's west end, under the arch and through the tunnel to the
//! pad, the fish (water only) across the lake through the cave, and a cormorant (air, water at
//! three times the cost) to its nest in a grotto reached through the flooded cave. It smooths
//! and orients the paths, renders an overview (`overview.png`) and a chase camera behind the
//! drone (`chase.gif`), and prints what it did. Everything is deterministic.
//!
//! With `--doors` the world changes during the flight (see `doors.rs`): a door closes across
//! the tunnel ahead of the drone and the dam is blasted open under water; the agents mend or
//! shorten their paths and fly on from where they are, without a jump.
//!
//! With `--level PATH` it flies through a real game level instead (see `level.rs`), e.g.
//! `cargo run --release --example flythrough -- --level ../shared/levels/oa_dm7.glb`.

mod doors;
mod flight;
mod font;
mod level;
mod output;
mod render;
mod scene;
mod shots;
#[cfg(test)]
mod tests;

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use voxnav::glam::UVec2;
use voxnav::{Voxel, VoxelWorld};

use crate::render::Renderer;
use crate::scene::Scene;

const USAGE: &str =
    "usage: flythrough [--out DIR] [--size WxH] [--chase WxH] [--frames N] [--aa N] [--threads N] [--stills M,M,...]
  --out DIR     where to write overview.png and chase.gif (default target/flythrough)
  --size WxH    overview size in pixels (default 1280x720)
  --chase WxH   chase animation size (default 480x270)
  --frames N    chase animation frames, at least 2 (default 96)
  --aa N        overview supersampling per axis, 1 to 4 (default 2)
  --threads N   render threads (default: all cores)
  --stills M,.. also write chase stills with the drone M metres along its path, as
                chase-1.png, chase-2.png ... (default none)
  --doors       while they fly, a door closes across the tunnel ahead of the drone and the
                dam is blasted open under water: the agents re-route from where they are
  --level PATH  fly through a real level instead (.glb, .gltf, .obj, or a baked .vxn): it is
                baked into OUT/NAME.vxn once and loaded from there after; a 1 m drone flies
                (keeping clear of walls) and a fish swims across its largest water
  --voxel S     the level's voxel size in metres (default: the shared levels' own, else 0.5)
  --seed x,y,z  a point in the level's open air (needed for closed levels not in ../shared)
  --start x,y,z --goal x,y,z  the drone's trip (default: the shared levels' sample points)";

struct Args {
    out: PathBuf,
    size: UVec2,
    chase: UVec2,
    frames: usize,
    aa: u32,
    threads: usize,
    stills: Vec<f32>,
    doors: bool,
    level: Option<level::LevelArgs>,
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args {
        out: PathBuf::from("target/flythrough"),
        size: UVec2::new(1280, 720),
        chase: UVec2::new(480, 270),
        frames: 96,
        aa: 2,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        stills: Vec::new(),
        doors: false,
        level: None,
    };
    let mut it = args;
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--out" => a.out = PathBuf::from(value()?),
            "--size" => a.size = parse_size(&value()?)?,
            "--chase" => a.chase = parse_size(&value()?)?,
            "--frames" => a.frames = parse_number(&value()?, 2, 10_000)?,
            "--aa" => a.aa = parse_number(&value()?, 1, 4)? as u32,
            "--threads" => a.threads = parse_number(&value()?, 1, 256)?,
            "--stills" => a.stills = parse_metres(&value()?)?,
            "--doors" => a.doors = true,
            "--level" => a.level.get_or_insert_with(Default::default).path = PathBuf::from(value()?),
            "--voxel" => {
                let v = value()?.parse::<f32>().ok().filter(|v| v.is_finite() && *v > 0.0);
                a.level.get_or_insert_with(Default::default).voxel = Some(v.ok_or("--voxel takes metres > 0")?);
            }
            "--seed" => a.level.get_or_insert_with(Default::default).seed = Some(parse_point(&value()?)?),
            "--start" => a.level.get_or_insert_with(Default::default).start = Some(parse_point(&value()?)?),
            "--goal" => a.level.get_or_insert_with(Default::default).goal = Some(parse_point(&value()?)?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if a.level.as_ref().is_some_and(|l| l.path.as_os_str().is_empty()) {
        return Err("--voxel, --seed, --start and --goal go with --level PATH".into());
    }
    if a.doors && a.level.is_some() {
        return Err("--doors goes with the built scene, not --level".into());
    }
    Ok(a)
}

fn parse_point(s: &str) -> Result<voxnav::glam::Vec3, String> {
    let parts: Vec<f32> = s.split(',').filter_map(|p| p.trim().parse().ok()).collect();
    match parts[..] {
        [x, y, z] if parts.iter().all(|v| v.is_finite()) => Ok(voxnav::glam::Vec3::new(x, y, z)),
        _ => Err(format!("expected x,y,z in metres, got {s:?}")),
    }
}

fn parse_number(s: &str, min: usize, max: usize) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("expected a number from {min} to {max}, got {s:?}")),
    }
}

fn parse_metres(s: &str) -> Result<Vec<f32>, String> {
    s.split(',')
        .map(|m| match m.trim().parse::<f32>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
            _ => Err(format!("expected metres along the path (>= 0), got {m:?}")),
        })
        .collect()
}

fn parse_size(s: &str) -> Result<UVec2, String> {
    let (w, h) = s.split_once('x').ok_or_else(|| format!("expected WxH, got {s:?}"))?;
    Ok(UVec2::new(parse_number(w, 16, 8192)? as u32, parse_number(h, 16, 8192)? as u32))
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("error: {e}");
            }
            eprintln!("{USAGE}");
            return if e.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn count(world: &VoxelWorld) -> [usize; 3] {
    let d = world.dims().as_ivec3();
    let mut n = [0; 3];
    for z in 0..d.z {
        for y in 0..d.y {
            for x in 0..d.x {
                n[world.get(voxnav::glam::IVec3::new(x, y, z)) as usize] += 1;
            }
        }
    }
    n
}

fn run(args: &Args) -> Result<(), Box<dyn Error>> {
    if let Some(level) = &args.level {
        return run_level(args, level);
    }
    let total = Instant::now();
    println!("voxnav fly-through");
    let t = Instant::now();
    let mut scene = Scene::build()?;
    if args.doors {
        doors::prepare(&mut scene)?;
    }
    let build_time = t.elapsed();
    describe(&scene.world);
    println!("built in   {}", ms(build_time));
    let mut flights = flight::plan_all(&scene)?;
    let worlds = if args.doors {
        report(&scene.world, &flights);
        let t = Instant::now();
        let story = doors::play(&mut scene, &mut flights)?;
        for line in &story.log {
            println!("edit       {line}");
        }
        println!(
            "re-routed  {} mended, {} shortened, in {} (checks, repairs, searches, smoothing)",
            story.repaired,
            story.shortened,
            ms(t.elapsed())
        );
        story.worlds
    } else {
        vec![(0.0, scene.world.clone())]
    };
    report(&scene.world, &flights);
    let checks = scene.check(&flights[0].points(), &flights[1].points());
    println!("checks     {checks}");
    if !checks.all() {
        return Err("the scene's promises do not hold (see the checks)".into());
    }
    let palette = |v, n| scene.color(v, n);
    let camera = shots::overview_camera(args.size.x, args.size.y);
    render_all(args, &worlds, &palette, &camera, &flights, total)
}

/// Runs the fly-through on a real level (`--level`).
fn run_level(args: &Args, level_args: &level::LevelArgs) -> Result<(), Box<dyn Error>> {
    let total = Instant::now();
    println!("voxnav fly-through: {}", level_args.path.display());
    let mut scene = level::load(level_args, &args.out)?;
    describe(&scene.world);
    println!("made       {} ({})", scene.made, scene.name);
    let mut finder = voxnav::Pathfinder::new();
    let flights = scene
        .trips
        .iter()
        .zip([flight::PROFILES[0], flight::PROFILES[1]])
        .map(|(&trip, profile)| {
            flight::Flight::plan(&scene.world, &mut finder, trip, &profile).map_err(|e| format!("{}: {e}", trip.name))
        })
        .collect::<Result<Vec<_>, _>>()?;
    report(&scene.world, &flights);
    let clear: Vec<bool> = flights.iter().map(|f| level::keeps_clear(&scene.world, &f.trip, &f.points())).collect();
    println!("checks     every pose in its medium with its clearance: {clear:?}");
    if clear.contains(&false) {
        return Err("a flight leaves its medium or its clearance".into());
    }
    scene.cut_above(flights.iter().flat_map(|f| f.points()))?;
    let palette = |v, n| scene.color(v, n);
    let camera = level::overview_camera(&scene.view, scene.cut, args.size.x, args.size.y);
    render_all(args, &[(0.0, scene.view.clone())], &palette, &camera, &flights, total)
}

/// Prints the world's size and contents.
fn describe(world: &VoxelWorld) {
    let (d, size) = (world.dims(), world.voxel_size());
    let [air, water, solid] = count(world);
    println!(
        "world      {:.0} x {:.0} x {:.0} m = {} x {} x {} voxels of {size} m ({} voxels: {solid} solid, {water} water, {air} air), {:.1} MB",
        d.x as f32 * size,
        d.y as f32 * size,
        d.z as f32 * size,
        d.x,
        d.y,
        d.z,
        d.x * d.y * d.z,
        world.memory_bytes() as f64 / 1e6
    );
}

/// Prints each flight.
fn report(world: &VoxelWorld, flights: &[flight::Flight]) {
    for flight in flights {
        let trip = flight.trip;
        let media = flight.trip.agent.media();
        let wet = flight.path.voxels.iter().filter(|&&v| world.get(v) == Voxel::Water).count();
        println!(
            "{:<10} raw {:6.1} m  smoothed {:6.1} m ({} waypoints, {} sharp, bank up to {:.0}°)  expanded {:6}  search {:>9}  smooth+orient {:>8}  ({} of {} voxels in water; media air {:?} water {:?})",
            trip.name,
            flight.path.length,
            flight.length(),
            flight.smooth.waypoints().len(),
            flight.smooth.sharp_corners(),
            flight.poses.iter().map(|p| p.euler_angles().2.abs().to_degrees()).fold(0.0, f32::max),
            flight.path.stats.expanded,
            ms(flight.search_time),
            ms(flight.smooth_time),
            wet,
            flight.path.voxels.len(),
            media.air,
            media.water,
        );
    }
}

/// Renders the overview (from `camera`, of the last world) and the chase animation (and
/// stills), each frame of the world as it was at the frame's time: `worlds` holds each world
/// with the time from which it holds, the first at 0.
fn render_all(
    args: &Args,
    worlds: &[(f32, VoxelWorld)],
    palette: &(dyn Fn(voxnav::glam::IVec3, voxnav::glam::IVec3) -> voxnav::glam::Vec3 + Sync),
    camera: &render::Camera,
    flights: &[flight::Flight],
    total: Instant,
) -> Result<(), Box<dyn Error>> {
    std::fs::create_dir_all(&args.out)?;
    let t = Instant::now();
    let renderers: Vec<(f32, &VoxelWorld, Renderer<'_>)> =
        worlds.iter().map(|(time, world)| (*time, world, Renderer::new(world, palette))).collect();
    let at = |time: f32| renderers.iter().rev().find(|r| r.0 <= time).unwrap_or(&renderers[0]);
    let prep = t.elapsed();
    let t = Instant::now();
    let frame = shots::overview(&renderers[renderers.len() - 1].2, camera, flights, args.aa, args.threads);
    let overview_time = t.elapsed();
    let t = Instant::now();
    let overview_path = args.out.join("overview.png");
    output::write_png(&overview_path, frame.width, frame.height, &frame.to_rgb8())?;
    let png_time = t.elapsed();

    let gif_path = args.out.join("chase.gif");
    let mut gif = output::GifWriter::create(&gif_path, args.chase.x, args.chase.y)?;
    let (t0, t1) = (shots::chase_start(&flights[0]), flights[0].duration());
    let (mut render_time, mut gif_time) = (Duration::ZERO, Duration::ZERO);
    let mut written = vec![overview_path.clone(), gif_path.clone()];
    for k in 0..args.frames {
        let time = t0 + (t1 - t0) * k as f32 / (args.frames - 1) as f32;
        let t = Instant::now();
        let (_, world, renderer) = at(time);
        let frame = shots::chase_frame(renderer, world, flights, time, args.chase.x, args.chase.y, args.threads);
        render_time += t.elapsed();
        let t = Instant::now();
        let last = k + 1 == args.frames;
        gif.add(&frame.to_rgb8(), if last { 150 } else { 4 })?;
        gif_time += t.elapsed();
    }
    drop(gif);
    for (i, &m) in args.stills.iter().enumerate() {
        let time = flights[0].pose_at_length(m).time.max(t0);
        let t = Instant::now();
        let (_, world, renderer) = at(time);
        let frame = shots::chase_frame(renderer, world, flights, time, args.chase.x, args.chase.y, args.threads);
        render_time += t.elapsed();
        let path = args.out.join(format!("chase-{}.png", i + 1));
        output::write_png(&path, frame.width, frame.height, &frame.to_rgb8())?;
        written.push(path);
    }
    println!(
        "rendered   overview {}x{} ({}x{} supersampled) in {}; {} chase frames {}x{} in {} ({:.1} ms each); voxel grid {}; {} threads",
        args.size.x,
        args.size.y,
        args.aa,
        args.aa,
        ms(overview_time),
        args.frames,
        args.chase.x,
        args.chase.y,
        ms(render_time),
        render_time.as_secs_f64() * 1e3 / args.frames as f64,
        ms(prep),
        args.threads
    );
    println!("encoded    PNG in {}, GIF in {}", ms(png_time), ms(gif_time));
    for p in &written {
        println!("wrote      {} ({:.0} KB)", p.display(), std::fs::metadata(p)?.len() as f64 / 1024.0);
    }
    println!("total      {:.2} s", total.elapsed().as_secs_f64());
    Ok(())
}
