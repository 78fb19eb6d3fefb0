//! What a query asks for: move costs, heuristic, diagonal rule, media and budget.

use crate::error::PathError;
pub use crate::grid::moves::DiagonalRule;
use crate::medium::Media;
pub use crate::search::costs::CostModel;
use crate::search::heuristic::Heuristic;

/// Which search a query runs (docs/search.md has what each costs on the Warframe benchmark).
/// The default, [`Algorithm::Jps`], is exact and the fastest; [`Algorithm::BUDGET`] bounds a
/// query's time for a game's frame.
///
/// Every algorithm but [`Algorithm::AStar`] (the plain reference) answers an open-air query
/// without a search: where nothing blocks the straight line between the ends, the query first
/// walks the octile path between them (diagonal moves first, then edge, then face moves). If
/// every step is legal (and, with [`Media`] weights above 100, enters only
/// voxels of weight 100) that path is the answer: it costs the octile distance, the least any
/// path can, so it is optimal
/// ([`SearchStats::weight`](crate::SearchStats::weight) 100), with
/// [`SearchStats::expanded`](crate::SearchStats::expanded) 0 and its steps in
/// [`SearchStats::swept`](crate::SearchStats::swept). Otherwise the search runs.
///
/// # Examples
/// ```
/// use glam::IVec3;
/// use voxnav::{Algorithm, PathRequest, Pathfinder, SearchConfig, Voxel, VoxelWorld};
/// let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(24, 8, 24)).unwrap();
/// world.fill_voxels(IVec3::new(12, 0, 0), IVec3::new(12, 7, 20), Voxel::Solid).unwrap();
/// let mut finder = Pathfinder::new();
/// let (s, g) = (IVec3::new(2, 3, 2), IVec3::new(20, 3, 3));
/// let jps = finder.find(&world, None, &PathRequest::new(s, g, SearchConfig::default())).unwrap();
/// let astar = SearchConfig { algorithm: Algorithm::AStar, ..Default::default() };
/// let astar = finder.find(&world, None, &PathRequest::new(s, g, astar)).unwrap();
/// assert_eq!(jps.cost, astar.cost); // exact
/// let budget = SearchConfig { algorithm: Algorithm::BUDGET, ..Default::default() };
/// let fast = finder.find(&world, None, &PathRequest::new(s, g, budget)).unwrap();
/// assert!(fast.cost as f64 <= fast.stats.weight as f64 / 100.0 * astar.cost as f64); // its own bound
/// assert_eq!(fast.stats.weight, 100); // a small query: its exact prelude answered it
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Algorithm {
    /// A* over all 26 moves. Optimal with an admissible heuristic.
    AStar,
    /// 3D jump point search, the default: the same optimal cost as A*. Only "jump points" (voxels where an
    /// obstacle breaks the symmetry of equally short paths) enter the open list; the space in
    /// between is swept along canonical lines, each voxel recorded once per cost improvement.
    /// The returned voxel path has one legal move per step.
    ///
    /// A query first runs A* that tries only the moves jump point search would (its canonical
    /// successors, no jumps), for up to 2,000 expansions: this *prelude* answers most small
    /// queries without the jump search's set-up. If it has not ended, two jump point searches
    /// race, one from each end, taking turns of 4,096 units of work (an expansion or a voxel
    /// swept), and the first path found is returned: A* is slow when the obstacle that fools
    /// its estimate lies near the goal, and from the other end that obstacle comes first. Where
    /// an obstacle on the straight line lies clearly nearer one end, the search from that end
    /// goes first (in the prelude, alone); otherwise the prelude also runs from both ends, in
    /// turns of 32 expansions, and the search from the goal goes first. The side whose level of
    /// `f` is higher takes the next turn, and a side that has done 16 times the other's work
    /// yields. [`SearchStats::expanded`] (and
    /// [`SearchConfig::max_expansions`]) count every search of the query, and a race may hold
    /// up to twice the memory of one search (docs/search.md has its measurements). The race
    /// needs moves that are the same both ways: under [`DiagonalRule::Faces`], with media
    /// weights above 100 in a world that has water, or with [`Heuristic::Manhattan`], only the
    /// search from the start runs. Its first query in a process also builds shared tables.
    ///
    /// It needs uniform move costs and a cost model without ties ([`CostModel::jump_exact`]).
    /// With media weights above 100 in a world that has water it cannot jump, and runs exact A*
    /// that tries from each voxel only the moves jump point search would (its pruning rule),
    /// where every free voxel around it has one price, and every move by the water's edge; with
    /// tied costs, plain exact A*.
    ///
    /// Within a tight [`Limits::max_search_bytes`](crate::Limits::max_search_bytes), it answers
    /// every query that [`Algorithm::AStar`] answers. Jump point search keeps room for its
    /// largest expansion, a sweep of up to 4,096 voxels into new pages (about 2.3 MB, within
    /// half the limit for each side of a race, and a prelude from both ends shares it too).
    /// Where a query runs out of that room, plain A* searches again from scratch within the
    /// whole limit, and the query answers as `Algorithm::AStar` does: the same path, statistics
    /// and errors.
    ///
    /// [`SearchStats::expanded`]: crate::SearchStats::expanded
    /// [`Heuristic::Manhattan`]: crate::Heuristic::Manhattan
    #[default]
    Jps,
    /// Weighted A* for a frame budget: the open list is ordered by `g + h * percent / 100`, so
    /// the path costs at most `percent / 100` times the optimum (with an admissible heuristic),
    /// and the search dives toward the goal instead of proving optimality. `percent` below 100
    /// counts as 100 (exact). [`Algorithm::BUDGET`] is the recommended setting. (Jumping is not
    /// used here: weighted jump point search was slower at the same weight.)
    Weighted {
        /// The weight on the heuristic, in percent (105 = 1.05: at most 5 % longer than optimal).
        percent: u32,
    },
    /// The frame-budget mode: weighted A* with weight `percent`, and whenever a phase has
    /// expanded `phase_expansions` nodes without reaching the goal, a restart with the excess
    /// over 1 doubled (1.15, 1.3, 1.6, 2.2, 3.4, 5.8, then 10 with no cap). Easy problems get
    /// the tight bound; the rare hard one trades length for time instead of blowing the frame.
    /// Each path reports its guarantee in [`SearchStats::weight`](crate::SearchStats::weight):
    /// the weight it was found with, at most 10.
    ///
    /// Where [`Algorithm::Jps`] could jump (costs without ties, no media weights above 100 in a
    /// world with water), the query first runs its exact *prelude*: up to 2,000 expansions of
    /// A* with canonical successors, from both ends where it can. Most small queries end there,
    /// optimal (weight 100), at the prelude's lower cost per expansion; a goal walled in a pocket
    /// smaller than that fails `Unreachable` there, its search from the goal run dry. Otherwise
    /// the weighted phases follow, from scratch.
    ///
    /// A query still searching 4,096 expansions in (the prelude's and its first phase's) is
    /// *sized up* on a coarse
    /// graph of the world (the free voxels of each 8^3 block cut into connected pieces, linked
    /// where a move joins them; built as queries need it and kept by the
    /// [`Pathfinder`](crate::Pathfinder) for the same world, unedited). If the way round
    /// through that graph is at least twice the straight-line estimate (a wall between the
    /// ends, its openings far from the line), the phases start again following the graph's
    /// estimate, which is not a lower bound: such a path reports as its weight its cost over a
    /// lower bound of the optimum that the first phase proved (if that is above 10, the
    /// search goes on without the graph, at weight 10). If the graph shows no way at all
    /// under [`DiagonalRule::Strict`], the query fails
    /// [`PathError::Unreachable`] there. If it cannot tell,
    /// after the first phase (unless the diagonal rule is [`DiagonalRule::Faces`], where a
    /// move may be one-way, or the fallback is [`Fallback::Closest`]) a flood of at most
    /// `phase_expansions` voxels from the goal looks for the start: a goal walled in a smaller
    /// pocket fails `Unreachable` there. The flood's voxels count as expansions; the coarse
    /// graph's work does not.
    Budget {
        /// The first phase's weight, in percent (at least 100).
        percent: u32,
        /// Expansions a phase may spend before the weight goes up (at least 1).
        phase_expansions: u32,
    },
}

