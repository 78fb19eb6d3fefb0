//! A swarm: drones crossing through a gap in a wall in both directions, a school of fish in the
//! lake below, and two patrolling spheres, all steered by [`Avoidance`] (3D ORCA) along their
//! smoothed paths. Headless; renders a GIF.
//!
//! ```text
//! cargo run --release --example swarm -- [--drones N] [--fish N] [--gif F.gif] [--dump F.csv]
//!     [--export-3dmap F] [--max-ticks N]
//! cargo run --release --example swarm -- --check F.csv F.3dmap
//! ```
//!
//! `--dump` writes `tick,agent,x,y,z,radius`, one row per agent per tick, in voxel units (voxel
//! `(i, j, k)` spans `[i, i+1] x [j, j+1] x [k, k+1]`); `--export-3dmap` the world's solid
//! voxels (Moving AI `.3dmap`). `--check` reads both back and verifies, independently of the
//! simulation, that no two spheres overlap by more than 5 % of the smaller radius and that no
//! centre lies in a solid voxel. The last line printed is
//! `swarm agents=.. arrived=.. ticks=.. mean_tick_us=.. max_tick_us=..` (a tick: steering,
//! avoidance and moving, on one thread; the checks and the GIF are not timed).

use std::error::Error;
use std::fmt::Write as _;
use std::path::{Path as FsPath, PathBuf};
use std::time::Instant;

use voxnav::glam::{IVec3, UVec3, Vec3};
use voxnav::{
    Avoidance, AvoidanceConfig, CrowdAgent, Media, MovingObstacle, PathRequest, Pathfinder, SearchConfig, SmoothConfig,
    Voxel, VoxelWorld, segment_clear, smooth_path,
};

#[path = "flythrough/font.rs"]
mod font;
#[path = "flythrough/output.rs"]
#[expect(dead_code, reason = "shared with the fly-through, which uses all of it")]
mod output;
#[path = "flythrough/render.rs"]
#[expect(dead_code, reason = "shared with the fly-through, which uses all of it")]
mod render;

/// Seconds per tick.
const DT: f32 = 0.05;
/// Radius of drones and fish, voxels.
const RADIUS: f32 = 0.3;
/// Distance to its goal under which an agent has arrived, voxels.
const ARRIVE: f32 = 0.5;
/// Largest allowed overlap of two spheres, as a fraction of the smaller radius.
const OVERLAP: f32 = 0.05;

/// The scene: a 48 x 24 x 32 world, +Y up, 1-unit voxels (world units are voxel units).
/// A wall at x = 23..=24 with a 6 x 8 gap; a lake (y <= 5) with pillars on the left side.
fn build_world() -> VoxelWorld {
    let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(48, 24, 32)).expect("valid world");
    w.fill_voxels(IVec3::new(0, 0, 0), IVec3::new(47, 5, 31), Voxel::Water).unwrap();
    w.fill_voxels(IVec3::new(23, 0, 0), IVec3::new(24, 23, 31), Voxel::Solid).unwrap();
    w.fill_voxels(IVec3::new(23, 10, 12), IVec3::new(24, 15, 19), Voxel::Air).unwrap();
    for (x, z) in [(8, 12), (14, 18), (6, 22), (17, 9)] {
        w.fill_voxels(IVec3::new(x, 0, z), IVec3::new(x + 1, 7, z + 1), Voxel::Solid).unwrap();
    }
    w
}

/// One simulated agent: its crowd state, goal and path.
struct Member {
    goal: Vec3,
    waypoints: Vec<Vec3>,
    next: usize,
    arrived: bool,
    cruise: f32,
}

/// A whole run: world, agents, obstacles, and what it measured.
pub struct Run {
    world: VoxelWorld,
    agents: Vec<CrowdAgent>,
    members: Vec<Member>,
    obstacles: Vec<MovingObstacle>,
    /// Per tick, every agent's position (for the checks, the dump and the GIF).
    pub history: Vec<Vec<Vec3>>,
    /// Per tick, the obstacles' positions.
    pub obstacle_history: Vec<Vec<Vec3>>,
    /// Tick times, microseconds.
    pub tick_us: Vec<f64>,
    /// The avoidance step's share of each tick, microseconds.
    pub avoid_us: Vec<f64>,
}

