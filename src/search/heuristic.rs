//! Distance estimates that guide the searches.

use glam::IVec3;

use crate::search::costs::CostModel;

/// The estimate of the remaining cost from a voxel to the goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Heuristic {
    /// 3D octile distance: with `a >= b >= c` the sorted `|d|`,
    /// `corner * c + edge * (b - c) + face * (a - b)`. Exactly the cost of the shortest path in
    /// empty space, so admissible and consistent: paths are optimal. The default.
    #[default]
    Octile,
    /// 3D Manhattan distance `face * (|dx| + |dy| + |dz|)`, the heuristic of the original
    /// design. It overestimates whenever diagonals help, so it expands fewer nodes but may
    /// return longer paths (docs/search.md has the measured difference).
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
    /// // The extreme displacement, computed without overflow:
    /// assert_eq!(Heuristic::Octile.estimate(glam::IVec3::MIN, &CostModel::PRECISE), 1_732_050_808 << 31);
    /// ```
    ///
    /// Saturates at `u64::MAX` instead of overflowing, for any `d` and costs.
    #[must_use]
    #[inline]
    pub fn estimate(self, d: IVec3, costs: &CostModel) -> u64 {
        let (sum, a, c) = sum_max_min(d);
        match self {
            Heuristic::Octile => {
                let b = sum - a - c;
                costs
                    .corner
                    .saturating_mul(c)
                    .saturating_add(costs.edge.saturating_mul(b - c))
                    .saturating_add(costs.face.saturating_mul(a - b))
            }
            Heuristic::Manhattan => costs.face.saturating_mul(sum),
            Heuristic::Zero => 0,
        }
    }

    /// [`estimate`](Self::estimate) between two voxels of one world (each axis of `d` within
    /// [`VoxelWorld::MAX_AXIS`](crate::VoxelWorld::MAX_AXIS), 2^20) under validated costs
    /// (below 2^40, [`CostModel::validate`]): no product or sum can pass 2^62, so it needs no
    /// saturating arithmetic. The searches' inner loops use it.
    #[inline]
    pub(crate) fn estimate_within(self, d: IVec3, costs: &CostModel) -> u64 {
        debug_assert!(d.abs().max_element() <= crate::VoxelWorld::MAX_AXIS as i32 && costs.corner < 1 << 40);
        let (sum, a, c) = sum_max_min(d);
        match self {
            Heuristic::Octile => {
                let b = sum - a - c;
                costs.corner * c + costs.edge * (b - c) + costs.face * (a - b)
            }
            Heuristic::Manhattan => costs.face * sum,
            Heuristic::Zero => 0,
        }
    }
}

/// The absolute values of `d`'s axes, widened: their sum, the largest and the smallest.
#[inline(always)]
fn sum_max_min(d: IVec3) -> (u64, u64, u64) {
    let d = [d.x.unsigned_abs(), d.y.unsigned_abs(), d.z.unsigned_abs()].map(u64::from);
    (d[0] + d[1] + d[2], d[0].max(d[1]).max(d[2]), d[0].min(d[1]).min(d[2]))
}