impl Algorithm {
    /// The recommended setting for a per-frame budget: [`Algorithm::Budget`] starting at weight
    /// 1.10 with phases of 30,000 expansions (docs/search.md has its measured time and excess on
    /// the Warframe benchmark).
    pub const BUDGET: Algorithm = Algorithm::Budget { percent: 110, phase_expansions: 30_000 };

    /// The last weight (percent) of [`Algorithm::Budget`]'s schedule: its guaranteed bound.
    pub(crate) const LAST_BUDGET_WEIGHT: u32 = 1000;

    /// The weight after `percent` in [`Algorithm::Budget`]'s schedule (the excess doubled), and
    /// whether that phase is the last, uncapped one.
    #[must_use]
    pub(crate) fn next_budget_weight(percent: u32) -> (u32, bool) {
        let next = (100 + 2 * (percent.max(101) - 100)).min(Self::LAST_BUDGET_WEIGHT);
        (next, next >= Self::LAST_BUDGET_WEIGHT)
    }

    /// The guaranteed bound on `cost / optimal cost` for an admissible heuristic: 1 for the
    /// exact searches, the weight for [`Algorithm::Weighted`], and the last weight of the
    /// schedule (10) for [`Algorithm::Budget`], whose paths report their own, usually far
    /// tighter, bound in [`SearchStats::weight`](crate::SearchStats::weight).
    ///
    /// # Examples
    /// ```
    /// use voxnav::Algorithm;
    /// assert_eq!(Algorithm::Jps.suboptimality_bound(), 1.0);
    /// assert_eq!(Algorithm::Weighted { percent: 110 }.suboptimality_bound(), 1.1);
    /// ```
    #[must_use]
    pub fn suboptimality_bound(&self) -> f64 {
        match *self {
            Algorithm::AStar | Algorithm::Jps => 1.0,
            Algorithm::Weighted { percent } => f64::from(percent.max(100)) / 100.0,
            Algorithm::Budget { .. } => 10.0,
        }
    }
}