/// Starts and goals of `n` drones crossing left to right (even) or right to left (odd), and of
/// `fish` fish swimming along the lake.
fn trips(drones: usize, fish: usize) -> Vec<(Vec3, Vec3, Media)> {
    let mut out = Vec::new();
    // Drone slots on a lattice 2 voxels apart on the left side; mirrored across x = 24 on the right.
    let mut slots = Vec::new();
    'outer: for x in [3, 5, 7, 9, 11, 13, 15, 17] {
        for y in [8, 10, 12, 14, 16, 18] {
            for z in [9, 11, 13, 15, 17, 19, 21, 23] {
                if slots.len() == drones.div_ceil(2) {
                    break 'outer;
                }
                slots.push(Vec3::new(x as f32, y as f32, z as f32) + 0.5);
            }
        }
    }
    let mirror = |p: Vec3| Vec3::new(48.0 - p.x, p.y, p.z);
    for i in 0..drones {
        let s = slots[i / 2];
        let (a, b) = if i % 2 == 0 { (s, mirror(s)) } else { (mirror(s), s) };
        out.push((a, b, Media::AIR));
    }
    let mut k = 0;
    'fish: for z in [2, 4, 6] {
        for y in [1, 3] {
            for x in [3, 5, 7, 9, 11, 13, 15, 17, 19, 21] {
                if k == fish {
                    break 'fish;
                }
                let s = Vec3::new(x as f32, y as f32, z as f32) + 0.5;
                out.push((s, Vec3::new(s.x, s.y, s.z + 25.0), Media::WATER));
                k += 1;
            }
        }
    }
    out
}

impl Run {
    /// Plans every agent's path (A* then smoothing) in the scene.
    pub fn new(drones: usize, fish: usize) -> Result<Run, Box<dyn Error>> {
        if drones > 2 * 8 * 6 * 8 || fish > 60 {
            return Err("at most 768 drones and 60 fish fit the scene".into());
        }
        let world = build_world();
        let mut finder = Pathfinder::new();
        let mut agents = Vec::new();
        let mut members = Vec::new();
        for (start, goal, media) in trips(drones, fish) {
            let cruise = if media == Media::AIR { 4.0 } else { 3.0 };
            let waypoints = plan(&world, &mut finder, start, goal, media)?;
            agents.push(CrowdAgent::new(start, RADIUS, cruise * 1.2, media));
            members.push(Member { goal, waypoints, next: 1, arrived: false, cruise });
        }
        let obstacles = vec![
            MovingObstacle { position: Vec3::new(19.0, 13.0, 4.0), velocity: Vec3::new(0.0, 0.0, 1.5), radius: 1.0 },
            MovingObstacle { position: Vec3::new(29.0, 11.0, 28.0), velocity: Vec3::new(0.0, 0.0, -1.5), radius: 1.0 },
        ];
        Ok(Run {
            world,
            agents,
            members,
            obstacles,
            history: Vec::new(),
            obstacle_history: Vec::new(),
            tick_us: Vec::new(),
            avoid_us: Vec::new(),
        })
    }

    /// Runs until every agent has arrived or `max_ticks` ticks. Returns the number arrived.
    pub fn simulate(&mut self, max_ticks: usize) -> Result<usize, Box<dyn Error>> {
        let mut avoidance = Avoidance::new();
        let mut finder = Pathfinder::new();
        let config = AvoidanceConfig::default();
        self.record();
        for tick in 0..max_ticks {
            if self.members.iter().all(|m| m.arrived) {
                break;
            }
            let t = Instant::now();
            for (i, (a, m)) in self.agents.iter_mut().zip(&mut self.members).enumerate() {
                steer(&self.world, &mut finder, a, m, tick % 10 == i % 10)?;
            }
            let a = Instant::now();
            avoidance.step(&self.world, &mut self.agents, &self.obstacles, DT, &config)?;
            self.avoid_us.push(a.elapsed().as_secs_f64() * 1e6);
            for (a, m) in self.agents.iter().zip(&mut self.members) {
                m.arrived |= a.position.distance(m.goal) < ARRIVE;
            }
            self.tick_us.push(t.elapsed().as_secs_f64() * 1e6);
            for o in &mut self.obstacles {
                o.position += o.velocity * DT;
                if o.position.z < 3.0 || o.position.z > 29.0 {
                    o.velocity = -o.velocity;
                }
            }
            self.record();
        }
        Ok(self.members.iter().filter(|m| m.arrived).count())
    }

