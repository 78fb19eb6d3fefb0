//! Media: what fills a free voxel (air or water), and which of them an agent may enter.

/// The state of one voxel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Voxel {
    /// Free, filled with air. The state of every voxel of a new world.
    #[default]
    Air,
    /// Free, filled with water.
    Water,
    /// Blocked: no agent may enter it. Everything outside the world's bounds counts as solid.
    Solid,
}

impl Voxel {
    /// `true` for [`Voxel::Solid`].
    #[must_use]
    #[inline]
    pub fn is_solid(self) -> bool {
        self == Voxel::Solid
    }
}

/// Which media a query may move through, and at what price.
///
/// Each field is `None` when the medium is forbidden, or `Some(weight)` with the weight in
/// percent of the normal move cost: a move costs `base * weight / 100` (integer division), where
/// `base` is the [`CostModel`](crate::CostModel) cost and the weight is the one of the voxel the
/// move *enters*. Weights below 100 are raised to 100 so the heuristics stay admissible.
///
/// A move is legal only when every voxel the [`DiagonalRule`](crate::DiagonalRule) checks is of
/// an allowed medium: a fish (`Media::WATER`) never pokes through the surface and a drone
/// (`Media::AIR`) never dips into the water, even on a diagonal.
///
/// # Examples
/// ```
/// use voxnav::Media;
/// // A gull: flies freely, may skim or swim at three times the cost.
/// let gull = Media { air: Some(100), water: Some(300) };
/// assert!(gull.allows(voxnav::Voxel::Water));
/// assert!(!Media::AIR.allows(voxnav::Voxel::Water));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Media {
    /// Weight (percent) of moves into air, or `None` if air is forbidden.
    pub air: Option<u32>,
    /// Weight (percent) of moves into water, or `None` if water is forbidden.
    pub water: Option<u32>,
}

impl Media {
    /// Air and water, both at normal cost. The default.
    pub const ANY: Media = Media { air: Some(100), water: Some(100) };
    /// Air only: flying agents that must stay dry.
    pub const AIR: Media = Media { air: Some(100), water: None };
    /// Water only: fish.
    pub const WATER: Media = Media { air: None, water: Some(100) };
    /// Largest weight a query accepts (10,000 percent: a move 100 times dearer);
    /// [`SearchConfig::validate`](crate::SearchConfig::validate) refuses more.
    pub const MAX_WEIGHT: u32 = 10_000;

    /// Whether an agent with these media may occupy `voxel`.
    #[must_use]
    #[inline]
    pub fn allows(&self, voxel: Voxel) -> bool {
        match voxel {
            Voxel::Air => self.air.is_some(),
            Voxel::Water => self.water.is_some(),
            Voxel::Solid => false,
        }
    }

    /// The weight (percent, at least 100) of entering `voxel`, or `None` if it is not allowed.
    #[must_use]
    #[inline]
    pub fn weight(&self, voxel: Voxel) -> Option<u32> {
        match voxel {
            Voxel::Air => self.air.map(|w| w.max(100)),
            Voxel::Water => self.water.map(|w| w.max(100)),
            Voxel::Solid => None,
        }
    }
}

impl Default for Media {
    fn default() -> Self {
        Media::ANY
    }
}
