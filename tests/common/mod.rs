//! Shared test helpers: a plain Dijkstra oracle, an independent move-legality check, seeded
//! random worlds, one approx macro, a dense clearance check written independently of the
//! smoother, and the Warframe data location.

#![allow(dead_code, reason = "each test binary uses a different subset of the helpers")]

pub mod adversarial;
pub mod levels;
pub mod query_check;
pub mod tri_box;

use std::collections::BinaryHeap;
use std::path::PathBuf;

use glam::{Mat4, Quat};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use voxnav::prelude::*;
use voxnav::{Problem, Scenario};

/// A fixed-seed generator, so a failure replays.
pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// Whether an agent with `media` may stand in `v`.
pub fn passable(world: &VoxelWorld, v: IVec3, media: Media) -> bool {
    media.allows(world.get(v))
}

/// Whether the move `from -> from + d` is legal under `rule` (written without the crate's tables).
pub fn legal(world: &VoxelWorld, from: IVec3, d: IVec3, rule: DiagonalRule, media: Media) -> bool {
    if d == IVec3::ZERO || d.abs().max_element() != 1 || !passable(world, from + d, media) {
        return false;
    }
    let mut need = Vec::new();
    match rule {
        DiagonalRule::Strict => {
            for x in [0, d.x] {
                for y in [0, d.y] {
                    for z in [0, d.z] {
                        need.push(IVec3::new(x, y, z));
                    }
                }
            }
        }
        DiagonalRule::Faces => {
            need.extend([IVec3::new(d.x, 0, 0), IVec3::new(0, d.y, 0), IVec3::new(0, 0, d.z)]);
        }
        DiagonalRule::Unchecked => {}
    }
    need.into_iter().filter(|&o| o != IVec3::ZERO).all(|o| passable(world, from + o, media))
}

/// Cost of a legal move into `to`, with media weights.
pub fn move_cost(world: &VoxelWorld, to: IVec3, d: IVec3, costs: &CostModel, media: Media) -> u64 {
    let axes = (d.x != 0) as usize + (d.y != 0) as usize + (d.z != 0) as usize;
    let weight = media.weight(world.get(to)).expect("legal move");
    costs.cost(axes) * u64::from(weight) / 100
}

/// Plain Dijkstra from `start` over a dense array: the cheapest cost to every voxel (`None`:
/// unreachable), indexed by [`index`]. Small worlds only.
pub fn distances(
    world: &VoxelWorld,
    start: IVec3,
    rule: DiagonalRule,
    costs: &CostModel,
    media: Media,
) -> Vec<Option<u64>> {
    let d = world.dims().as_ivec3();
    let mut best = vec![None; (d.x * d.y * d.z) as usize];
    let mut heap = BinaryHeap::new();
    best[index(world, start)] = Some(0);
    heap.push(std::cmp::Reverse((0u64, start.to_array())));
    while let Some(std::cmp::Reverse((g, v))) = heap.pop() {
        let v = IVec3::from_array(v);
        if best[index(world, v)] != Some(g) {
            continue;
        }
        for dz in -1..=1 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let step = IVec3::new(dx, dy, dz);
                    if !legal(world, v, step, rule, media) {
                        continue;
                    }
                    let n = v + step;
                    let ng = g + move_cost(world, n, step, costs, media);
                    if best[index(world, n)].is_none_or(|old| ng < old) {
                        best[index(world, n)] = Some(ng);
                        heap.push(std::cmp::Reverse((ng, n.to_array())));
                    }
                }
            }
        }
    }
    best
}

/// A copy of `world` in which every voxel within Chebyshev distance `r` of a solid voxel or of
/// the outside is solid (water and air elsewhere kept): what an agent of clearance radius `r`
/// sees. Built voxel by voxel from `get` and `set`, independently of the library's dilation.
pub fn dilated(world: &VoxelWorld, r: u8) -> VoxelWorld {
    let mut out = world.clone();
    if r == 0 {
        return out;
    }
    let (d, r) = (world.dims().as_ivec3(), i32::from(r));
    for z in 0..d.z {
        for y in 0..d.y {
            for x in 0..d.x {
                let v = IVec3::new(x, y, z);
                let near = (-r..=r)
                    .any(|dz| (-r..=r).any(|dy| (-r..=r).any(|dx| world.is_blocked(v + IVec3::new(dx, dy, dz)))));
                if near {
                    out.set(v, voxnav::Voxel::Solid).unwrap();
                }
            }
        }
    }
    out
}

/// Index of voxel `v` in [`distances`]' output.
pub fn index(world: &VoxelWorld, v: IVec3) -> usize {
    let d = world.dims().as_ivec3();
    ((v.z * d.y + v.y) * d.x + v.x) as usize
}

