//! Shared by the flight integration tests: one approx macro, fixed-seed random worlds, a dense
//! clearance check written independently of the smoother, and access to the Warframe maps.

use std::path::PathBuf;

use glam::{IVec3, Mat4, Quat, UVec3, Vec3};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use voxnav::{DiagonalRule, Media, Path, Pathfinder, Problem, Scenario, SearchConfig, Voxel, VoxelWorld};

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

/// A random world (6..=20 voxels a side, voxel size and origin random too), boxes and scattered
/// solid voxels, and some water; with a start and goal joined by a strict A* path for `media`.
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
        world.fill_voxels(a, a + e, kind);
    }
    let density = rng.random_range(0.0..0.25);
    let count = (dims.x * dims.y * dims.z) as f64 * density;
    for _ in 0..count as usize {
        let v = pick(&mut rng);
        world.set(v, Voxel::Solid).ok()?;
    }
    let config = SearchConfig { media, diagonal: DiagonalRule::Strict, ..Default::default() };
    let mut finder = Pathfinder::new();
    for _ in 0..20 {
        let (s, g) = (pick(&mut rng), pick(&mut rng));
        if let Ok(path) = finder.find_voxel_path(&world, s, g, &config) {
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

/// The Warframe benchmark folder (`VOXNAV_WARFRAME_DIR`, else `../shared/benchmarks/warframe`
/// beside the crate), or `None` with a printed notice.
pub fn warframe_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VOXNAV_WARFRAME_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/warframe"));
    if dir.join("maps").is_dir() && dir.join("scenarios").is_dir() {
        Some(dir)
    } else {
        println!("notice: Warframe maps not found at {} (set VOXNAV_WARFRAME_DIR); skipping", dir.display());
        None
    }
}

/// A Warframe map and every `every`-th of its problems (at most `limit`).
pub fn warframe(dir: &std::path::Path, map: &str, every: usize, limit: usize) -> (VoxelWorld, Vec<Problem>) {
    let world = VoxelWorld::load_3dmap(dir.join("maps").join(format!("{map}.3dmap"))).expect("map loads");
    let scen = Scenario::load(dir.join("scenarios").join(format!("{map}.3dmap.3dscen"))).expect("scenario loads");
    (world, scen.problems.into_iter().step_by(every).take(limit).collect())
}