/// What a query returns when the goal cannot be reached from the start.
///
/// # Examples
/// ```
/// use glam::IVec3;
/// use voxnav::{Fallback, PathRequest, Pathfinder, SearchConfig, Voxel, VoxelWorld};
/// let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::splat(12)).unwrap();
/// world.fill_voxels(IVec3::new(8, 0, 0), IVec3::new(8, 11, 11), Voxel::Solid).unwrap(); // a sealing wall
/// let mut finder = Pathfinder::new();
/// let (s, g) = (IVec3::new(2, 5, 5), IVec3::new(10, 5, 5));
/// assert!(finder.find(&world, None, &PathRequest::new(s, g, SearchConfig::default())).is_err());
/// let config = SearchConfig { fallback: Fallback::Closest, ..Default::default() };
/// let path = finder.find(&world, None, &PathRequest::new(s, g, config)).unwrap();
/// assert_eq!(path.voxels.last(), Some(&IVec3::new(7, 5, 5))); // as close as it gets
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Fallback {
    /// Fail with [`PathError::Unreachable`]. The default.
    #[default]
    Fail,
    /// Return a path to the reachable voxel closest to the goal instead: the one with the
    /// smallest [`Heuristic::Octile`] distance to the goal, ties broken by the lowest
    /// `(z, y, x)`. The path's last voxel is then not the goal. Finding that voxel explores the
    /// start's whole component (at once with [`Components`](crate::Components)).
    Closest,
}

/// Everything a query needs besides its endpoints.
///
/// # Examples
/// ```
/// use voxnav::{CostModel, Heuristic, SearchConfig};
/// let config = SearchConfig { costs: CostModel::PRECISE, max_expansions: Some(100_000), ..Default::default() };
/// assert_eq!(config.heuristic, Heuristic::Octile);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SearchConfig {
    /// Move costs (default [`CostModel::GAME`]).
    pub costs: CostModel,
    /// Heuristic (default [`Heuristic::Octile`], admissible: optimal paths).
    pub heuristic: Heuristic,
    /// Diagonal rule (default [`DiagonalRule::Strict`]).
    pub diagonal: DiagonalRule,
    /// Media the agent may move through, and their prices (default [`Media::ANY`]).
    pub media: Media,
    /// Give up with [`PathError::BudgetExhausted`] after this many expansions (default: none).
    pub max_expansions: Option<usize>,
    /// Which search runs (default [`Algorithm::Jps`]).
    pub algorithm: Algorithm,
    /// What an unreachable goal returns (default [`Fallback::Fail`]).
    pub fallback: Fallback,
    /// The agent's clearance radius in voxels (default 0): it may occupy a voxel only when
    /// every voxel within this Chebyshev distance is inside the world and not solid (air and
    /// water both count as free there), so its paths keep that far from walls. At most
    /// [`Self::MAX_CLEARANCE`]; [`Agent::clearance_in`](crate::Agent::clearance_in) gives it
    /// for an agent's size. Nothing is built per radius: one world serves every size.
    pub clearance: u8,
}