/// Cheapest cost from `start` to `goal` (see [`distances`]), or `None`.
pub fn dijkstra(
    world: &VoxelWorld,
    start: IVec3,
    goal: IVec3,
    rule: DiagonalRule,
    costs: &CostModel,
    media: Media,
) -> Option<u64> {
    distances(world, start, rule, costs, media)[index(world, goal)]
}

/// A random small world: solid voxels at `density`, and sometimes a few boxes of water.
pub fn random_world(rng: &mut StdRng, max_dim: u32) -> VoxelWorld {
    let dims = UVec3::new(rng.random_range(2..=max_dim), rng.random_range(2..=max_dim), rng.random_range(2..=max_dim));
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
    let density = rng.random_range(0.0..0.45);
    if rng.random_bool(0.4) {
        for _ in 0..rng.random_range(1..4) {
            let a = random_voxel(rng, &world);
            let b = random_voxel(rng, &world);
            world.fill_voxels(a.min(b), a.max(b), Voxel::Water).unwrap();
        }
    }
    for z in 0..dims.z as i32 {
        for y in 0..dims.y as i32 {
            for x in 0..dims.x as i32 {
                if rng.random_bool(density) {
                    world.set(IVec3::new(x, y, z), Voxel::Solid).unwrap();
                }
            }
        }
    }
    world
}

/// A random world of `dims`: `solid_pct` % solid voxels, `water_pct` % water, and up to two
/// walls across it with a few holes, so detours are long and jump points many.
pub fn walled_world(rng: &mut StdRng, dims: UVec3, solid_pct: u32, water_pct: u32) -> VoxelWorld {
    let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
    let d = dims.as_ivec3();
    for z in 0..d.z {
        for y in 0..d.y {
            for x in 0..d.x {
                let r = rng.random_range(0..100);
                let v = if r < solid_pct {
                    Voxel::Solid
                } else if r < solid_pct + water_pct {
                    Voxel::Water
                } else {
                    continue;
                };
                w.set(IVec3::new(x, y, z), v).unwrap();
            }
        }
    }
    for _ in 0..rng.random_range(0..3) {
        let axis = rng.random_range(0..3);
        let at = rng.random_range(0..d[axis]);
        let (mut lo, mut hi) = (IVec3::ZERO, d - 1);
        lo[axis] = at;
        hi[axis] = at;
        w.fill_voxels(lo, hi, Voxel::Solid).unwrap();
        for _ in 0..rng.random_range(0..4) {
            let mut hole = random_voxel(rng, &w);
            hole[axis] = at;
            w.set(hole, Voxel::Air).unwrap();
        }
    }
    w
}

/// A uniformly random voxel inside `world`.
pub fn random_voxel(rng: &mut StdRng, world: &VoxelWorld) -> IVec3 {
    let d = world.dims().as_ivec3();
    IVec3::new(rng.random_range(0..d.x), rng.random_range(0..d.y), rng.random_range(0..d.z))
}

/// A random voxel the media allow, if one is found in a few tries.
pub fn random_free_voxel(rng: &mut StdRng, world: &VoxelWorld, media: Media) -> Option<IVec3> {
    (0..64).map(|_| random_voxel(rng, world)).find(|&v| passable(world, v, media))
}

/// Two random voxels the media allow (both drawn, in order, whatever the first gave).
pub fn random_free_pair(rng: &mut StdRng, world: &VoxelWorld, media: Media) -> Option<(IVec3, IVec3)> {
    let a = random_free_voxel(rng, world, media);
    a.zip(random_free_voxel(rng, world, media))
}

/// Checks `path` starts at `start`, every step is a legal move under `rule` and `media`, and
/// its cost is the sum of its steps; panics with the reason.
pub fn check_steps(world: &VoxelWorld, path: &Path, start: IVec3, rule: DiagonalRule, costs: &CostModel, media: Media) {
    assert_eq!(path.voxels.first(), Some(&start));
    let mut cost = 0;
    for w in path.voxels.windows(2) {
        let d = w[1] - w[0];
        assert!(legal(world, w[0], d, rule, media), "illegal step {} -> {} ({rule:?}, {media:?})", w[0], w[1]);
        cost += move_cost(world, w[1], d, costs, media);
    }
    assert_eq!(cost, path.cost, "path cost is not the sum of its steps: {:?}", path.voxels);
    assert_eq!(path.points.len(), path.voxels.len());
}

