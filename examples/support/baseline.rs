//! The peer we measure against: the `pathfinding` crate's `astar` on the same world, moves
//! (strict diagonal rule), costs and heuristic, with successors read through the public API
//! (`VoxelWorld::is_blocked`) and returned without heap allocation.

use glam::IVec3;
use voxnav::{CostModel, Heuristic, VoxelWorld};

/// The 26 moves with the offsets each one requires free (its bounding box, start excluded).
fn moves() -> Vec<(IVec3, u64, Vec<IVec3>, usize)> {
    let mut out = Vec::new();
    for dz in -1..=1 {
        for dy in -1..=1 {
            for dx in -1..=1 {
                let d = IVec3::new(dx, dy, dz);
                if d == IVec3::ZERO {
                    continue;
                }
                let mut need = Vec::new();
                for k in 1..8 {
                    let o = IVec3::new(dx * (k & 1), dy * ((k >> 1) & 1), dz * ((k >> 2) & 1));
                    if o != IVec3::ZERO && !need.contains(&o) {
                        need.push(o);
                    }
                }
                let axes = (dx != 0) as usize + (dy != 0) as usize + (dz != 0) as usize;
                out.push((d, 0, need, axes));
            }
        }
    }
    out
}

/// Solves `start -> goal` with `pathfinding::prelude::astar`; returns the path cost.
pub fn pathfinding_astar(
    world: &VoxelWorld,
    start: IVec3,
    goal: IVec3,
    costs: CostModel,
    heuristic: Heuristic,
) -> Option<u64> {
    let table: Vec<(IVec3, u64, Vec<IVec3>)> =
        moves().into_iter().map(|(d, _, need, axes)| (d, costs.cost(axes), need)).collect();
    let successors = |v: &IVec3| {
        let v = *v;
        let mut out = [(IVec3::ZERO, 0u64); 26];
        let mut n = 0;
        for (d, cost, need) in &table {
            if need.iter().all(|&o| !world.is_blocked(v + o)) {
                out[n] = (v + *d, *cost);
                n += 1;
            }
        }
        out.into_iter().take(n)
    };
    pathfinding::prelude::astar(&start, successors, |v| heuristic.estimate(goal - *v, &costs), |v| *v == goal)
        .map(|(_, cost)| cost)
}