    fn record(&mut self) {
        self.history.push(self.agents.iter().map(|a| a.position).collect());
        self.obstacle_history.push(self.obstacles.iter().map(|o| o.position).collect());
    }

    /// Largest overlap of two agents' spheres over the run, as a fraction of the radius, and
    /// the number of (tick, agent) centres in a voxel the agent's media forbid.
    pub fn audit(&self) -> (f32, usize) {
        let mut worst = 0.0f32;
        let mut outside = 0;
        for frame in &self.history {
            for (i, p) in frame.iter().enumerate() {
                if !self.agents[i].media.allows(self.world.get(self.world.voxel_at(*p))) {
                    outside += 1;
                }
                for (j, q) in frame.iter().enumerate().skip(i + 1) {
                    let r = self.agents[i].radius + self.agents[j].radius;
                    let overlap = r - p.distance(*q);
                    worst = worst.max(overlap / self.agents[i].radius.min(self.agents[j].radius));
                }
            }
        }
        (worst, outside)
    }

    /// The dump: `tick,agent,x,y,z,radius` in voxel units.
    pub fn csv(&self) -> String {
        let mut s = String::from("tick,agent,x,y,z,radius\n");
        let (o, size) = (self.world.origin(), self.world.voxel_size());
        for (t, frame) in self.history.iter().enumerate() {
            for (i, p) in frame.iter().enumerate() {
                let v = (*p - o) / size;
                let _ = writeln!(s, "{t},{i},{:.4},{:.4},{:.4},{:.4}", v.x, v.y, v.z, self.agents[i].radius / size);
            }
        }
        s
    }
}

/// A smoothed path's corner points from `start` to `goal`.
fn plan(
    world: &VoxelWorld,
    finder: &mut Pathfinder,
    start: Vec3,
    goal: Vec3,
    media: Media,
) -> Result<Vec<Vec3>, Box<dyn Error>> {
    let config = SearchConfig { media, ..Default::default() };
    let path = finder.find(world, None, &PathRequest::new(start, goal, config))?;
    let smooth = smooth_path(world, &path, &SmoothConfig { media, ..Default::default() })?;
    let mut points = smooth.points();
    if let Some(last) = points.last_mut() {
        *last = goal;
    }
    Ok(points)
}

/// Sets the preferred velocity toward the agent's next waypoint (re-planning from where it is
/// when `look` and the waypoint is out of sight).
fn steer(
    world: &VoxelWorld,
    finder: &mut Pathfinder,
    a: &mut CrowdAgent,
    m: &mut Member,
    look: bool,
) -> Result<(), Box<dyn Error>> {
    while m.next + 1 < m.waypoints.len() && a.position.distance(m.waypoints[m.next]) < 0.75 {
        m.next += 1;
    }
    let target = m.waypoints[m.next.min(m.waypoints.len() - 1)];
    if look && !m.arrived && !segment_clear(world, world.voxel_at(a.position), world.voxel_at(target), a.media) {
        m.waypoints = plan(world, finder, world.voxel_center(world.voxel_at(a.position)), m.goal, a.media)?;
        m.next = 1.min(m.waypoints.len() - 1);
    }
    let to = m.waypoints[m.next.min(m.waypoints.len() - 1)] - a.position;
    let last = m.next + 1 >= m.waypoints.len();
    // Slow down over the last voxels so arrivals settle instead of orbiting the goal.
    let speed = if last { m.cruise.min(to.length() / (4.0 * DT)) } else { m.cruise };
    a.preferred_velocity = to.normalize_or_zero() * speed;
    Ok(())
}

/// Writes the world's solid voxels as a Moving AI `.3dmap`.
fn write_3dmap(world: &VoxelWorld, path: &FsPath) -> Result<(), Box<dyn Error>> {
    world.write_3dmap(std::fs::File::create(path)?)?;
    Ok(())
}