impl SearchConfig {
    /// The default configuration with the media of `agent`.
    #[must_use]
    pub fn for_agent(agent: &crate::Agent) -> Self {
        Self { media: agent.media(), ..Self::default() }
    }

    /// Largest accepted [`clearance`](Self::clearance) radius (voxels).
    pub const MAX_CLEARANCE: u8 = crate::grid::clearance::MAX_CLEARANCE;

    /// How a search of this configuration sees voxels.
    pub(crate) fn pass(&self) -> crate::grid::pass::Pass {
        crate::grid::pass::Pass::new(&self.media).with_radius(self.clearance)
    }

    /// Largest accepted weight percent of [`Algorithm::Weighted`] and [`Algorithm::Budget`]
    /// (10: the budget schedule's last weight).
    pub const MAX_PERCENT: u32 = 1000;

    /// Checks the parts of the configuration that do not depend on the world: the cost model
    /// ([`CostModel::validate`]), media prices (at most [`Media::MAX_WEIGHT`]), weight percents
    /// (at most [`Self::MAX_PERCENT`]) and budget phases (at least one expansion). Every query
    /// runs it, so a bad configuration is an error, the same in debug and release builds.
    ///
    /// # Errors
    /// [`PathError::InvalidCosts`] or [`PathError::InvalidConfig`] naming what is wrong.
    ///
    /// # Examples
    /// ```
    /// use voxnav::{Algorithm, Media, SearchConfig};
    /// assert!(SearchConfig::default().validate().is_ok());
    /// let pricey = SearchConfig { media: Media { air: Some(100), water: Some(u32::MAX) }, ..Default::default() };
    /// assert!(pricey.validate().is_err());
    /// let heavy = SearchConfig { algorithm: Algorithm::Weighted { percent: 5000 }, ..Default::default() };
    /// assert!(heavy.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), PathError> {
        self.costs.validate()?;
        if self.clearance > Self::MAX_CLEARANCE {
            return Err(PathError::InvalidConfig("the clearance radius must be at most SearchConfig::MAX_CLEARANCE"));
        }
        if [self.media.air, self.media.water].iter().flatten().any(|&w| w > Media::MAX_WEIGHT) {
            return Err(PathError::InvalidConfig("a medium's weight must be at most Media::MAX_WEIGHT"));
        }
        match self.algorithm {
            Algorithm::Weighted { percent } | Algorithm::Budget { percent, .. } if percent > Self::MAX_PERCENT => {
                Err(PathError::InvalidConfig("a weight percent must be at most SearchConfig::MAX_PERCENT"))
            }
            Algorithm::Budget { phase_expansions: 0, .. } => {
                Err(PathError::InvalidConfig("a budget phase needs at least one expansion"))
            }
            _ => Ok(()),
        }
    }

    /// Checks that no cost in `world` can overflow: the dearest move, times the world's voxel
    /// count (the longest possible path), times the largest weight on the heuristic, must stay
    /// below 2^63.
    pub(crate) fn check_costs_fit(&self, world: &crate::VoxelWorld) -> Result<(), PathError> {
        let weight = [self.media.air, self.media.water].iter().flatten().map(|&w| w.max(100)).max().unwrap_or(100);
        let dearest = u128::from(self.costs.corner) * u128::from(weight) / 100 + 1;
        let d = world.dims().as_u64vec3();
        let voxels = u128::from(d.x) * u128::from(d.y) * u128::from(d.z);
        let heuristic_weight = u128::from(Self::MAX_PERCENT / 100 + 1);
        if dearest * (voxels + 1) * heuristic_weight >= 1 << 63 {
            return Err(PathError::InvalidConfig("move costs and media weights too large for this world's size"));
        }
        Ok(())
    }

    /// Whether moves in `world` cost more by the medium they enter: air priced above 100, or
    /// water priced above 100 in a world with water (a price only counts where a move can enter
    /// that medium, so the cost of a path never depends on water elsewhere).
    pub(crate) fn priced_media(&self, world: &crate::VoxelWorld) -> bool {
        self.media.air.is_some_and(|w| w > 100) || (self.media.water.is_some_and(|w| w > 100) && world.has_water())
    }

    /// The cost of a move of base cost `base` into voxel `to`, priced by its medium (for
    /// searches where [`priced_media`](Self::priced_media) holds).
    #[inline]
    pub(crate) fn entry_cost(&self, world: &crate::VoxelWorld, to: glam::IVec3, base: u64) -> u64 {
        base * u64::from(self.media.weight(world.get(to)).unwrap_or(100)) / 100
    }
}
