//! Shared test helpers: seeded random worlds and a plain Dijkstra oracle, written from the
//! movement rules alone (no library internals).
#![allow(dead_code, reason = "each test binary uses a different subset")]

use std::collections::BinaryHeap;

use glam::{IVec3, UVec3, Vec3};
use voxnav::{CostModel, DiagonalRule, Media, Voxel, VoxelWorld};

/// A small seeded generator (PCG-like LCG), so every failure replays.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    pub fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

/// A random world: `solid_pct` % solid voxels (often clustered in slabs), `water_pct` % water.
pub fn random_world(rng: &mut Rng, dims: UVec3, solid_pct: u32, water_pct: u32) -> VoxelWorld {
    let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
    let d = dims.as_ivec3();
    for z in 0..d.z {
        for y in 0..d.y {
            for x in 0..d.x {
                let r = rng.below(100);
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
    // A few walls with holes, so detours are long and jump points many.
    for _ in 0..rng.below(3) {
        let axis = rng.below(3) as usize;
        let at = rng.below(dims[axis]) as i32;
        let (mut lo, mut hi) = (IVec3::ZERO, d - 1);
        lo[axis] = at;
        hi[axis] = at;
        w.fill_voxels(lo, hi, Voxel::Solid);
        for _ in 0..rng.below(4) {
            let mut hole = IVec3::new(rng.below(dims.x) as i32, rng.below(dims.y) as i32, rng.below(dims.z) as i32);
            hole[axis] = at;
            w.set(hole, Voxel::Air).unwrap();
        }
    }
    w
}

/// Whether `v` is inside and of a medium `media` allows.
pub fn free(world: &VoxelWorld, media: &Media, v: IVec3) -> bool {
    world.contains(v) && media.allows(world.get(v))
}

/// Whether the single move `from -> from + d` is legal under `rule`.
pub fn legal(world: &VoxelWorld, media: &Media, rule: DiagonalRule, from: IVec3, d: IVec3) -> bool {
    if d == IVec3::ZERO || d.abs().max_element() > 1 || !free(world, media, from + d) {
        return false;
    }
    match rule {
        DiagonalRule::Unchecked => true,
        DiagonalRule::Faces => (0..3).all(|a| {
            let mut f = IVec3::ZERO;
            f[a] = d[a];
            d[a] == 0 || free(world, media, from + f)
        }),
        DiagonalRule::Strict => (1..8).all(|k| {
            let o = IVec3::new(d.x * (k & 1), d.y * ((k >> 1) & 1), d.z * ((k >> 2) & 1));
            o == IVec3::ZERO || free(world, media, from + o)
        }),
    }
}

/// Cost of the move `from -> from + d` (media weight of the voxel entered).
pub fn move_cost(world: &VoxelWorld, media: &Media, costs: &CostModel, from: IVec3, d: IVec3) -> u64 {
    let axes = (d.x != 0) as usize + (d.y != 0) as usize + (d.z != 0) as usize;
    let w = if world.has_water() { media.weight(world.get(from + d)).unwrap_or(100) } else { 100 };
    costs.cost(axes) * u64::from(w) / 100
}

/// Dijkstra from `start`: the cost of every reachable voxel (dense, small worlds only).
pub fn dijkstra(
    world: &VoxelWorld,
    media: &Media,
    rule: DiagonalRule,
    costs: &CostModel,
    start: IVec3,
) -> Vec<Option<u64>> {
    let d = world.dims().as_ivec3();
    let index = |v: IVec3| ((v.z * d.y + v.y) * d.x + v.x) as usize;
    let mut dist = vec![None; (d.x * d.y * d.z) as usize];
    let mut heap = BinaryHeap::new();
    dist[index(start)] = Some(0);
    heap.push(std::cmp::Reverse((0u64, start.to_array())));
    while let Some(std::cmp::Reverse((g, v))) = heap.pop() {
        let v = IVec3::from_array(v);
        if dist[index(v)] != Some(g) {
            continue;
        }
        for dz in -1..=1 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let m = IVec3::new(dx, dy, dz);
                    if !legal(world, media, rule, v, m) {
                        continue;
                    }
                    let n = v + m;
                    let ng = g + move_cost(world, media, costs, v, m);
                    if dist[index(n)].is_none_or(|old| ng < old) {
                        dist[index(n)] = Some(ng);
                        heap.push(std::cmp::Reverse((ng, n.to_array())));
                    }
                }
            }
        }
    }
    dist
}

/// Index of `v` in [`dijkstra`]'s output.
pub fn index(world: &VoxelWorld, v: IVec3) -> usize {
    let d = world.dims().as_ivec3();
    ((v.z * d.y + v.y) * d.x + v.x) as usize
}

/// A random voxel of `world` free for `media`, if one is found.
pub fn random_free(rng: &mut Rng, world: &VoxelWorld, media: &Media) -> Option<IVec3> {
    let d = world.dims();
    (0..200).find_map(|_| {
        let v = IVec3::new(rng.below(d.x) as i32, rng.below(d.y) as i32, rng.below(d.z) as i32);
        free(world, media, v).then_some(v)
    })
}

/// Checks a path's shape: from `start`, every step a legal move, cost = sum of step costs.
pub fn check_path(
    world: &VoxelWorld,
    media: &Media,
    rule: DiagonalRule,
    costs: &CostModel,
    start: IVec3,
    path: &voxnav::Path,
) {
    assert_eq!(path.voxels.first(), Some(&start));
    let mut cost = 0;
    for w in path.voxels.windows(2) {
        assert!(legal(world, media, rule, w[0], w[1] - w[0]), "illegal step {} -> {}", w[0], w[1]);
        cost += move_cost(world, media, costs, w[0], w[1] - w[0]);
    }
    assert_eq!(cost, path.cost, "cost is not the sum of the steps: {rule:?} {media:?} {:?}", path.voxels);
    assert_eq!(path.points.len(), path.voxels.len());
}

/// The Warframe benchmark folder (`VOXNAV_WARFRAME_DIR` or `../shared/benchmarks/warframe`), or
/// `None` with a printed notice when it is absent.
pub fn warframe_dir() -> Option<std::path::PathBuf> {
    let dir = std::env::var("VOXNAV_WARFRAME_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/warframe"));
    if dir.join("maps").is_dir() {
        Some(dir)
    } else {
        println!("Warframe maps not found in {} (set VOXNAV_WARFRAME_DIR): skipped", dir.display());
        None
    }
}
