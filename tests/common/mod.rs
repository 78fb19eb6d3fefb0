//! Shared test helpers: a plain Dijkstra oracle, an independent move-legality check, seeded
//! random worlds, and the Warframe data location.

#![allow(dead_code, reason = "each test binary uses a different subset of the helpers")]

use std::collections::BinaryHeap;
use std::path::PathBuf;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use voxnav::prelude::*;

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

/// Cheapest cost from `start` to `goal` by plain Dijkstra over a dense array, or `None`.
pub fn dijkstra(
    world: &VoxelWorld,
    start: IVec3,
    goal: IVec3,
    rule: DiagonalRule,
    costs: &CostModel,
    media: Media,
) -> Option<u64> {
    let d = world.dims().as_ivec3();
    let index = |v: IVec3| (v.x + d.x * (v.y + d.y * v.z)) as usize;
    let mut best = vec![u64::MAX; (d.x * d.y * d.z) as usize];
    let mut heap = BinaryHeap::new();
    best[index(start)] = 0;
    heap.push(std::cmp::Reverse((0u64, start.to_array())));
    while let Some(std::cmp::Reverse((g, v))) = heap.pop() {
        let v = IVec3::from_array(v);
        if v == goal {
            return Some(g);
        }
        if g > best[index(v)] {
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
                    if ng < best[index(n)] {
                        best[index(n)] = ng;
                        heap.push(std::cmp::Reverse((ng, n.to_array())));
                    }
                }
            }
        }
    }
    None
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
            world.fill_voxels(a.min(b), a.max(b), Voxel::Water);
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

/// A uniformly random voxel inside `world`.
pub fn random_voxel(rng: &mut StdRng, world: &VoxelWorld) -> IVec3 {
    let d = world.dims().as_ivec3();
    IVec3::new(rng.random_range(0..d.x), rng.random_range(0..d.y), rng.random_range(0..d.z))
}

/// A random voxel the media allow, if one is found in a few tries.
pub fn random_free_voxel(rng: &mut StdRng, world: &VoxelWorld, media: Media) -> Option<IVec3> {
    (0..64).map(|_| random_voxel(rng, world)).find(|&v| passable(world, v, media))
}

/// Checks every step of `path` is a legal move and its cost adds up; panics with the reason.
pub fn assert_path_valid(world: &VoxelWorld, path: &Path, start: IVec3, goal: IVec3, config: &SearchConfig) {
    assert_eq!(path.voxels.first(), Some(&start));
    assert_eq!(path.voxels.last(), Some(&goal));
    let mut cost = 0;
    for w in path.voxels.windows(2) {
        let d = w[1] - w[0];
        assert!(legal(world, w[0], d, config.diagonal, config.media), "illegal step {} -> {}", w[0], w[1]);
        cost += move_cost(world, w[1], d, &config.costs, config.media);
    }
    assert_eq!(cost, path.cost, "path cost does not add up");
    assert_eq!(path.points.len(), path.voxels.len());
}

/// The Warframe benchmark folder: `$VOXNAV_WARFRAME_DIR`, else `../shared/benchmarks/warframe`.
/// `None` (with a printed notice) when absent.
pub fn warframe_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VOXNAV_WARFRAME_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/warframe"));
    if dir.join("maps").is_dir() {
        Some(dir)
    } else {
        println!("NOTICE: Warframe benchmark not found at {} (set VOXNAV_WARFRAME_DIR); skipping", dir.display());
        None
    }
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
