//! Adversarial maps for the searches, shared by tests and benches: a wall with a few small
//! openings far from the straight line (a room with windows), a long corridor whose side
//! branches lead toward the goal and end blind, and a sealed room around the goal.

use glam::{IVec3, UVec3, Vec3};
use voxnav::{Voxel, VoxelWorld};

/// One adversarial query: its name, world, start and goal.
pub struct Case {
    pub name: &'static str,
    pub world: VoxelWorld,
    pub start: IVec3,
    pub goal: IVec3,
}

/// An `n`^3 world cut in two by a wall across x at `n / 2`, open only through four 2 x 2
/// windows near the wall's corners; start and goal face each other through the wall's middle.
pub fn windowed_wall(n: i32) -> Case {
    windowed_wall_at(n, &[(2, 2), (2, n - 4), (n - 4, 2), (n - 4, n - 4)])
}

/// As [`windowed_wall`], with 2 x 2 windows whose lowest corners are at `windows` (`(y, z)`).
pub fn windowed_wall_at(n: i32, windows: &[(i32, i32)]) -> Case {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(n as u32)).unwrap();
    let x = n / 2;
    world.fill_voxels(IVec3::new(x, 0, 0), IVec3::new(x, n - 1, n - 1), Voxel::Solid).unwrap();
    for &(y, z) in windows {
        world.fill_voxels(IVec3::new(x, y, z), IVec3::new(x, y + 1, z + 1), Voxel::Air).unwrap();
    }
    let mid = n / 2;
    Case { name: "windowed_wall", world, start: IVec3::new(n / 4, mid, mid), goal: IVec3::new(3 * n / 4, mid, mid) }
}

/// A solid `len` x 24 x 24 block with a corridor along x at the bottom (y 1..=2, z 1..=2) from
/// the start to the far end, where a shaft climbs to a corridor back along the top (y 20..=21)
/// to the goal above the start; every 4 voxels a blind branch rises from the bottom corridor
/// toward the goal and ends 3 voxels under the top one. The estimate pulls every search into
/// every branch.
pub fn dead_ends(len: i32) -> Case {
    let dims = UVec3::new(len as u32, 24, 24);
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
    world.fill_voxels(IVec3::ZERO, dims.as_ivec3() - 1, Voxel::Solid).unwrap();
    let air = |w: &mut VoxelWorld, a: IVec3, b: IVec3| w.fill_voxels(a, b, Voxel::Air).unwrap();
    air(&mut world, IVec3::new(1, 1, 1), IVec3::new(len - 2, 2, 2));
    air(&mut world, IVec3::new(len - 3, 1, 1), IVec3::new(len - 2, 21, 2));
    air(&mut world, IVec3::new(1, 20, 1), IVec3::new(len - 2, 21, 2));
    for x in (4..len - 6).step_by(4) {
        air(&mut world, IVec3::new(x, 3, 1), IVec3::new(x + 1, 16, 2));
    }
    Case { name: "dead_ends", world, start: IVec3::new(2, 1, 1), goal: IVec3::new(2, 20, 1) }
}

/// An `n`^3 world, mostly empty, with a closed box room (walls 1 voxel thick) around the goal.
pub fn sealed_room(n: i32) -> Case {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(n as u32)).unwrap();
    let (lo, hi) = (IVec3::splat(3 * n / 4 - 4), IVec3::splat(3 * n / 4 + 4));
    world.fill_voxels(lo, hi, Voxel::Solid).unwrap();
    world.fill_voxels(lo + 1, hi - 1, Voxel::Air).unwrap();
    Case { name: "sealed_room", world, start: IVec3::splat(n / 4), goal: IVec3::splat(3 * n / 4) }
}