/// `request` begun on `finder` and advanced `slice` expansions at a time to its end.
pub fn find_sliced(
    finder: &mut Pathfinder,
    world: &VoxelWorld,
    components: Option<&voxnav::Components>,
    request: &voxnav::PathRequest,
    slice: usize,
) -> Result<Path, PathError> {
    finder.begin(world, components, request)?;
    loop {
        match finder.advance(world, slice) {
            voxnav::SearchStep::Pending => {}
            voxnav::SearchStep::Found(p) => return Ok(p),
            voxnav::SearchStep::Failed(e) => return Err(e),
        }
    }
}

/// [`check_steps`] under `config`, and the path ends at `goal`.
pub fn assert_path_valid(world: &VoxelWorld, path: &Path, start: IVec3, goal: IVec3, config: &SearchConfig) {
    check_steps(world, path, start, config.diagonal, &config.costs, config.media);
    assert_eq!(path.voxels.last(), Some(&goal));
}

/// The Warframe benchmark folder: `$VOXNAV_WARFRAME_DIR`, else `../shared/benchmarks/warframe`.
/// `None` (with a printed notice) when absent.
pub fn warframe_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VOXNAV_WARFRAME_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/warframe"));
    if dir.join("maps").is_dir() && dir.join("scenarios").is_dir() {
        Some(dir)
    } else {
        missing_data(&format!("Warframe benchmark not found at {} (set VOXNAV_WARFRAME_DIR)", dir.display()));
        None
    }
}

/// Reports data a test needs but cannot find: a notice on stderr (not captured by the test
/// harness) and a skip, except in CI (`CI` set), where missing data is a failure.
pub fn missing_data(what: &str) {
    assert!(std::env::var_os("CI").is_none(), "{what}, and CI is set: the data must be there");
    eprintln!("NOTICE: {what}; skipping");
}

/// All map names of the Warframe folder, sorted.
pub fn warframe_maps(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("maps"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".3dmap").map(String::from))
        .collect();
    names.sort();
    names
}

/// Penetration (voxels) below which the box only touches a voxel: the f32 rounding of world
/// coordinates up to about 1000 voxels, with margin.
pub const TOUCH: f64 = 2e-4;

/// Largest difference between two values, for [`assert_approx!`].
pub trait Approx {
    /// The largest absolute difference of corresponding components.
    fn diff(&self, other: &Self) -> f64;
}

impl Approx for f32 {
    fn diff(&self, o: &Self) -> f64 {
        f64::from((self - o).abs())
    }
}
impl Approx for f64 {
    fn diff(&self, o: &Self) -> f64 {
        (self - o).abs()
    }
}
impl Approx for Vec3 {
    fn diff(&self, o: &Self) -> f64 {
        f64::from((*self - *o).abs().max_element())
    }
}
impl Approx for Quat {
    fn diff(&self, o: &Self) -> f64 {
        f64::from((glam::Vec4::from(*self) - glam::Vec4::from(*o)).abs().max_element())
    }
}
impl Approx for Mat4 {
    fn diff(&self, o: &Self) -> f64 {
        let (a, b) = (self.to_cols_array(), o.to_cols_array());
        a.iter().zip(&b).map(|(x, y)| f64::from((x - y).abs())).fold(0.0, f64::max)
    }
}
impl Approx for [f32; 16] {
    fn diff(&self, o: &Self) -> f64 {
        self.iter().zip(o).map(|(x, y)| f64::from((x - y).abs())).fold(0.0, f64::max)
    }
}

/// Asserts that two values (see [`Approx`]) differ by at most a tolerance.
#[macro_export]
macro_rules! assert_approx {
    ($a:expr, $b:expr, $tol:expr) => {
        $crate::assert_approx!($a, $b, $tol, "")
    };
    ($a:expr, $b:expr, $tol:expr, $($msg:tt)+) => {{
        let (a, b, tol) = (&$a, &$b, $tol as f64);
        let d = $crate::common::Approx::diff(a, b);
        assert!(d <= tol, "{} vs {}: differ by {d} > {tol}: {:?} vs {:?}; {}",
            stringify!($a), stringify!($b), a, b, format!($($msg)+));
    }};
}

/// The index of the voxel of `voxels` whose centre is nearest `at` (voxel units; the first of
/// equals): where an agent at `at` rejoins its path.
pub fn nearest_voxel(voxels: &[IVec3], at: Vec3) -> usize {
    (0..voxels.len())
        .min_by(|&a, &b| {
            let d = |i: usize| (voxels[i].as_vec3() + 0.5).distance_squared(at);
            d(a).total_cmp(&d(b))
        })
        .expect("a path has a voxel")
}

