//! `--level PATH`: the fly-through on a real game level (glTF or OBJ, Y up, metres; or a baked
//! `.vxn`). The mesh is baked once into `OUT/NAME.vxn` and loaded from there the next time. A
//! 1 m drone (air only, keeping its clearance) flies between two points, a small fish swims
//! across the level's largest body of water (if it has one), and both are drawn over a cutaway
//! of the level: everything a few metres above the flights' median height is taken off, so the
//! rooms open to the sky.

use std::error::Error;
use std::path::Path;
use std::time::Instant;

use voxnav::glam::{IVec3, Vec3};
use voxnav::{Agent, Components, LevelConfig, LevelMesh, Limits, Media, Voxel, VoxelWorld, build_level};

use crate::scene::{Trip, hash3, srgb};

/// A shared level's README values: file stem, suggested voxel size, a seed in open air, a start
/// and a goal (world units).
type Known = (&'static str, f32, [f32; 3], [f32; 3], [f32; 3]);

/// The shared levels (`../shared/levels/README.md`).
const KNOWN: [Known; 5] = [
    ("oa_hydronex", 0.5, [14.83, 2.23, 48.56], [-14.63, -0.21, 129.24], [14.63, -0.21, -127.61]),
    ("oa_dm7", 0.25, [11.38, 4.66, 17.07], [11.38, 4.66, 17.07], [31.90, 9.54, 31.90]),
    ("oa_islandctf", 0.5, [11.79, 17.67, -0.41], [-18.69, 7.92, 37.39], [47.96, 22.55, -51.21]),
    ("lq_e0m2", 0.5, [3.66, 6.49, 46.74], [3.66, 6.49, 46.74], [11.79, -2.85, -86.56]),
    ("samurai_monastery", 0.5, [-13.24, 2.48, -49.44], [-57.24, 2.48, -49.44], [32.76, 2.48, 46.56]),
];

/// What `--level` asks for beyond the path (each overrides the known level's value).
#[derive(Debug, Clone, Default)]
pub struct LevelArgs {
    /// The level file.
    pub path: std::path::PathBuf,
    /// Voxel size (m).
    pub voxel: Option<f32>,
    /// A point in open air.
    pub seed: Option<Vec3>,
    /// The drone's start and goal.
    pub start: Option<Vec3>,
    /// The drone's goal.
    pub goal: Option<Vec3>,
}

/// A real level, ready to fly.
pub struct LevelScene {
    /// The level's name (its file stem).
    pub name: String,
    /// The navigable world.
    pub world: VoxelWorld,
    /// The cutaway drawn: the world with everything above `cut` (a voxel row) taken off.
    pub view: VoxelWorld,
    /// First voxel row taken off.
    pub cut: i32,
    /// The drone's trip, and the fish's if the level has water.
    pub trips: Vec<Trip>,
    /// How the world was made ("baked in .. ms" or "loaded .. in .. ms").
    pub made: String,
}

/// Loads (or bakes and caches) the level and plans where the agents go.
pub fn load(args: &LevelArgs, out: &Path) -> Result<LevelScene, Box<dyn Error>> {
    let name = args.path.file_stem().map_or("level".into(), |s| s.to_string_lossy().into_owned());
    let known = KNOWN.iter().find(|k| k.0 == name);
    let voxel = args.voxel.or(known.map(|k| k.1)).unwrap_or(0.5);
    let seed = args.seed.or(known.map(|k| Vec3::from_array(k.2)));
    let t = Instant::now();
    let is_baked = args.path.extension().is_some_and(|e| e == "vxn");
    let cache = out.join(format!("{name}.vxn"));
    let (world, made) = if is_baked {
        (VoxelWorld::load_vxn(&args.path, Limits::DEFAULT)?, format!("loaded {} in", args.path.display()))
    } else if let Some(w) = fresh_cache(&cache, &args.path, voxel) {
        (w, format!("loaded the bake {} in", cache.display()))
    } else {
        let mesh = LevelMesh::load(&args.path, "water")?;
        let config = LevelConfig { voxel_size: voxel, seeds: seed.into_iter().collect(), ..Default::default() };
        let world = build_level(&mesh, &config)?.world;
        std::fs::create_dir_all(out)?;
        world.write_vxn(std::io::BufWriter::new(std::fs::File::create(&cache)?))?;
        (
            world,
            format!(
                "baked {} triangles into {} in",
                mesh.solid.triangles.len() + mesh.water.triangles.len(),
                cache.display()
            ),
        )
    };
    let made = format!("{made} {:.1} ms", t.elapsed().as_secs_f64() * 1e3);

    let drone_agent = Agent::with_media(1.0, 1.0, 0.5, Media::AIR)?;
    let clearance = drone_agent.clearance_in(world.voxel_size())?;
    let (start, goal) =
        match (args.start.or(known.map(|k| Vec3::from_array(k.3))), args.goal.or(known.map(|k| Vec3::from_array(k.4))))
        {
            (Some(s), Some(g)) => (s, g),
            _ => return Err("an unknown level needs --start x,y,z and --goal x,y,z".into()),
        };
    let centre = |p: Vec3| world.voxel_center(world.voxel_at(p));
    let mut trips =
        vec![Trip { name: "drone", agent: drone_agent, start: centre(start), goal: centre(goal), clearance }];
    if let Some((a, b)) = far_apart_in_water(&world)? {
        let fish = Agent::with_media(0.4, 0.15, 0.2, Media::WATER)?;
        trips.push(Trip {
            name: "fish",
            agent: fish,
            start: world.voxel_center(a),
            goal: world.voxel_center(b),
            clearance: 0,
        });
    }

    // The cutaway comes once the flights are planned (see `cut_above`).
    let view = world.clone();
    Ok(LevelScene { name, world, view, cut: i32::MAX, trips, made })
}

/// The baked cache, if it exists, is newer than the mesh and has the voxel size asked for.
fn fresh_cache(cache: &Path, mesh: &Path, voxel: f32) -> Option<VoxelWorld> {
    let newer = std::fs::metadata(cache).ok()?.modified().ok()? >= std::fs::metadata(mesh).ok()?.modified().ok()?;
    let world = VoxelWorld::load_vxn(cache, Limits::DEFAULT).ok()?;
    (newer && world.voxel_size() == voxel).then_some(world)
}

/// Two water voxels far apart in the level's largest body of water (by 6-connected water
/// components), or `None` for a dry level.
fn far_apart_in_water(world: &VoxelWorld) -> Result<Option<(IVec3, IVec3)>, Box<dyn Error>> {
    if !world.has_water() {
        return Ok(None);
    }
    let labels = Components::new(world, Media::WATER)?;
    let d = world.dims().as_ivec3();
    let mut water = Vec::new();
    for z in 0..d.z {
        for y in 0..d.y {
            for x in 0..d.x {
                let v = IVec3::new(x, y, z);
                if world.get(v) == Voxel::Water
                    && let Some(l) = labels.label(world, v)
                {
                    water.push((l, v));
                }
            }
        }
    }
    let mut sizes = std::collections::BTreeMap::new();
    for &(l, _) in &water {
        *sizes.entry(l).or_insert(0usize) += 1;
    }
    let Some((&largest, _)) = sizes.iter().max_by_key(|&(l, n)| (*n, std::cmp::Reverse(*l))) else { return Ok(None) };
    let body: Vec<IVec3> = water.into_iter().filter(|&(l, _)| l == largest).map(|(_, v)| v).collect();
    let farthest = |from: IVec3| *body.iter().max_by_key(|&&v| (v - from).length_squared()).expect("a body has voxels");
    let a = farthest(body[0]);
    Ok(Some((a, farthest(a))))
}

impl LevelScene {
    /// Takes off everything from 3 m above the median height of `points` up (higher stretches
    /// of the flights are then drawn over the cut).
    pub fn cut_above(&mut self, points: impl Iterator<Item = Vec3>) -> Result<(), Box<dyn Error>> {
        let mut heights: Vec<f32> = points.map(|p| p.y).collect();
        heights.sort_by(f32::total_cmp);
        let top = heights.get(heights.len() / 2).copied().unwrap_or(0.0);
        let cut = self.world.voxel_at(Vec3::new(0.0, top + 3.0, 0.0)).y.max(1);
        let d = self.world.dims().as_ivec3();
        self.view = self.world.clone();
        if cut < d.y {
            self.view.fill_voxels(IVec3::new(0, cut, 0), d - 1, Voxel::Air)?;
        }
        self.cut = cut;
        Ok(())
    }

    /// Colour of the face of solid voxel `v` facing `normal`: stone by height, lighter tops,
    /// and the cut's faces dark, so the cutaway reads as a plan.
    pub fn color(&self, v: IVec3, normal: IVec3) -> Vec3 {
        let jitter = 0.92 + 0.16 * hash3(v, 1);
        if normal.y > 0 && v.y == self.cut - 1 && self.world.is_blocked(v + IVec3::Y) {
            return srgb(0.20, 0.19, 0.22) * jitter;
        }
        let t = (v.y as f32 / self.cut.min(self.world.dims().y as i32).max(1) as f32).clamp(0.0, 1.0);
        let stone = srgb(0.46, 0.42, 0.38).lerp(srgb(0.80, 0.74, 0.64), t);
        let stone = if normal.y > 0 { stone * 1.12 } else { stone };
        stone * jitter
    }
}

/// Whether every pose of a flight keeps to its agent's rule: the drone's centre in air with
/// its clearance, the fish's in water.
pub fn keeps_clear(world: &VoxelWorld, trip: &Trip, points: &[Vec3]) -> bool {
    let media = trip.agent.media();
    points.iter().all(|&p| {
        let v = world.voxel_at(p);
        media.allows(world.get(v)) && world.clearance(v) > trip.clearance
    })
}

/// A camera above the cutaway, looking down at it from the south-east at 50 degrees or so,
/// far enough to see the whole level.
pub fn overview_camera(view: &VoxelWorld, cut: i32, width: u32, height: u32) -> crate::render::Camera {
    let (lo, hi) = view.bounds();
    let top = view.voxel_min(IVec3::new(0, cut.min(view.dims().y as i32), 0)).y;
    let centre = Vec3::new((lo.x + hi.x) / 2.0, (lo.y + top) / 2.0, (lo.z + hi.z) / 2.0);
    let extent = Vec3::new(hi.x - lo.x, top - lo.y, hi.z - lo.z);
    let fov = 33f32.to_radians();
    let aspect = width as f32 / height as f32;
    let reach = extent.x.max(extent.z / aspect.min(1.0)).max(extent.z) * 0.55;
    let distance = reach / (fov / 2.0).tan() * 0.95;
    let direction = Vec3::new(0.35, 1.0, 0.55).normalize();
    crate::render::Camera::look_at(centre + direction * distance, centre, Vec3::Y, fov, width, height)
}
