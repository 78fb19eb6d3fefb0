//! A squad of agents spawning together, for the shared-goal field's example and bench.

use voxnav::VoxelWorld;
use voxnav::glam::IVec3;

/// The first `n` free voxels of the smallest cube around `at` that holds `n` (scanned in z, y,
/// x order); empty if no cube of radius below 64 does.
pub fn squad(world: &VoxelWorld, at: IVec3, n: usize) -> Vec<IVec3> {
    for r in 0..64 {
        let mut out = Vec::with_capacity(n);
        for z in -r..=r {
            for y in -r..=r {
                for x in -r..=r {
                    let v = at + IVec3::new(x, y, z);
                    if out.len() < n && world.contains(v) && !world.is_blocked(v) {
                        out.push(v);
                    }
                }
            }
        }
        if out.len() >= n {
            return out;
        }
    }
    Vec::new()
}