/// A random world (6..=20 voxels a side, voxel size and origin random too), boxes and scattered
/// solid voxels, and some water; with a start and goal joined by a strict path for `media`: of
/// A* for even seeds, of jump point search for odd ones. Their paths differ in shape (jump point
/// search's take diagonal moves first), and the code downstream (smoothing, flight, rejoining)
/// sees both.
pub fn random_case(seed: u64, media: Media) -> Option<(VoxelWorld, Path)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let dims = UVec3::new(rng.random_range(6..=20), rng.random_range(6..=20), rng.random_range(6..=20));
    let size = [1.0, 0.5, 2.0, 0.3][rng.random_range(0..4)];
    let origin = Vec3::new(rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0));
    let mut world = VoxelWorld::new(origin, size, dims).ok()?;
    let d = dims.as_ivec3();
    let pick =
        |rng: &mut StdRng| IVec3::new(rng.random_range(0..d.x), rng.random_range(0..d.y), rng.random_range(0..d.z));
    for _ in 0..rng.random_range(0..8) {
        let a = pick(&mut rng);
        let e = IVec3::new(rng.random_range(0..6), rng.random_range(0..6), rng.random_range(0..6));
        let kind = if rng.random_bool(0.2) { Voxel::Water } else { Voxel::Solid };
        world.fill_voxels(a, a + e, kind).unwrap();
    }
    let density = rng.random_range(0.0..0.25);
    let count = (dims.x * dims.y * dims.z) as f64 * density;
    for _ in 0..count as usize {
        let v = pick(&mut rng);
        world.set(v, Voxel::Solid).ok()?;
    }
    let algorithm = if seed.is_multiple_of(2) { Algorithm::AStar } else { Algorithm::Jps };
    let config = SearchConfig { media, diagonal: DiagonalRule::Strict, algorithm, ..Default::default() };
    let mut finder = Pathfinder::new();
    for _ in 0..20 {
        let (s, g) = (pick(&mut rng), pick(&mut rng));
        if let Ok(path) = finder.find(&world, None, &PathRequest::new(s, g, config)) {
            return Some((world, path));
        }
    }
    None
}

/// Panics if the agent's box, at densely sampled points (at most 1/50 voxel apart) of the
/// polyline through `points` (world units), overlaps a voxel blocked for `media` by more than
/// [`TOUCH`]. Written from the definitions only: box = one voxel centred on the point.
pub fn assert_clear(world: &VoxelWorld, media: Media, points: &[Vec3], what: &str) {
    let size = f64::from(world.voxel_size());
    let origin = world.origin().as_dvec3();
    let to_voxels = |p: Vec3| (p.as_dvec3() - origin) / size;
    let check = |q: glam::DVec3, from: glam::DVec3, to: glam::DVec3| {
        let lo = (q - 0.5).floor().as_ivec3();
        for dz in 0..2 {
            for dy in 0..2 {
                for dx in 0..2 {
                    let v = lo + IVec3::new(dx, dy, dz);
                    let centre = v.as_dvec3() + 0.5;
                    let penetration = 1.0 - (q - centre).abs().max_element();
                    if penetration > TOUCH && !media.allows(world.get(v)) {
                        panic!(
                            "{what}: the box at {q} (from {from} to {to}) enters blocked voxel {v} by {penetration}"
                        );
                    }
                }
            }
        }
    };
    if let Some(&p) = points.first() {
        check(to_voxels(p), to_voxels(p), to_voxels(p));
    }
    for w in points.windows(2) {
        let (a, b) = (to_voxels(w[0]), to_voxels(w[1]));
        let n = (a.distance(b) * 50.0).ceil().max(1.0) as usize;
        for i in 1..=n {
            check(a.lerp(b, i as f64 / n as f64), a, b);
        }
    }
}

/// Like [`assert_clear`], for the given points only (no interpolation between them): for
/// sampled poses, whose trajectory between samples is not a straight line.
pub fn assert_points_clear(world: &VoxelWorld, media: Media, points: &[Vec3], what: &str) {
    for &p in points {
        assert_clear(world, media, &[p], what);
    }
}

/// A Warframe map and every `every`-th of its problems (at most `limit`).
pub fn warframe(dir: &std::path::Path, map: &str, every: usize, limit: usize) -> (VoxelWorld, Vec<Problem>) {
    let world = VoxelWorld::load_3dmap(dir.join("maps").join(format!("{map}.3dmap"))).expect("map loads");
    let scen = Scenario::load(dir.join("scenarios").join(format!("{map}.3dmap.3dscen"))).expect("scenario loads");
    (world, scen.problems.into_iter().step_by(every).take(limit).collect())
}
