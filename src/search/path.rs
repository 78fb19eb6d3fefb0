//! What a successful search returns.

use glam::{IVec3, Vec3};

use crate::error::PathError;

/// Counters of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SearchStats {
    /// Nodes taken from the open list and expanded.
    pub expanded: usize,
    /// Nodes put on the open list (including improvements of a node already on it).
    pub generated: usize,
    /// Largest size the open list reached.
    pub peak_open: usize,
    /// The heuristic weight, in percent, of the search that found the path: its cost is at most
    /// `weight / 100` times the optimum. 100 for the exact searches; for
    /// [`Algorithm::Budget`](crate::Algorithm::Budget), the weight its schedule ended on.
    /// (0 while no path was found.)
    pub weight: u32,
}

/// A path from start to goal through a [`VoxelWorld`](crate::VoxelWorld).
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// Voxels from start to goal, inclusive; each step is one legal move.
    pub voxels: Vec<IVec3>,
    /// The centres of [`voxels`](Self::voxels), in world units.
    pub points: Vec<Vec3>,
    /// Total cost in cost units of the query's [`CostModel`](crate::CostModel), media weights
    /// included.
    pub cost: u64,
    /// Euclidean length of the polyline through the voxel centres, in world units.
    pub length: f64,
    /// What the search did.
    pub stats: SearchStats,
}

/// Euclidean length, in voxels, of a path of voxel steps (each of 1, 2 or 3 axes).
pub(crate) fn voxel_length(voxels: &[IVec3]) -> f64 {
    const LEN: [f64; 4] = [0.0, 1.0, std::f64::consts::SQRT_2, 1.732_050_807_568_877_2];
    voxels
        .windows(2)
        .map(|w| {
            let d = (w[1] - w[0]).abs();
            LEN[(d.x + d.y + d.z) as usize & 3]
        })
        // An empty sum is -0.0; a path of one voxel has length +0.
        .fold(0.0, |a, b| a + b)
}

impl Path {
    /// The same path walked the other way (for a search run from the goal back to the start).
    pub(crate) fn reversed(mut self, world: &crate::VoxelWorld) -> Self {
        self.voxels.reverse();
        self.points.reverse();
        self.length = voxel_length(&self.voxels) * f64::from(world.voxel_size());
        self
    }

    /// The path that ends at `goal`, retraced backwards: `came_by(v)` is the move (an index
    /// into the move offsets) by which the search reached `v`, or `None` at the start.
    pub(crate) fn retrace(
        world: &crate::VoxelWorld,
        goal: IVec3,
        cost: u64,
        stats: SearchStats,
        mut came_by: impl FnMut(IVec3) -> Option<usize>,
    ) -> Self {
        let mut voxels = vec![goal];
        let mut v = goal;
        while let Some(m) = came_by(v) {
            v -= crate::grid::moves::OFFSETS[m];
            voxels.push(v);
        }
        voxels.reverse();
        let points = voxels.iter().map(|&v| world.voxel_center(v)).collect();
        let length = voxel_length(&voxels) * f64::from(world.voxel_size());
        Self { voxels, points, cost, length, stats }
    }
}

/// Where a search stands after [`Pathfinder::advance`](crate::Pathfinder::advance).
#[derive(Debug, Clone, PartialEq)]
pub enum SearchStep {
    /// Not finished: call [`Pathfinder::advance`](crate::Pathfinder::advance) again.
    Pending,
    /// The goal was reached.
    Found(Path),
    /// No path (see the error).
    Failed(PathError),
}