/// What the independent checker found in a dump.
struct Checked {
    rows: usize,
    ticks: usize,
    agents: usize,
    /// Largest overlap of two spheres in one tick, as a fraction of the smaller radius.
    worst: f64,
    /// Rows whose centre lies in a solid voxel.
    in_solid: usize,
}

/// The independent checker: reads a dump and a `.3dmap` (nothing of the simulation).
fn check_files(csv: &FsPath, map: &FsPath) -> Result<Checked, Box<dyn Error>> {
    let map = std::fs::read_to_string(map)?;
    let mut lines = map.lines();
    let header: Vec<&str> = lines.next().ok_or("empty map")?.split_whitespace().collect();
    if header.len() != 4 || header[0] != "voxel" {
        return Err("map header must be `voxel X Y Z`".into());
    }
    let mut solid = std::collections::HashSet::new();
    for line in lines {
        let v: Vec<i64> = line.split_whitespace().map(str::parse).collect::<Result<_, _>>()?;
        if v.len() == 3 {
            solid.insert((v[0], v[1], v[2]));
        }
    }
    let text = std::fs::read_to_string(csv)?;
    let mut rows = text.lines();
    if rows.next() != Some("tick,agent,x,y,z,radius") {
        return Err("bad CSV header".into());
    }
    let mut ticks: std::collections::BTreeMap<u64, Vec<[f64; 4]>> = std::collections::BTreeMap::new();
    let (mut count, mut in_solid, mut agents) = (0, 0, 0);
    for row in rows {
        let f: Vec<f64> = row.split(',').map(str::parse).collect::<Result<_, _>>()?;
        if f.len() != 6 {
            return Err(format!("bad row {row}").into());
        }
        let cell = (f[2].floor() as i64, f[3].floor() as i64, f[4].floor() as i64);
        if solid.contains(&cell) {
            in_solid += 1;
        }
        agents = agents.max(f[1] as usize + 1);
        ticks.entry(f[0] as u64).or_default().push([f[2], f[3], f[4], f[5]]);
        count += 1;
    }
    let mut worst = 0.0f64;
    for frame in ticks.values() {
        for (i, a) in frame.iter().enumerate() {
            for b in &frame[i + 1..] {
                let d = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
                worst = worst.max((a[3] + b[3] - d) / a[3].min(b[3]));
            }
        }
    }
    Ok(Checked { rows: count, ticks: ticks.len(), agents, worst, in_solid })
}

/// Renders every `every`-th tick of the run to a GIF.
fn write_gif(run: &Run, path: &FsPath, every: usize) -> Result<usize, Box<dyn Error>> {
    let palette = |v: IVec3, n: IVec3| {
        let base = if v.x == 23 || v.x == 24 { Vec3::new(0.45, 0.42, 0.40) } else { Vec3::new(0.35, 0.30, 0.22) };
        base * if n.y > 0 { 1.0 } else { 0.8 }
    };
    let renderer = render::Renderer::new(&run.world, &palette);
    let (w, h) = (320, 200);
    let camera = render::Camera::look_at(
        Vec3::new(2.0, 40.0, -8.0),
        Vec3::new(24.0, 8.0, 16.0),
        Vec3::Y,
        55f32.to_radians(),
        w,
        h,
    );
    let background = renderer.render(&camera, None, None, 2);
    let mut gif = output::GifWriter::create(path, w, h)?;
    let mut frames = 0;
    for (t, frame) in run.history.iter().enumerate().step_by(every) {
        let mut f = background.clone();
        for (i, p) in frame.iter().enumerate() {
            let color = match (run.agents[i].media == Media::WATER, i % 2) {
                (true, _) => Vec3::new(0.95, 0.55, 0.1),
                (false, 0) => Vec3::new(0.9, 0.15, 0.1),
                _ => Vec3::new(0.1, 0.8, 0.95),
            };
            f.draw_marker(&camera, *p, color, 2.5);
        }
        for p in &run.obstacle_history[t] {
            f.draw_marker(&camera, *p, Vec3::new(0.9, 0.9, 0.2), 6.0);
        }
        f.draw_text(6, 6, &format!("tick {t}"), Vec3::ONE, 1);
        gif.add(&f.to_rgb8(), 4)?;
        frames += 1;
    }
    Ok(frames)
}

