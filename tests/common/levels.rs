//! The shared real game levels (`../shared/levels/`, or `VOXNAV_LEVELS_DIR`): where they are
//! and the README table's voxel size, seed, start and goal for each.

use std::path::PathBuf;

use glam::Vec3;

/// One level of the README table.
#[derive(Debug, Clone, Copy)]
pub struct Level {
    /// File stem: `NAME.glb` (and `NAME.obj` when `obj`).
    pub name: &'static str,
    /// Whether an `.obj` twin exists.
    pub obj: bool,
    /// Suggested voxel size (m).
    pub voxel: f32,
    /// A point in open air.
    pub seed: Vec3,
    /// Sample start and goal.
    pub start: Vec3,
    /// Sample goal.
    pub goal: Vec3,
    /// Whether the level has water.
    pub water: bool,
    /// Whether the level is sealed (its free space does not reach the grid boundary).
    pub sealed: bool,
}

/// The README table.
pub const LEVELS: [Level; 5] = [
    Level {
        name: "oa_hydronex",
        obj: true,
        voxel: 0.5,
        seed: Vec3::new(14.83, 2.23, 48.56),
        start: Vec3::new(-14.63, -0.21, 129.24),
        goal: Vec3::new(14.63, -0.21, -127.61),
        water: true,
        sealed: true,
    },
    Level {
        name: "oa_dm7",
        obj: false,
        voxel: 0.25,
        seed: Vec3::new(11.38, 4.66, 17.07),
        start: Vec3::new(11.38, 4.66, 17.07),
        goal: Vec3::new(31.90, 9.54, 31.90),
        water: true,
        sealed: true,
    },
    Level {
        name: "oa_islandctf",
        obj: false,
        voxel: 0.5,
        seed: Vec3::new(11.79, 17.67, -0.41),
        start: Vec3::new(-18.69, 7.92, 37.39),
        goal: Vec3::new(47.96, 22.55, -51.21),
        water: true,
        sealed: true,
    },
    Level {
        name: "lq_e0m2",
        obj: true,
        voxel: 0.5,
        seed: Vec3::new(3.66, 6.49, 46.74),
        start: Vec3::new(3.66, 6.49, 46.74),
        goal: Vec3::new(11.79, -2.85, -86.56),
        water: true,
        sealed: true,
    },
    Level {
        name: "samurai_monastery",
        obj: true,
        voxel: 0.5,
        seed: Vec3::new(-13.24, 2.48, -49.44),
        start: Vec3::new(-57.24, 2.48, -49.44),
        goal: Vec3::new(32.76, 2.48, 46.56),
        water: false,
        sealed: false,
    },
];

/// The levels folder, or `None` (with a notice on stderr) when it is missing. Panics when the
/// env var `CI` is set and the folder is missing: CI must run these tests.
pub fn levels_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VOXNAV_LEVELS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/levels"));
    if LEVELS.iter().all(|l| dir.join(format!("{}.glb", l.name)).is_file()) {
        return Some(dir);
    }
    let notice = format!("NOTICE: shared levels not found at {} (set VOXNAV_LEVELS_DIR); skipping", dir.display());
    assert!(std::env::var_os("CI").is_none(), "{notice} (CI is set: the levels are required)");
    eprintln!("{notice}");
    None
}
