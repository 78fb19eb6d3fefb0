//! Seeded random worlds for the crate's unit tests (the integration tests have their own, on
//! `rand`): a small linear congruential generator, so a failing case replays exactly.

use glam::{IVec3, UVec3, Vec3};

use crate::{Voxel, VoxelWorld};

/// A 64-bit linear congruential generator.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// A number below `n`.
    pub(crate) fn below(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32 % n
    }

    /// A voxel inside `dims`.
    pub(crate) fn voxel(&mut self, dims: UVec3) -> IVec3 {
        IVec3::new(self.below(dims.x) as i32, self.below(dims.y) as i32, self.below(dims.z) as i32)
    }

    /// A world of `dims` in which each voxel is solid with probability `density` percent.
    pub(crate) fn world(&mut self, dims: UVec3, density: u32) -> VoxelWorld {
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
        for z in 0..dims.z as i32 {
            for y in 0..dims.y as i32 {
                for x in 0..dims.x as i32 {
                    if self.below(100) < density {
                        world.set(IVec3::new(x, y, z), Voxel::Solid).unwrap();
                    }
                }
            }
        }
        world
    }

    /// A world of `dims` whose voxels are solid with probability `solid` sixteenths, water with
    /// `water` sixteenths and air otherwise, where `keep` accepts them (air elsewhere).
    pub(crate) fn media_world(
        &mut self,
        dims: UVec3,
        (solid, water): (u32, u32),
        keep: impl Fn(IVec3) -> bool,
    ) -> VoxelWorld {
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
        for z in 0..dims.z as i32 {
            for y in 0..dims.y as i32 {
                for x in 0..dims.x as i32 {
                    let r = self.below(16);
                    let voxel = if r < solid {
                        Voxel::Solid
                    } else if r < solid + water {
                        Voxel::Water
                    } else {
                        continue;
                    };
                    let v = IVec3::new(x, y, z);
                    if keep(v) {
                        world.set(v, voxel).unwrap();
                    }
                }
            }
        }
        world
    }
}