struct Args {
    drones: usize,
    fish: usize,
    gif: Option<PathBuf>,
    dump: Option<PathBuf>,
    export: Option<PathBuf>,
    max_ticks: usize,
    check: Option<(PathBuf, PathBuf)>,
}

fn parse_args() -> Result<Args, Box<dyn Error>> {
    let mut a = Args { drones: 200, fish: 40, gif: None, dump: None, export: None, max_ticks: 4000, check: None };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--drones" => a.drones = value()?.parse()?,
            "--fish" => a.fish = value()?.parse()?,
            "--gif" => a.gif = Some(value()?.into()),
            "--dump" => a.dump = Some(value()?.into()),
            "--export-3dmap" => a.export = Some(value()?.into()),
            "--max-ticks" => a.max_ticks = value()?.parse()?,
            "--check" => {
                let csv = value()?;
                a.check = Some((csv.into(), value()?.into()));
            }
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    Ok(a)
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = parse_args()?;
    if let Some((csv, map)) = &args.check {
        let Checked { rows, ticks, agents, worst, in_solid } = check_files(csv, map)?;
        println!(
            "check rows={rows} ticks={ticks} agents={agents} worst_overlap={:.2}% centres_in_solid={in_solid}",
            worst.max(0.0) * 100.0
        );
        if worst > f64::from(OVERLAP) || in_solid > 0 {
            return Err("the dump breaks separation or clearance".into());
        }
        return Ok(());
    }
    let mut run = Run::new(args.drones, args.fish)?;
    let arrived = run.simulate(args.max_ticks)?;
    let (worst, outside) = run.audit();
    println!(
        "separation worst_overlap={:.2}% of a radius; centres outside free space: {outside}",
        worst.max(0.0) * 100.0
    );
    if let Some(path) = &args.dump {
        std::fs::write(path, run.csv())?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &args.export {
        write_3dmap(&run.world, path)?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &args.gif {
        let frames = write_gif(&run, path, 8)?;
        println!("wrote {} ({frames} frames)", path.display());
    }
    let ticks = run.tick_us.len();
    let avoid_mean = run.avoid_us.iter().sum::<f64>() / ticks.max(1) as f64;
    let avoid_max = run.avoid_us.iter().copied().fold(0.0, f64::max);
    let mut sorted = run.tick_us.clone();
    sorted.sort_by(f64::total_cmp);
    let p99 = sorted.get(ticks * 99 / 100).copied().unwrap_or(0.0);
    println!("avoidance step alone: mean_us={avoid_mean:.0} max_us={avoid_max:.0}; tick p99_us={p99:.0}");
    let mean = run.tick_us.iter().sum::<f64>() / ticks.max(1) as f64;
    let max = run.tick_us.iter().copied().fold(0.0, f64::max);
    println!(
        "swarm agents={} arrived={arrived} ticks={ticks} mean_tick_us={mean:.0} max_tick_us={max:.0}",
        run.agents.len()
    );
    if arrived < run.agents.len() || worst > OVERLAP || outside > 0 {
        return Err("not every promise held (see above)".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_swarm_arrives_without_overlap_in_free_space() {
        let mut run = Run::new(48, 12).unwrap();
        let arrived = run.simulate(1500).unwrap();
        assert_eq!(arrived, 60, "after {} ticks", run.tick_us.len());
        let (worst, outside) = run.audit();
        assert!(worst <= OVERLAP, "spheres overlapped by {:.1} % of a radius", worst * 100.0);
        assert_eq!(outside, 0);
        // The dump and the export read back through the independent checker agree.
        let dir = std::env::temp_dir().join(format!("voxnav-swarm-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (csv, map) = (dir.join("swarm.csv"), dir.join("swarm.3dmap"));
        std::fs::write(&csv, run.csv()).unwrap();
        write_3dmap(&run.world, &map).unwrap();
        let Checked { rows, ticks, agents, worst: file_worst, in_solid } = check_files(&csv, &map).unwrap();
        assert_eq!((ticks, agents, rows), (run.history.len(), 60, run.history.len() * 60));
        assert!(file_worst <= f64::from(OVERLAP) + 1e-3);
        assert_eq!(in_solid, 0);
        let loaded = VoxelWorld::load_3dmap(&map).unwrap();
        assert_eq!(loaded.dims(), run.world.dims());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
