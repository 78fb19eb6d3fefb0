//! Distance estimates that guide the searches.

use glam::IVec3;

use crate::search::config::CostModel;

/// The estimate of the remaining cost from a voxel to the goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Heuristic {
    /// 3D octile distance: with `a >= b >= c` the sorted `|d|`,
    /// `corner * c + edge * (b - c) + face * (a - b)`. Exactly the cost of the shortest path in
    /// empty space, so admissible and consistent: paths are optimal. The default.
    #[default]
    Octile,
    /// 3D Manhattan distance `face * (|dx| + |dy| + |dz|)`, the heuristic of the original
    /// design. It overestimates whenever diagonals help, so it expands fewer nodes but may
    /// return longer paths (see the README for the measured difference).
    Manhattan,
    /// Zero: Dijkstra's algorithm. Optimal, and slow.
    Zero,
}

impl Heuristic {
    /// The estimate for a displacement `d` (voxels) under `costs`.
    ///
    /// # Examples
    /// ```
    /// use glam::IVec3;
    /// use voxnav::{CostModel, Heuristic};
    /// let d = IVec3::new(3, -1, 2);
    /// assert_eq!(Heuristic::Octile.estimate(d, &CostModel::GAME), 17 + 14 + 10);
    /// assert_eq!(Heuristic::Manhattan.estimate(d, &CostModel::GAME), 60);
    /// ```
    #[must_use]
    #[inline]
    pub fn estimate(self, d: IVec3, costs: &CostModel) -> u64 {
        let d = d.abs().as_u64vec3();
        match self {
            Heuristic::Octile => {
                let a = d.max_element();
                let c = d.min_element();
                let b = d.x + d.y + d.z - a - c;
                costs.corner * c + costs.edge * (b - c) + costs.face * (a - b)
            }
            Heuristic::Manhattan => costs.face * (d.x + d.y + d.z),
            Heuristic::Zero => 0,
        }
    }
}
