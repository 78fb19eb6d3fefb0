//! String pulling: the voxels of a path a straight swept box can skip are dropped.

use glam::IVec3;

use crate::grid::pass::Pass;
use crate::grid::world::VoxelWorld;
use crate::smooth::error::SmoothError;
use crate::smooth::sweep::clear_for;

/// Checks a voxel path and returns its length in voxels.
pub(crate) fn validate(world: &VoxelWorld, voxels: &[IVec3], pass: Pass) -> Result<f64, SmoothError> {
    if voxels.is_empty() {
        return Err(SmoothError::EmptyPath);
    }
    for (index, &voxel) in voxels.iter().enumerate() {
        if !world.passable(voxel, pass) {
            return Err(SmoothError::Blocked { index, voxel });
        }
    }
    let mut length = 0.0;
    for (index, w) in voxels.windows(2).enumerate() {
        let (from, to) = (w[0], w[1]);
        let d = (to - from).abs();
        if d.max_element() != 1 {
            return Err(SmoothError::NotAMove { index, from, to });
        }
        if !clear_for(world, from, to, pass) {
            return Err(SmoothError::StepClips { index, from, to });
        }
        length += f64::from(d.x + d.y + d.z).sqrt();
    }
    Ok(length)
}

/// String pulling: keeps the first voxel, then each voxel after which the swept box from the
/// last kept one would no longer be clear, then the last voxel; then drops any kept voxel whose
/// neighbours see each other.
pub(crate) fn string_pull(world: &VoxelWorld, voxels: &[IVec3], pass: Pass) -> Vec<IVec3> {
    let n = voxels.len();
    if n <= 2 {
        return voxels.to_vec();
    }
    let mut out = vec![voxels[0]];
    let mut anchor = voxels[0];
    for j in 2..n {
        if !clear_for(world, anchor, voxels[j], pass) {
            anchor = voxels[j - 1];
            out.push(anchor);
        }
    }
    out.push(voxels[n - 1]);
    let mut i = 1;
    while i + 1 < out.len() {
        if clear_for(world, out[i - 1], out[i + 1], pass) {
            out.remove(i);
        } else {
            i += 1;
        }
    }
    out
}
