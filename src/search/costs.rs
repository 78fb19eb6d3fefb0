//! [`CostModel`]: the integer price of a move by the number of axes it changes.

use crate::error::PathError;

/// Integer cost of a move by the number of axes it changes. Costs are in *cost units*; a face
/// move (one voxel) costs [`face`](Self::face) units.
///
/// - [`CostModel::GAME`] (10 / 14 / 17, the default): small integers, paths within about 1 % of
///   the Euclidean optimum.
/// - [`CostModel::PRECISE`] (1e9 x 1 / 1.414213562 / 1.732050808): the constants of the Moving AI
///   3D benchmark scaled to integers, so costs, and the optimal paths, reproduce true Euclidean
///   voxel lengths to 1e-9 per move.
///
/// # Examples
/// ```
/// use voxnav::CostModel;
/// assert_eq!(CostModel::default(), CostModel::GAME);
/// assert!(CostModel::PRECISE.validate().is_ok());
/// assert!(CostModel { face: 10, edge: 30, corner: 40 }.validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CostModel {
    /// Cost of a move along one axis.
    pub face: u64,
    /// Cost of a move along two axes.
    pub edge: u64,
    /// Cost of a move along three axes.
    pub corner: u64,
}

impl CostModel {
    /// 10 / 14 / 17: the classic game costs. The default.
    pub const GAME: CostModel = CostModel { face: 10, edge: 14, corner: 17 };
    /// 1_000_000_000 / 1_414_213_562 / 1_732_050_808: exact benchmark lengths times 1e9.
    pub const PRECISE: CostModel = CostModel { face: 1_000_000_000, edge: 1_414_213_562, corner: 1_732_050_808 };

    /// Checks that the costs make a metric the octile heuristic is exact for:
    /// `0 < face <= edge <= corner`, `edge <= 2 face`, `corner <= face + edge`,
    /// `corner + face <= 2 edge`, and `corner < 2^40` (room for any path in any world).
    ///
    /// # Errors
    /// [`PathError::InvalidCosts`] naming the broken condition.
    pub fn validate(&self) -> Result<(), PathError> {
        let Self { face, edge, corner } = *self;
        let fail = |why| Err(PathError::InvalidCosts(why));
        if face == 0 || face > edge || edge > corner {
            return fail("need 0 < face <= edge <= corner");
        }
        if corner >= 1 << 40 {
            return fail("corner cost must be below 2^40");
        }
        if edge > 2 * face || corner > face + edge {
            return fail("a diagonal must not cost more than the moves it replaces");
        }
        if corner + face > 2 * edge {
            return fail("need corner + face <= 2 edge");
        }
        Ok(())
    }

    /// Whether jump point search is exact under these costs: every inequality of
    /// [`validate`](Self::validate) strict (`face < edge < corner`, `edge < 2 face`,
    /// `corner < face + edge`, `corner + face < 2 edge`). Where two move sequences tie, the
    /// canonical order that jump point search prunes by no longer holds, so
    /// [`Algorithm::Jps`](crate::Algorithm::Jps) runs exact A* instead under such costs. [`CostModel::GAME`] and
    /// [`CostModel::PRECISE`] are strict.
    #[must_use]
    pub fn jump_exact(&self) -> bool {
        let Self { face, edge, corner } = *self;
        face < edge && edge < corner && edge < 2 * face && corner < face + edge && corner + face < 2 * edge
    }

    /// Cost of a move changing `axes` axes (1, 2 or 3).
    #[must_use]
    #[inline]
    pub fn cost(&self, axes: usize) -> u64 {
        match axes {
            1 => self.face,
            2 => self.edge,
            _ => self.corner,
        }
    }
}

impl Default for CostModel {
    fn default() -> Self {
        CostModel::GAME
    }
}
